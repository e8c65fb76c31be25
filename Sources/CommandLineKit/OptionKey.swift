/// A declared option with the type of its value: `arguments[ViewOptions.days]` is an
/// `Int?`, `arguments[AgendaCommand.json]` a `Bool`. Reading by key rather than by name
/// makes a misspelt option a compile error instead of a silent nil.
public struct OptionKey<Value>: OptionDeclaring {
    /// The declaration (name, help, completion, validation).
    public let option: Option
    /// Turns the values given (in order; "" for each use of a flag) into the value.
    let read: @Sendable ([String]) -> Value

    init(_ option: Option, read: @escaping @Sendable ([String]) -> Value) {
        self.option = option
        self.read = read
    }
}

extension Option {
    /// A flag (`--json`): true when given.
    public static func flag(_ name: String, short: String? = nil, help: String, details: String? = nil,
                            inherited: Bool = false) -> OptionKey<Bool> {
        OptionKey(Option(name, short: short, help: help, details: details, inherited: inherited)) { !$0.isEmpty }
    }

    /// An option with a value (`--days N`), read as `type` (`Int`, `Double`, `String`):
    /// the last one given, or nil. Validation has checked it converts.
    public static func value<T: LosslessStringConvertible>(
        _ name: String, _ placeholder: String, as type: T.Type = String.self, help: String, details: String? = nil,
        completion: Completion = .none, validation: Validation = .any, required: Bool = false, inherited: Bool = false
    ) -> OptionKey<T?> {
        let option = Option(name, value: placeholder, help: help, details: details, completion: completion,
                            validation: validation, required: required, inherited: inherited)
        return OptionKey(option) { $0.last.flatMap { T($0) } }
    }

    /// A repeatable option with a value (`--calendar NAME`...): every one given, in order.
    public static func values<T: LosslessStringConvertible>(
        _ name: String, _ placeholder: String, as type: T.Type = String.self, help: String, details: String? = nil,
        completion: Completion = .none, validation: Validation = .any
    ) -> OptionKey<[T]> {
        let option = Option(name, value: placeholder, help: help, details: details, completion: completion,
                            validation: validation, repeatable: true)
        return OptionKey(option) { $0.compactMap { T($0) } }
    }
}
