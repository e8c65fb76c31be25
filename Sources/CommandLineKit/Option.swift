/// One command-line option, declared once: parsing, `--help`, the completion scripts
/// and the man pages are all generated from it.
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
    /// The `--help` text; a newline starts a continuation line in the help column.
    public var help: String
    /// A short description for completion menus; defaults to the help's first line.
    public var summary: String
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
    /// The man page text (roff) below the option's tag; defaults to the help text.
    public var manual: String?

    /// Declares an option; see the properties for the meaning of each argument.
    public init(_ name: String, short: String? = nil, value: String? = nil, help: String, summary: String? = nil,
                completion: Completion = .none, validation: Validation = .any, repeatable: Bool = false,
                required: Bool = false, inherited: Bool = false, manual: String? = nil) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
        self.summary = summary ?? String(help.prefix { $0 != "\n" })
        self.completion = completion
        self.validation = validation
        self.isRepeatable = repeatable
        self.isRequired = required
        self.isInherited = inherited
        self.manual = manual
    }

    /// Whether the option takes a value.
    public var takesValue: Bool { value != nil }

    /// `-h, --help`, `--days N`: the option as `--help` lists it.
    public var label: String {
        (short.map { $0 + ", " } ?? "") + name + (value.map { " " + $0 } ?? "")
    }

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
}
