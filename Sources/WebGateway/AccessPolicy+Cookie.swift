/// The page's token exchange (docs/web-gateway.md, Access): `/?token=T` is answered with
/// a 303 to the same address without `token` and a cookie holding the token, so the
/// token never reaches the page's scripts, its history entry or its address bar.
extension AccessPolicy {
    /// Whether `path` is the dashboard (a file of it), not the API: only the page's
    /// address may carry `?token=`.
    static func isPage(_ path: String) -> Bool { !path.hasPrefix("/api/") && path != "/healthz" }

    /// For a page request that names `token` in its query: where to send the browser
    /// (the same target without `token`) and, when the token matched, the `Set-Cookie`
    /// value. Nil for every other request.
    func tokenExchange(_ request: HTTPRequest) -> (location: String, cookie: String?)? {
        guard Self.isPage(request.path), request.query.contains(where: { $0.name == "token" }) else { return nil }
        guard queryTokenMatches(request), let token else { return (Self.targetWithoutToken(request.target), nil) }
        var cookie = "\(Self.cookieName)=\(String(decoding: token, as: UTF8.self)); HttpOnly; SameSite=Strict; Path=/"
        if Self.cameOverTLS(request) { cookie += "; Secure" }
        return (Self.targetWithoutToken(request.target), cookie)
    }

    /// `target` with every `token` parameter removed (the others as sent).
    static func targetWithoutToken(_ target: String) -> String { Self.target(target, tokenAs: nil) }

    /// `target` as the log shows it: a `token` parameter's value is never written.
    public static func redacted(_ target: String) -> String { Self.target(target, tokenAs: "token=REDACTED") }

    /// `target` with each `token` parameter replaced by `replacement` (nil: removed).
    private static func target(_ target: String, tokenAs replacement: String?) -> String {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return target }
        let kept = parts[1].split(separator: "&").compactMap { pair -> String? in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            // A name that does not decode is kept as sent: the route refuses it anyway.
            return HTTPRequest.percentDecode(name) == "token" ? replacement : String(pair)
        }
        return kept.isEmpty ? String(parts[0]) : String(parts[0]) + "?" + kept.joined(separator: "&")
    }

    /// Whether a reverse proxy says the browser spoke TLS to it (`X-Forwarded-Proto:
    /// https` or `Forwarded: proto=https`). Believing a client that lies costs nothing:
    /// `Secure` only keeps the cookie off plain HTTP.
    static func cameOverTLS(_ request: HTTPRequest) -> Bool {
        if request.header("x-forwarded-proto")?.lowercased().trimmingBlanks == "https" { return true }
        guard let forwarded = request.header("forwarded")?.lowercased() else { return false }
        return forwarded.split(whereSeparator: { $0 == ";" || $0 == "," }).contains { String($0).trimmingBlanks == "proto=https" }
    }
}
