import Glibc
import RuntimeDirectories

/// Opens the gateway's connections to eventd's feed socket. Every connection goes
/// through `connect`, which checks, as eventctl does, the socket's directory by the rules
/// eventd made it with and who listens there (`SO_PEERCRED`: this user, root or the
/// system `eventd` user): a squatter's socket never gets a browser's subscription.
public struct FeedConnector: Sendable {
    /// Why a connection could not be made.
    public struct Unavailable: Error, CustomStringConvertible, Sendable {
        /// What failed, for the log and the browser's `offline` event.
        public var description: String

        /// An error with this message.
        public init(description: String) { self.description = description }
    }

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

    /// A connected, non-blocking, close-on-exec socket. The connect itself does not
    /// wait: a Unix socket connects at once or fails (`EAGAIN` when eventd's backlog is
    /// full, which is reported like any failure: the browser retries).
    public func connect() throws(Unavailable) -> Int32 {
        guard let address = UnixSocketAddress(path: path) else {
            throw Unavailable(description: "socket path too long: \(path)")
        }
        if let directoryPolicy {
            do {
                _ = try CheckedDirectory.open(RuntimePaths.directory(of: path), policy: directoryPolicy, create: false)
            } catch {
                throw Unavailable(description: "\(error)")
            }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Unavailable(description: "socket(): \(String(cString: strerror(errno)))") }
        let result = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Unavailable(description: "\(path): \(reason)")
        }
        if let trustedPeers {
            guard let uid = SocketPeer.uid(fd), trustedPeers.contains(uid) else {
                close(fd)
                throw Unavailable(description: "the socket \(path) is not served by this user, root or the system eventd; refusing to use it")
            }
        }
        return fd
    }
}
