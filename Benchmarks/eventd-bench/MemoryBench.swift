import Foundation
import CalendarGenerator
import EventStore
import Feed
import FeedClientKit
import FeedProtocol
import CanonicalJSON

/// `eventd-bench memory`: the daemon's peak RSS (VmHWM) with one subscriber on a
/// 365-day view (`--days`) of a generated 20,000-event calendar (`--events`) spread over
/// the same 365 days: its
/// first snapshot, then one event changed and the diff after a refresh.
enum MemoryBench {
    static func run(_ options: inout Options) throws {
        let events = options.int("--events") ?? 20_000
        let days = options.int("--days") ?? 365
        let spanDays = options.int("--span-days") ?? days
        let dir = try BenchDirectory("eventd-memory"); defer { dir.remove() }
        let db = dir.databasePath, socketPath = dir.socketPath
        // The calendar's events start within the view's year (from the benchmarks' fixed
        // date), so the 365-day view holds all of them and their repetitions.
        let generator = CalendarGenerator(.init(events: events, seed: 42, firstDate: GeneratorDate(year: 2026, month: 11, day: 29),
                                                spanDays: spanDays))
        var bytes: [UInt8] = []
        _ = generator.write(into: &bytes)
        try Bench.importGenerated(bytes, into: EventStore(path: db))
        let daemon = try Bench.startDaemon(db: db, socketPath: socketPath, arguments: ["--interval", "60", "--tz", "Europe/Berlin"])
        defer { if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() } }
        let idleRSS = FanoutBench.peakRSS(pid: daemon.processIdentifier)

        let view: JSONValue = ["tz": "Europe/Berlin", "days": .int(Int64(days))]
        let subscriber = try FeedSocket(path: socketPath)
        try subscriber.send(.subscribe(view: ViewFields(view), resume: nil))
        let t0 = Bench.now()
        let (snapshotBytes, items) = try snapshotSize(subscriber)
        let snapshotSeconds = Bench.now() - t0
        let afterSnapshot = FanoutBench.peakRSS(pid: daemon.processIdentifier)

        // One event changes; the recompute, diff and encoding run with the view's state held.
        let store = try EventStore(path: db)
        let change = """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VEVENT\r\nUID:memory-change@bench\r\n\
        DTSTART:20261201T100000Z\r\nDTEND:20261201T110000Z\r\nSUMMARY:Memory probe\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """
        _ = try store.importCalendars([ImportInput(path: "/bench/change.ics", displayName: "change", bytes: Array(change.utf8), calendar: "bench")])
        let control = try FeedSocket(path: socketPath)
        _ = try control.readLine(timeout: .seconds(5))
        try control.send(.refresh)
        let diffBytes = try FanoutBench.lineLength(subscriber, type: .diff)
        let peak = FanoutBench.peakRSS(pid: daemon.processIdentifier)
        let current = currentRSS(pid: daemon.processIdentifier)
        print("store_events=\(events) days=\(days) span_days=\(spanDays) items=\(items) snapshot_bytes=\(snapshotBytes) diff_bytes=\(diffBytes) "
              + "snapshot_seconds=\(Bench.format(snapshotSeconds))")
        print(String(format: "memory_idle_rss_mib=%.1f memory_after_snapshot_peak_mib=%.1f memory_rss_now_mib=%.1f memory_peak_rss_mib=%.1f",
                     idleRSS, afterSnapshot, current, peak))
        // --hold S keeps the daemon S seconds more, for a look from outside (gdb, pmap).
        if let hold = options.int("--hold") { print("daemon pid \(daemon.processIdentifier)"); Thread.sleep(forTimeInterval: Double(hold)) }
    }

    /// The length of the next snapshot line (newline included) and how many items it has.
    static func snapshotSize(_ socket: FeedSocket) throws -> (bytes: Int, items: Int) {
        let marker = FeedMessage.head(.snapshot), kind = Array(#""kind":""#.utf8)
        while let line = try socket.readLine(timeout: .seconds(60)) {
            guard line.firstRange(of: marker) != nil else { continue }
            var items = 0, from = line.startIndex
            while let found = line[from...].firstRange(of: kind) { items += 1; from = found.upperBound }
            return (line.count + 1, items)
        }
        throw BenchError("the subscriber's connection closed before a snapshot")
    }

    /// VmRSS of `pid`, MiB.
    static func currentRSS(pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return (Double(line.split(separator: " ")[1]) ?? 0) / 1024
        }
        return 0
    }
}
