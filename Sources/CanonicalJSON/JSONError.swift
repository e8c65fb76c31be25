// MARK: - JSONError

/// A JSON parse failure: what went wrong and where.
public struct JSONError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A human-readable explanation, e.g. `"unterminated string"`.
    public var message: String

    /// The zero-based byte offset in the input at which the problem was
    /// detected.
    public var offset: Int

    /// Creates an error with `message` at byte `offset`.
    public init(message: String, offset: Int) { (self.message, self.offset) = (message, offset) }

    /// `"<message> at byte <offset>"`.
    public var description: String {
        "\(message) at byte \(offset)"
    }
}
