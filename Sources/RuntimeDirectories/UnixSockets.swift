#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A Unix-domain socket address (`sockaddr_un`) for `bind`, `connect` and `sendto`:
/// a path, or (where allowed) an abstract name written with a leading `@`, as
/// systemd's `$NOTIFY_SOCKET` does.
public struct UnixSocketAddress: Sendable {
    private var address = sockaddr_un()
    /// The length to pass with the address.
    public let length: socklen_t

    /// The most bytes a path may have (the NUL terminator needs the last one).
    public static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The address of `path`; nil when it is empty or longer than `maxPathBytes`.
    /// With `allowsAbstract`, a path starting with `@` names an abstract socket.
    public init?(path: String, allowsAbstract: Bool = false) {
        var bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maxPathBytes else { return nil }
        let abstract = allowsAbstract && bytes[0] == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        // An abstract name is exactly its bytes; a path ends at its NUL.
        length = abstract ? socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
                          : socklen_t(MemoryLayout<sockaddr_un>.size)
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) rethrows -> R {
        try withUnsafePointer(to: address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}

/// Who is at the other end of a connected Unix socket.
public enum SocketPeer {
    /// The uid of the process at the other end (`SO_PEERCRED`: for a listening socket,
    /// whoever called `listen`; for one systemd listens on, systemd), or nil with errno set.
    public static func uid(_ fd: Int32) -> UInt32? {
        // `struct ucred` needs _GNU_SOURCE, which Swift's Glibc module is built without;
        // this is the kernel's layout of it.
        struct Credentials { var pid: Int32 = 0; var uid: UInt32 = 0; var gid: UInt32 = 0 }
        var credentials = Credentials()
        var length = socklen_t(MemoryLayout<Credentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
    }
}

/// A listening socket passed by systemd's socket activation.
public enum SystemdListenSocket {
    /// The stream socket systemd passed (`LISTEN_PID` is us and `LISTEN_FDS` >= 1: it is
    /// descriptor 3, `SD_LISTEN_FDS_START`), made non-blocking and close-on-exec; nil
    /// when none was passed or it is not a stream socket.
    public static func descriptor(environment: [String: String]) -> Int32? {
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
              let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1 else { return nil }
        let fd: Int32 = 3
        var type: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &size) == 0, type == Int32(SOCK_STREAM.rawValue) else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }
}
