import Foundation
import Glibc
import EventStore
import Feed
import FeedClientKit
import FeedProtocol
import LiveSources

extension SourcesBench {
    /// A 10,000-file vdir followed by the daemon; one file at a time is replaced (by
    /// rename, as vdirsyncer does); the time from the rename until a subscriber has the
    /// diff, over `--changes` changes.
    static func vdirChange(_ options: Options, dir: URL) throws {
        let files = options.int("--files") ?? 10_000
        let changes = options.int("--changes") ?? 30
        let vdir = dir.appendingPathComponent("vdir").path
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        for i in 0..<files { try Data(event(i, summary: "Item \(i)").utf8).write(to: URL(fileURLWithPath: vdir + "/\(i).ics")) }
        let db = dir.appendingPathComponent("vdir.db").path
        let socketPath = dir.appendingPathComponent("feed.sock").path
        let initial: Double
        do {
            let store = try EventStore(path: db)
            let source = try SourcePlanner.plan(vdir, calendar: "many", every: 900)[0]
            try store.addLiveSource(source)
            let t0 = Bench.now()
            _ = SourceSyncer(store: store).syncFiles(source, now: currentUnixTime())
            initial = Bench.now() - t0
        }
        let daemon = try Bench.startDaemon(db: db, socketPath: socketPath, arguments: ["--tz", "UTC"])
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let socket = try FeedSocket(path: socketPath)
        try socket.send(.subscribe(view: ["tz": "UTC", "days": 7], resume: nil))
        let reader = FanoutReaders(descriptors: [socket.fd], threads: 1)
        _ = try reader.waitForAll(marker: FeedMessage.head(.snapshot), timeout: 60)
        // Let the daemon's first scan of the vdir (every file stat'ed and hashed) finish.
        Thread.sleep(forTimeInterval: 3)
        var latencies: [Double] = []
        for n in 0..<changes {
            let path = vdir + "/\(n % 5).ics"
            let temporary = vdir + "/.tmp-\(n)"
            try Data(event(n % 5, summary: "Changed \(n)").utf8).write(to: URL(fileURLWithPath: temporary))
            let t0 = Bench.now()
            guard rename(temporary, path) == 0 else { throw BenchError("rename failed") }
            let done = try reader.waitForAll(marker: FeedMessage.head(.diff), timeout: 30)
            latencies.append((done[0] - t0) * 1000)
            Thread.sleep(forTimeInterval: 0.2)
        }
        latencies.sort()
        func pct(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        print("vdir files=\(files) initial_sync_seconds=\(Bench.format(initial)) changes=\(changes) "
              + String(format: "diff_p50_ms=%.1f diff_p99_ms=%.1f diff_max_ms=%.1f", pct(0.5), pct(0.99), latencies.last ?? 0)
              + String(format: " daemon_rss_mib=%.1f", FanoutBench.peakRSS(pid: daemon.processIdentifier)))
    }

    /// A one-event calendar for file `i`, in the week after 2026-11-29.
    static func event(_ i: Int, summary: String) -> String {
        let day = 29 + i % 5
        let date = day <= 30 ? "202611\(day)" : "2026120\(day - 30)"
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VEVENT\r\nUID:file-\(i)@bench\r\n"
            + "DTSTAMP:20261101T000000Z\r\nDTSTART:\(date)T0\(i % 10)0000Z\r\nDTEND:\(date)T0\(i % 10)3000Z\r\n"
            + "SUMMARY:\(summary)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }
}
