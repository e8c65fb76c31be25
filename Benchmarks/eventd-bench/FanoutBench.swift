import Foundation
import Glibc
import EventStore
import Feed
import FeedClientKit
import FeedProtocol
import CanonicalJSON

/// `eventd-bench fanout`: 1,000 subscribers (`--subscribers`) on one 14-day view
/// (`--days`) of the 100,000-event store; one event changes and a refresh is sent; how long until each
/// subscriber has the diff, the daemon's peak RSS, and its CPU while idle; then the same
/// reads against an echo server, the client's own floor.
enum FanoutBench {
    static func run(_ options: inout Options) throws {
        switch options.value("--via") {
        case nil, "socket": break
        case "redis": return try RedisFanoutBench.run(&options)
        case let other?: throw BenchError("--via \(other): socket or redis")
        }
        let subscribers = options.int("--subscribers") ?? 1000
        let events = options.int("--events") ?? 100_000
        let days = options.int("--days") ?? 14
        let dir = try BenchDirectory("eventd-fanout"); defer { dir.remove() }
        let db = dir.databasePath, socketPath = dir.socketPath
        try Bench.importGenerated(Bench.generatedCalendar(events: events, seed: 42), into: EventStore(path: db))
        // `--publish redis`: the daemon also publishes the view to a redis-server of its own.
        var publish: [String] = []
        var redis: BenchRedis?
        defer { redis?.stop() }
        switch options.value("--publish") {
        case nil, "off": break
        case "redis":
            let server = try BenchRedis(directory: dir.path("redis"), clients: 16)
            redis = server
            publish = ["--publish", server.url, "--publish-view", "tz=Europe/Berlin&days=\(days)"]
        case let other?: throw BenchError("--publish \(other): off or redis")
        }
        let daemon = try Bench.startDaemon(db: db, socketPath: socketPath,
                                           arguments: ["--interval", "1", "--max-clients", "\(subscribers + 16)", "--tz", "Europe/Berlin"] + publish)
        defer { if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() } }

        // Subscribe everyone to one view and wait for every snapshot; a probe subscriber
        // (read after each phase) tells how large the snapshot and the diff are.
        let view: JSONValue = ["tz": "Europe/Berlin", "days": .int(Int64(days))]
        var sockets: [FeedSocket] = []
        for _ in 0..<subscribers {
            let s = try FeedSocket(path: socketPath)
            try s.send(.subscribe(view: ViewFields(view), resume: nil))
            sockets.append(s)
        }
        let probe = try FeedSocket(path: socketPath)
        try probe.send(.subscribe(view: ViewFields(view), resume: nil))
        let readers = FanoutReaders(descriptors: sockets.map(\.fd))
        let t0 = Bench.now()
        _ = try readers.waitForAll(marker: FeedMessage.head(.snapshot), timeout: 300)
        let snapshotSeconds = Bench.now() - t0
        let snapshotBytes = try Self.lineLength(probe, type: .snapshot)

        // Idle: nothing changes, the timer fires every second, heartbeats go out. The
        // window defaults to one heartbeat period (the daemon's default, 30 s), so every
        // subscriber's heartbeat falls in it once: a shorter window right after the
        // snapshots holds none of them (each is due 30 s after its snapshot) and
        // reported a tenth of what an idle daemon with 10,000 subscribers costs.
        Thread.sleep(forTimeInterval: 1.5)
        let idleSeconds = Double(options.int("--idle-seconds") ?? 30)
        let cpu0 = threadCPU(pid: daemon.processIdentifier)
        Thread.sleep(forTimeInterval: idleSeconds)
        let cpu1 = threadCPU(pid: daemon.processIdentifier)
        // The whole daemon's CPU (every thread: timer ticks, the event loop) per second.
        let idleMS = cpuSeconds(from: cpu0, to: cpu1) / idleSeconds * 1000

