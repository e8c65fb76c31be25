import RuntimeDirectories

/// What eventd-web is told (docs/web-gateway.md), with its limits. The executable fills
/// it from the command line; tests build it directly.
public struct GatewayConfiguration: Sendable {
    /// Where to listen (ignored under socket activation).
    public var listen: ListenAddress = .defaultAddress
    /// eventd's feed socket.
    public var socketPath: String
    /// The rules the socket's directory must meet (`RuntimePaths.socketDirectoryPolicy`).
    public var socketDirectoryPolicy: DirectoryPolicy?
    /// The uids eventd may run as (`RuntimePaths.trustedPeers`).
    public var trustedPeers: Set<UInt32>?
    /// Who may ask.
    public var access: AccessPolicy
    /// Event streams at once (more: 503).
    public var maxStreams = 256
    /// Connections still sending their request head, beyond the streams (more: closed
    /// at once), so idle sockets cannot use up descriptors that streams need.
    public var maxPendingHeads = 128
    /// The most bytes of a request head (more: 431).
    public var headLimit = 16 * 1024
    /// Seconds for a request head to arrive, on the monotonic clock (slow loris: 408).
    public var headTimeout = 10.0
    /// Seconds of silence on a stream before a `: keep-alive` comment.
    public var keepAliveInterval = 15.0
    /// Bytes queued for one browser before the gateway stops reading its subscription
    /// (eventd's own backpressure then takes over: overflow, resync).
    public var streamBuffer = 1 << 20
    /// Seconds a browser with data waiting may read nothing before it is disconnected.
    public var stallTimeout = 60.0
    /// Seconds for eventd to answer a one-shot request (`/api/snapshot`, `/api/status`,
    /// `/healthz`; more: 504).
    public var upstreamTimeout = 10.0
    /// Seconds after a complete answer to wait for the browser to close its side.
    public var lingerTimeout = 2.0
    /// The EventSource reconnection delay sent when eventd goes away, in milliseconds.
    public var retryMilliseconds = 2000
    /// The most bytes of one feed line (a snapshot of a large window is a few MiB).
    public var maxFeedLine = 64 << 20

    /// A configuration with the defaults of docs/web-gateway.md.
    public init(socketPath: String, access: AccessPolicy) {
        self.socketPath = socketPath
        self.access = access
    }
}
