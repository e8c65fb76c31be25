import Foundation

/// A large import into a database that no other connection has open writes its one
/// transaction with a rollback journal, and the store returns to WAL after it.
///
/// Why: in WAL mode every page an import writes is written twice, to the WAL and then by
/// the checkpoint into the database file; and once a page that spilled early in the
/// transaction is written again (an index page, say), SQLite reads back and checksums
/// every later frame at the commit. A rollback journal keeps only the old content of
/// pages that existed before the transaction: pages past the file's old end (all of
/// them, for a first import) are written once, into the database. The commit of a first
/// import of the 100,000-event file takes about a quarter of its time in WAL.
///
/// Leaving WAL needs the file to ourselves, and readers of a rollback-journal database
/// wait while a writer holds it (from the transaction's first spill of pages to its
/// commit). So this happens only when nobody else has the database open: SQLite refuses
/// the switch otherwise, and the import runs in WAL as it always did (a running daemon
/// holds the database, so imports beside it never switch). A reader opened meanwhile
/// waits in its busy handler; runs over `ImportOptions.rollbackJournalBytes` stay
/// in WAL, so that it never waits past its 5 s timeout. A read-write connection opened
/// meanwhile waits to enter WAL until the import's transaction ends
/// (`Connection.setJournalMode`).
///
/// Crash safety is SQLite's: an import killed in its transaction leaves a hot journal
/// that the next connection rolls back (the file's new pages with it); one killed after
/// its commit but before the return to WAL leaves a sound database that the next
/// read-write connection puts back in WAL.
///
/// Durability: `synchronous = EXTRA` while the journal is in use. In this mode the commit
/// point is the journal's deletion; FULL fsyncs the database file before that but not
/// the directory after the unlink, so a power cut could bring the journal back, hot, and
/// the next open would roll the acknowledged import back. EXTRA fsyncs the directory
/// after the unlink (SQLite's `dirSync` flag of `xDelete`), so the commit is durable when
/// COMMIT returns; the journal's own creation is dir-synced by SQLite at its first sync.
/// Back in WAL the connection's `Connection.writeSynchronous` (FULL) applies again.
extension EventStore {
    /// Switches to a rollback journal for a run of `bytes` bytes when that is `within`
    /// the range and no other connection has the database open. True when it did.
    func enterRollbackJournal(forBytes bytes: Int, within range: ClosedRange<Int>) -> Bool {
        guard range.contains(bytes) else { return false }
        // Our own second connection would hold the file too.
        windowReader = nil
        // "database is locked" (another connection has the file open) means: stay in WAL.
        guard (try? db.setJournalMode(.delete)) == Connection.JournalMode.delete.rawValue else { return false }
        do {
            try db.execute("PRAGMA synchronous = EXTRA")
            // The pages the run writes go straight into the file now, and the run reads
            // some back (`CREATE INDEX`): through a memory map those would count in the
            // process's resident size, 48 MiB more at 100,000 events.
            try db.execute("PRAGMA mmap_size = 0")
        } catch {
            leaveRollbackJournal()
            return false
        }
        return true
    }

    /// Back to WAL after a run that `enterRollbackJournal` switched, waiting up to the
    /// busy timeout for a reader that came meanwhile. When that fails, the database
    /// stays sound in rollback mode until the next read-write connection's open puts it
    /// back in WAL.
    func leaveRollbackJournal() {
        _ = try? db.setJournalMode(.wal, waitingMilliseconds: Self.journalSwitchWaitMilliseconds)
        try? db.execute("PRAGMA synchronous = \(Connection.writeSynchronous)")
        try? db.execute("PRAGMA mmap_size = \(db.mmapBytes)")
        // Entering WAL makes new -wal and -shm files, at the first read after it.
        _ = try? db.scalarInt("SELECT count(*) FROM sqlite_schema")
        files.rememberCompanions()
    }

    /// How long the return to WAL waits for readers: the connections' busy timeout.
    static let journalSwitchWaitMilliseconds: Int32 = 5000

    /// The journal mode in effect (`wal` or `delete`); for tests and diagnostics.
    func journalMode() throws -> String {
        try db.scalarText("PRAGMA journal_mode") ?? ""
    }
}
