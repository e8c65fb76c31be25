/// Who may ask: the `Host` header must name the listen address or an `--allow-host`
/// (a page from another site that resolves its name to 127.0.0.1 — DNS rebinding —
/// sends its own name and is refused), and unless `--no-auth` every request carries the
/// token: `Authorization: Bearer`, or the cookie that opening the page with `?token=`
/// set (`?token=` itself counts only for the page, which trades it for the cookie).
public struct AccessPolicy: Sendable {
    /// `Host` values accepted, lowercased (with and without port for `--allow-host`).
    let hosts: Set<String>
    /// Names from `--allow-host`, accepted with any port.
    let allowedNames: Set<String>
    /// The token, when one is required (nil only with `--no-auth`).
    let token: [UInt8]?

    /// The cookie that carries the token for the page's own requests (scripts, styles
    /// and the event stream), set when the page was opened with `?token=`.
    public static let cookieName = "eventd_web_token"

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
        if token != nil, !carriesToken(request) { return (.unauthorized, "a token is required") }
        return nil
    }

    /// Whether `request` came with a `?token=` that matches.
    func queryTokenMatches(_ request: HTTPRequest) -> Bool {
        guard let token else { return false }
        var found = false
        for given in request.queryValues("token") { found = Self.constantTimeEqual(Array(given.utf8), token) || found }
        return found
    }

    private func carriesToken(_ request: HTTPRequest) -> Bool {
        guard let token else { return true }
        var candidates: [String] = []
        if let authorization = request.header("authorization"), authorization.lowercased().hasPrefix("bearer ") {
            candidates.append(String(authorization.dropFirst(7)).trimmingBlanks)
        }
        // A token in a URL ends up in histories and proxies' logs: only the page's
        // address takes it, and answers with a redirect that drops it.
        if Self.isPage(request.path) { candidates += request.queryValues("token") }
        for cookies in request.headers where cookies.name == "cookie" {
            for pair in cookies.value.split(separator: ";") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                if kv.count == 2, String(kv[0]).trimmingBlanks == Self.cookieName { candidates.append(String(kv[1]).trimmingBlanks) }
            }
        }
        // Every candidate is compared in full, so the time says nothing about the token.
        var found = false
        for candidate in candidates { found = Self.constantTimeEqual(Array(candidate.utf8), token) || found }
        return found
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
