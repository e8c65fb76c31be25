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
