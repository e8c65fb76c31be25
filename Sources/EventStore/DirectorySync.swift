import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// Makes a new file's directory entry durable: `fsync(2)` of the directory it is in.
///
/// A file's own fsync does not make its *name* durable: after a power cut a database
/// created and written (and fsynced) a moment earlier may be gone, because the
/// directory's new entry was still only in the page cache. SQLite's unix VFS fsyncs the
/// directory of a rollback journal or WAL it creates (at that file's first sync, its
/// `UNIXFILE_DIRSYNC` flag), and of a journal it deletes under `synchronous = EXTRA`;
/// it never does so for the main database file. `EventStore` calls this after it
/// created a database (see docs/reliability.md).
enum DirectorySync {
    /// Fsyncs the directory that holds `path` (its parent; `.` for a bare name).
    /// Throws `SQLiteError` `SQLITE_IOERR_DIR_FSYNC` when it cannot be opened or synced.
    static func syncParent(of path: String) throws(SQLiteError) {
        let directory = parent(of: path)
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try check(fd >= 0 ? 0 : errno, directory, "open")
        defer { close(fd) }
        try check(fsync(fd) == 0 ? 0 : errno, directory, "fsync")
    }

    /// The directory part of `path`.
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let head = path[..<slash]
        return head.isEmpty ? "/" : String(head)
    }

    /// Throws for a non-zero `errno` value.
    private static func check(_ error: Int32, _ directory: String, _ call: String) throws(SQLiteError) {
        guard error != 0 else { return }
        // SQLITE_IOERR_DIR_FSYNC: an I/O error (`isIOError`), as SQLite reports its own.
        throw SQLiteError(code: SQLITE_IOERR | (5 << 8),
                          message: "cannot \(call) directory \(directory): \(String(cString: strerror(error)))")
    }
}
