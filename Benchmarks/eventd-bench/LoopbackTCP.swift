import Foundation
import Glibc

/// Plain loopback TCP for the Redis benchmarks: the lean readers take raw descriptors,
/// so the clients (SSE browsers, Redis subscribers) are sockets written by hand.
enum LoopbackTCP {
    /// A blocking socket connected to 127.0.0.1:`port`; the caller closes it.
    static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        var address = loopback(port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw BenchError("connect to 127.0.0.1:\(port): \(message)")
        }
        return fd
    }

    /// Writes all of `bytes` (blocking).
    static func send(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else {
                if n < 0, errno == EINTR { continue }
                throw BenchError("send: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// Whether something listens on 127.0.0.1:`port` now.
    static func listens(_ port: UInt16) -> Bool {
        guard let fd = try? connect(port: port) else { return false }
        close(fd)
        return true
    }

    /// A loopback port that nobody listens on, below the ephemeral range (20,000
    /// clients take ports from that range; a server's port must not collide with them).
    static func freePort() throws -> UInt16 {
        for _ in 0..<200 {
            let port = UInt16(Int.random(in: 10_000..<30_000))
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { continue }
            var address = loopback(port)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(fd)
            if bound { return port }
        }
        throw BenchError("no free loopback port")
    }

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Raises this process's descriptor limit (children inherit it) to `wanted`: the
    /// hard limit too when allowed (root), else the soft one up to the hard one.
    /// Returns the soft limit now in force.
    @discardableResult
    static func raiseDescriptorLimit(to wanted: Int) -> Int {
        var limit = rlimit()
        getrlimit(RLIMIT_NOFILE_VALUE, &limit)
        if Int(limit.rlim_cur) >= wanted { return Int(limit.rlim_cur) }
        var raised = rlimit(rlim_cur: rlim_t(wanted), rlim_max: max(limit.rlim_max, rlim_t(wanted)))
        if setrlimit(RLIMIT_NOFILE_VALUE, &raised) != 0 {
            raised = rlimit(rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max)
            setrlimit(RLIMIT_NOFILE_VALUE, &raised)
        }
        getrlimit(RLIMIT_NOFILE_VALUE, &limit)
        return Int(limit.rlim_cur)
    }

    /// `RLIMIT_NOFILE` as `getrlimit` takes it (an enum in Glibc's overlay).
    private static var RLIMIT_NOFILE_VALUE: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }
}
