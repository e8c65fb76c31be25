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
