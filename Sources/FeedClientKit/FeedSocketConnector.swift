import Glibc
import RuntimeDirectories

/// The one way every client (eventctl, the status bars, reminders, eventd-web) reaches
/// the feed socket. Before connecting it checks the socket's directory by the rules
/// eventd made it with (as tmux and ssh-agent do), and after, that the process listening
/// runs as one of the trusted uids (`SO_PEERCRED`: the user, root, or the system
/// service's user): otherwise whoever squatted the directory could answer `status`,
/// feed a subscription and hear `import`'s refresh.
public struct FeedSocketConnector: Sendable {
    /// eventd's socket.
    public let path: String
    /// The rules its directory must meet (nil: not checked).
    public let directoryPolicy: DirectoryPolicy?
    /// The uids the listening process may run as (nil: not checked).
    public let trustedPeers: Set<UInt32>?

    /// A connector for the socket at `path`; with a policy and peers, one that checks them.
    public init(path: String, directoryPolicy: DirectoryPolicy? = nil, trustedPeers: Set<UInt32>? = nil) {
        self.path = path
        self.directoryPolicy = directoryPolicy
        self.trustedPeers = trustedPeers
    }

    /// The connector for `paths.socket` as the user `uid` checks it.
    public init(paths: RuntimePaths, uid: UInt32 = getuid()) {
        self.init(path: paths.socket, directoryPolicy: paths.socketDirectoryPolicy(uid: uid), trustedPeers: paths.trustedPeers(uid: uid))
    }

    /// A connected close-on-exec socket (non-blocking when asked: the connect itself
    /// does not wait either way, a Unix socket connects at once or fails). Throws
    /// `FeedSocket.Unavailable` when nothing listens (worth retrying),
    /// `UnsafeDirectoryError` for a directory that breaks the rules and
    /// `FeedSocket.UntrustedPeer` for a listener not to be trusted (retrying would not help).
    public func connect(nonBlocking: Bool = false) throws -> Int32 {
        guard let address = UnixSocketAddress(path: path) else {
            throw FeedSocket.Unavailable(description: "invalid socket path: \(path)")
        }
        if let directoryPolicy {
            // A missing directory is no daemon: the connect below says so.
            _ = try CheckedDirectory.open(RuntimePaths.directory(of: path), policy: directoryPolicy, create: false)
        }
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let fd = socket(AF_UNIX, flags, 0)
        guard fd >= 0 else { throw FeedSocket.Unavailable(description: "socket(): " + String(cString: strerror(errno))) }
        guard address.withSockaddr({ Glibc.connect(fd, $0, $1) }) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw FeedSocket.Unavailable(description: reason)
        }
        if let trustedPeers {
            guard let uid = SocketPeer.uid(fd) else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw FeedSocket.Unavailable(description: "cannot tell who serves the socket: \(reason)")
            }
            guard trustedPeers.contains(uid) else {
                close(fd)
                throw FeedSocket.UntrustedPeer(path: path, peerUID: uid)
            }
        }
        return fd
    }
}