        // One event changes; refresh; time until each subscriber has its diff. `--rounds N`
        // repeats it (the event renamed each time) and reports medians of the rounds.
        let rounds = max(1, options.int("--rounds") ?? 1)
        let control = try FeedSocket(path: socketPath)
        _ = try control.readLine(timeout: .seconds(5))
        var latencyRounds: [[Double]] = []
        var diffLine: [UInt8] = []
        // The daemon's CPU per round (every thread: the refresh's recompute too).
        var cpuRounds: [Double] = []
        for round in 0..<rounds {
            try changeOneEvent(db: db, round: round)
            let cpuBefore = threadCPU(pid: daemon.processIdentifier)
            let sent = Bench.now()
            try control.send(.refresh)
            latencyRounds.append(try readers.waitForAll(marker: FeedMessage.head(.diff), timeout: 120).map { ($0 - sent) * 1000 }.sorted())
            cpuRounds.append(cpuSeconds(from: cpuBefore, to: threadCPU(pid: daemon.processIdentifier)) * 1000)
            diffLine = try Self.line(probe, type: .diff)
        }
        let latencies = latencyRounds.sorted { spread($0) < spread($1) }[rounds / 2]
        let diffBytes = diffLine.count + 1
        let rss = peakRSS(pid: daemon.processIdentifier)
        sockets.removeAll()
        daemon.terminate()
        daemon.waitUntilExit()
        // --against redis: Redis's PUB/SUB sends the same diff line to as many readers
        // of the same kind on a Unix socket, right after (the readers of eventd are gone).
        var anchorRounds: [[Double]] = [], anchorCPU: [Double] = []
        if options.value("--against") == "redis" {
            let socket = dir.path("redis.sock")
            let server = try BenchRedis(directory: dir.path("anchor"), clients: subscribers + 16, unixSocket: socket)
            defer { server.stop() }
            (anchorRounds, anchorCPU) = try RedisAnchor.run(redis: server, subscribers: subscribers, batch: 500, line: diffLine + [10],
                                                            unixSocket: socket, rounds: rounds)
        }

