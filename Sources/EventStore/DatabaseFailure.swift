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
