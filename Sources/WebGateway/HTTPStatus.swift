/// The status codes the gateway answers with, and their reason phrases.
public enum HTTPStatus: Int, Sendable {
    case ok = 200
    case seeOther = 303
    case notModified = 304
    case badRequest = 400
    case unauthorized = 401
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case headerFieldsTooLarge = 431
    case badGateway = 502
    case serviceUnavailable = 503
    case gatewayTimeout = 504
    case versionNotSupported = 505

    /// The reason phrase of the status line.
    public var reason: String {
        switch self {
        case .ok: return "OK"
        case .seeOther: return "See Other"
        case .notModified: return "Not Modified"
        case .badRequest: return "Bad Request"
        case .unauthorized: return "Unauthorized"
        case .forbidden: return "Forbidden"
        case .notFound: return "Not Found"
        case .methodNotAllowed: return "Method Not Allowed"
        case .requestTimeout: return "Request Timeout"
        case .headerFieldsTooLarge: return "Request Header Fields Too Large"
        case .badGateway: return "Bad Gateway"
        case .serviceUnavailable: return "Service Unavailable"
        case .gatewayTimeout: return "Gateway Timeout"
        case .versionNotSupported: return "HTTP Version Not Supported"
        }
    }
}
