/// An `error` answer: what a request that failed gets, typed. Clients choose what to
/// do from `code` and the typed members, never from `message` (words for people).
public struct RequestError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    /// For `invalid_view`: the calendar the view names that the daemon does not have
    /// (the data, not the request's form, is at fault: eventctl's exit 65).
    public var unknownCalendar: String?

    /// An error answer with `code` and `message`.
    public init(code: ErrorCode, message: String, unknownCalendar: String? = nil) {
        (self.code, self.message, self.unknownCalendar) = (code, message, unknownCalendar)
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}

/// Why a `resync` came: a new daemon (`epoch`), a resume point no longer kept
/// (`expired`), or a subscriber that fell too far behind (`overflow`). A reason this
/// client does not know (a newer daemon's) is kept as `other`, so the line still reads.
public enum ResyncReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    case epoch, expired, overflow
    case other(String)

    /// The reasons this daemon sends.
    public static let allCases: [ResyncReason] = [.epoch, .expired, .overflow]

    /// The reason `rawValue` names (never nil: an unknown one is `other`).
    public init?(rawValue: String) {
        self = Self.allCases.first { $0.rawValue == rawValue } ?? .other(rawValue)
    }

    /// The reason as `resync`'s `reason` spells it.
    public var rawValue: String {
        switch self {
        case .epoch: return "epoch"
        case .expired: return "expired"
        case .overflow: return "overflow"
        case .other(let text): return text
        }
    }

    public var description: String { rawValue }
}

/// Error codes of docs/protocol.md. A code this client does not know (a newer
/// daemon's) is kept as `other`, so the line still reads.
public enum ErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    case badRequest, unknownOp, invalidView, lineTooLong, overloaded
    case other(String)

    /// The codes this daemon sends.
    public static let allCases: [ErrorCode] = [.badRequest, .unknownOp, .invalidView, .lineTooLong, .overloaded]

    /// The code `rawValue` names (never nil: an unknown one is `other`).
    public init?(rawValue: String) {
        self = Self.allCases.first { $0.rawValue == rawValue } ?? .other(rawValue)
    }

    /// The code as `error`'s `code` spells it.
    public var rawValue: String {
        switch self {
        case .badRequest: return "bad_request"
        case .unknownOp: return "unknown_op"
        case .invalidView: return "invalid_view"
        case .lineTooLong: return "line_too_long"
        case .overloaded: return "overloaded"
        case .other(let text): return text
        }
    }

    public var description: String { rawValue }
}

extension ResyncReason {
    /// The reason `text` names.
    public init(_ text: String) { self = Self(rawValue: text)! }
}

extension ErrorCode {
    /// The code `text` names.
    public init(_ text: String) { self = Self(rawValue: text)! }
}
