import Diagnostics
#if canImport(Glibc)
import Glibc
#endif

/// The bounds of one HTTP fetch (docs/live-sources.md). Tests shorten the timeouts.
public struct HTTPLimits: Sendable, Equatable {
    /// To establish the connection (TCP and TLS).
    public var connectTimeout: Duration = .seconds(10)
    /// For the whole transfer, redirects included.
    public var totalTimeout: Duration = .seconds(60)
    /// Largest body accepted (decoded); the transfer is aborted as soon as it passes.
    public var maxBodyBytes = 64 << 20
    /// All response header lines together, every redirect included.
    public var maxHeaderBytes = 256 << 10
    /// Redirects followed.
    public var maxRedirects = 5
    /// `User-Agent`.
    public var userAgent = ProductVersion.token
    /// A netrc file for credentials, when not `~/.netrc` (the system service's
    /// credentials directory); libcurl reads `~/.netrc` when nil. Optional either way.
    public var netrcFile: String?

    /// The defaults of docs/live-sources.md.
    public init() {}
}

/// Constants shared by the module.
public enum LiveSourceDefaults {
    /// `--every` when not given: 15 minutes.
    public static let every: Int64 = 15 * 60
    /// The shortest `--every`.
    public static let minimumEvery: Int64 = 30
    /// A calendar's own REFRESH-INTERVAL / X-PUBLISHED-TTL counts up to one day.
    public static let maximumTTL: Int64 = 86_400
    /// Backoff never waits longer than six hours.
    public static let maximumBackoff: Duration = .seconds(6 * 3600)
    /// Fetches at once.
    public static let concurrentFetches = 4
}

/// Where an IP address leads, for the redirect rule (`RedirectPolicy`).
public enum AddressClass: Sendable, Equatable {
    /// A host anyone on the internet may reach.
    case publicHost
    /// This machine, its links or a private network: 127/8, ::1, 0.0.0.0, ::,
    /// 169.254/16, fe80::/10, 10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7, and
    /// IPv4-mapped IPv6 forms of these.
    case internalHost

    /// The class of a numeric address as libcurl reports it (`conn_primary_ip`); an
    /// address that does not parse counts as internal (refused after a public one).
    public init(ip text: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = Self.classify(v4: withUnsafeBytes(of: v4) { Array($0) })
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            let b = withUnsafeBytes(of: v6) { Array($0) }
            if b.prefix(10).allSatisfy({ $0 == 0 }), b[10] == 0xFF, b[11] == 0xFF {
                self = Self.classify(v4: Array(b.suffix(4)))
            } else if b.prefix(15).allSatisfy({ $0 == 0 }) && (b[15] == 1 || b[15] == 0) {
                self = .internalHost // ::1, ::
            } else if b[0] == 0xFE && b[1] & 0xC0 == 0x80 {
                self = .internalHost // fe80::/10
            } else if b[0] & 0xFE == 0xFC {
                self = .internalHost // fc00::/7
            } else {
                self = .publicHost
            }
        } else {
            self = .internalHost
        }
    }

    private static func classify(v4 b: [UInt8]) -> AddressClass {
        switch (b[0], b[1]) {
        case (127, _), (0, _), (10, _), (169, 254), (192, 168): return .internalHost
        case (172, 16...31): return .internalHost
        case (100, 64...127): return .internalHost
        default: return .publicHost
        }
    }
}

/// Redirects of a URL source (issue 52, point 9): once a transfer has reached a public
/// host, it may not go on to this machine, a link-local or a private address, so that a
/// feed on the internet cannot make eventd ask a local service (any path, any query)
/// for it. A source whose URL names an internal host itself (a calendar on the local
/// network) may redirect within it, and to the internet.
public enum RedirectPolicy {
    /// Whether a transfer that first connected to `first` may make a request to `next`.
    public static func allows(first: AddressClass, next: AddressClass) -> Bool {
        !(first == .publicHost && next == .internalHost)
    }
}
