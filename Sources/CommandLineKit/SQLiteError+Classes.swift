import EventStore

extension SQLiteError {
    /// SQLITE_NOTADB or SQLITE_CORRUPT: the file is not (or no longer) a database.
    var isNotADatabase: Bool { primaryCode == 26 || primaryCode == 11 }
}
