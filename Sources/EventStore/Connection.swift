import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// An open SQLite database connection; owns its `sqlite3*` and closes it in `deinit`.
///
/// Opened with WAL journaling, a busy timeout, foreign keys and extended result codes.
/// A read-write connection commits durably (`synchronous = FULL`, see `init`).
/// A connection is used from one thread at a time.
public final class Connection {
    let handle: OpaquePointer
    /// The path the database was opened at.
    public let path: String
    /// How much of the file SQLite may map, as opened.
    let mmapBytes: Int
    private var statementCache: [String: Statement] = [:]

    /// Opens (creating if needed, unless `readOnly`) the database at `path`.
    /// `mmapBytes`: how much of the file SQLite may map (0: read through the page cache).
    /// `vfs`: the name of a registered SQLite VFS (nil: the default, unix); the power-cut
    /// tests open through one that simulates the cut.
    public init(path: String, readOnly: Bool = false, busyTimeoutMilliseconds: Int32 = 5000,
                mmapBytes: Int = 256 << 20, vfs: String? = nil) throws(SQLiteError) {
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let code = sqlite3_open_v2(path, &db, flags, vfs)
        guard code == SQLITE_OK, let db else {
            let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
                ?? String(cString: sqlite3_errstr(code))
            let extended = db.map { sqlite3_extended_errcode($0) } ?? code
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: extended, message: "\(message): \(path)")
        }
        self.handle = db
        self.path = path
        self.mmapBytes = mmapBytes
        try check(sqlite3_extended_result_codes(db, 1), db)
        try check(sqlite3_busy_timeout(db, busyTimeoutMilliseconds), db)
        try execute("PRAGMA foreign_keys = ON")
        try execute("PRAGMA temp_store = MEMORY")
        // Read pages through a memory map rather than read(2) copies.
        try execute("PRAGMA mmap_size = \(mmapBytes)")
        if !readOnly {
            try setJournalMode(.wal, waitingMilliseconds: busyTimeoutMilliseconds)
            // FULL: every commit fsyncs the WAL before COMMIT returns, so what a command
            // or a sync reports as done survives a power cut. NORMAL fsyncs only at a
            // checkpoint, which with another connection open (a running eventd) may be
            // long after the command said "added" (issue 51). An import is one commit,
            // so this is one WAL fsync per command.
            try execute("PRAGMA synchronous = \(Self.writeSynchronous)")
        }
    }

    /// `PRAGMA synchronous` of read-write connections in WAL mode.
    static let writeSynchronous = "FULL"

    /// The journal modes the store uses: WAL, except for the transaction of a large
    /// import into a database no other connection has open (`EventStore+RollbackJournal`).
    enum JournalMode: String {
        case wal
        case delete
    }

    /// Sets the journal mode and returns the one in effect. Changing it needs the
    /// database to itself, and SQLite does not wait for that through the busy handler:
    /// leaving WAL fails at once while another connection has the file open; entering it
    /// fails while another connection holds a lock of the rollback journal (an import's
    /// transaction, or a read). So a locked database is tried again every 5 ms for up to
    /// `waitingMilliseconds`; then the lock error is thrown.
    @discardableResult
    func setJournalMode(_ mode: JournalMode, waitingMilliseconds: Int32 = 0) throws(SQLiteError) -> String {
        var waited: Int32 = 0
        while true {
            do throws(SQLiteError) {
                let st = try statement("PRAGMA journal_mode = \(mode.rawValue)")
                defer { sqlite3_reset(st.handle) }
                return try st.step() ? Row(handle: st.handle).text(0) : ""
            } catch where error.isBusy && waited < waitingMilliseconds {
                usleep(5_000)
                waited += 5
            }
        }
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: - Statements

    /// Runs one or more SQL statements without results.
    /// Keeps SQLite from deleting `PATH-wal` by name when this connection closes
    /// (`SQLITE_FCNTL_PERSIST_WAL`): once the file at the path is another database, that
    /// name may be the other database's WAL, in use.
    func keepWALOnClose() {
        var on: Int32 = 1
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &on)
    }

    public func execute(_ sql: String) throws(SQLiteError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), handle, sql: sql)
    }

    /// A cached prepared statement for `sql`.
    public func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = statementCache[sql] { return cached }
        let stmt = try Statement(connection: self, sql: sql)
        statementCache[sql] = stmt
        return stmt
    }

    /// Runs `sql` with `values` and returns the first column of the first row as an integer.
    public func scalarInt(_ sql: String, _ values: [SQLValue] = []) throws -> Int64? {
        var result: Int64?
        try statement(sql).forEachRow(values) { row in
            if result == nil, !row.isNull(0) { result = row.int(0) }
        }
        return result
    }

    /// Runs `sql` with `values` and returns the first column of the first row as text.
    public func scalarText(_ sql: String, _ values: [SQLValue] = []) throws -> String? {
        var result: String?
        try statement(sql).forEachRow(values) { row in
            if result == nil, !row.isNull(0) { result = row.text(0) }
        }
        return result
    }

    /// The rowid of the last inserted row.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// `PRAGMA data_version`: changes whenever another connection commits.
    public func dataVersion() throws -> Int64 {
        try scalarInt("PRAGMA data_version") ?? 0
    }

    // MARK: - Transactions

    /// Runs `body` inside `BEGIN IMMEDIATE ... COMMIT`; rolls back if `body` throws.
    public func inTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    /// Runs `body` inside a read transaction (`BEGIN DEFERRED`), so every query sees one
    /// state; ends it with COMMIT, or ROLLBACK when `body` throws.
    public func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction("BEGIN DEFERRED", body)
    }

    private func transaction<T>(_ begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
