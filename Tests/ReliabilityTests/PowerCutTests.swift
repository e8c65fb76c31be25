import CCrashVFS
import EventStore
import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// 8. Power cuts, simulated in-process by the `crash` VFS (`Tests/CCrashVFS`): every
/// write not yet fsynced, and every directory entry not yet dir-synced, is lost at the
/// cut. Each round: a database holding one calendar; an eventd-style connection open
/// throughout (every other round: none, and the eventctl-style import is large enough
/// to write with a rollback journal); two eventctl-style imports on a connection of
/// their own; an eventd-style source sync on a third; the power cut at a random write,
/// sync, truncate or delete (seeded), or after everything. Then, from what the disk
/// holds: `PRAGMA integrity_check` is ok, every acknowledged run (returned without
/// error) is there whole, every other one whole or not at all, the first calendar intact.
func powerCutSafety() async throws {
    try await runIsolated("power-cut") { sandbox, checks in
        _ = crashvfs_register()
        let rounds = 40 * Rel.scale
        let seed = Rel.seed()
        var rng = SeededRandom(seed: seed)
        let files = PowerCutFiles(sandbox)
        var options = StoreOptions(mmapBytes: 0)
        options.vfs = "crash"
        // What each calendar holds when its run is whole: the runs imported without a VFS.
        let expected = try files.wholeCounts(sandbox.path("whole.db"))
        checks.check(files.bytes[.first]!.count >= 1 << 20, "the first import is too small for a rollback journal")
        // The first two rounds run uncut: how many mutations a round makes (the range the
        // cut is drawn from).
        var mutations: [Bool: Int64] = [:]
        var outcomes = (acknowledgedKept: 0, unacknowledgedKept: 0, unacknowledgedAbsent: 0, cutsBeforeEnd: 0)
        for round in 0..<rounds {
            let daemonOpen = round % 2 == 0
            let directory = sandbox.path("round-\(round)") + "/"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            let db = directory + "events.db"
            crashvfs_track(directory)
            do {
                let store = try EventStore(path: db, options: options)
                _ = try store.importCalendars([files.input(.base, directory)])
            }
            // Everything so far is on disk, as after a clean shutdown and sync.
            crashvfs_mark_durable()
            let calibrating = round < 2
            // Uniform over the round, or (one round in three) over its last fifth, where
            // the second import, the sync and their commits are.
            let total = Int(mutations[daemonOpen] ?? 0) + 2
            let tail = round % 3 == 0 ? total * 4 / 5 : 0
            let cutAt = calibrating ? 0 : Int64(tail + rng.next(below: total - tail)) + 1
            crashvfs_arm(cutAt)
            var acknowledged = Set<PowerCutFiles.Run>()
            do {
                let feed = daemonOpen ? try? EventStore(path: db, options: options) : nil
                _ = try? feed?.eventCount()
                do {
                    // eventctl: each import is acknowledged when it returns.
                    let ctl = try? EventStore(path: db, options: options)
                    for run in [PowerCutFiles.Run.first, .second] where (try? ctl?.importCalendars([files.input(run, directory)])) != nil {
                        acknowledged.insert(run)
                    }
                }
                do {
                    // eventd's source runner: a connection per sync, closed after it.
                    let syncer = try? EventStore(path: db, options: options)
                    if (try? syncer?.importCalendars([files.input(.synced, directory)])) != nil { acknowledged.insert(.synced) }
                }
                _ = try? feed?.eventCount()
                if calibrating { mutations[daemonOpen] = crashvfs_mutations() }
                if crashvfs_is_cut() == 0 { crashvfs_cut() } else { outcomes.cutsBeforeEnd += 1 }
                // The connections close here, after the cut: what they write now is lost.
            }
            let restored = crashvfs_restore()
            checks.check(restored == 0, "round \(round): cannot restore the files (errno \(restored))")
            let label = "round \(round) (seed \(seed), cut at \(cutAt), daemon \(daemonOpen))"
            let (integrity, counts) = try PowerCutFiles.inspect(db)
            checks.check(integrity == "ok", "\(label): integrity_check says \(integrity)")
            checks.check(counts[PowerCutFiles.Run.base.rawValue] == expected[PowerCutFiles.Run.base.rawValue],
                         "\(label): the earlier calendar holds \(counts[PowerCutFiles.Run.base.rawValue] ?? 0)")
            for run in PowerCutFiles.Run.changes {
                let held = counts[run.rawValue] ?? 0, whole = expected[run.rawValue] ?? -1
                if acknowledged.contains(run) {
                    checks.check(held == whole, "\(label): acknowledged \(run.rawValue) holds \(held) of \(whole) events")
                    outcomes.acknowledgedKept += held == whole ? 1 : 0
                } else {
                    checks.check(held == 0 || held == whole, "\(label): unacknowledged \(run.rawValue) is torn: \(held) of \(whole)")
                    if held == whole { outcomes.unacknowledgedKept += 1 } else { outcomes.unacknowledgedAbsent += 1 }
                }
            }
            if calibrating {
                checks.check(acknowledged.count == 3, "\(label): an uncut round failed")
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
        crashvfs_track("/nonexistent/")
        Rel.report("power-cut", [("seed", seed), ("rounds", rounds), ("mutations_daemon", mutations[true] ?? 0),
                                 ("mutations_alone", mutations[false] ?? 0), ("cut_mid_run", outcomes.cutsBeforeEnd),
                                 ("acknowledged_kept", outcomes.acknowledgedKept),
                                 ("unacknowledged_whole", outcomes.unacknowledgedKept),
                                 ("unacknowledged_absent", outcomes.unacknowledgedAbsent), ("failures", checks.count)])
    }
}

/// The calendars of the power-cut rounds.
struct PowerCutFiles {
    enum Run: String, CaseIterable {
        case base, first, second, synced
        static let changes: [Run] = [.first, .second, .synced]
    }

    let bytes: [Run: [UInt8]]

    init(_ sandbox: Sandbox) {
        bytes = [
            .base: Calendars.generated(events: 150, seed: 5, prefix: "base"),
            // Over 1 MiB: alone, it writes with a rollback journal (EventStore+RollbackJournal).
            .first: Calendars.generated(events: 4_000, seed: 11, prefix: "first"),
            .second: Calendars.generated(events: 200, seed: 13, prefix: "second"),
            .synced: Calendars.generated(events: 100, seed: 17, prefix: "synced"),
        ]
    }

    /// The run's input, into the calendar named after it; `.synced` as a live source's.
    func input(_ run: Run, _ directory: String) -> ImportInput {
        ImportInput(path: directory + run.rawValue + ".ics", displayName: run.rawValue, bytes: bytes[run]!,
                    calendar: run.rawValue, liveSource: run == .synced ? "feed" : nil)
    }

    /// The events per calendar after every run, imported through the default VFS.
    func wholeCounts(_ db: String) throws -> [String: Int] {
        let store = try EventStore(path: db, options: StoreOptions(mmapBytes: 0))
        _ = try store.importCalendars(Run.allCases.map { input($0, (db as NSString).deletingLastPathComponent + "/") })
        return try store.eventCountsByCalendar()
    }

    /// `PRAGMA integrity_check` and the events per calendar, read through the default VFS
    /// (what a restarted machine would read).
    static func inspect(_ db: String) throws -> (String, [String: Int]) {
        let connection = try Connection(path: db, mmapBytes: 0)
        let integrity = try connection.scalarText("PRAGMA integrity_check") ?? "?"
        var counts: [String: Int] = [:]
        try connection.statement("SELECT c.name, (SELECT count(*) FROM event e WHERE e.calendar_id = c.id) FROM calendar c")
            .forEachRow { counts[$0.text(0)] = Int($0.int(1)) }
        return (integrity, counts)
    }
}
