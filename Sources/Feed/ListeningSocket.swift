import Foundation
import RuntimeDirectories

/// Why the feed socket could not be set up.
public struct SocketSetupError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// The feed's listening socket: passed by systemd (`LISTEN_FDS`), or created at a
/// path — its directory made if missing, a stale socket from a crashed run replaced,
/// a live one (another eventd) refused, and never through a symlink.
public enum ListeningSocket {
    /// The socket systemd passed, if any (`LISTEN_PID` is us and `LISTEN_FDS` >= 1).
    public static func fromSystemd(environment: [String: String]) -> Int32? {
        SystemdListenSocket.descriptor(environment: environment)
    }

    /// Creates, binds and listens on `path` with `mode`, in a directory that meets
    /// `directoryPolicy` (made with mode 0700 when missing; `UnsafeDirectoryError`
    /// otherwise: someone who can write there could put their own socket in our place).
    public static func create(path: String, mode: UInt16, directoryPolicy: DirectoryPolicy) throws -> Int32 {
        guard let address = UnixSocketAddress(path: path) else {
            throw SocketSetupError(description: "socket path too long (at most \(UnixSocketAddress.maxPathBytes) bytes): \(path)")
        }
        // Held open until the socket is bound, then checked to be still in place.
        guard let directory = try CheckedDirectory.open(RuntimePaths.directory(of: path), policy: directoryPolicy, create: true) else {
            throw SocketSetupError(description: "cannot create the directory of \(path)")
        }
        let fd = try bindAndListen(path: path, address: address, mode: mode)
        do {
            try directory.verifyStillInPlace()
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    private static func bindAndListen(path: String, address: UnixSocketAddress, mode: UInt16) throws -> Int32 {
        // Whatever is at the path: a live eventd, a stale socket, or something that is
        // not ours (a symlink, a file) which we refuse to touch.
        var st = stat()
        if lstat(path, &st) == 0 {
            let type = st.st_mode & S_IFMT
            if type == S_IFLNK {
                throw SocketSetupError(description: "\(path) is a symbolic link; refusing to follow it (remove it first)")
            }
            guard type == S_IFSOCK else {
                throw SocketSetupError(description: "\(path) exists and is not a socket; remove it or choose --socket")
            }
            if isLive(address) {
                throw SocketSetupError(description: "another eventd is already listening on \(path)")
            }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketSetupError(description: "socket(): \(String(cString: strerror(errno)))") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        // Bind with a umask that leaves at most `mode`, then set it exactly.
        let old = umask(mode_t(0o777 & ~Int(mode)))
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        umask(old)
        guard bound == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw SocketSetupError(description: "cannot bind \(path): \(message)")
        }
        chmod(path, mode_t(mode))
        // The kernel's maximum: a gateway opening a subscription per browser connects in
        // bursts, and a full backlog refuses a connect (EAGAIN) that would have waited.
        guard listen(fd, SOMAXCONN) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw SocketSetupError(description: "cannot listen on \(path): \(message)")
        }
        return fd
    }

    static func isLive(_ address: UnixSocketAddress) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return address.withSockaddr { connect(fd, $0, $1) } == 0
    }
}
