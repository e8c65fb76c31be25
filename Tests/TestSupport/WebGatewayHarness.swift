import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts the real `eventd-web` beside a `DaemonHarness`'s eventd, on a free loopback
/// port, its log in the daemon's directory; it is stopped with the harness. By default
/// it runs as a user would start it, making its own token (in a runtime directory of
/// the daemon's directory); requests made through `get` and `stream` carry the token
/// the page would have received.
public struct WebGatewayHarness: Sendable {
    /// The built `eventd-web`.
    public static var executable: String { Products.path("eventd-web") }

    /// The port it listens on.
    public let port: UInt16
    /// Its pid.
    public let pid: pid_t
    /// Its log file.
    public let logPath: String

    /// The token eventd-web made (nil with `--token-file` or `--no-auth` among the arguments).
    public let token: String?
    /// Its `RUNTIME_DIRECTORY`, where it keeps the token file (unless the test's
    /// environment overrides it).
    public let runtimeDirectory: String

    /// The dashboard's address.
    public var url: String { "http://127.0.0.1:\(port)/" }

    /// The address eventd-web printed: the page keeps the token in its origin's storage.
    public var pageURL: String { url + (token.map { "?token=\($0)" } ?? "") }

    /// The header the page's requests carry (none without a token).
    public var authorization: [String] { token.map { ["Authorization: Bearer \($0)"] } ?? [] }

    /// `authorization` as header lines of a request written by hand, each ending in CRLF.
    public var authorizationLines: String { authorization.map { $0 + "\r\n" }.joined() }

    /// One request with the page's token.
    public func get(_ target: String, method: String = "GET", host: String? = nil, headers: [String] = [],
                    timeout: Double = 10) async throws -> HTTPConnection {
        try await HTTPConnection.get(port: port, target, method: method, host: host, headers: authorization + headers, timeout: timeout)
    }

    /// `/api/events?QUERY` with the page's token.
    public func stream(query: String, lastEventID: String? = nil, headers: [String] = []) async throws -> EventStreamClient {
        try await EventStreamClient(port: port, query: query, lastEventID: lastEventID, headers: authorization + headers)
    }

    /// Its log so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Starts eventd-web for `daemon`'s socket with `arguments`, and waits until it listens
    /// (on `port`, else on a free one: a restart of the same `name` keeps its token).
    public static func start(for daemon: DaemonHarness, arguments: [String] = [], environment: [String: String] = [:],
                             name: String = "eventd-web", port: UInt16? = nil) async throws -> WebGatewayHarness {
        let port = try port ?? freePort()
        let logPath = daemon.directory + "/\(name).log"
        let runtime = daemon.directory + "/\(name)-runtime"
        let env = ChildProcess.isolatedEnvironment(["RUNTIME_DIRECTORY": runtime]).merging(environment) { $1 }
        // A restart appends to the same log: only what this run writes counts.
        let earlier = (try? FileManager.default.attributesOfItem(atPath: logPath)[.size] as? Int) ?? 0
        let pid = try daemon.spawnOther(executable, ["--listen", "127.0.0.1:\(port)", "--socket", daemon.socketPath,
                                                     "--log-level", "debug"] + arguments,
                                        environment: env, output: logPath)
        let ownToken = !arguments.contains("--token-file") && !arguments.contains("--no-auth")
        var harness = WebGatewayHarness(port: port, pid: pid, logPath: logPath, token: nil, runtimeDirectory: runtime)
        var log: String { String(decoding: harness.log.utf8.dropFirst(earlier), as: UTF8.self) }
        let deadline = monotonicNow() + 10
        while !log.contains("listening on") || (ownToken && !log.contains("dashboard: ")) {
            if let exit = ChildProcess.poll(pid) { throw HarnessError("eventd-web exited (\(exit)):\n\(harness.log)") }
            if monotonicNow() >= deadline { throw HarnessError("eventd-web did not listen within 10 s:\n\(harness.log)") }
            try await pause(0.01)
        }
        if ownToken {
            // What a user copies: the address eventd-web printed.
            let line = log.split(separator: "\n").first { $0.hasPrefix("dashboard: ") } ?? ""
            let token = line.split(separator: "?token=").last.map(String.init) ?? ""
            harness = WebGatewayHarness(port: port, pid: pid, logPath: logPath, token: token, runtimeDirectory: runtime)
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
