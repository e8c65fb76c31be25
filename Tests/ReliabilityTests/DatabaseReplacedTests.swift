import Foundation
import Testing
import CanonicalJSON
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// 4. The database removed, then replaced, under a running daemon: it keeps serving the
/// last good snapshot, says `healthy:false` (with a problem) and logs an error; after
/// SIGHUP it serves the new database, and later imports reach subscribers. The files
/// are sound at the end (no stale WAL applied to another database).
func databaseRemovedAndReplaced() async throws {
    try await runIsolated("db-replaced") { sandbox, checks in
        let daemon = DaemonProcess(sandbox, arguments: ["--interval", "1"])
        let view: JSONValue = ["tz": "UTC", "days": 14]
        let file = sandbox.path("cal.ics")
        try writeFile(file, Calendars.simple("alpha", count: 30))
        try sandbox.importOK(db: daemon.db, [file, "--calendar", "alpha"])
        try daemon.start()
        let pool = try SubscriberPool(socket: daemon.socket, count: 3, view: view)
        defer { pool.closeAll() }
        guard pool.pump(until: { $0.allAt(seq: 1) }, timeout: 10) else { throw RelError("subscribers got no snapshot") }
        var figures: [(String, Any)] = []

        func calendarsShown(_ snapshot: JSONValue) -> Set<String> {
            Set(snapshotItems(snapshot).compactMap { $0["calendar"]?.stringValue })
        }

        /// The daemon notices, stays unhealthy, and keeps serving `served`.
        func expectUnhealthy(_ what: String, serving served: JSONValue) -> Double {
            let t0 = monotonicNow()
            var status: JSONValue = .null
            let noticed = waitUntil(timeout: 6, every: 0.1) {
                status = (try? daemon.status()) ?? .null
                return status["healthy"]?.boolValue == false
            }
            let latency = monotonicNow() - t0
            checks.check(noticed, "\(what): status still healthy after 6 s: \(status)")
            checks.check((status["problem"]?.stringValue ?? "").contains(daemon.db), "\(what): no problem naming the database: \(status)")
            checks.check(daemon.logLines(containing: "<3>").contains { $0.contains(daemon.db) }, "\(what): no error line in the log")
            // It stays unhealthy (no flapping), also when a new view is computed meanwhile,
            // and keeps serving the last good snapshot.
            let other: JSONValue = ["tz": "UTC", "days": 3]
            let extra = try? SubscriberPool(socket: daemon.socket, count: 1, view: other)
            extra?.pump(until: { $0.readers[0].snapshots > 0 || !$0.readers[0].open }, timeout: 5)
            for _ in 0..<8 {
                let s = (try? daemon.status()) ?? .null
                checks.check(s["healthy"]?.boolValue == false, "\(what): status flapped back to healthy before SIGHUP: \(s)")
                pool.pump(timeout: 0.3)
            }
            extra?.closeAll()
            let now = try? daemon.snapshot(view)
            checks.check(now?["digest"] == served["digest"] && now?["seq"] == served["seq"],
                         "\(what): the daemon no longer serves the last good snapshot")
            checks.check(pool.openCount == pool.readers.count, "\(what): subscribers were disconnected")
            checks.check(pool.readers.indices.allSatisfy { pool.digest(of: $0) == served["digest"]?.stringValue },
                         "\(what): subscribers' state changed although the data could not be read")
            return latency
        }

        /// After SIGHUP: healthy, and subscribers reach a snapshot showing `calendar` only.
        func expectReopened(_ what: String, calendar: String) -> Double {
            let t0 = monotonicNow()
            daemon.signal(SIGHUP)
            var status: JSONValue = .null
            checks.check(waitUntil(timeout: 10, every: 0.1) {
                status = (try? daemon.status()) ?? .null
                return status["healthy"]?.boolValue == true
            }, "\(what): not healthy after SIGHUP: \(status)")
            var fresh: JSONValue = .null
            let reached = pool.pump(until: { p in
                guard let f = try? daemon.snapshot(view), calendarsShown(f) == [calendar] else { return false }
                fresh = f
                return p.readers.indices.allSatisfy { p.digest(of: $0) == f["digest"]?.stringValue && p.state(of: $0)?.seq == f["seq"]?.intValue }
            }, timeout: 15)
            checks.check(reached, "\(what): subscribers do not reflect the new database (shown: \(calendarsShown(fresh)), problems \(pool.problems.prefix(3)))")
            return monotonicNow() - t0
        }

        /// A later import reaches the subscribers (the daemon reads the file that is at the path now).
        func expectLiveImport(_ what: String, calendar: String, count: Int) {
            try? writeFile(file, Calendars.simple("\(calendar)", count: count))
            guard (try? sandbox.importOK(db: daemon.db, socket: daemon.socket, [file, "--calendar", calendar])) != nil else {
                checks.fail("\(what): import failed"); return
            }
            var fresh: JSONValue = .null
            let reached = pool.pump(until: { p in
                guard let f = try? daemon.snapshot(view), snapshotItems(f).count == count else { return false }
                fresh = f
                return p.readers.indices.allSatisfy { p.digest(of: $0) == f["digest"]?.stringValue }
            }, timeout: 15)
            checks.check(reached, "\(what): an import after SIGHUP did not reach subscribers (snapshot has \(snapshotItems(fresh).count) items, want \(count))")
        }

        // The whole sequence runs `cycles` times (once at scale 1).
        var maxima: [String: Double] = [:]
        func note(_ figure: (String, Double)) { maxima[figure.0] = max(maxima[figure.0] ?? 0, figure.1) }
        let cycles = 1 + (Rel.scale - 1) / 4
        for _ in 0..<cycles {
            // Removed (rm events.db*), then a new database created at the path by an import.
            let served1 = try daemon.snapshot(view)
            DatabaseFiles.remove(daemon.db)
            note(("removed_detect_s", expectUnhealthy("removed", serving: served1)))
            try writeFile(file, Calendars.simple("beta", count: 25))
            try sandbox.importOK(db: daemon.db, socket: daemon.socket, [file, "--calendar", "beta"])
            _ = expectUnhealthy("removed, new file created", serving: served1)
            note(("removed_reopen_s", expectReopened("removed then recreated", calendar: "beta")))
            expectLiveImport("removed then recreated", calendar: "beta", count: 27)

            // Replaced by another database file (rename over it).
            let other = sandbox.path("other.db")
            try writeFile(file, Calendars.simple("gamma", count: 20))
            try sandbox.importOK(db: other, [file, "--calendar", "gamma"])
            let served2 = try daemon.snapshot(view)
            checks.check(rename(other, daemon.db) == 0, "rename failed")
            note(("replaced_detect_s", expectUnhealthy("replaced", serving: served2)))
            note(("replaced_reopen_s", expectReopened("replaced", calendar: "gamma")))
            expectLiveImport("replaced", calendar: "gamma", count: 23)

            // Replaced, and SIGHUP at once (before the daemon's timer noticed).
            try writeFile(file, Calendars.simple("delta", count: 10))
            try sandbox.importOK(db: other, [file, "--calendar", "delta"])
            checks.check(rename(other, daemon.db) == 0, "rename failed")
            note(("replaced_hup_at_once_reopen_s", expectReopened("replaced, SIGHUP at once", calendar: "delta")))
            expectLiveImport("replaced, SIGHUP at once", calendar: "delta", count: 12)

            // Moved away (mv events.db elsewhere) with committed changes still in the WAL:
            // the moved file must hold them. Then moved back, and SIGHUP.
            expectLiveImport("before the move", calendar: "delta", count: 14)
            let served3 = try daemon.snapshot(view)
            let moved = sandbox.path("moved.db")
            checks.check(rename(daemon.db, moved) == 0, "rename failed")
            note(("moved_detect_s", expectUnhealthy("moved away", serving: served3)))
            let movedIntegrity = (try? DatabaseInspector.integrity(moved)) ?? "cannot open"
            checks.check(movedIntegrity == "ok", "the moved database: integrity_check: \(movedIntegrity)")
            let movedCount = (try? DatabaseInspector.eventCount(moved, calendar: "delta")) ?? -1
            checks.check(movedCount == 14, "the moved database holds \(movedCount) delta events, not the 14 committed before the move")
            unlink(moved + "-wal"); unlink(moved + "-shm")  // left by our own inspection, if any
            checks.check(rename(moved, daemon.db) == 0, "rename back failed")
            note(("moved_back_reopen_s", expectReopened("moved back", calendar: "delta")))
            expectLiveImport("moved back", calendar: "delta", count: 15)
        }
        figures += maxima.sorted { $0.key < $1.key }.map { ("max_" + $0.key, $0.value) }
        figures.append(("cycles", cycles))

        // The file at the path is sound and holds what was imported last, also after the daemon stops.
        let expected = sandbox.path("expected.db")
        for n in [10, 12, 14, 15] {
            try writeFile(file, Calendars.simple("delta", count: n))
            try sandbox.importOK(db: expected, [file, "--calendar", "delta"])
        }
        let stopped = daemon.stop()
        checks.check(stopped == .exited(0), "eventd stopped with \(String(describing: stopped))")
        let integrity = try DatabaseInspector.integrity(daemon.db)
        checks.check(integrity == "ok", "integrity_check after the daemon stopped: \(integrity)")
        let final = try DatabaseInspector.content(daemon.db), want = try DatabaseInspector.content(expected)
        checks.check(final.events == want.events, "database content after the daemon stopped: \(final.differences(from: want))")
        checks.check(pool.digestMismatches == 0 && pool.problemCount == 0, "subscriber problems: \(pool.problems.prefix(5))")
        Rel.report("db-replaced", figures + [
            ("subscribers", pool.readers.count), ("diffs", pool.totalDiffs), ("snapshots", pool.totalSnapshots),
            ("resyncs", pool.readers.reduce(0) { $0 + $1.resyncs.values.reduce(0, +) }), ("digest_mismatches", pool.digestMismatches),
            ("error_log_lines", daemon.logLines(containing: "<3>").count),
        ])
    }
}
