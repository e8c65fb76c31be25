import Foundation
import Synchronization
import Testing
@testable import EventStore
import TestSupport

/// Large imports into a database nobody else has open (`EventStore+RollbackJournal`):
/// written with a rollback journal, stored exactly as a WAL import stores them, and the
/// database back in WAL afterwards; beside another connection, in WAL as always.
@Suite struct RollbackJournalTests {
    /// What the run saw while it wrote: the journal mode, whether a WAL file existed, and
    /// `PRAGMA synchronous` (EXTRA, 3, with the journal: its unlink is the commit).
    struct Seen: Equatable {
        var modes: Set<String> = []
        var walFiles: Set<Bool> = []
        var synchronous: Set<Int64> = []
    }

    /// Imports `bytes` with the rollback journal from `fromBytes` bytes on, noting what
    /// the run saw at each progress report (every 2,048 events written).
    static func importFile(_ s: ScratchStore, _ bytes: [UInt8], fromBytes: Int,
                           upToBytes: Int = .max) throws -> (FileImportResult, Seen) {
        var options = ImportOptions()
        options.rollbackJournalBytes = fromBytes...upToBytes
        var seen = Seen()
        let results = try s.store.importCalendars([BulkLoadTests.input(bytes)], options: options, now: 1_790_000_000) { _ in
            seen.modes.insert((try? s.store.journalMode()) ?? "?")
            seen.walFiles.insert(FileManager.default.fileExists(atPath: s.path + "-wal"))
            seen.synchronous.insert((try? s.db.scalarInt("PRAGMA synchronous")) ?? -1)
        }
        return (try #require(results.first), seen)
    }

    @Test func writesWithARollbackJournalStoresWhatWALStoresAndReturnsToWAL() throws {
        let bytes = BulkLoadTests.generated(2600)
        let journal = try ScratchStore(), wal = try ScratchStore()
        let (a, seenJournal) = try Self.importFile(journal, bytes, fromBytes: 0)
        let (b, seenWAL) = try Self.importFile(wal, bytes, fromBytes: .max)
        #expect(seenJournal == Seen(modes: ["delete"], walFiles: [false], synchronous: [3]))
        #expect(seenWAL == Seen(modes: ["wal"], walFiles: [true], synchronous: [2]))
        #expect(a == b)
        #expect(a.added > 2600)
        #expect(try BulkLoadTests.rows(journal) == BulkLoadTests.rows(wal))
        #expect(try BulkLoadTests.schema(journal) == BulkLoadTests.schema(wal))
        #expect(try journal.store.journalMode() == "wal")
        #expect(try journal.db.scalarInt("PRAGMA synchronous") == 2)  // FULL again
        #expect(try journal.db.scalarText("PRAGMA integrity_check") == "ok")
        // The new -wal file is remembered as ours (the daemon's detach relies on it).
        #expect(journal.store.files.walIsOurs)
        // The file's hash (computed while its parser ran) was stored: importing the same
        // bytes again is recognised as unchanged, without a parse.
        let again = try #require(try journal.store.importCalendars([BulkLoadTests.input(bytes)], now: 1_790_000_100).first)
        #expect(again.sameBytes && again.unchanged == a.added)
        // A later small import runs in WAL.
        try journal.run(StoreICS.input("small.ics", StoreICS.calendar([StoreICS.event("late")]), calendar: "home"))
        #expect(try journal.store.journalMode() == "wal")
    }

    @Test func aRunLargerThanTheLimitStaysInWAL() throws {
        let bytes = BulkLoadTests.generated(2200)
        let s = try ScratchStore()
        let (result, seen) = try Self.importFile(s, bytes, fromBytes: 0, upToBytes: bytes.count - 1)
        #expect(seen == Seen(modes: ["wal"], walFiles: [true], synchronous: [2]))
        #expect(result.added > 2200)
        // The default limit: 32 MiB, above the 100,000-event file of `eventd-bench import`.
        #expect(ImportOptions().rollbackJournalBytes.upperBound == 32 << 20)
    }

    @Test func staysInWALWhileAnotherConnectionHasTheDatabaseOpen() throws {
        let s = try ScratchStore()
        let other = try s.watcher()
        let (result, seen) = try Self.importFile(s, BulkLoadTests.generated(2200), fromBytes: 0)
        #expect(seen == Seen(modes: ["wal"], walFiles: [true], synchronous: [2]))
        #expect(result.added > 2200)
        #expect(try other.scalarInt("SELECT count(*) FROM event") == Int64(result.added))
    }

    @Test func aConnectionOpenedMeanwhileWaitsForWAL() throws {
        let s = try ScratchStore()
        let holder = s.db
        #expect(try holder.setJournalMode(.delete) == "delete")
        try holder.execute("BEGIN IMMEDIATE")
        try holder.execute("INSERT INTO calendar(name) VALUES ('meanwhile')")
        // Another process's store opening now: it cannot enter WAL until the commit.
        final class Outcome: Sendable { let value = Mutex<Result<[String], any Error>?>(nil) }
        let opened = Outcome(), path = s.path
        let started = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let opener = Thread {
            started.signal()
            let result = Result(catching: { () throws -> [String] in
                let store = try EventStore(path: path)
                return [try store.journalMode()] + (try store.calendarNames())
            })
            opened.value.withLock { $0 = result }
            done.signal()
        }
        opener.start()
        started.wait()
        // Still waiting 100 ms later (it would have failed at once without the retries).
        #expect(done.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
        try holder.execute("COMMIT")
        try holder.setJournalMode(.wal, waitingMilliseconds: 5000)
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
        let names = try #require(opened.value.withLock { $0 }).get()
        #expect(names == ["wal", "meanwhile"])
    }
}
