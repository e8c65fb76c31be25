import CSQLite

/// A failed SQLite call: the extended result code, SQLite's message, and the SQL
/// statement involved (when there was one).
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The extended result code (`SQLITE_BUSY`, `SQLITE_FULL`, `SQLITE_CONSTRAINT_UNIQUE`, ...).
    public var code: Int32
    /// SQLite's own message for the failure.
    public var message: String
    /// The statement being prepared or run, if any.
    public var sql: String?

    /// Creates an error.
    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low byte of the extended code).
    public var primaryCode: Int32 { code & 0xFF }

    /// SQLITE_NOTADB or SQLITE_CORRUPT: the file is not (or no longer) a database.
    public var isNotADatabase: Bool { primaryCode == 26 || primaryCode == 11 }

    /// True when the database was locked by another connection past the busy timeout.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// True when the failure is an I/O condition (disk full, read-only, I/O error, cannot open).
    public var isIOError: Bool {
        [SQLITE_FULL, SQLITE_IOERR, SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM]
            .contains(primaryCode)
    }

    /// `SQLite error CODE: MESSAGE`, with the statement when there is one.
    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (while running: \(sql.prefix(120)))" }
        return text
    }
}

/// Checks an SQLite result code, throwing a structured error for anything that is
/// not `SQLITE_OK`, `SQLITE_ROW` or `SQLITE_DONE`.
@inline(__always)
@discardableResult
func check(_ code: Int32, _ db: OpaquePointer?, sql: String? = nil) throws(SQLiteError) -> Int32 {
    switch code {
    case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
        return code
    default:
        let extended = db.map { sqlite3_extended_errcode($0) } ?? code
        let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        throw SQLiteError(code: extended == 0 ? code : extended, message: message, sql: sql)
    }
}
