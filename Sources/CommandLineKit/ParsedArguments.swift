/// What `CommandSpec.parse` found: option values, and positionals. Every value has
/// passed its option's validation. Options are read by their typed keys
/// (`arguments[ViewOptions.days]`), never by name.
public struct ParsedArguments: Sendable, Equatable {
    /// The positional arguments, in order.
    public var positionals: [String] = []
    /// The values given for each option (long name), in order; a flag's value is "".
    var values: [String: [String]] = [:]

    /// An empty result (no options, no positionals).
    public init() {}

    /// The option's value, of the key's type.
    public subscript<Value>(key: OptionKey<Value>) -> Value { key.read(values[key.option.name] ?? []) }

    /// Whether the option was given at all.
    public func has(_ declaration: some OptionDeclaring) -> Bool { values[declaration.option.name] != nil }
}
