/// Builds responses. Every answer carries the same security headers (docs/web-gateway.md):
/// a CSP of `default-src 'self'`, `nosniff`, `no-referrer`, `no-store` (`no-cache` for
/// the dashboard's files, which carry validators), and no CORS
/// header of any kind, so no other origin can read it; and the `Date` the I/O loop last
/// told the gateway (RFC 9110 asks it of a server with a clock).
public struct HTTPResponse: Sendable {
    /// The `Date` header's value (IMF-fixdate), when known.
    public var date: String?

    /// A builder that sends `date` (none when nil).
    public init(date: String? = nil) { self.date = date }

    /// The headers every response has.
    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
        ("X-Frame-Options", "DENY"),
    ]

    /// A complete response: head and (unless `head` is true) body, then the connection
    /// closes (`Connection: close`: one request per connection keeps the state machine
    /// small, and browsers open another at once).
    public func complete(_ status: HTTPStatus, contentType: String, body: [UInt8], head: Bool = false,
                         extra: [(String, String)] = []) -> [UInt8] {
        var fields = [("Content-Type", contentType), ("Content-Length", String(body.count)), ("Connection", "close")]
        fields += extra
        var bytes = self.head(status, fields)
        if !head { bytes += body }
        return bytes
    }

    /// A short plain-text answer (errors, `/healthz`).
    public func text(_ status: HTTPStatus, _ message: String, head: Bool = false,
                     extra: [(String, String)] = []) -> [UInt8] {
        complete(status, contentType: "text/plain; charset=utf-8", body: Array((message + "\n").utf8), head: head, extra: extra)
    }

    /// The head of an event stream; its body follows as events arrive.
    public func eventStreamHead() -> [UInt8] {
        head(.ok, [("Content-Type", "text/event-stream; charset=utf-8"), ("Connection", "close"),
                   // Reverse proxies (nginx) must pass events on at once.
                   ("X-Accel-Buffering", "no")])
    }

    /// A status line and fields, the security headers included, and the blank line.
    func head(_ status: HTTPStatus, _ fields: [(String, String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status.rawValue) \(status.reason)\r\n"
        if let date { text += "Date: \(date)\r\n" }
        // A field given (the dashboard's files' `Cache-Control`) replaces the default one.
        let given = Set(fields.map { $0.0 })
        for (name, value) in fields + Self.securityHeaders.filter({ !given.contains($0.0) }) { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }
}

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

/// The Server-Sent Events framing of feed messages (docs/web-gateway.md): `event:` the
/// message's `type`, `data:` its NDJSON line (one line: the feed never puts a newline
/// inside one), and for `snapshot` and `diff` an `id:` of `EPOCH.SEQ`.
public enum ServerSentEvent {
    /// One event.
    public static func frame(event: String, id: String?, data: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count + event.utf8.count + (id?.utf8.count ?? 0) + 24)
        bytes += Array("event: \(event)\n".utf8)
        if let id { bytes += Array("id: \(id)\n".utf8) }
        bytes += Array("data: ".utf8)
        bytes += data
        bytes += [10, 10]
        return bytes
    }

    /// A comment: ignored by EventSource, it keeps proxies and NAT from timing out.
    public static let keepAlive: [UInt8] = Array(": keep-alive\n\n".utf8)

    /// How long EventSource waits before it reconnects.
    public static func retry(milliseconds: Int) -> [UInt8] { Array("retry: \(milliseconds)\n\n".utf8) }

    /// The event id of a feed position.
    public static func id(epoch: String, seq: Int64) -> String { "\(epoch).\(seq)" }

    /// The feed position of a `Last-Event-ID` (`EPOCH.SEQ`), or nil when malformed.
    public static func position(lastEventID: String) -> (epoch: String, seq: Int64)? {
        guard let dot = lastEventID.lastIndex(of: ".") else { return nil }
        let epoch = String(lastEventID[..<dot])
        guard !epoch.isEmpty, epoch.utf8.count <= 128,
              epoch.utf8.allSatisfy({ HTTPHeadParser.isTokenByte($0) && $0 != UInt8(ascii: ".") }),
              let seq = Int64(lastEventID[lastEventID.index(after: dot)...]), seq >= 0 else { return nil }
        return (epoch, seq)
    }
}
