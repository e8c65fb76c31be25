/// A calendar that updates itself: an ICS URL, a vdir, or one watched file
/// (docs/live-sources.md). Stored in the `live_source` table; the location of a URL
/// source is a secret and is only ever shown through `redactedLocation`.
public struct LiveSource: Sendable, Equatable {
    /// What a source reads.
    public enum Kind: String, Sendable, CaseIterable {
        /// An `http(s)://` URL (`webcal://` is stored as `https://`).
        case url
        /// A directory of `.ics` files (one calendar).
        case vdir
        /// One `.ics` file.
        case file
    }

    /// The source's name (the calendar name rules apply).
    public var name: String
    /// What it reads.
    public var kind: Kind
    /// The URL, or the absolute path of the directory or file.
    public var location: String
    /// The calendar the source fills.
    public var calendar: String
    /// The configured polling interval of a URL source, seconds.
    public var everySeconds: Int64
    /// What the last attempts left behind.
    public var state: LiveSourceState

    /// Creates a source with an empty state.
    public init(name: String, kind: Kind, location: String, calendar: String, everySeconds: Int64,
                state: LiveSourceState = LiveSourceState()) {
        self.name = name
        self.kind = kind
        self.location = location
        self.calendar = calendar
        self.everySeconds = everySeconds
        self.state = state
    }

    /// The location as it may be shown: `scheme://host:port/…` for a URL (its path, query and
    /// user-info can carry a token), the path for files.
    public var redactedLocation: String {
        kind == .url ? Self.redact(url: location) : location
    }

    /// The identity (`source.path`) of a URL source's one input: its name, never its URL.
    public var urlInputPath: String { "live:" + name }

    /// `scheme://host:port/…`: what of a URL may be shown (two sources on one host
    /// differ by port). The user-info, path, query and fragment can carry a token and are
    /// dropped; text that is not a URL shows as `…`.
    public static func redact(url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return "…" }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter }) else { return "…" }
        var rest = url[schemeEnd.upperBound...]
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        var host = Substring(rest)
        var port = Substring("")
        if host.hasPrefix("[") {
            if let close = host.firstIndex(of: "]") {
                port = host[host.index(after: close)...]
                host = host[...close]
            }
        } else if let colon = host.firstIndex(of: ":") {
            port = host[colon...]
            host = host[..<colon]
        }
        let safe = host.allSatisfy { $0.isLetter || $0.isNumber || "-.[]:".contains($0) }
        // Only `:digits` is a port; anything else after the host is dropped.
        let digits = port.dropFirst()
        let shownPort = port.first == ":" && !digits.isEmpty && digits.allSatisfy({ $0.isASCII && $0.isNumber }) ? String(port) : ""
        return "\(scheme)://\(safe ? String(host) + shownPort : "…")/…"
    }
}

/// What a source's attempts left behind: conditional-request validators, the last
/// body's hash, outcome times (Unix seconds) and the failure count for backoff.
public struct LiveSourceState: Sendable, Equatable {
    /// The last `ETag` (sent as `If-None-Match`).
    public var etag: String?
    /// The last `Last-Modified` (sent as `If-Modified-Since`).
    public var lastModified: String?
    /// The hash of the last body that was imported (URL sources).
    public var bodyHash: String?
    /// The refresh interval the calendar itself asks for (REFRESH-INTERVAL, X-PUBLISHED-TTL).
    public var ttlSeconds: Int64?
    /// The calendar's events after the last success.
    public var events: Int = 0
    /// When the last attempt ended (Unix seconds).
    public var lastAttempt: Int64?
    /// When the last successful attempt ended (Unix seconds).
    public var lastSuccess: Int64?
    /// The last failure, one redacted line; nil after a success.
    public var lastError: String?
    /// Failures since the last success.
    public var failures: Int = 0
    /// When the next attempt is due (Unix seconds), as the scheduler last planned it.
    public var nextAttempt: Int64?

    /// An empty state.
    public init() {}
}
