import Foundation
import Glibc
import RuntimeDirectories

/// Why the listening socket could not be set up.
public struct ListenError: Error, CustomStringConvertible, Sendable {
    /// What failed (one line).
    public var description: String

    /// An error with this message.
    public init(description: String) { self.description = description }
}

/// The gateway's listening socket: passed by systemd (`LISTEN_FDS`), or bound here.
public enum GatewayListener {
    /// The socket systemd passed, if any (`LISTEN_PID` is us, `LISTEN_FDS` >= 1), with
    /// its address (nil when it is not IPv4, IPv6 or a Unix socket path) and whether that
    /// is loopback (or a Unix socket).
    public static func fromSystemd(environment: [String: String]) -> (fd: Int32, address: ListenAddress?, localOnly: Bool)? {
        guard let fd = SystemdListenSocket.descriptor(environment: environment) else { return nil }
        return (fd, boundAddress(fd), isLocalOnly(fd))
    }

    /// The address `fd` is bound to (or, with `peer`, connected from), as `--listen`
    /// would name it.
    static func boundAddress(_ fd: Int32, peer: Bool = false) -> ListenAddress? {
        guard var storage = localAddress(fd, peer: peer) else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        func host() -> String { String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        switch Int32(storage.ss_family) {
        case AF_INET:
            var address = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee } }
            guard inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count)) != nil else { return nil }
            return .inet(host: host(), port: UInt16(bigEndian: address.sin_port))
        case AF_INET6:
            var address = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee } }
            guard inet_ntop(AF_INET6, &address.sin6_addr, &text, socklen_t(text.count)) != nil else { return nil }
            return .inet6(host: host(), port: UInt16(bigEndian: address.sin6_port))
        case AF_UNIX:
            let address = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_un.self, capacity: 1) { $0.pointee } }
            let path = withUnsafeBytes(of: address.sun_path) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            return path.hasPrefix("/") ? .unix(path: path) : nil
        default:
            return nil
        }
    }

    /// The host a browser connected from, as the limit on request heads per address
    /// counts it: its IP address, or `unix` for every peer of a Unix socket.
    static func peerHost(_ fd: Int32) -> String {
        switch boundAddress(fd, peer: true) {
        case .inet(let host, _)?, .inet6(let host, _)?: return host
        default: return "unix"
        }
    }

    /// What `getsockname` (or, with `peer`, `getpeername`) says of `fd`.
    private static func localAddress(_ fd: Int32, peer: Bool = false) -> sockaddr_storage? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
        } == 0
        return ok ? storage : nil
    }

    /// Whether `fd` is bound to a loopback address or is a Unix socket.
    static func isLocalOnly(_ fd: Int32) -> Bool {
        guard var storage = localAddress(fd) else { return false }
        switch Int32(storage.ss_family) {
        case AF_UNIX: return true
        case AF_INET:
            let address = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee } }
            return UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127
        case AF_INET6:
            let address = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee } }
            var loopback = in6addr_loopback
            return memcmp(&loopback, [address.sin6_addr], MemoryLayout<in6_addr>.size) == 0
        default: return false
        }
    }

    /// The mode of a socket made for `--listen unix:PATH`: the owner and its group.
    public static let socketMode: mode_t = 0o660

    /// Binds and listens on `address`.
    public static func create(_ address: ListenAddress) throws(ListenError) -> Int32 {
        switch address {
        case .inet(let host, let port):
            return try bindNumeric(host: host, port: port, family: AF_INET, name: address.description)
        case .inet6(let host, let port):
            return try bindNumeric(host: host, port: port, family: AF_INET6, name: address.description)
        case .unix(let path):
            var st = stat()
            if lstat(path, &st) == 0 {
                // Only a stale socket is replaced; never a file, a link or a live server.
                guard st.st_mode & S_IFMT == S_IFSOCK else { throw ListenError(description: "\(path) exists and is not a socket") }
                if (try? FeedConnector(path: path).connect()).map({ close($0) }) != nil {
                    throw ListenError(description: "something already listens on \(path)")
                }
                unlink(path)
            }
            guard let sun = UnixSocketAddress(path: path) else { throw ListenError(description: "socket path too long: \(path)") }
            // The mode is set here, before listen(2) lets anyone connect, never left to the
            // umask: owner and group, like eventd's socket (a proxy reaches it as a member).
            return try bindAndListen(family: AF_UNIX, name: address.description) { fd in
                let bound = sun.withSockaddr { bind(fd, $0, $1) }
                return bound == 0 ? chmod(path, socketMode) : bound
            }
        }
    }

    /// Binds to a numeric IPv4 or IPv6 address: `getaddrinfo` with `AI_NUMERICHOST`
    /// parses it and never asks a resolver.
    private static func bindNumeric(host: String, port: UInt16, family: Int32, name: String) throws(ListenError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = family
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let info = found else {
            throw ListenError(description: "bad \(family == AF_INET6 ? "IPv6" : "IPv4") address \(host)")
        }
        defer { freeaddrinfo(info) }
        return try bindAndListen(family: family, name: name) { fd in bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) }
    }

    private static func bindAndListen(family: Int32, name: String, bind: (Int32) -> Int32) throws(ListenError) -> Int32 {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ListenError(description: "socket(): \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        if family != AF_UNIX { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) }
        if family == AF_INET6 { setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size)) }
        let bound = bind(fd)
        // The kernel's maximum: a burst of browsers that overflows a TCP accept queue is
        // not refused but left half-open (the final ACK dropped) for up to a minute.
        guard bound == 0, listen(fd, SOMAXCONN) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ListenError(description: "cannot listen on \(name): \(reason)")
        }
        return fd
    }
}
