import Foundation
import Testing
import CanonicalJSON
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// 2. eventd SIGKILLed and restarted on the same socket: `eventctl subscribe` reconnects,
/// gets `resync` (epoch) and a fresh snapshot, and ends equal to a fresh snapshot.
func daemonKilledAndRestarted() async throws {
    try await runIsolated("daemon-restart") { sandbox, checks in
        let rounds = 5 * Rel.scale
        let daemon = DaemonProcess(sandbox)
        let team = sandbox.path("team.ics")
        try writeFile(team, Calendars.simple("team", count: 20))
        try sandbox.importOK(db: daemon.db, [team, "--calendar", "team"])
        try daemon.start()

        let view: JSONValue = ["tz": "UTC", "days": 7]
        let out = sandbox.path("subscribe.out"), err = sandbox.path("subscribe.err")
        sandbox.registerLog(err)
        let replay = NdjsonReplay(path: out)
        let subscriber = try sandbox.spawn(Products.eventctl,
                                           ["--db", daemon.db, "--socket", daemon.socket, "subscribe", "--format", "ndjson",
                                            "--tz", "UTC", "--days", "7"], stdout: out, stderr: err)
        defer { sandbox.terminate(subscriber) }
        guard waitUntil(timeout: 15, { replay.update().state != nil }) else {
            throw RelError("the subscriber got no snapshot: \(readText(err))")
        }

        var staleSockets = 0, reconnectTimes: [Double] = [], liveDiffs = 0
        for round in 0..<rounds {
            let before = replay.update()
            let oldEpoch = before.state?.epoch
            let epochResyncs = before.resyncReasons.filter { $0 == "epoch" }.count

            daemon.crash()
            if checks.check(isSocketFile(daemon.socket), "round \(round): no stale socket file after SIGKILL") { staleSockets += 1 }
            // The data changes while the daemon is down.
            try writeFile(team, Calendars.simple("team r\(round)", count: 20 + round))
            try sandbox.importOK(db: daemon.db, socket: daemon.socket, [team, "--calendar", "team"])

            let restarted = monotonicNow()
            try daemon.start()  // must get past the stale socket file
            let resynced = waitUntil(timeout: 20) {
                let r = replay.update()
                return r.resyncReasons.filter { $0 == "epoch" }.count > epochResyncs && r.state != nil && r.state?.epoch != oldEpoch
            }
            reconnectTimes.append(monotonicNow() - restarted)
            let afterRestart = replay.update()
            checks.check(resynced, "round \(round): no resync(epoch) + snapshot after the restart; seen \(afterRestart.types.suffix(6)), stderr: \(readText(err))")
            checks.check(afterRestart.afterResync.last == "snapshot", "round \(round): resync followed by \(String(describing: afterRestart.afterResync.last))")
            let fresh = try daemon.snapshot(view)
            checks.check(waitUntil(timeout: 10) {
                let s = replay.update().state
                // eventctl subscribes with protocol 2; a one-shot carries protocol 1's digest.
                return s.map { FeedState.digest(of: $0.sections) } == fresh["digest"]?.stringValue && s?.seq == fresh["seq"]?.intValue
            }, "round \(round): the subscriber's state differs from a fresh snapshot after the restart")
            checks.check(snapshotItems(fresh).contains { $0["summary"]?.stringValue == "team r\(round) 0" },
                         "round \(round): the restarted daemon does not show the data imported while it was down")

            // A live change after the restart arrives as a diff.
            let diffsBefore = replay.update().diffs
            try writeFile(team, Calendars.simple("team r\(round) live", count: 21 + round))
            try sandbox.importOK(db: daemon.db, socket: daemon.socket, [team, "--calendar", "team"])
            let gotDiff = waitUntil(timeout: 10) { replay.update().diffs > diffsBefore }
            checks.check(gotDiff, "round \(round): no diff after a live import")
            if gotDiff { liveDiffs += 1 }
            var last: JSONValue = .null
            checks.check(waitUntil(timeout: 10) {
                last = (try? daemon.snapshot(view)) ?? .null
                let s = replay.update().state
                return s.map { FeedState.digest(of: $0.sections) } == last["digest"]?.stringValue && s?.seq == last["seq"]?.intValue
            }, "round \(round): the subscriber's final state differs from a fresh snapshot (seq \(last["seq"]?.description ?? "?"))")
        }

        let final = replay.update()
        checks.check(final.problems.isEmpty, "subscriber stream problems: \(final.problems.prefix(5))")
        checks.check(!readText(err).contains("digest mismatch"), "eventctl subscribe reported a digest mismatch: \(readText(err))")
        checks.check(sandbox.poll(subscriber) == nil, "eventctl subscribe exited: \(readText(err))")
        Rel.report("daemon-restart", [
            ("restarts", rounds), ("stale_socket_files", staleSockets),
            ("resync_epoch", final.resyncReasons.filter { $0 == "epoch" }.count),
            ("snapshots", final.snapshots), ("diffs", final.diffs), ("live_diffs_after_restart", liveDiffs),
            ("max_reconnect_s", reconnectTimes.max() ?? -1), ("digest_mismatches", final.mismatches),
        ])
    }
}
