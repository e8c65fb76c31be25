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
/// sync, truncate or delete (seeded), or after everything; a last round cuts right after
/// a rollback journal's commit. Then, from what the disk
/// holds: `PRAGMA integrity_check` is ok, every acknowledged run (returned without
/// error) is there whole, every other one whole or not at all, the first calendar intact.
func powerCutSafety() async throws {
    try await runIsolated("power-cut") { sandbox, checks in
        _ = crashvfs_register()
        let rounds = 40 * Rel.scale
        let seed = Rel.seed()
        var rng = SeededRandom(seed: seed)
        let files = PowerCutFiles(sandbox)
        // What each calendar holds when its run is whole: the runs imported without a VFS.
        let expected = try files.wholeCounts(sandbox.path("whole.db"))
        checks.check(files.bytes[.first]!.count >= 1 << 20, "the first import is too small for a rollback journal")
        // The first two rounds run uncut: how many mutations a round makes (the range the
        // cut is drawn from). The last cuts right after the rollback journal's commit (its
        // unlink): only a dir-synced unlink (`synchronous = EXTRA`) keeps that import, which
        // is acknowledged (the return to WAL after it fails quietly).
        var mutations: [Bool: Int64] = [:]
        var outcomes = (acknowledgedKept: 0, unacknowledgedKept: 0, unacknowledgedAbsent: 0, cutsBeforeEnd: 0)
        for round in 0..<(rounds + 1) {
            let daemonOpen = round % 2 == 0 && round < rounds
            let directory = sandbox.path("round-\(round)") + "/"
            // Uniform over the round, or (one round in three) over its last fifth, where
            // the second import, the sync and their commits are.
            let total = Int(mutations[daemonOpen] ?? 0) + 2
            let tail = round % 3 == 0 ? total * 4 / 5 : 0
            let cut: PowerCutFiles.Cut = round < 2 ? .never : round >= rounds ? .afterDelete("-journal")
                : .at(Int64(tail + rng.next(below: total - tail)) + 1)
            let (acknowledged, made, cutMidway) = try files.round(in: directory, daemonOpen: daemonOpen, cut: cut)
            if round < 2 { mutations[daemonOpen] = made }
            if cutMidway { outcomes.cutsBeforeEnd += 1 }
            let restored = crashvfs_restore()
            checks.check(restored == 0, "round \(round): cannot restore the files (errno \(restored))")
            let label = "round \(round) (seed \(seed), cut \(cut), daemon \(daemonOpen))"
            let (integrity, counts) = try PowerCutFiles.inspect(directory + "events.db")
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
            if round < 2 { checks.check(acknowledged.count == 3, "\(label): an uncut round failed") }
            if round >= rounds { checks.check(acknowledged.contains(.first), "\(label): the journal's import was not acknowledged") }
            try? FileManager.default.removeItem(atPath: directory)
        }
        crashvfs_track("/nonexistent/")
        Rel.report("power-cut", [("seed", seed), ("rounds", rounds + 1), ("mutations_daemon", mutations[true] ?? 0),
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

    /// When a round's power is cut.
    enum Cut: CustomStringConvertible {
        /// After everything (the connections' closing is lost).
        case never
        /// At that mutation (write, sync, truncate, delete) of the round's files.
        case at(Int64)
        /// At the first mutation after a file ending so was deleted, once the first
        /// import's transaction has begun writing.
        case afterDelete(String)

        var description: String {
            switch self {
            case .never: return "at the end"
            case .at(let n): return "at mutation \(n)"
            case .afterDelete(let suffix): return "after deleting *\(suffix)"
            }
        }
    }

    let bytes: [Run: [UInt8]]
    let options: StoreOptions = {
        var options = StoreOptions(mmapBytes: 0)
        options.vfs = "crash"
        return options
    }()

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

    /// One round in `directory` (made here): the base calendar, then, from a durable
    /// state, the runs until `cut`. Returns the runs acknowledged, the mutations made
    /// (before the cut), and whether the cut came before the end.
    func round(in directory: String, daemonOpen: Bool, cut: Cut) throws -> (Set<Run>, Int64, Bool) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let db = directory + "events.db"
        crashvfs_track(directory)
        do {
            let store = try EventStore(path: db, options: options)
            _ = try store.importCalendars([input(.base, directory)])
        }
        // Everything so far is on disk, as after a clean shutdown and sync.
        crashvfs_mark_durable()
        switch cut {
        case .never: crashvfs_arm(0)
        case .at(let n): crashvfs_arm(n)
        case .afterDelete: crashvfs_arm(0)
        }
        var armed = false
        var acknowledged = Set<Run>()
        let feed = daemonOpen ? try? EventStore(path: db, options: options) : nil
        _ = try? feed?.eventCount()
        do {
            // eventctl: each import is acknowledged when it returns.
            let ctl = try? EventStore(path: db, options: options)
            for run in [Run.first, .second] where (try? ctl?.importCalendars([input(run, directory)], progress: { _ in
                // Inside the import's transaction: the next journal deleted is its commit.
                if case .afterDelete(let suffix) = cut, run == .first, !armed { armed = true; crashvfs_arm_after_delete(suffix) }
            })) != nil {
                acknowledged.insert(run)
            }
        }
        do {
            // eventd's source runner: a connection per sync, closed after it.
            let syncer = try? EventStore(path: db, options: options)
            if (try? syncer?.importCalendars([input(.synced, directory)])) != nil { acknowledged.insert(.synced) }
        }
        _ = try? feed?.eventCount()
        let made = crashvfs_mutations()
        let midway = crashvfs_is_cut() != 0
        crashvfs_cut()
        // The eventd-style connection closes after the cut: what it writes now is lost.
        withExtendedLifetime(feed) {}
        return (acknowledged, made, midway)
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
