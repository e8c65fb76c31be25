import CSQLite

/// A value that can be bound to a statement parameter.
public enum SQLValue: Sendable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
}

/// A prepared statement; owns its `sqlite3_stmt` and finalizes it in `deinit`.
public final class Statement {
    let handle: OpaquePointer
    unowned let connection: Connection
    /// The SQL text the statement was prepared from.
    public let sql: String

    init(connection: Connection, sql: String) throws(SQLiteError) {
        var stmt: OpaquePointer?
        try check(sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil),
                  connection.handle, sql: sql)
        guard let stmt else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement", sql: sql)
        }
        self.handle = stmt
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: - Binding

    /// Resets the statement and binds `values` to parameters 1...n.
    @discardableResult
    public func bind(_ values: [SQLValue]) throws(SQLiteError) -> Statement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
        return self
    }

    /// Binds one value to the 1-based parameter `index`.
    public func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .int(let v): code = sqlite3_bind_int64(handle, index, v)
        case .double(let v): code = sqlite3_bind_double(handle, index, v)
        case .text(let v):
            code = v.utf8.withContiguousStorageIfAvailable { buf in
                sqlite3_bind_text(handle, index, buf.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                  Int32(buf.count), eventd_sqlite_transient())
            } ?? sqlite3_bind_text(handle, index, v, -1, eventd_sqlite_transient())
        case .blob(let v):
            code = v.withUnsafeBytes { buf in
                sqlite3_bind_blob(handle, index, buf.baseAddress, Int32(buf.count), eventd_sqlite_transient())
            }
        }
        try check(code, connection.handle, sql: sql)
    }

    /// Binds text without building an `SQLValue` (hot paths).
    @inline(__always)
    public func bindText(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard var value else { try check(sqlite3_bind_null(handle, index), connection.handle, sql: sql); return }
        let code = value.withUTF8 { buf -> Int32 in
            guard let base = buf.baseAddress else {
                return sqlite3_bind_text(handle, index, "", 0, eventd_sqlite_transient())
            }
            return sqlite3_bind_text(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                     Int32(buf.count), eventd_sqlite_transient())
        }
        try check(code, connection.handle, sql: sql)
    }

    /// Binds an integer (or NULL) without building an `SQLValue`.
    @inline(__always)
    public func bindInt(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        let code = value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        try check(code, connection.handle, sql: sql)
    }

    // MARK: - Stepping

    /// Runs the statement to completion (for INSERT/UPDATE/DELETE).
    public func run(_ values: [SQLValue] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Advances one row; returns false when done.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        sqlite3_reset(handle)
        try check(code, connection.handle, sql: sql)
        return false
    }

    /// Runs a query and calls `body` for each row.
    public func forEachRow(_ values: [SQLValue] = [], _ body: (Row) throws -> Void) throws {
        try bind(values)
        defer { sqlite3_reset(handle) }
        let row = Row(handle: handle)
        while try step() { try body(row) }
    }

    /// Runs a query and maps every row.
    public func map<T>(_ values: [SQLValue] = [], _ transform: (Row) throws -> T) throws -> [T] {
        var result: [T] = []
        try forEachRow(values) { result.append(try transform($0)) }
        return result
    }
}

/// The current row of a stepping statement; valid only inside the row callback.
public struct Row {
    let handle: OpaquePointer

    /// True when `column` (0-based) is NULL.
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    /// `column` as an integer.
    public func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    /// `column` as a double.
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    /// `column` as text (`""` for NULL).
    public func text(_ column: Int32) -> String {
        guard let p = sqlite3_column_text(handle, column) else { return "" }
        let n = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }
    /// `column`'s text bytes, without making a `String` (valid only inside `body`).
    func withTextBytes<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        guard let p = sqlite3_column_text(handle, column) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(handle, column))))
    }
    /// `column` as text, nil for NULL.
    public func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    /// `column` as an integer, nil for NULL.
    public func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }
    /// `column` as bytes (empty for NULL).
    public func blob(_ column: Int32) -> [UInt8] {
        guard let p = sqlite3_column_blob(handle, column) else { return [] }
        let n = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}
