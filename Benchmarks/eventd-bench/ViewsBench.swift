import Foundation
import EventStore
import FeedClientKit
import FeedProtocol
import CanonicalJSON

/// `eventd-bench views`: what many distinct views cost and give back. One connection
/// subscribes to `--views` views in turn (`--zones` distinct zones, all by default; `--days` days and
/// `--past-days` past days each, as one client opening many dashboard streams would);
/// each subscribe replaces the last, whose view stays for its grace period. Reports
/// the daemon's RSS before, at its peak, and once every view has expired, and how many
/// views the daemon refused for its budget.
enum ViewsBench {
    static func run(_ options: inout Options) throws {
        let count = options.int("--views") ?? 256
        let days = options.int("--days") ?? 3660
        let pastDays = options.int("--past-days") ?? 366
        let grace = options.int("--grace") ?? 5
        let zoneCount = options.int("--zones") ?? count
        let files = options.positionals.isEmpty ? try sampleCalendars() : options.positionals
        let dir = try BenchDirectory("eventd-views"); defer { dir.remove() }
        let store = try EventStore(path: dir.databasePath)
        _ = try store.importCalendars(try files.map { path in
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            return ImportInput(path: path, displayName: name, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), calendar: name)
        })
        setenv("EVENTD_VIEW_GRACE", "\(grace)", 1)
        let daemon = try Bench.startDaemon(db: dir.databasePath, socketPath: dir.socketPath,
                                           arguments: ["--interval", "60"]
                                               + (options.value("--daemon-args")?.split(separator: " ").map(String.init) ?? []))
        defer { if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() } }
        let pid = daemon.processIdentifier
        Thread.sleep(forTimeInterval: 1)
        let startRSS = MemoryBench.currentRSS(pid: pid)

        let t0 = Bench.now()
        let (served, refused) = try subscribeInTurn(count, zones: zoneCount, days: days, pastDays: pastDays, socketPath: dir.socketPath)
        let seconds = Bench.now() - t0
        let peak = FanoutBench.peakRSS(pid: pid), whileHeld = MemoryBench.currentRSS(pid: pid)
        // Every view expires `grace` seconds after its last subscriber left; the hub
        // looks once a second.
        Thread.sleep(forTimeInterval: Double(grace) + 4)
        let afterRSS = MemoryBench.currentRSS(pid: pid)
        let status = try FeedSocket(path: dir.socketPath)
        _ = try status.readLine(timeout: .seconds(5))
        try status.send(.status)
        let remaining = try status.readLine(timeout: .seconds(5)).flatMap { try? JSONValue.parse($0[...], maxDepth: 32) }?["views"]?.intValue ?? -1
        print("views=\(count) days=\(days) past_days=\(pastDays) served=\(served) refused=\(refused) seconds=\(Bench.format(seconds)) views_after_expiry=\(remaining)")
        print(String(format: "views_start_rss_mib=%.1f views_peak_rss_mib=%.1f views_held_rss_mib=%.1f views_after_expiry_rss_mib=%.1f "
                     + "views_returned_within_mib=%.1f", startRSS, peak, whileHeld, afterRSS, afterRSS - startRSS))
        // --hold S keeps the daemon S seconds more, for a look from outside (gdb, pmap).
        if let hold = options.int("--hold") { print("daemon pid \(pid)"); Thread.sleep(forTimeInterval: Double(hold)) }
    }

    /// Subscribes one connection to `count` views in turn, each time until its snapshot
    /// or the error that refuses it; the connection closes on return. The views use
    /// `zones` distinct zones; past that, views of one zone differ by a day in length.
    static func subscribeInTurn(_ count: Int, zones zoneCount: Int, days: Int, pastDays: Int, socketPath: String) throws -> (served: Int, refused: Int) {
        let zones = Array(TimeZone.knownTimeZoneIdentifiers.filter { $0.contains("/") }.sorted().prefix(max(1, zoneCount)))
        let client = try FeedSocket(path: socketPath)
        _ = try client.readLine(timeout: .seconds(5))
        var served = 0, refused = 0
        for n in 0..<count {
            let view: JSONValue = ["tz": .string(zones[n % zones.count]), "days": .int(Int64(days - n / zones.count)),
                                   "past_days": .int(Int64(pastDays))]
            try client.send(.subscribe(view: ViewFields(view), resume: nil))
            while let line = try client.readLine(timeout: .seconds(120)) {
                if line.starts(with: FeedMessage.head(.snapshot)) { served += 1; break }
                if line.starts(with: FeedMessage.head(.error)) { refused += 1; break }
            }
        }
        return (served, refused)
    }

    /// `sample-calendars/*.ics` of the repository (run from its root).
    static func sampleCalendars() throws -> [String] {
        let dir = "sample-calendars"
        return try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".ics") }.sorted().map { dir + "/" + $0 }
    }
}
