/// Failures of the live-source table.
public enum LiveSourceError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A source of that name exists already.
    case duplicate(String)
    /// No source of that name.
    case unknown(String)

    /// The failure as one message.
    public var description: String {
        switch self {
        case .duplicate(let name): return "a source named \"\(name)\" exists already"
        case .unknown(let name): return "no source named \"\(name)\""
        }
    }
}
