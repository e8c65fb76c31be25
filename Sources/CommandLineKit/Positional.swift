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

    /// Declares a positional argument; it is always required (at least once).
    public init(_ name: String, help: String, completion: Completion = .none, repeatable: Bool = false, details: String? = nil) {
        self.name = name
        self.help = help
        self.completion = completion
        self.isRepeatable = repeatable
        self.details = details
    }

    /// `<file>...`
    public var synopsis: String { isRepeatable ? name + "..." : name }
}
