import Diagnostics
import Foundation

/// One command-line option, declared once: parsing, `--help`, the completion scripts
/// and the man pages are all generated from it. Commands declare their options as
/// typed keys (`Option.flag`, `Option.value`, `Option.values`) and read them with
/// `arguments[key]`; this struct is what the generators see.
public struct Option: Sendable {
    /// How a value is checked while parsing (a failure is a usage error).
    public enum Validation: Sendable {
        /// Any text.
        case any
        /// A whole number in the range.
        case integer(ClosedRange<Int>)
        /// A number of seconds, more than 0 and at most the bound.
        case seconds(max: Double)
        /// Returns the one-line error message for a bad value, or nil when it is good.
        case custom(@Sendable (String) -> String?)
    }

    /// The long name, with its dashes (`--calendar`).
    public var name: String
    /// A short alias (`-h`), if any.
    public var short: String?
    /// The value's placeholder (`NAME`); nil for a flag.
    public var value: String?
    /// The one description: `--help` shows it (a newline starts a continuation line in
    /// the help column), completion menus show its `summary`, the man page its roff.
    public var help: String
    /// More for the man page only, plain text after the help (what would crowd
    /// `--help`: exceptions, how it interacts with systemd); nil for most options.
    public var details: String?
    /// What the shells offer for the value.
    public var completion: Completion
    /// How the value is checked.
    public var validation: Validation
    /// Whether the option may be given more than once (all values are kept).
    public var isRepeatable: Bool
    /// Whether the command needs it.
    public var isRequired: Bool
    /// Whether subcommands accept it too (global options such as `--db`).
    public var isInherited: Bool

    /// Declares an option; see the properties for the meaning of each argument.
    public init(_ name: String, short: String? = nil, value: String? = nil, help: String, details: String? = nil,
                completion: Completion = .none, validation: Validation = .any, repeatable: Bool = false,
                required: Bool = false, inherited: Bool = false) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
        self.details = details
        self.completion = completion
        self.validation = validation
        self.isRepeatable = repeatable
        self.isRequired = required
        self.isInherited = inherited
    }

    /// Whether the option takes a value.
    public var takesValue: Bool { value != nil }

    /// `-h, --help`, `--days N`: the option as `--help` lists it.
    public var label: String {
        (short.map { $0 + ", " } ?? "") + name + (value.map { " " + $0 } ?? "")
    }

    /// The help for a completion menu: its first sentence without what is in
    /// parentheses (`Number of dates, 1-3660 (default: 14).` -> `Number of dates, 1-3660`).
    public var summary: String { Self.summary(of: help) }

    /// `[--days N]`, `[--calendar NAME]...`, `--calendar NAME`: the option in a synopsis.
    public var synopsis: String {
        var text = name
        if let value {
            // A short list of choices says more than a placeholder.
            if let words = completion.choices, words.count <= 3 { text += " " + words.joined(separator: "|") } else { text += " " + value }
        }
        if !isRequired { text = "[" + text + "]" }
        return isRepeatable ? text + "..." : text
    }

    /// `-h, --help`.
    public static let help = Option("--help", short: "-h", help: "Show help information.")

    /// `--version`.
    public static let version = Option("--version", help: "Show the version.")

    /// The first sentence of `text` on one line, parenthesised parts and the final
    /// period left out.
    static func summary(of text: String) -> String {
        var plain = ""
        var depth = 0
        for character in text {
            switch character {
            case "(": depth += 1
            case ")": depth = max(0, depth - 1)
            case "\n" where depth == 0: plain.append(" ")
            default: if depth == 0 { plain.append(character) }
            }
        }
        plain = plain.split(separator: " ").joined(separator: " ")
        for mark in [",", ";", "."] { plain = plain.replacingOccurrences(of: " " + mark, with: mark) }
        if let end = plain.range(of: ". ") { plain = String(plain[..<end.lowerBound]) }
        while let last = plain.last, ".;: ".contains(last) { plain.removeLast() }
        return plain
    }
}

/// What a command's option list holds: a typed key, or a bare `Option` that no command
/// reads (`--help`, `--version`).
public protocol OptionDeclaring: Sendable {
    /// The declaration.
    var option: Option { get }
}

extension Option: OptionDeclaring {
    /// The option itself.
    public var option: Option { self }
}

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

extension Option {
    /// `--log-level LEVEL`, eventd's and eventd-web's journal threshold.
    public static let logLevel = Option.value(
        "--log-level", "LEVEL", as: LogLevel.self, help: "debug, info, notice, warning or error (default: info).",
        completion: .choices(LogLevel.allCases.reversed().map(\.description)),
        validation: .custom { LogLevel($0) == nil ? "invalid value '\($0)' for --log-level: expected debug, info, notice, warning or error" : nil })
}

/// What a shell should offer for an option's value or a positional argument.
public enum Completion: Sendable, Equatable {
    /// Free text: nothing to offer.
    case none
    /// A file; with an extension (`ics`), only such files (and directories to descend).
    case file(extension: String? = nil)
    /// A directory.
    case directory
    /// A calendar name from the database (`eventctl calendars`).
    case calendar
    /// An IANA time zone name.
    case timeZone
    /// One of these words; parsing also accepts only these.
    case choices([String])

    /// The fixed words of `.choices`, else nil.
    public var choices: [String]? {
        if case .choices(let words) = self { return words }
        return nil
    }
}

/// A positional argument of a command (`<file>...`).
public struct Positional: Sendable {
    /// The name as help shows it, with angle brackets (`<file>`).
    public var name: String
    /// The `--help` text.
    public var help: String
    /// What the shells offer.
    public var completion: Completion
    /// Whether it may be given more than once.
    public var isRepeatable: Bool
    /// More for the man page only, plain text after the help; nil for most.
    public var details: String?
    /// Whether it may be left out (required, at least once, by default).
    public var isOptional: Bool

    /// Declares a positional argument.
    public init(_ name: String, help: String, completion: Completion = .none, repeatable: Bool = false, details: String? = nil,
                optional: Bool = false) {
        self.name = name
        self.help = help
        self.completion = completion
        self.isRepeatable = repeatable
        self.details = details
        self.isOptional = optional
    }

    /// `<file>...`, `[<file>...]` when optional.
    public var synopsis: String {
        let word = isRepeatable ? name + "..." : name
        return isOptional ? "[\(word)]" : word
    }
}
