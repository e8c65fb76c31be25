/// A request that gets an `error` answer.
public struct RequestError: Error, Sendable, Equatable {
    public var code: ErrorCode
    public var message: String

    /// An error answer with `code` and `message`.
    public init(code: ErrorCode, message: String) { (self.code, self.message) = (code, message) }
}

/// Why a `resync` came: a new daemon (`epoch`), a resume point no longer kept
/// (`expired`), or a subscriber that fell too far behind (`overflow`).
public enum ResyncReason: String, Sendable, CaseIterable {
    case epoch, expired, overflow
}

/// Error codes of docs/protocol.md.
public enum ErrorCode: String, Sendable {
    case badRequest = "bad_request"
    case unknownOp = "unknown_op"
    case invalidView = "invalid_view"
    case lineTooLong = "line_too_long"
    case overloaded
}
