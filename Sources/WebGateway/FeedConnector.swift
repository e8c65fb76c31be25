import Glibc
import Support

/// Opens the gateway's connections to eventd's feed socket. Every connection goes
/// through `connect`, so a check of who listens there (the socket's peer credentials:
/// this user, root or the system `eventd` user) belongs here, once.
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

    /// A connector for the socket at `path`.
    public init(path: String) { self.path = path }

    /// A connected, non-blocking, close-on-exec socket. The connect itself does not
    /// wait: a Unix socket connects at once or fails (`EAGAIN` when eventd's backlog is
    /// full, which is reported like any failure: the browser retries).
    public func connect() throws(Unavailable) -> Int32 {
        guard let address = UnixSocketAddress(path: path) else {
            throw Unavailable(description: "socket path too long: \(path)")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Unavailable(description: "socket(): \(String(cString: strerror(errno)))") }
        let result = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Unavailable(description: "\(path): \(reason)")
        }
        return fd
    }
}