        // The same reads from a server that only echoes: what the client itself costs.
        let floor = try Self.echoFloor(subscribers: subscribers, snapshotBytes: snapshotBytes, diffBytes: diffBytes,
                                       path: dir.path("echo.sock"))
        let pct = percentile
        print("publish=\(redis == nil ? "off" : "redis") subscribers=\(subscribers) store_events=\(events) days=\(days) all_snapshots_seconds=\(Bench.format(snapshotSeconds)) "
              + "snapshot_bytes=\(snapshotBytes) diff_bytes=\(diffBytes)")
        // min: the first subscriber's diff, i.e. the refresh's way to the recompute and back
        // before any fan-out (it includes the refresh's coalescing with the last timer tick).
        print(String(format: "min_ms=%.1f p50_ms=%.1f p99_ms=%.1f max_ms=%.1f rss_mib=%.1f idle_cpu_ms_per_s=%.3f",
                     latencies.first ?? 0, pct(latencies, 0.5), pct(latencies, 0.99), latencies.last ?? 0, rss, idleMS))
        print(String(format: "client_floor: all_snapshots_seconds=%.3f p50_ms=%.1f p99_ms=%.1f (an echo server, the same reads)",
                     floor.snapshotSeconds, pct(floor.latencies, 0.5), pct(floor.latencies, 0.99)))
        if !anchorRounds.isEmpty {
            // The spread: from the first reader's arrival to the 99th percentile's, which
            // leaves out eventd's recompute before its first write. Medians of the rounds.
            let anchor = anchorRounds.sorted { spread($0) < spread($1) }[rounds / 2]
            let ours = spread(latencies), theirs = spread(anchor)
            print(String(format: "redis_pubsub: min_ms=%.1f p50_ms=%.1f p99_ms=%.1f spread_ms=%.1f eventd_spread_ms=%.1f spread_ratio=%.2f rounds=%d",
                         anchor.first ?? 0, pct(anchor, 0.5), pct(anchor, 0.99), theirs, ours, theirs > 0 ? ours / theirs : 0, rounds))
            if rounds > 1 {
                let each = { (r: [[Double]]) in r.map { String(format: "%.1f", spread($0)) }.joined(separator: ",") }
                print("spread_rounds_ms: eventd=\(each(latencyRounds)) redis=\(each(anchorRounds))")
            }
            // The servers' CPU per round (median), which the readers' two threads share the cores with.
            let median = { (v: [Double]) in v.sorted()[v.count / 2] }
            print(String(format: "server_cpu_ms: eventd=%.1f redis=%.1f", median(cpuRounds), median(anchorCPU)))
        }
    }

    /// First arrival to the 99th percentile's, of sorted latencies.
    static func spread(_ sorted: [Double]) -> Double { percentile(sorted, 0.99) - (sorted.first ?? 0) }

    /// Imports one new event into the store at `db` (the daemon sees it on its refresh).
    static func changeOneEvent(db: String, round: Int = 0) throws {
        let change = """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VEVENT\r\nUID:fanout-change@bench\r\n\
        DTSTART:20261201T100000Z\r\nDTEND:20261201T110000Z\r\nSUMMARY:Fan-out probe \(round)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """
        _ = try EventStore(path: db).importCalendars([ImportInput(path: "/bench/change.ics", displayName: "change",
                                                                  bytes: Array(change.utf8), calendar: "fanout")])
    }

    /// The value at fraction `p` of the sorted `values`.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        values.isEmpty ? 0 : values[min(values.count - 1, Int(Double(values.count) * p))]
    }

    /// Reads `socket` up to the first line of `type`; returns its length with the newline.
    /// (The lines are found by their head, not decoded: a snapshot can be megabytes.)
    static func lineLength(_ socket: FeedSocket, type: FeedMessage.Kind) throws -> Int {
        try line(socket, type: type).count + 1
    }

    /// The next line of `type` (without its newline).
    static func line(_ socket: FeedSocket, type: FeedMessage.Kind) throws -> [UInt8] {
        let marker = FeedMessage.head(type)
        while let line = try socket.readLine(timeout: .seconds(60)) {
            if line.firstRange(of: marker) != nil { return Array(line) }
        }
        throw BenchError("the probe subscriber's connection closed before a \(type)")
    }

    /// The client's own cost: the same subscribers and reads against `EchoFeed`.
    static func echoFloor(subscribers: Int, snapshotBytes: Int, diffBytes: Int,
                          path: String) throws -> (snapshotSeconds: Double, latencies: [Double]) {
        let server = try EchoFeed.spawn(path: path, subscribers: subscribers, snapshotBytes: snapshotBytes, diffBytes: diffBytes)
        defer { if server.isRunning { server.terminate() } }
        var sockets: [FeedSocket] = []
        for _ in 0..<subscribers {
            let s = try FeedSocket(path: path)
            try s.send(.subscribe(view: nil, resume: nil))
            sockets.append(s)
        }
        let readers = FanoutReaders(descriptors: sockets.map(\.fd))
        let t0 = Bench.now()
        _ = try readers.waitForAll(marker: FeedMessage.head(.snapshot), timeout: 300)
        let snapshotSeconds = Bench.now() - t0
        let control = try FeedSocket(path: path)
        _ = try control.readLine(timeout: .seconds(5))
        let sent = Bench.now()
        try control.send(.refresh)
        let latencies = try readers.waitForAll(marker: FeedMessage.head(.diff), timeout: 120).map { ($0 - sent) * 1000 }.sorted()
        server.waitUntilExit()
        return (snapshotSeconds, latencies)
    }

    /// CPU time of every thread of `pid` (nanosecond precision from schedstat).
    /// CPU seconds of each of the process's threads (`/proc/PID/task/TID/schedstat`).
    static func threadCPU(pid: Int32) -> [String: Double] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var times: [String: Double] = [:]
        for task in tasks {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
               let ns = text.split(separator: " ").first.flatMap({ Double($0) }) {
                times[task] = ns / 1e9
            }
        }
        return times
    }

    /// The CPU seconds the process's threads spent between two `threadCPU` readings. A
    /// thread that ended in between is gone from the second reading: counted up to the
    /// first (a plain difference of sums would go negative).
    static func cpuSeconds(from before: [String: Double], to after: [String: Double]) -> Double {
        after.reduce(0) { $0 + $1.value - (before[$1.key] ?? 0) }
    }

    static func cpuSeconds(pid: Int32) -> Double { threadCPU(pid: pid).values.reduce(0, +) }

    static func peakRSS(pid: Int32) -> Double { statusMiB(pid: pid, field: "VmHWM:") }

    static func currentRSS(pid: Int32) -> Double { statusMiB(pid: pid, field: "VmRSS:") }

    /// A `kB` field of `/proc/PID/status`, in MiB.
    private static func statusMiB(pid: Int32, field: String) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            return (Double(line.split(separator: " ")[1]) ?? 0) / 1024
        }
        return 0
    }
}
