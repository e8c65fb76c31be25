import Foundation
import Testing
import CanonicalJSON
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// 5. Several `eventctl import` processes at once (different and the same calendars),
/// a few rounds, while a daemon with subscribers recomputes: every process succeeds
/// (or fails cleanly as busy), and the database equals the same imports run one after
/// another into a fresh database.
func concurrentImports() async throws {
    try await runIsolated("concurrent-import") { sandbox, checks in
        let scale = Rel.scale
        let rounds = 3 + scale
        // The files stay this size at every scale (more rounds instead): each round rewrites
        // them all, and the subscribers apply the resulting diffs in this (debug) process.
        let eventsPerFile = 1500
        let daemon = DaemonProcess(sandbox)
        let view: JSONValue = ["tz": "UTC", "days": 21]
        var pool: SubscriberPool?
        defer { pool?.stopBackground(); pool?.closeAll() }

        // The jobs of one round: (file, calendar, extra options). Two files share a
        // calendar (disjoint UIDs); one file is imported twice at once; one is --replace.
        struct Job { var file: String; var calendar: String; var options: [String]; var prefix: String }
        let jobs = [
            Job(file: sandbox.path("a.ics"), calendar: "alpha", options: [], prefix: "a"),
            Job(file: sandbox.path("b.ics"), calendar: "alpha", options: [], prefix: "b"),
            Job(file: sandbox.path("c.ics"), calendar: "beta", options: [], prefix: "c"),
            Job(file: sandbox.path("d.ics"), calendar: "gamma", options: ["--replace"], prefix: "d"),
            Job(file: sandbox.path("c.ics"), calendar: "beta", options: [], prefix: "c"),
            Job(file: sandbox.path("e.ics"), calendar: "delta", options: [], prefix: "e"),
        ]
        var contents: [[String: [UInt8]]] = []  // per round: file -> bytes
        var succeeded: [[Int]] = []             // per round: indexes of jobs that succeeded
        var busy = 0, failed = 0, maxRound = 0.0
        for round in 0..<rounds {
            // Round 0: all at once on a database that does not exist yet, no daemon.
            // Then the daemon (and its subscribers) run through the other rounds.
            if round == 1 {
                try daemon.start()
                let p = try SubscriberPool(socket: daemon.socket, count: 3, view: view)
                pool = p
                guard p.pump(until: { $0.allAt(seq: 1) }, timeout: 10) else { throw RelError("subscribers got no snapshot") }
                p.startBackground()
            }
            var files: [String: [UInt8]] = [:]
            for (k, job) in jobs.enumerated() where files[job.file] == nil {
                // Each round changes the files: a different seed, so events come, go and change.
                files[job.file] = Calendars.generated(events: eventsPerFile - 100 * ((round + k) % 3),
                                                      seed: UInt64(1000 * round + k), prefix: job.prefix)
            }
            for (path, bytes) in files { try writeFile(path, bytes) }
            contents.append(files)
            let started = monotonicNow()
            var pids: [(Int, pid_t, String)] = []
            for (k, job) in jobs.enumerated() {
                let err = sandbox.path("job-\(round)-\(k).err")
                let pid = try sandbox.spawn(Products.eventctl,
                                            ["--db", daemon.db, "--socket", daemon.socket, "import", job.file, "--calendar", job.calendar] + job.options,
                                            stdout: "/dev/null", stderr: err)
                pids.append((k, pid, err))
            }
            var ok: [Int] = []
            for (k, pid, err) in pids {
                guard let exit = sandbox.wait(pid, timeout: 120) else {
                    sandbox.kill9(pid)
                    checks.fail("round \(round) job \(k): did not finish in 120 s")
                    continue
                }
                let message = readText(err)
                if exit == .exited(0) {
                    ok.append(k)
                } else if exit == .exited(74), message.contains("busy"), message.split(separator: "\n").count == 1 {
                    busy += 1
                } else {
                    failed += 1
                    checks.fail("round \(round) job \(k): \(exit): \(message)")
                }
            }
            maxRound = max(maxRound, monotonicNow() - started)
            succeeded.append(ok)
        }

        // Subscribers catch up with the final state.
        guard let pool else { throw RelError("no subscribers") }
        pool.stopBackground()
        let (caughtUp, fresh) = pool.catchUp(with: daemon, timeout: 20 + Double(rounds))
        checks.check(caughtUp, "subscribers differ from a fresh snapshot at seq \(fresh["seq"]?.description ?? "?"): \(pool.problems.prefix(3))")
        checks.check(pool.digestMismatches == 0 && pool.problemCount == 0, "subscriber problems: \(pool.problems.prefix(5))")
        checks.check(pool.openCount == pool.readers.count, "subscribers were disconnected")

        // The same imports, one after another, into a fresh database.
        let sequential = sandbox.path("sequential.db")
        for round in 0..<rounds {
            for (path, bytes) in contents[round] { try writeFile(path, bytes) }
            for k in succeeded[round] {
                let job = jobs[k]
                try sandbox.importOK(db: sequential, [job.file, "--calendar", job.calendar] + job.options)
            }
        }
        let concurrentContent = try DatabaseInspector.content(daemon.db)
        let sequentialContent = try DatabaseInspector.content(sequential)
        checks.check(try DatabaseInspector.integrity(daemon.db) == "ok", "integrity_check of the concurrently written database")
        checks.check(concurrentContent == sequentialContent,
                     "concurrent result differs from sequential: \(concurrentContent.differences(from: sequentialContent))")
        // The daemon's own view of it.
        let status = try daemon.status()
        checks.check(status["events"]?.intValue == Int64(concurrentContent.eventCount),
                     "status counts \(status["events"]?.description ?? "?") events, the database holds \(concurrentContent.eventCount)")

        Rel.report("concurrent-import", [
            ("rounds", rounds), ("processes_per_round", jobs.count), ("events_per_file", eventsPerFile),
            ("imports_ok", succeeded.reduce(0) { $0 + $1.count }), ("busy_after_retries", busy), ("other_failures", failed),
            ("max_round_s", maxRound), ("final_events", concurrentContent.eventCount),
            ("subscriber_diffs", pool.totalDiffs), ("digest_mismatches", pool.digestMismatches),
        ])
    }
}
