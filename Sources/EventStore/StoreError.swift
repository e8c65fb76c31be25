import CSQLite

/// Failures of the event store that are not raw SQLite errors.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    /// The database was written by a newer eventd.
    case newerSchema(found: Int, supported: Int)
    /// No calendar of that name.
    case unknownCalendar(String)
    /// A calendar name outside `A-Z a-z 0-9 . _ -`, or longer than 64 characters.
    case invalidCalendarName(String)
    /// A colour that is not `#rgb` or `#rrggbb`.
    case invalidColor(String)

    /// The failure as one message.
    public var description: String {
        switch self {
        case .newerSchema(let found, let supported):
            return "database schema version \(found) is newer than this eventd supports (\(supported)); upgrade eventd"
        case .unknownCalendar(let name):
            return "no calendar named \"\(name)\""
        case .invalidCalendarName(let name):
            return "invalid calendar name \"\(name)\": use 1-64 characters of A-Z a-z 0-9 . _ -"
        case .invalidColor(let color):
            return "invalid colour \"\(color)\": use #rgb or #rrggbb"
        }
    }
}

/// Calendar name rule of docs/data-model.md.
public func isValidCalendarName(_ name: String) -> Bool {
    guard (1...64).contains(name.utf8.count) else { return false }
    return name.utf8.allSatisfy { c in
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57)
            || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
    }
}

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

/// An error of the database at `path`: printed with the path, and with the exit status
/// of the underlying error.
public struct DatabaseFailure: Error, CustomStringConvertible {
    /// The database file.
    public var path: String
    /// What EventStore threw (`SQLiteError`, `StoreError`, ...).
    public var underlying: any Error

    /// Wraps `underlying`, an error of the database at `path`.
    public init(path: String, underlying: any Error) {
        self.path = path
        self.underlying = underlying
    }

    public var description: String {
        switch underlying {
        case let error as SQLiteError where error.isBusy:
            return "database \(path) is busy (locked by another process); try again"
        case let error as SQLiteError where error.isIOError:
            return "cannot write database \(path): \(error.message)"
        case let error as SQLiteError where error.isNotADatabase:
            return "\(path) is not a valid eventd database: \(error.message)"
        case let error as SQLiteError:
            return "database error on \(path): \(error)"
        default:
            return "\(path): \(underlying)"
        }
    }
}

/// Failures of the live-source table.
public enum LiveSourceError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A source of that name exists already.
    case duplicate(String)
    /// No source of that name.
    case unknown(String)
    /// An event or calendar that `eventctl new`/`edit`/`delete` cannot write: not from
    /// a vdir (read-only), unknown, or ambiguous (the message says which).
    case notEditable(String)

    /// The failure as one message.
    public var description: String {
        switch self {
        case .duplicate(let name): return "a source named \"\(name)\" exists already"
        case .unknown(let name): return "no source named \"\(name)\""
        case .notEditable(let why): return why
        }
    }
}
