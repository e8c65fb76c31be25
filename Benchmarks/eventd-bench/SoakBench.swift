import Foundation
import EventStore
import ICalendar
import FeedClientKit
import FeedProtocol
import CanonicalJSON

/// `eventd-bench soak`: subscribers on several views of a calendar that keeps changing,
/// as a live source's publisher rewrites it: each round imports the calendar with
/// `--changes` events renamed (all of them: a wholesale change), refreshes, and waits
/// until every subscriber has the round's diff. The daemon's RSS is sampled after
/// every round; what matters for a daemon that runs for months is the growth over the
/// second half, once caches and histories are full.
enum SoakBench {
    static let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "UTC"]

    static func run(_ options: inout Options) throws {
        let events = options.int("--events") ?? 4_000
        let changes = min(events, options.int("--changes") ?? 40)
        let viewCount = min(zones.count, options.int("--views") ?? 3)
        let subscribers = options.int("--subscribers") ?? 60
        let days = options.int("--days") ?? 30
        let minutes = Double(options.value("--minutes") ?? "") ?? 3
        let rounds = options.int("--rounds") ?? .max
        let pause = Double(options.int("--interval-ms") ?? 500) / 1000
        let dir = try BenchDirectory("eventd-soak"); defer { dir.remove() }
        var calendar = SoakCalendar(events: events)
        let store = try EventStore(path: dir.databasePath)
        try Bench.importGenerated(calendar.bytes(round: 0), into: store)
        let daemon = try Bench.startDaemon(db: dir.databasePath, socketPath: dir.socketPath,
                                           arguments: ["--interval", "60", "--max-clients", "\(subscribers + 16)"] + (options.value("--daemon-args")?.split(separator: " ").map(String.init) ?? []))
        defer { if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() } }

        var sockets: [FeedSocket] = []
        for n in 0..<subscribers {
            let s = try FeedSocket(path: dir.socketPath)
            try s.send(.subscribe(view: ["tz": .string(zones[n % viewCount]), "days": .int(Int64(days))], resume: nil))
            sockets.append(s)
        }
        let readers = FanoutReaders(descriptors: sockets.map(\.fd))
        _ = try readers.waitForAll(marker: FeedMessage.head(.snapshot), timeout: 300)
        let control = try FeedSocket(path: dir.socketPath)
        _ = try control.readLine(timeout: .seconds(5))
        let startRSS = MemoryBench.currentRSS(pid: daemon.processIdentifier)

        var samples: [(seconds: Double, rss: Double)] = []
        let t0 = Bench.now()
        var round = 0
        while round < rounds, Bench.now() - t0 < minutes * 60 {
            round += 1
            calendar.rename(changes)
            try Bench.importGenerated(calendar.bytes(round: round), into: store)
            try control.send(.refresh)
            // Its answer, read so that nothing waits for the control connection.
            while let line = try control.readLine(timeout: .seconds(30)), !line.starts(with: FeedMessage.head(.ok)) {}
            _ = try readers.waitForAll(marker: Array("\(SoakCalendar.probe) \(round)\"".utf8), timeout: 120)
            samples.append((Bench.now() - t0, MemoryBench.currentRSS(pid: daemon.processIdentifier)))
            Thread.sleep(forTimeInterval: pause)
        }
        let peak = FanoutBench.peakRSS(pid: daemon.processIdentifier)
        let half = samples.filter { $0.seconds >= samples.last!.seconds / 2 }
        let mid = half.first?.rss ?? startRSS, end = samples.last?.rss ?? startRSS
        print("events=\(events) changes_per_round=\(changes) views=\(viewCount) subscribers=\(subscribers) days=\(days) "
              + "rounds=\(round) seconds=\(Bench.format(samples.last?.seconds ?? 0))")
        print(String(format: "soak_start_rss_mib=%.1f soak_mid_rss_mib=%.1f soak_end_rss_mib=%.1f soak_peak_rss_mib=%.1f "
                     + "soak_second_half_growth_mib=%.1f soak_second_half_max_mib=%.1f",
                     startRSS, mid, end, peak, end - mid, half.map(\.rss).max() ?? end))
        if options.value("--samples") == "yes" {
            for s in samples { print(String(format: "sample seconds=%.1f rss_mib=%.1f", s.seconds, s.rss)) }
        }
    }
}

/// The soak's calendar: `events` one-hour events over the views' first four weeks
/// (from the benchmarks' fixed date), each with a version in its summary, and a probe
/// event every view shows, renamed each round so that subscribers can tell the round's
/// diff has arrived.
struct SoakCalendar {
    static let probe = "Soak probe"
    var versions: [Int]
    private var next = 0

    init(events: Int) { versions = Array(repeating: 0, count: events) }

    /// Renames the next `count` events (round-robin).
    mutating func rename(_ count: Int) {
        for _ in 0..<count {
            versions[next] += 1
            next = (next + 1) % versions.count
        }
    }

    /// The calendar as of `round`.
    func bytes(round: Int) -> [UInt8] {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//eventd//soak//EN\r\n"
        text += Self.event(uid: "probe", day: 0, hour: 12, summary: "\(Self.probe) \(round)")
        for (i, version) in versions.enumerated() {
            text += Self.event(uid: "e\(i)", day: i % 28, hour: 6 + i % 14, summary: "Event \(i) version \(version)")
        }
        return Array((text + "END:VCALENDAR\r\n").utf8)
    }

    private static func event(uid: String, day: Int, hour: Int, summary: String) -> String {
        let date = GregorianCalendar.date(daysSinceEpoch: GregorianCalendar.daysSinceEpoch(year: 2026, month: 11, day: 29) + day)
        let stamp = String(format: "%04d%02d%02d", date.year, date.month, date.day)
        let hh = String(format: "%02d", hour), end = String(format: "%02d", hour + 1)
        return "BEGIN:VEVENT\r\nUID:\(uid)@soak\r\nDTSTART:\(stamp)T\(hh)0000Z\r\nDTEND:\(stamp)T\(end)0000Z\r\n"
            + "SUMMARY:\(summary)\r\nEND:VEVENT\r\n"
    }
}
