import Foundation
import Glibc
import EventStore
import FeedClientKit
import FeedProtocol
import CanonicalJSON

/// `eventd-bench fanout --via redis [--gateways G] [--subscribers N] [--days D] [--batch B]`:
/// eventd publishes one view to a `redis-server` the bench starts; G `eventd-web
/// --upstream` gateways read it; N event streams (the lean readers, over raw TCP) are
/// spread over the gateways. One change: the time until each stream has the diff, each
/// gateway's RSS, Redis's `used_memory`. Then the anchor: Redis's own PUB/SUB fanning
/// the same diff line out to N subscribers read the same way.
enum RedisFanoutBench {
    static func run(_ options: inout Options) throws {
        let subscribers = options.int("--subscribers") ?? 20_000
        let gatewayCount = max(1, options.int("--gateways") ?? 4)
        let events = options.int("--events") ?? 100_000
        let days = options.int("--days") ?? 14
        // Streams that join at once: each gets a whole snapshot, and a gateway refuses
        // streams past its output budget (256 MiB), so they join a batch at a time.
        let batch = max(1, options.int("--batch") ?? 200)
        let limit = LoopbackTCP.raiseDescriptorLimit(to: 2 * subscribers + 4096)
        // The streams (here) and Redis's subscribers (in redis-server, with its 32 spare)
        // each need a descriptor beside the few others.
        guard limit >= subscribers + 128 else {
            throw BenchError("RLIMIT_NOFILE is \(limit) and cannot be raised: \(subscribers) streams need \(subscribers + 128)")
        }
        let dir = try BenchDirectory("eventd-fanout-redis"); defer { dir.remove() }
        try Bench.importGenerated(Bench.generatedCalendar(events: events, seed: 42), into: EventStore(path: dir.databasePath))
        let redis = try BenchRedis(directory: dir.path("redis"), clients: subscribers); defer { redis.stop() }
        let query = "tz=Europe/Berlin&days=\(days)"
        let daemon = try Bench.startDaemon(db: dir.databasePath, socketPath: dir.socketPath,
                                           arguments: ["--interval", "1", "--tz", "Europe/Berlin",
                                                       "--publish", redis.url, "--publish-view", query])
        defer { if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() } }
        let gateways = try BenchGateways(count: gatewayCount, redisURL: redis.url, directory: dir,
                                         maxStreams: subscribers / gatewayCount + 64)
        defer { gateways.stop() }

        // A probe on eventd's socket: the snapshot's and the diff's lines as eventd sent them.
        let view: JSONValue = ["tz": "Europe/Berlin", "days": .int(Int64(days))]
        let probe = try FeedSocket(path: dir.socketPath)
        try probe.send(.subscribe(view: ViewFields(view), resume: nil))
        let snapshotBytes = try FanoutBench.lineLength(probe, type: .snapshot)

        // The streams join a batch at a time, round-robin over the gateways.
        var streams: [Int32] = []
        defer { streams.forEach { close($0) } }
        let t0 = Bench.now()
        for first in stride(from: 0, to: subscribers, by: batch) {
            var joining: [Int32] = []
            for i in first..<min(first + batch, subscribers) {
                joining.append(try gateways.openStream(gateway: i % gatewayCount, query: query))
            }
            streams += joining
            do {
                _ = try FanoutReaders(descriptors: joining).waitForAll(marker: FeedMessage.head(.snapshot), timeout: 300)
            } catch {
                throw BenchError("streams \(first + 1)-\(streams.count), waiting for their snapshots: \(error)")
            }
        }
        let snapshotSeconds = Bench.now() - t0
        // Where the time goes: a second subscriber of eventd's socket, and a reader of
        // the view's stream (`XREAD BLOCK`), timed along with the streams.
        let socketTimer = try FeedSocket(path: dir.socketPath)
        try socketTimer.send(.subscribe(view: ViewFields(view), resume: nil))
        _ = try FanoutBench.lineLength(socketTimer, type: .snapshot)
        let streamTimer = try redis.streamReader()
        defer { close(streamTimer) }
        Thread.sleep(forTimeInterval: 2)

        // One event changes; refresh; time until each stream has its diff.
        try FanoutBench.changeOneEvent(db: dir.databasePath)
        let control = try FeedSocket(path: dir.socketPath)
        _ = try control.readLine(timeout: .seconds(5))
        let sent = Bench.now()
        try control.send(.refresh)
        var latencies = try FanoutReaders(descriptors: streams + [socketTimer.fd, streamTimer])
            .waitForAll(marker: FeedMessage.head(.diff), timeout: 120).map { ($0 - sent) * 1000 }
        let (socketMS, streamMS) = (latencies[streams.count], latencies[streams.count + 1])
        latencies = latencies.prefix(streams.count).sorted()
        let diffLine = try Self.line(probe, type: .diff)
        let gatewayRSS = gateways.processes.map { (now: FanoutBench.currentRSS(pid: $0.processIdentifier),
                                                   peak: FanoutBench.peakRSS(pid: $0.processIdentifier)) }
        let usedMemory = try redis.info("memory", "used_memory") / 1_048_576
        let daemonRSS = FanoutBench.peakRSS(pid: daemon.processIdentifier)
        streams.forEach { close($0) }
        streams.removeAll()
        gateways.stop()
        daemon.terminate(); daemon.waitUntilExit()

        // The anchor: the same diff line through Redis's PUB/SUB to as many subscribers.
        let anchor = try RedisAnchor.run(redis: redis, subscribers: subscribers, batch: 1000, line: diffLine)
        let usedMemoryAnchor = try redis.info("memory", "used_memory") / 1_048_576
        redis.stop()

        let pct = FanoutBench.percentile
        print("via=redis gateways=\(gatewayCount) subscribers=\(subscribers) store_events=\(events) days=\(days) "
              + "all_snapshots_seconds=\(Bench.format(snapshotSeconds)) snapshot_bytes=\(snapshotBytes) diff_bytes=\(diffLine.count + 1)")
        for (i, rss) in gatewayRSS.enumerated() {
            print(String(format: "gateway_%d: rss_mib=%.1f peak_rss_mib=%.1f", i, rss.now, rss.peak))
        }
        print(String(format: "eventd: peak_rss_mib=%.1f; redis: used_memory_mib=%.2f (with %d pub/sub subscribers: %.2f)",
                     daemonRSS, usedMemory, subscribers, usedMemoryAnchor))
        print(String(format: "diff on eventd's socket: %.1f ms; in Redis's stream (XREAD BLOCK): %.1f ms", socketMS, streamMS))
        print(String(format: "redis_pubsub: min_ms=%.1f p50_ms=%.1f p99_ms=%.1f max_ms=%.1f (the same line, the same reader)",
                     anchor.first ?? 0, pct(anchor, 0.5), pct(anchor, 0.99), anchor.last ?? 0))
        print(String(format: "min_ms=%.1f p50_ms=%.1f p99_ms=%.1f max_ms=%.1f p99_over_pubsub=%.2f",
                     latencies.first ?? 0, pct(latencies, 0.5), pct(latencies, 0.99), latencies.last ?? 0,
                     pct(latencies, 0.99) / max(pct(anchor, 0.99), 0.001)))
    }

    /// The next line of `type` on `socket` (without its newline).
    static func line(_ socket: FeedSocket, type: FeedMessage.Kind) throws -> [UInt8] {
        let marker = FeedMessage.head(type)
        while let line = try socket.readLine(timeout: .seconds(60)) {
            if line.firstRange(of: marker) != nil { return line }
        }
        throw BenchError("the probe subscriber's connection closed before a \(type)")
    }
}
