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
