import Foundation
import Testing
import CanonicalJSON
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// 1. `eventctl import` SIGKILLed at random moments: the database is always sound and
/// holds the whole import or none of it. Alone, the import writes with a rollback
/// journal (`EventStore+RollbackJournal`), which the next open rolls back. Every other
/// round a daemon serves the database meanwhile, so the import writes through the WAL
/// (which outlives the killed writer, and the daemon checkpoints it when it stops): the
/// daemon must show the whole import or none of it, too.
func importCrashSafety() async throws {
    try await runIsolated("import-crash") { sandbox, checks in
        let scale = Rel.scale
        let events = 20_000
        let kills = max(20, 5 * scale)
        let seed = Rel.seed()
        var rng = SeededRandom(seed: seed)

        // The big file, and a database that already holds another calendar.
        let big = sandbox.path("big.ics")
        try writeFile(big, Calendars.generated(events: events, seed: 0xB16, firstDate: .init(year: 2025, month: 1, day: 1), spanDays: 1095))
        let earlierFile = sandbox.path("earlier.ics")
        try writeFile(earlierFile, Calendars.generated(events: 400, seed: 7, prefix: "earlier"))
        let base = sandbox.path("base.db")
        try sandbox.importOK(db: base, [earlierFile, "--calendar", "earlier"])
        guard !FileManager.default.fileExists(atPath: base + "-wal") else { throw RelError("base database left a WAL behind") }
        let before = try DatabaseInspector.content(base)
        checks.check(before.count("earlier") > 0 && before.count("big") == 0, "base database: \(before)")

        // Reference: the same import, not interrupted (also gives its usual run time).
        let work = sandbox.path("work.db")
        try copyDatabase(base, to: work)
        // What it has written so far (the WAL, or with a rollback journal the database
        // file itself, grows as the page cache spills): its largest size marks the commit.
        let baseSize = fileSize(work)
        func written() -> Int { fileSize(work) - baseSize + fileSize(work + "-wal") }
        var writtenMax = 0
        let referenceStart = monotonicNow()
        let referencePID = try sandbox.spawn(Products.eventctl,
                                             ["--db", work, "--socket", sandbox.path("none.sock"), "import", big, "--calendar", "big"],
                                             stdout: "/dev/null", stderr: sandbox.path("reference.err"))
        var referenceExit: ProcessExit?
        while referenceExit == nil {
            writtenMax = max(writtenMax, written())
            referenceExit = sandbox.poll(referencePID)
            if monotonicNow() - referenceStart > 120 { referenceExit = sandbox.kill9(referencePID) }
            usleep(1000)
        }
        guard referenceExit == .exited(0) else { throw RelError("reference import: \(referenceExit!): \(readText(sandbox.path("reference.err")))") }
        let usual = monotonicNow() - referenceStart
        let after = try DatabaseInspector.content(work)
        let whole = after.count("big")
        checks.check(whole > events / 2, "reference import holds \(whole) events of \(events)")
        checks.check(after.fingerprint("earlier") == before.fingerprint("earlier"), "reference import changed calendar earlier")
        // What a daemon shows of `big` in one week, with the whole import.
        let week: JSONValue = ["tz": "UTC", "from": "2025-06-02", "days": 7]
        func bigItems(_ snapshot: JSONValue) -> Int { snapshotItems(snapshot).filter { $0["calendar"]?.stringValue == "big" }.count }
        let wholeItems: Int
        do {
            let d = DaemonProcess(sandbox, db: work, socket: sandbox.path("d.sock"))
            try d.start()
            wholeItems = bigItems(try d.snapshot(week))
            d.stop()
        }
        checks.check(wholeItems > 0, "the reference week shows no event of big")
        var daemonRounds = 0

        var beforeCommit = 0, afterCommit = 0, finishedFirst = 0, bad = 0
        var killTimes: [Double] = []
        // `kills` moments uniform over the usual run time; then a few more aimed at the
        // commit (which uniform moments rarely hit): when the run has written a random
        // size, plus sometimes a few milliseconds (the checkpoint that follows), or alone
        // when its rollback journal goes away.
        let aimed = max(5, kills / 4)
        for round in 0..<(kills + aimed) {
            try copyDatabase(base, to: work)
            let out = sandbox.path("kill.out"), err = sandbox.path("kill.err")
            let delay = Double.random(in: 0..<usual, using: &rng)
            let writtenThreshold = Int.random(in: 1...max(1, writtenMax), using: &rng)
            let extra = Bool.random(using: &rng) ? Double.random(in: 0..<0.05, using: &rng) : 0
            let daemon = round % 2 == 1 ? DaemonProcess(sandbox, db: work, socket: sandbox.path("d.sock"), arguments: ["--interval", "1"]) : nil
            try daemon?.start()
            let pid = try sandbox.spawn(Products.eventctl,
                                        ["--db", work, "--socket", sandbox.path("none.sock"), "import", big, "--calendar", "big"],
                                        stdout: out, stderr: err)
            let started = monotonicNow()
            var early: ProcessExit?
            if round < kills {
                sleepSeconds(delay)
            } else if daemon == nil, round % 4 == 0 {
                // Alone, every other aimed round: just after the commit, when the rollback
                // journal is deleted (the database goes back to WAL then).
                var sawJournal = false
                while early == nil, monotonicNow() - started < 3 * usual {
                    let journal = FileManager.default.fileExists(atPath: work + "-journal")
                    if sawJournal, !journal { break }
                    sawJournal = sawJournal || journal
                    early = sandbox.poll(pid)  // no sleep: the process ends soon after
                }
            } else {
                while early == nil, written() < writtenThreshold, monotonicNow() - started < 3 * usual {
                    early = sandbox.poll(pid)
                    usleep(200)
                }
                sleepSeconds(extra)
            }
            let exit: ProcessExit
            if let early = early ?? sandbox.poll(pid) {
                exit = early
                finishedFirst += 1
            } else {
                exit = sandbox.kill9(pid)
                killTimes.append(monotonicNow() - started)
            }
            if exit != .signaled(SIGKILL) && exit != .exited(0) {
                checks.fail("round \(round): eventctl ended with \(exit): \(readText(err))")
            }
            var shown: Int?
            if let daemon {
                daemonRounds += 1
                shown = (try? daemon.snapshot(week)).map(bigItems)
                checks.check(shown == 0 || shown == wholeItems, "round \(round): the daemon shows \(shown.map(String.init) ?? "nothing") events of big, not 0 or \(wholeItems)")
                let stopped = daemon.stop()
                checks.check(stopped == .exited(0), "round \(round): eventd ended with \(String(describing: stopped))")
            }
            let integrity = try DatabaseInspector.integrity(work)
            let now = try DatabaseInspector.content(work)
            let bigCount = try DatabaseInspector.eventCount(work, calendar: "big")
            let intact = now.fingerprint("earlier") == before.fingerprint("earlier")
            checks.check(integrity == "ok", "round \(round) (kill at \(delay) s): integrity_check: \(integrity)")
            checks.check(intact, "round \(round): calendar earlier changed: \(now.differences(from: before))")
            if now == before && bigCount == 0 {
                beforeCommit += 1
                checks.check(shown == nil || shown == 0, "round \(round): the daemon showed big, the database does not hold it")
            } else if now == after && bigCount == whole {
                afterCommit += 1
                checks.check(shown == nil || shown == wholeItems, "round \(round): the daemon did not show big, the database holds it")
            } else {
                bad += 1
                checks.fail("round \(round) (kill at \(String(format: "%.3f", delay)) s, \(exit)): big holds \(bigCount) of \(whole) events; "
                            + "vs before: \(now.differences(from: before)); vs after: \(now.differences(from: after))")
            }
            unlink(out); unlink(err)
        }

        // Finally an import that is left alone succeeds (on the last round's database).
        let final = try sandbox.importOK(db: work, [big, "--calendar", "big"])
        let finalContent = try DatabaseInspector.content(work)
        checks.check(finalContent == after, "final import: \(finalContent.differences(from: after))")
        checks.check(try DatabaseInspector.integrity(work) == "ok", "final integrity")
        checks.check(beforeCommit + afterCommit + bad == kills + aimed, "every round classified")

        Rel.report("import-crash", [
            ("seed", seed), ("events", whole), ("file_bytes", ((try? FileManager.default.attributesOfItem(atPath: big)[.size]) as? Int) ?? -1),
            ("usual_run_s", usual), ("written_max_bytes", writtenMax), ("kills_uniform", kills), ("kills_aimed_at_end", aimed), ("killed", killTimes.count), ("finished_before_kill", finishedFirst),
            ("rounds_with_daemon", daemonRounds), ("landed_before_commit", beforeCommit), ("landed_after_commit", afterCommit), ("neither", bad),
            ("final_import_s", final.seconds),
        ])
    }
}
