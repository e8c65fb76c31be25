/// A message about a line of a file, described as `LINE: MESSAGE`.
public protocol LineMessage: CustomStringConvertible {
    /// The 1-based line number.
    var line: Int { get }
    /// The message.
    var message: String { get }
}

extension LineMessage {
    /// `LINE: MESSAGE`.
    public var description: String { "\(line): \(message)" }
}
