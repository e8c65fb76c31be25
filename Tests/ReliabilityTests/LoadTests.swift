import Foundation
import Testing
import CanonicalJSON
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// 6. Bounded load: many reading subscribers and one that never reads, while a
/// calendar keeps changing (~2 imports/s). Every reader's local copy matches every
/// diff's digest and, at the end, a fresh snapshot; the stalled subscriber is cut off;
/// the daemon's memory stays bounded.
func loadWithStalledSubscriber() async throws {
    try await runIsolated("load") { sandbox, checks in
        let scale = Rel.scale
        // 600 at scale 1: enough for the feed to write each diff as a batch split over its
        // writer threads (256 jobs a thread), with the stalled subscriber among them.
        let readersWanted = min(1000, 600 + (scale - 1) * 400 / 19)
        // EVENTD_RELIABILITY_LOAD_SECONDS overrides the duration (to try the large setup quickly).
        let duration = ProcessInfo.processInfo.environment["EVENTD_RELIABILITY_LOAD_SECONDS"].flatMap(Double.init) ?? 30.0 * Double(scale)
        let clientBuffer = 262_144
        let seed = Rel.seed()
        var rng = SeededRandom(seed: seed)
        let fdLimit = ensureDescriptorLimit(readersWanted + 256)
        checks.check(fdLimit >= readersWanted + 64, "descriptor limit \(fdLimit) too low for \(readersWanted) subscribers")

        let daemon = DaemonProcess(sandbox, arguments: ["--client-buffer", "\(clientBuffer)", "--stall-timeout", "5",
                                                        "--max-clients", "\(readersWanted + 64)"])
        // Enough events in reserve for ~3 additions per import, ~2 imports a second.
        var calendar = EditableCalendar(events: 1000, seed: seed % 10_000, reserveEvents: max(2000, Int(duration * 7)))
        let file = sandbox.path("live.ics")
        try writeFile(file, calendar.bytes)
        try sandbox.importOK(db: daemon.db, [file, "--calendar", "live"])
        try daemon.start()
        let daemonPID = daemon.pid!

        // The view: three weeks of a calendar with ~20 events a day.
        let view: JSONValue = ["tz": "UTC", "days": 21]
        let first = try daemon.snapshot(view)
        let snapshotBytes = first.canonicalBytes().count

        // The subscriber that never reads: it subscribes, then sleeps. A small receive
        // buffer makes it fall behind sooner.
        let stalled = try SubscriberPool.connect(daemon.socket)
        defer { close(stalled) }
        var small: Int32 = 4096
        setsockopt(stalled, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var request = (["op": "subscribe", "view": view] as JSONValue).canonicalBytes()
        request.append(10)
        _ = request.withUnsafeBytes { send(stalled, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }

        let connectStart = monotonicNow()
        let pool = try SubscriberPool(socket: daemon.socket, count: readersWanted, view: view)
        defer { pool.stopBackground(); pool.closeAll() }
        let connected = pool.pump(until: { $0.allAt(seq: $0.state(of: 0)?.seq ?? -1) && $0.state(of: 0) != nil }, timeout: 60)
        checks.check(connected, "not every reader got its first snapshot")
        let connectSeconds = monotonicNow() - connectStart

        // A slow subscriber of a larger view: it reads nothing for 3 s every 10 s (less
        // than --stall-timeout), so it falls behind its buffer at least at the start
        // (when its first snapshot does not fit) and must get `resync` (overflow) and a
        // fresh snapshot, never a wrong state, and must not be disconnected.
        let slowView: JSONValue = ["tz": "UTC", "days": 45]
        let slowSnapshotBytes = try daemon.snapshot(slowView).canonicalBytes().count
        let slow = try SubscriberPool(socket: daemon.socket, count: 1, view: slowView)
        defer { slow.closeAll() }

        // Memory: sampled throughout.
        let rss = RSSSampler(pid: daemonPID)
        rss.start()
        defer { rss.stop() }
        let baseline = daemon.residentKiB ?? 0

        pool.startBackground()
        var imports = 0, importFailures = 0, changes = (modified: 0, moved: 0, deleted: 0, added: 0)
        var importSeconds: [Double] = []
        let loadStart = monotonicNow()
        let end = loadStart + duration
        while monotonicNow() < end {
            let t0 = monotonicNow()
            let done = calendar.mutate(modify: 6, move: 3, delete: 2, add: 3, using: &rng)
            changes.modified += done.modified; changes.moved += done.moved
            changes.deleted += done.deleted; changes.added += done.added
            try writeFile(file, calendar.bytes)
            let r = try sandbox.eventctl(db: daemon.db, socket: daemon.socket, ["import", file, "--calendar", "live"])
            if r.succeeded { imports += 1 } else { importFailures += 1; checks.fail("import failed: \(r.exit) \(r.stderr)") }
            importSeconds.append(r.seconds)
            let inCycle = (monotonicNow() - loadStart).truncatingRemainder(dividingBy: 10)
            let remaining = 0.5 - (monotonicNow() - t0)
            // In its reading part of the cycle it reads at least 0.2 s per import, however
            // long the import took: on a loaded machine an import can take longer than the
            // half second, and a reader that never reads is the stalled one, not this one.
            if inCycle < 3 { sleepSeconds(remaining) } else { slow.pump(until: { _ in false }, timeout: max(remaining, 0.2)) }
        }
        pool.stopBackground()

        // The end: every reader equals a fresh snapshot.
        let (caughtUp, fresh) = pool.catchUp(with: daemon, timeout: 30 + Double(readersWanted) / 20)
        let behind = pool.readers.indices.filter { pool.digest(of: $0) != fresh["digest"]?.stringValue }.count
        checks.check(caughtUp, "\(behind) of \(pool.readers.count) readers differ from a fresh snapshot (seq \(fresh["seq"]?.description ?? "?"))")
        checks.check(pool.digestMismatches == 0, "\(pool.digestMismatches) digest mismatches: \(pool.problems.prefix(5))")
        checks.check(pool.problemCount == 0, "reader problems: \(pool.problems.prefix(5))")
        checks.check(pool.openCount == pool.readers.count, "\(pool.readers.count - pool.openCount) reading subscribers were disconnected")
        // The slow subscriber catches up, through resync if it overflowed.
        var slowFresh: JSONValue = .null
        let slowCaughtUp = slow.pump(until: { p in
            guard let f = try? daemon.snapshot(slowView) else { return false }
            slowFresh = f
            return p.digest(of: 0) == f["digest"]?.stringValue && p.state(of: 0)?.seq == f["seq"]?.intValue
        }, timeout: 30)
        checks.check(slowCaughtUp, "the slow subscriber differs from a fresh snapshot (seq \(slowFresh["seq"]?.description ?? "?"))")
        checks.check(slow.readers[0].open, "the slow subscriber was disconnected (\(slow.readers[0].closedReason ?? "?"))")
        checks.check(slow.problemCount == 0, "slow subscriber problems: \(slow.problems.prefix(5))")
        // Its snapshot is larger than its buffer, but a snapshot is written in pieces and
        // only the piece in flight counts against --client-buffer: it overflows (and is
        // resynced) only when the diffs queued behind that piece pass the buffer, so
        // whether it did depends on the pace; what it must do either way is catch up
        // (above) with every digest right, never cut off while it reads.
        rss.stop()

        // The stalled subscriber: disconnected after --stall-timeout (or, had it read, resync overflow).
        var stalledBytes = 0, stalledEOF = false, stalledResync = false
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var tail: [UInt8] = []
        let drainEnd = monotonicNow() + 10
        while monotonicNow() < drainEnd {
            var p = pollfd(fd: stalled, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 1000) <= 0 { continue }
            let n = buffer.withUnsafeMutableBytes { recv(stalled, $0.baseAddress, $0.count, 0) }
            if n <= 0 { stalledEOF = true; break }
            stalledBytes += n
            tail = Array((tail + buffer[0..<n]).suffix(4096))
            if String(decoding: tail, as: UTF8.self).contains("\"reason\":\"overflow\"") { stalledResync = true }
        }
        let stallLog = daemon.logLines(containing: "stalled").count, behindLog = daemon.logLines(containing: "fell behind").count
        checks.check(stalledEOF || stalledResync, "the stalled subscriber was neither disconnected nor resynced (read \(stalledBytes) bytes)")
        checks.check(stallLog >= 1, "no 'stalled' disconnect in the log")

        // Memory bounded: never above what the buffers allow, and not growing over the run.
        let samples = rss.samples
        let maxRSS = samples.max() ?? 0
        let third = max(1, samples.count / 3)
        let earlyMax = samples.prefix(third).max() ?? 0, lateMax = samples.suffix(third).max() ?? 0
        let bound = baseline + (readersWanted + 1) * clientBuffer / 1024 + 4 * snapshotBytes / 1024 + 64 * 1024
        checks.check(maxRSS <= bound, "daemon RSS reached \(maxRSS) KiB (baseline \(baseline) KiB, bound \(bound) KiB)")
        checks.check(lateMax <= earlyMax + earlyMax / 2 + 16 * 1024, "daemon RSS grows: first third max \(earlyMax) KiB, last third \(lateMax) KiB")
        let status = try daemon.status()
        checks.check(status["subscribers"]?.intValue == Int64(readersWanted + 1), "status: \(status["subscribers"]?.description ?? "?") subscribers, want the readers and the slow one")
        checks.check(daemon.ping(), "daemon does not answer ping")

        Rel.report("load", [
            ("seed", seed), ("readers", readersWanted), ("duration_s", duration), ("connect_s", connectSeconds),
            ("snapshot_bytes", snapshotBytes), ("imports", imports), ("import_failures", importFailures),
            ("mean_import_s", importSeconds.reduce(0, +) / Double(max(1, importSeconds.count))),
            ("modified", changes.modified), ("moved", changes.moved), ("deleted", changes.deleted), ("added", changes.added),
            ("final_seq", fresh["seq"]?.intValue ?? -1), ("diffs_received", pool.totalDiffs), ("snapshots_received", pool.totalSnapshots),
            ("reader_resync_overflow", pool.totalResyncs("overflow")),
            ("slow_snapshot_bytes", slowSnapshotBytes), ("slow_resync_overflow", slow.totalResyncs("overflow")),
            ("slow_snapshots", slow.totalSnapshots), ("slow_diffs", slow.totalDiffs), ("digest_mismatches", pool.digestMismatches),
            ("bytes_read_MB", Double(pool.bytesRead) / 1e6),
            ("stalled_disconnected", stalledEOF), ("stalled_resync", stalledResync), ("stalled_bytes_read", stalledBytes),
            ("log_stalled", stallLog), ("log_fell_behind", behindLog),
            ("rss_baseline_KiB", baseline), ("rss_max_KiB", maxRSS), ("rss_bound_KiB", bound),
            ("rss_first_third_max_KiB", earlyMax), ("rss_last_third_max_KiB", lateMax), ("rss_samples", samples.count),
        ])
    }
}

/// Samples a process's VmRSS every 200 ms on its own thread.
// @unchecked: `values` is only read and written under `lock`; `loop` only by the test's thread.
final class RSSSampler: @unchecked Sendable {
    let pid: pid_t
    private let lock = NSLock()
    private var values: [Int] = []
    private var loop: BackgroundLoop?

    init(pid: pid_t) { self.pid = pid }

    func start() {
        loop = BackgroundLoop(name: "reliability-rss") { [self] in
            if let v = processResidentKiB(pid) { lock.withLock { values.append(v) } }
            usleep(200_000)
        }
    }

    func stop() {
        loop?.stop()
        loop = nil
    }

    var samples: [Int] { lock.withLock { values } }
}
