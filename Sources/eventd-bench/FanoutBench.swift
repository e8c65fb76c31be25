import Foundation
import Glibc
import EventStore
import Feed
import Support

/// `eventd-bench fanout`: 1,000 subscribers on one view of the 100,000-event store;
/// one event changes and a refresh is sent; how long until each subscriber has the
/// diff, the daemon's peak RSS, and the CPU an idle timer tick costs.
enum FanoutBench {
    static func run(_ options: inout Options) throws {
        let subscribers = options.int("--subscribers") ?? 1000
        let events = options.int("--events") ?? 100_000
        let dir = try Bench.temporaryDirectory("eventd-fanout")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("events.db").path
        let socketPath = dir.appendingPathComponent("feed.sock").path
        do {
            let store = try EventStore(path: db)
            let bytes = Bench.generatedCalendar(events: events, seed: 42)
            _ = try store.importCalendars([ImportInput(path: "/bench/calendar.ics", displayName: "generated", bytes: bytes, calendar: "bench")])
        }
        // The daemon, from next to this binary.
        let daemonPath = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("eventd").path
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: daemonPath)
        daemon.arguments = ["--db", db, "--socket", socketPath, "--interval", "1", "--max-clients", "\(subscribers + 16)",
                            "--tz", "Europe/Berlin", "--log-level", "warning"]
        var env = ProcessInfo.processInfo.environment
        env["EVENTD_FAKE_NOW"] = "2026-11-29T12:00:00Z"
        daemon.environment = env
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        var waited = 0.0
        while !FileManager.default.fileExists(atPath: socketPath), waited < 10 { Thread.sleep(forTimeInterval: 0.05); waited += 0.05 }

        // Subscribe everyone to one view and wait for every snapshot.
        let view: JSONValue = ["tz": "Europe/Berlin", "days": 14]
        var sockets: [FeedSocket] = []
        for _ in 0..<subscribers {
            let s = try FeedSocket(path: socketPath)
            try s.send(["op": "subscribe", "view": view])
            sockets.append(s)
        }
        let t0 = Bench.now()
        var readers = sockets.map { LineCounter(fd: $0.fd) }
        try waitForAll(&readers, type: "\"type\":\"snapshot\"", timeout: 120)
        let snapshotSeconds = Bench.now() - t0

        // An idle tick: nothing changed, the timer fires every second.
        Thread.sleep(forTimeInterval: 1.5)
        let idleSeconds = Double(options.int("--idle-seconds") ?? 10)
        let cpu0 = cpuSeconds(pid: daemon.processIdentifier)
        Thread.sleep(forTimeInterval: idleSeconds)
        let cpu1 = cpuSeconds(pid: daemon.processIdentifier)
        // The whole daemon's CPU (every thread: timer ticks, the event loop's polls) per tick.
        let idleTickMS = (cpu1 - cpu0) / idleSeconds * 1000

        // One event changes; refresh; time until each subscriber has its diff.
        let store = try EventStore(path: db)
        let change = """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VEVENT\r\nUID:fanout-change@bench\r\n\
        DTSTART:20261201T100000Z\r\nDTEND:20261201T110000Z\r\nSUMMARY:Fan-out probe\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """
        _ = try store.importCalendars([ImportInput(path: "/bench/change.ics", displayName: "change", bytes: Array(change.utf8), calendar: "fanout")])
        let control = try FeedSocket(path: socketPath)
        _ = try control.readLine(timeout: 5)
        for i in readers.indices { readers[i].reset() }
        let sent = Bench.now()
        try control.send(["op": "refresh"])
        let latencies = try waitForAll(&readers, type: "\"type\":\"diff\"", timeout: 60).map { ($0 - sent) * 1000 }.sorted()
        let rss = peakRSS(pid: daemon.processIdentifier)
        func pct(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        print("subscribers=\(subscribers) store_events=\(events) all_snapshots_seconds=\(Bench.format(snapshotSeconds))")
        print(String(format: "p50_ms=%.1f p99_ms=%.1f max_ms=%.1f rss_mib=%.1f idle_tick_cpu_ms=%.3f",
                     pct(0.5), pct(0.99), latencies.last ?? 0, rss, idleTickMS))
    }

    /// Reads every socket until each has delivered a line containing `type`;
    /// returns the time each one did.
    @discardableResult
    static func waitForAll(_ readers: inout [LineCounter], type: String, timeout: Double) throws -> [Double] {
        let deadline = Bench.now() + timeout
        var done = [Double?](repeating: nil, count: readers.count)
        var remaining = readers.count
        let needle = Array(type.utf8)
        var fds = readers.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        while remaining > 0 {
            guard Bench.now() < deadline else { throw BenchError("timed out: \(remaining) subscribers still waiting") }
            let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 100) }
            if n <= 0 { continue }
            for i in fds.indices where fds[i].revents != 0 {
                if readers[i].read(looking: needle), done[i] == nil {
                    done[i] = Bench.now()
                    remaining -= 1
                }
            }
        }
        return done.map { $0! }
    }

    /// CPU time of every thread of `pid` (nanosecond precision from schedstat).
    static func cpuSeconds(pid: Int32) -> Double {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var total = 0.0
        for task in tasks {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
               let ns = text.split(separator: " ").first.flatMap({ Double($0) }) {
                total += ns / 1e9
            }
        }
        return total
    }

    static func peakRSS(pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return (Double(line.split(separator: " ")[1]) ?? 0) / 1024
        }
        return 0
    }
}

/// Reads a socket and notices when a line with a given marker has arrived completely.
struct LineCounter {
    let fd: Int32
    private var tail: [UInt8] = []
    private var sawMarker = false

    init(fd: Int32) { self.fd = fd }

    mutating func reset() { tail = []; sawMarker = false }

    /// Reads what is there; true once a whole line containing `needle` was read.
    mutating func read(looking needle: [UInt8]) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        guard n > 0 else { return false }
        // Keep only what is needed to find the marker and the end of its line.
        for b in buffer[0..<n] {
            if sawMarker { if b == 10 { return true }; continue }
            tail.append(b)
            if tail.count > needle.count { tail.removeFirst(tail.count - needle.count) }
            if tail == needle { sawMarker = true }
            if b == 10 { tail.removeAll(keepingCapacity: true) }
        }
        return false
    }
}
