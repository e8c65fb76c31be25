/// Who may ask: the `Host` header must name the listen address or an `--allow-host`
/// (a page from another site that resolves its name to 127.0.0.1 — DNS rebinding —
/// sends its own name and is refused), and unless `--no-auth` every request for data
/// (`/api/…`, `/healthz`) carries the token as `Authorization: Bearer`.
///
/// The dashboard's files are served without it: they are the package's files, hold no
/// calendar data, and a reload or a second tab must get the page that then reads the
/// token from its own origin's Web Storage. No cookie is set or honoured: a cookie is
/// sent to every port of a host, so any other local user's server on `127.0.0.1:*`
/// would receive it (docs/web-gateway.md, Access).
public struct AccessPolicy: Sendable {
    /// `Host` values accepted, lowercased (with and without port for `--allow-host`).
    let hosts: Set<String>
    /// Names from `--allow-host`, accepted with any port.
    let allowedNames: Set<String>
    /// The token, when one is required (nil only with `--no-auth`).
    let token: [UInt8]?

    /// A policy for `listen`, the extra `allowHosts` and the optional `token`.
    public init(listen: ListenAddress, allowHosts: [String], token: String?) {
        hosts = Set(listen.hostNames.map { $0.lowercased() })
        allowedNames = Set(allowHosts.map { $0.lowercased() })
        self.token = token.map { Array($0.utf8) }
    }

    /// Why `request` is refused (status and message), or nil when it may proceed.
    public func refusal(_ request: HTTPRequest) -> (HTTPStatus, String)? {
        guard request.headerCount("host") == 1, let host = request.header("host")?.lowercased() else {
            return (.badRequest, "exactly one Host header is required")
        }
        if !hosts.contains(host) {
            let name = Self.stripPort(host)
            guard allowedNames.contains(host) || allowedNames.contains(name) else {
                return (.forbidden, "Host '\(host)' is not this server's name (see --allow-host)")
            }
        }
        if token != nil, !Self.isPage(request.path), !carriesToken(request) { return (.unauthorized, "a token is required") }
        return nil
    }

    /// Whether `path` is a file of the dashboard, not data: the API and the health check
    /// need the token, the page's files do not.
    static func isPage(_ path: String) -> Bool { !path.hasPrefix("/api/") && path != "/healthz" }

    /// Only the header counts: a token in a URL ends up in histories and proxies' logs,
    /// and a cookie reaches every port of the host.
    private func carriesToken(_ request: HTTPRequest) -> Bool {
        guard let token else { return true }
        // Every header is compared in full, so the time says nothing about the token.
        var found = false
        for header in request.headers where header.name == "authorization" && header.value.lowercased().hasPrefix("bearer ") {
            found = Self.constantTimeEqual(Array(String(header.value.dropFirst(7)).trimmingBlanks.utf8), token) || found
        }
        return found
    }

    /// `text` for the log: any occurrence of the token replaced, so no line ever shows it
    /// (whatever part of a request it came in).
    func scrubbed(_ text: String) -> String {
        guard let token, !token.isEmpty else { return text }
        let secret = String(decoding: token, as: UTF8.self)
        guard text.contains(secret) else { return text }
        return text.replacing(secret, with: "REDACTED")
    }

    /// `target` as the log shows it: a `token` parameter's value is never written.
    public static func redacted(_ target: String) -> String {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return target }
        let kept = parts[1].split(separator: "&").map { pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            // A name that does not decode is kept as sent: the route refuses it anyway.
            return HTTPRequest.percentDecode(name) == "token" ? "token=REDACTED" : String(pair)
        }
        return String(parts[0]) + "?" + kept.joined(separator: "&")
    }

    /// Equality whose time depends only on the lengths, not on where bytes differ.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<max(a.count, b.count) {
            difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0xFF)
        }
        return difference == 0
    }

    static func stripPort(_ host: String) -> String {
        if host.hasPrefix("[") { return String(host.prefix { $0 != "]" }) + "]" }
        return String(host.prefix { $0 != ":" })
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingBlanks: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}
