import Foundation
import Testing
import EventStore
import CanonicalJSON
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// 3. The disk full, and the file system read-only, during `eventctl import`: exit 74
/// with one `eventctl: ...` line, the database sound and unchanged; afterwards (space
/// freed, writable again) the import works.
func diskFullAndReadOnly() async throws {
    try await runIsolated("disk-full") { sandbox, checks in
        let forceFallback = ProcessInfo.processInfo.environment["EVENTD_RELIABILITY_FORCE_FSIZE"] != nil
        var figures: [(String, Any)] = []

        // Inputs and the expected results (computed on the ordinary file system).
        let baseFile = sandbox.path("base.ics"), bigFile = sandbox.path("more.ics")
        try writeFile(baseFile, Calendars.generated(events: 200, seed: 11, prefix: "base"))
        try writeFile(bigFile, Calendars.generated(events: 3000, seed: 12, prefix: "more"))
        let reference = sandbox.path("reference.db")
        try sandbox.importOK(db: reference, [baseFile, "--calendar", "base"])
        let baseContent = try DatabaseInspector.content(reference)
        try sandbox.importOK(db: reference, [bigFile, "--calendar", "more"])
        let fullContent = try DatabaseInspector.content(reference)
        let dbBytes = ((try? FileManager.default.attributesOfItem(atPath: reference)[.size]) as? Int) ?? 0

        /// One failing import: exit 74, one line, nothing changed.
        func expectIOFailure(_ r: ProcessResult, _ what: String, db: String, expected: DatabaseContent?, verify: Bool = true) {
            let lines = r.stderr.split(separator: "\n")
            checks.check(r.exit == .exited(74), "\(what): exit \(r.exit), expected 74; stderr: \(r.stderr)")
            checks.check(lines.count == 1 && lines[0].hasPrefix("eventctl: "), "\(what): stderr is not one 'eventctl: ' line: \(r.stderr)")
            guard verify, let expected else { return }
            do {
                let integrity = try DatabaseInspector.integrity(db)
                checks.check(integrity == "ok", "\(what): integrity_check: \(integrity)")
                let now = try DatabaseInspector.content(db)
                checks.check(now == expected, "\(what): the database changed: \(now.differences(from: expected))")
            } catch {
                checks.fail("\(what): cannot inspect the database afterwards: \(error)")
            }
        }

        // MARK: Disk full: a small tmpfs, else a loop-mounted ext4 file, else RLIMIT_FSIZE.
        let mountPoint = try sandbox.makeDirectory("full")
        var fullMethod = "none"
        var mountErrors: [String] = []
        if !forceFallback {
            if let e = sandbox.mount(["-t", "tmpfs", "-o", "size=16m,mode=0700", "tmpfs", mountPoint], target: mountPoint) {
                mountErrors.append("tmpfs: \(e)")
                let image = sandbox.path("ext4.img")
                if FileManager.default.createFile(atPath: image, contents: nil), truncate(image, 32 << 20) == 0,
                   let mk = try? sandbox.run("/sbin/mkfs.ext4", ["-q", "-F", image]), mk.succeeded {
                    if let e2 = sandbox.mount(["-o", "loop", image, mountPoint], target: mountPoint) {
                        mountErrors.append("loop ext4: \(e2)")
                    } else {
                        fullMethod = "loop-ext4-32m"
                    }
                } else {
                    mountErrors.append("mkfs.ext4 failed")
                }
            } else {
                fullMethod = "tmpfs-16m"
            }
        }

        if fullMethod != "none" {
            let db = mountPoint + "/events.db"
            try sandbox.importOK(db: db, [baseFile, "--calendar", "base"])
            checks.check(try DatabaseInspector.content(db) == baseContent, "base import on \(fullMethod)")
            // A daemon serves the database meanwhile (its socket is outside the full file system).
            let daemon = DaemonProcess(sandbox, db: db, socket: sandbox.path("full.sock"))
            try daemon.start()
            let view: JSONValue = ["tz": "UTC", "days": 21]
            let pool = try SubscriberPool(socket: daemon.socket, count: 1, view: view)
            defer { pool.closeAll() }
            guard pool.pump(until: { $0.state(of: 0) != nil }, timeout: 10) else { throw RelError("no snapshot") }
            let servedBefore = pool.digest(of: 0)
            let filler = mountPoint + "/filler"
            /// Fills the file system, then leaves `free` bytes.
            func fill(leaving free: Int) throws {
                let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
                guard fd >= 0 else { throw RelError("cannot create \(filler)") }
                defer { close(fd) }
                let chunk = [UInt8](repeating: 0xA5, count: 1 << 16)
                var written = 0
                while true {
                    let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    if n <= 0 { break }
                    written += n
                }
                var small = [UInt8](repeating: 0xA5, count: 512)
                while small.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 { written += 512; small[0] &+= 1 }
                if free > 0 { _ = ftruncate(fd, off_t(max(0, written - free))) }
                fsync(fd)
            }
            // Several amounts of space left, so that the import fails at different points
            // (growing the WAL, committing, checkpointing into the database file).
            var leaves = [0, 16 << 10, 256 << 10, 1 << 20]
            if Rel.scale > 1 {
                var rng = SeededRandom(seed: Rel.seed())
                for _ in 0..<(2 * Rel.scale) { leaves.append(Int.random(in: 0..<(dbBytes), using: &rng)) }
            }
            var failures = 0, succeededAnyway = 0
            for leave in leaves {
                try fill(leaving: leave)
                let free = freeBytes(mountPoint)
                let r = try sandbox.eventctl(db: db, ["import", bigFile, "--calendar", "more"])
                unlink(filler)
                pool.pump(timeout: 0.05)
                if r.succeeded {
                    // It fitted after all (SQLite needs less than expected): then it must be whole.
                    succeededAnyway += 1
                    checks.check(try DatabaseInspector.content(db) == fullContent, "import that fitted into \(free) free bytes is not whole")
                    let removed = try sandbox.eventctl(db: db, ["remove", "--calendar", "more"])
                    checks.check(removed.succeeded, "eventctl remove: \(removed.stderr)")
                    continue
                }
                failures += 1
                expectIOFailure(r, "\(fullMethod) with \(free) bytes free", db: db, expected: baseContent)
                if !r.stderr.isEmpty { figures.append(("message_full_\(failures)", "\"\(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines))\"")) }
            }
            // A database created on a full disk: nothing half-made.
            try fill(leaving: 0)
            let fresh = mountPoint + "/fresh.db"
            let rf = try sandbox.eventctl(db: fresh, ["import", baseFile, "--calendar", "base"])
            unlink(filler)
            if rf.succeeded {
                checks.check(try DatabaseInspector.content(fresh) == baseContent, "database created on a full disk is not whole")
            } else {
                expectIOFailure(rf, "creating a database on a full disk", db: fresh, expected: nil)
                if FileManager.default.fileExists(atPath: fresh) {
                    checks.check(try DatabaseInspector.integrity(fresh) == "ok", "half-created database fails integrity_check")
                    checks.check(try DatabaseInspector.content(fresh).eventCount == 0, "half-created database holds events")
                }
            }
            figures.append(("create_on_full_disk", rf.exit.description.replacingOccurrences(of: " ", with: "_")))
            DatabaseFiles.remove(fresh)
            // The daemon lived through it, healthy, serving what it served.
            let status = try daemon.status()
            checks.check(status["healthy"]?.boolValue == true, "daemon unhealthy after the disk-full imports: \(status)")
            let still = try daemon.snapshot(view)
            checks.check(still["digest"]?.stringValue == servedBefore && pool.digest(of: 0) == servedBefore,
                         "the daemon's view changed although every import failed")
            // Space freed: the import works, and reaches the subscriber.
            let ok = try sandbox.eventctl(db: db, socket: daemon.socket, ["import", bigFile, "--calendar", "more"])
            checks.check(ok.succeeded, "import after freeing space failed: \(ok.stderr)")
            checks.check(pool.pump(until: { p in
                guard let f = try? daemon.snapshot(view), snapshotItems(f).contains(where: { $0["calendar"]?.stringValue == "more" }) else { return false }
                return p.digest(of: 0) == f["digest"]?.stringValue
            }, timeout: 15), "the subscriber did not get the import made after freeing space")
            checks.check(pool.problemCount == 0, "subscriber problems: \(pool.problems.prefix(3))")
            let stopped = daemon.stop()
            checks.check(stopped == .exited(0), "eventd ended with \(String(describing: stopped))")
            checks.check(try DatabaseInspector.integrity(db) == "ok", "integrity after freeing space")
            checks.check(try DatabaseInspector.content(db) == fullContent, "content after freeing space")
            figures += [("disk_full_method", fullMethod), ("disk_full_cases", leaves.count), ("exit74", failures),
                        ("fitted_anyway", succeededAnyway)]
        } else {
            // Fallback: RLIMIT_FSIZE (SIGXFSZ ignored, so writes fail with EFBIG like a full disk).
            fullMethod = "prlimit-fsize"
            let db = sandbox.path("limited.db")
            try sandbox.importOK(db: db, [baseFile, "--calendar", "base"])
            let size = ((try? FileManager.default.attributesOfItem(atPath: db)[.size]) as? Int) ?? 0
            let limit = size + (64 << 10)
            let r = try sandbox.run("/bin/sh", ["-c", "trap '' XFSZ; exec /usr/bin/prlimit --fsize=\(limit) -- \"$0\" \"$@\"",
                                                Products.eventctl, "--db", db, "--socket", sandbox.path("none.sock"),
                                                "import", bigFile, "--calendar", "more"])
            expectIOFailure(r, "RLIMIT_FSIZE=\(limit)", db: db, expected: baseContent)
            let ok = try sandbox.eventctl(db: db, ["import", bigFile, "--calendar", "more"])
            checks.check(ok.succeeded, "import without the limit failed: \(ok.stderr)")
            checks.check(try DatabaseInspector.content(db) == fullContent, "content after lifting the limit")
            figures += [("disk_full_method", fullMethod), ("mount_refused", "\"\(mountErrors.joined(separator: "; "))\""),
                        ("message_fsize", "\"\(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines))\"")]
        }

        // MARK: Read-only: the tmpfs remounted ro, and a read-only bind mount.
        var readOnlyDone: [String] = []
        if fullMethod.hasPrefix("tmpfs") || fullMethod.hasPrefix("loop") {
            let db = mountPoint + "/events.db"
            let before = try DatabaseInspector.content(db)
            if let e = sandbox.mount(["-o", "remount,ro", mountPoint], target: mountPoint) {
                figures.append(("remount_ro", "\"refused: \(e)\""))
            } else {
                let r = try sandbox.eventctl(db: db, ["import", baseFile, "--calendar", "base2"])
                _ = sandbox.mount(["-o", "remount,rw", mountPoint], target: mountPoint)
                expectIOFailure(r, "\(fullMethod) remounted read-only", db: db, expected: before)
                figures.append(("message_ro_remount", "\"\(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines))\""))
                let ok = try sandbox.eventctl(db: db, ["import", baseFile, "--calendar", "base2"])
                checks.check(ok.succeeded, "import after remounting rw failed: \(ok.stderr)")
                readOnlyDone.append("remount-ro")
            }
        }
        if !forceFallback {
            let source = try sandbox.makeDirectory("rw-source")
            let target = try sandbox.makeDirectory("ro-view")
            let db = source + "/events.db"
            try sandbox.importOK(db: db, [baseFile, "--calendar", "base"])
            if let e = sandbox.mount(["--bind", source, target], target: target) {
                figures.append(("bind_ro", "\"refused: \(e)\""))
            } else if let e = sandbox.mount(["-o", "remount,ro,bind", target], target: target) {
                figures.append(("bind_ro", "\"remount refused: \(e)\""))
                sandbox.unmount(target)
            } else {
                // First with the database closed, then held open by another connection
                // (as a running daemon does: the WAL and shared-memory files exist).
                for holdOpen in [false, true] {
                    var holder: Connection? = holdOpen ? try Connection(path: db, mmapBytes: 0) : nil
                    _ = try holder?.scalarInt("SELECT count(*) FROM event")
                    checks.check(!holdOpen || FileManager.default.fileExists(atPath: target + "/events.db-wal"), "no WAL while held open")
                    let r = try sandbox.eventctl(db: target + "/events.db", ["import", bigFile, "--calendar", "more"])
                    holder = nil
                    expectIOFailure(r, "read-only bind mount\(holdOpen ? " (database held open)" : "")", db: db, expected: baseContent)
                    figures.append(("message_ro_bind\(holdOpen ? "_open" : "")", "\"\(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines))\""))
                }
                sandbox.unmount(target)
                let ok = try sandbox.eventctl(db: db, ["import", bigFile, "--calendar", "more"])
                checks.check(ok.succeeded, "import on the writable path failed: \(ok.stderr)")
                checks.check(try DatabaseInspector.content(db) == fullContent, "content after the read-only attempt")
                readOnlyDone.append("bind-ro")
            }
        }
        if readOnlyDone.isEmpty {
            print("reliability: disk-full: read-only cases skipped: \(forceFallback ? "EVENTD_RELIABILITY_FORCE_FSIZE is set" : "mounting is not permitted here")")
        }
        Rel.report("disk-full", figures + [("read_only_cases", readOnlyDone.joined(separator: ",")), ("db_bytes_full", dbBytes)])
    }
}
