import Foundation

/// sd_notify without libsystemd: datagrams to `$NOTIFY_SOCKET` (a path, or an
/// abstract name starting with `@`). `WATCHDOG=1` is due every half `$WATCHDOG_USEC`.
public final class SystemdNotifier: Sendable {
    private let fd: Int32
    private let address: sockaddr_un
    private let length: socklen_t
    /// Seconds between watchdog pings, when systemd asked for them.
    public let watchdogInterval: Double?

    public init?(environment: [String: String]) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in raw.copyBytes(from: bytes) }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.fd = fd
        self.address = addr
        self.length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        var interval: Double?
        if let usec = environment["WATCHDOG_USEC"].flatMap(Double.init), usec > 0 {
            let pid = environment["WATCHDOG_PID"].flatMap(Int32.init)
            if pid == nil || pid == getpid() { interval = usec / 2_000_000 }
        }
        watchdogInterval = interval
    }

    deinit { close(fd) }

    /// Sends one notification (`READY=1`, `STATUS=…`, `WATCHDOG=1`, `STOPPING=1`).
    public func send(_ state: String) {
        var addr = address
        let bytes = Array(state.utf8)
        _ = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, length) }
            }
        }
    }
}
