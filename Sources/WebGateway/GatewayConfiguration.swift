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
    /// The local accounts a loopback TCP listener answers; nil: any (not loopback).
    public var peerPolicy: PeerPolicy?
    /// Answers in flight at once: event streams, and every other answer (snapshots,
    /// status, files) until it is written (more: 503). `--max-streams`.
    public var maxStreams = 256
    /// Bytes queued for all browsers together; an answer or event that would go over it
    /// is refused at once (503, or a stream's end with a retry hint).
    public var outputBudget = 256 << 20
    /// Connections still sending their request head, beyond the streams; a new one
    /// past this evicts the oldest, so idle sockets cannot use up descriptors that
    /// streams need, nor keep a new client from being read.
    public var maxPendingHeads = 128
    /// Request heads arriving from one address (all Unix-socket peers are one); a new
    /// one past this evicts that address's oldest.
    public var maxPendingHeadsPerAddress = 32
    /// How long a request head may take before it must keep up `minHeadRate`.
    public var headGrace: Duration = .seconds(2)
    /// Bytes a second a request head must have averaged since the connection, once
    /// `headGrace` is over (slower: 408). A browser sends its head in one packet.
    public var minHeadRate = 64.0
    /// The most bytes of a request head (more: 431).
    public var headLimit = 16 * 1024
    /// How long a request head may take to arrive, on the monotonic clock (slow loris: 408).
    public var headTimeout: Duration = .seconds(10)
    /// Silence on a stream before a `: keep-alive` comment.
    public var keepAliveInterval: Duration = .seconds(15)
    /// Bytes queued for one browser before the gateway stops reading its subscription
    /// (eventd's own backpressure then takes over: overflow, resync).
    public var streamBuffer = 1 << 20
    /// How long a browser with data waiting may read nothing before it is disconnected.
    public var stallTimeout: Duration = .seconds(60)
    /// How long eventd may take to answer a one-shot request (`/api/snapshot`, `/api/status`,
    /// `/healthz`; more: 504).
    public var upstreamTimeout: Duration = .seconds(10)
    /// How long after a complete answer to wait for the browser to close its side.
    public var lingerTimeout: Duration = .seconds(2)
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

/// Which local accounts a loopback listener answers (docs/web-gateway.md, Access): its
/// own, root, and the users and groups `--allow-user` and `--allow-group` name (a
/// reverse proxy's account; the system unit's `eventd` group). Any other account is
/// refused with 403 whatever token it sends: a token is the user's own browsers'
/// credential, and one that leaked (a page on the same port while eventd-web was not
/// holding it) does not make another account the user.
public struct PeerPolicy: Sendable, Equatable {
    /// Accounts answered.
    public var uids: Set<UInt32>
    /// Groups whose members are answered.
    public var gids: Set<UInt32>

    /// A policy answering `uids` (the caller adds its own and root's) and members of `gids`.
    public init(uids: Set<UInt32>, gids: Set<UInt32> = []) {
        self.uids = uids
        self.gids = gids
    }

    /// Why a connection from the socket owned by `uid` is refused, or nil when it may
    /// ask. `groups` gives an account's groups (asked only when `gids` is not empty). A
    /// peer whose account could not be found (nil) is refused.
    public func refusal(uid: UInt32?, groups: (UInt32) -> [UInt32]) -> String? {
        guard let uid else { return "the connecting account could not be identified; this dashboard answers only its own account" }
        if uids.contains(uid) { return nil }
        if !gids.isEmpty, groups(uid).contains(where: gids.contains) { return nil }
        return "this dashboard answers only its own account (uid \(uid) is another; see --allow-user)"
    }
}
