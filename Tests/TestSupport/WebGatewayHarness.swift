import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts the real `eventd-web` beside a `DaemonHarness`'s eventd, on a free loopback
/// port, its log in the daemon's directory; it is stopped with the harness.
public struct WebGatewayHarness: Sendable {
    /// The built `eventd-web`.
    public static var executable: String { Products.path("eventd-web") }

    /// The port it listens on.
    public let port: UInt16
    /// Its pid.
    public let pid: pid_t
    /// Its log file.
    public let logPath: String

    /// The dashboard's address.
    public var url: String { "http://127.0.0.1:\(port)/" }

    /// Its log so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Starts eventd-web for `daemon`'s socket with `arguments`, and waits until it listens.
    public static func start(for daemon: DaemonHarness, arguments: [String] = [], environment: [String: String] = [:],
                             name: String = "eventd-web") async throws -> WebGatewayHarness {
        let port = try freePort()
        let logPath = daemon.directory + "/\(name).log"
        let env = ChildProcess.isolatedEnvironment().merging(environment) { $1 }
        let pid = try daemon.spawnOther(executable, ["--listen", "127.0.0.1:\(port)", "--socket", daemon.socketPath,
                                                     "--log-level", "debug"] + arguments,
                                        environment: env, output: logPath)
        let harness = WebGatewayHarness(port: port, pid: pid, logPath: logPath)
        let deadline = monotonicNow() + 10
        while !harness.log.contains("listening on") {
            if let exit = ChildProcess.poll(pid) { throw HarnessError("eventd-web exited (\(exit)):\n\(harness.log)") }
            if monotonicNow() >= deadline { throw HarnessError("eventd-web did not listen within 10 s:\n\(harness.log)") }
            try await pause(0.01)
        }
        return harness
    }

    /// A loopback TCP port nobody uses now, below the kernel's range of ephemeral ports.
    ///
    /// Why not port 0's pick: that is an ephemeral port, which any outgoing connection
    /// may take between its release here and the server's bind (GatewayLoadTests opens
    /// 1,000 at once beside the other suites): "Address already in use" in CI.
    public static func freePort() throws -> UInt16 {
        let ephemeralStart = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))
            .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first }
            .flatMap { Int($0) } ?? 32768
        let candidates = 10_000..<max(10_001, min(ephemeralStart, 65_536))
        for _ in 0..<200 {
            let port = UInt16(Int.random(in: candidates))
            if try isFree(port) { return port }
        }
        throw HarnessError("no free port in \(candidates) after 200 tries")
    }

    /// Whether a listening socket could bind 127.0.0.1:`port` now.
    private static func isFree(_ port: UInt16) throws -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 }
        }
    }
}
