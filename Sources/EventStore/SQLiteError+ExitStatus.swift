import Diagnostics

extension SQLiteError: ExitStatusProviding {
    /// SQLITE_NOTADB or SQLITE_CORRUPT: the file is not (or no longer) a database.
    public var isNotADatabase: Bool { primaryCode == 26 || primaryCode == 11 }

    /// Busy or I/O 74, not a database 65, anything else 70 (a bug in a statement).
    public var exitStatus: ExitStatus {
        if isBusy || isIOError { return .ioError }
        return isNotADatabase ? .dataError : .software
    }
}
