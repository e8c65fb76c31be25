import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Unix-domain sockets as the tests open them: close-on-exec (children inherit none),
/// errors as `HarnessError`s that name the path and say what failed.
public enum UnixSocket {
    /// A stream socket connected to `path`; the connect blocks (a full backlog waits
    /// rather than failing with EAGAIN), then the socket is made non-blocking when asked.
    public static func connect(_ path: String, nonBlocking: Bool = false) throws -> Int32 {
        let fd = try open(SOCK_STREAM)
        let rc = try withAddress(path, fd) { Glibc.connect(fd, $0, $1) }
        guard rc == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw HarnessError("connect \(path): \(message)")
        }
        if nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        return fd
    }

    /// A non-blocking datagram socket bound to `path` (to receive what a daemon sends
    /// there, e.g. sd_notify messages).
    public static func bindDatagram(_ path: String) throws -> Int32 {
        let fd = try open(SOCK_DGRAM)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let rc = try withAddress(path, fd) { bind(fd, $0, $1) }
        guard rc == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw HarnessError("bind \(path): \(message)")
        }
        return fd
    }

    /// A connected pair of stream sockets (close-on-exec), non-blocking when asked.
    public static func pair(nonBlocking: Bool = true) throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw HarnessError("socketpair: \(String(cString: strerror(errno)))")
        }
        if nonBlocking { for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) } }
        return (fds[0], fds[1])
    }

    /// A non-blocking stream socket listening on `path`.
    public static func listen(_ path: String) throws -> Int32 {
        let fd = try open(SOCK_STREAM)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let rc = try withAddress(path, fd) { bind(fd, $0, $1) }
        guard rc == 0, Glibc.listen(fd, 16) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw HarnessError("listen on \(path): \(message)")
        }
        return fd
    }

    private static func open(_ type: __socket_type) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        return fd
    }

    /// Calls `body` with `path` as a `sockaddr_un`; closes `fd` when the path is too long.
    private static func withAddress(_ path: String, _ fd: Int32,
                                    _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) throws -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw HarnessError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
