import Diagnostics

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
