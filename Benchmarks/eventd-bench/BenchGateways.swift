import Foundation
import Glibc

/// The `eventd-web --upstream` gateways of `fanout --via redis`, each on a loopback port
/// of its own, with one token file for all; event streams are opened over raw TCP.
final class BenchGateways {
    let processes: [Process]
    let ports: [UInt16]
    private let token: String

    /// Starts `count` gateways reading `redisURL`, each allowing `maxStreams` answers, and
    /// waits (at most 10 s each) until they listen.
    /// The repository's `web/`: the bench runs from a build directory, where eventd-web
    /// finds no installed dashboard (it looks beside its real file only).
    static let webDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../web").standardized.path

    init(count: Int, redisURL: String, directory: BenchDirectory, maxStreams: Int) throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("eventd-web").path
        token = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let tokenPath = directory.path("web.token")
        guard FileManager.default.createFile(atPath: tokenPath, contents: Data((token + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw BenchError("cannot write \(tokenPath)")
        }
        let level = ProcessInfo.processInfo.environment["EVENTD_BENCH_LOG_LEVEL"] ?? "warning"
        var processes: [Process] = [], ports: [UInt16] = []
        for _ in 0..<count {
            let port = try LoopbackTCP.freePort()
            let gateway = Process()
            gateway.executableURL = URL(fileURLWithPath: executable)
            gateway.arguments = ["--listen", "127.0.0.1:\(port)", "--upstream", redisURL, "--token-file", tokenPath,
                                 "--assets", Self.webDirectory,
                                 "--max-streams", "\(maxStreams)", "--log-level", level]
            try gateway.run()
            processes.append(gateway)
            ports.append(port)
        }
        self.processes = processes
        self.ports = ports
        for (gateway, port) in zip(processes, ports) {
            let deadline = Bench.now() + 10
            while !LoopbackTCP.listens(port) {
                guard gateway.isRunning else { stop(); throw BenchError("eventd-web exited at start") }
                guard Bench.now() < deadline else { stop(); throw BenchError("eventd-web did not listen on \(port) in 10 s") }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }

    deinit { stop() }

    /// Terminates every gateway still running and waits for it.
    func stop() {
        for gateway in processes where gateway.isRunning {
            gateway.terminate()
            gateway.waitUntilExit()
        }
    }

    /// An event stream of `/api/events?QUERY` on gateway `index`, its request sent: the
    /// caller reads it (the response head, then the events) and closes it.
    func openStream(gateway index: Int, query: String) throws -> Int32 {
        let port = ports[index]
        let target = "/api/events?" + query.replacingOccurrences(of: "/", with: "%2F")
        let request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
            + "Accept: text/event-stream\r\n\r\n"
        let fd = try LoopbackTCP.connect(port: port)
        do { try LoopbackTCP.send(fd, Array(request.utf8)) } catch { close(fd); throw error }
        return fd
    }
}
