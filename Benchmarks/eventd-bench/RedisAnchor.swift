import Foundation
import Glibc
import FeedProtocol
import RuntimeDirectories

/// The anchor of `fanout --via redis`: what a user would otherwise pick, Redis's own
/// PUB/SUB, fanning one line out to as many subscribers, each a raw connection that
/// sent `SUBSCRIBE` and is read by the same lean reader (`FanoutReaders`): the RESP
/// framing around the line is the only parsing, and the reader only looks for the
/// line's marker.
enum RedisAnchor {
    static let channel = "eventd-bench-anchor"

    /// Subscribes `subscribers` connections (`batch` at a time, each batch confirmed),
    /// publishes `line` (a diff line) once; returns each subscriber's latency in ms, sorted.
    /// With `unixSocket`, the subscribers connect to the server's Unix socket there.
    static func run(redis: BenchRedis, subscribers: Int, batch: Int, line: [UInt8], unixSocket: String? = nil) throws -> [Double] {
        try run(redis: redis, subscribers: subscribers, batch: batch, line: line, unixSocket: unixSocket, rounds: 1).latencies[0]
    }

    /// The same, publishing `rounds` times to the same subscribers: latencies per round,
    /// and the server's CPU per round in ms.
    static func run(redis: BenchRedis, subscribers: Int, batch: Int, line: [UInt8], unixSocket: String?,
                    rounds: Int) throws -> (latencies: [[Double]], cpu: [Double]) {
        let subscribe = BenchRedis.encode([Array("SUBSCRIBE".utf8), Array(channel.utf8)])
        var fds: [Int32] = []
        defer { fds.forEach { close($0) } }
        for first in stride(from: 0, to: subscribers, by: batch) {
            var joining: [Int32] = []
            for _ in first..<min(first + batch, subscribers) {
                let fd = try unixSocket.map(connect(path:)) ?? LoopbackTCP.connect(port: redis.port)
                joining.append(fd)
                try LoopbackTCP.send(fd, subscribe)
            }
            fds += joining
            // The confirmation's second line is `subscribe`.
            do {
                _ = try FanoutReaders(descriptors: joining).waitForAll(marker: Array("subscribe".utf8), timeout: 120)
            } catch {
                throw BenchError("Redis subscribers \(first + 1)-\(fds.count), waiting for SUBSCRIBE: \(error)")
            }
        }
        let publisher = try LoopbackTCP.connect(port: redis.port)
        defer { close(publisher) }
        let publish = BenchRedis.encode([Array("PUBLISH".utf8), Array(channel.utf8), line])
        let marker = FeedMessage.head(.diff)
        var latencies: [[Double]] = [], cpu: [Double] = []
        let pid = redis.process.processIdentifier
        for _ in 0..<rounds {
            let before = FanoutBench.threadCPU(pid: pid)
            let sent = Bench.now()
            try LoopbackTCP.send(publisher, publish)
            latencies.append(try FanoutReaders(descriptors: fds).waitForAll(marker: marker, timeout: 120).map { ($0 - sent) * 1000 }.sorted())
            cpu.append(FanoutBench.cpuSeconds(from: before, to: FanoutBench.threadCPU(pid: pid)) * 1000)
        }
        return (latencies, cpu)
    }

    /// A blocking connection to the Unix socket at `path`.
    static func connect(path: String) throws -> Int32 {
        guard let address = UnixSocketAddress(path: path) else { throw BenchError("socket path too long: \(path)") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0, address.withSockaddr({ Glibc.connect(fd, $0, $1) }) == 0 else {
            let message = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw BenchError("connect to \(path): \(message)")
        }
        return fd
    }
}
