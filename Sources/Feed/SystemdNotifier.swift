import Foundation
import RuntimeDirectories

/// sd_notify without libsystemd: datagrams to `$NOTIFY_SOCKET` (a path, or an
/// abstract name starting with `@`). `WATCHDOG=1` is due every half `$WATCHDOG_USEC`.
public final class SystemdNotifier: Sendable {
    private let fd: Int32
    private let address: UnixSocketAddress
    /// Time between watchdog pings, when systemd asked for them.
    public let watchdogInterval: Duration?

    public init?(environment: [String: String]) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
        guard let address = UnixSocketAddress(path: path, allowsAbstract: true) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.fd = fd
        self.address = address
        var interval: Duration?
        if let usec = environment["WATCHDOG_USEC"].flatMap(Double.init), usec > 0 {
            let pid = environment["WATCHDOG_PID"].flatMap(Int32.init)
            if pid == nil || pid == getpid() { interval = .seconds(usec / 2_000_000) }
        }
        watchdogInterval = interval
    }

    deinit { close(fd) }

    /// Sends one notification (`READY=1`, `STATUS=…`, `WATCHDOG=1`, `STOPPING=1`).
    public func send(_ state: String) {
        let bytes = Array(state.utf8)
        _ = address.withSockaddr { sa, length in
            bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, length) }
        }
    }
}
