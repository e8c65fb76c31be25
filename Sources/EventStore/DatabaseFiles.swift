import CSQLite
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The database file and its `-wal`/`-shm` companions as they were when the store
/// opened: whether the file at the path is still ours, and whether the WAL files next
/// to it are.
public final class DatabaseFiles {
    /// How the database file at the path differs from the one the store opened.
    public enum Change: String, Sendable, CustomStringConvertible {
        /// No file at the path any more.
        case removed
        /// Another file at the path.
        case replaced

        /// `removed` or `replaced`.
        public var description: String { rawValue }
    }

    /// The database path.
    public let path: String
    private let database: FileIdentity?
    private(set) var wal: FileIdentity?
    private(set) var shm: FileIdentity?

    /// Remembers the identity of `path`, `path-wal` and `path-shm` now.
    init(path: String) {
        self.path = path
        database = FileIdentity(path: path)
        wal = FileIdentity(path: path + "-wal")
        shm = FileIdentity(path: path + "-shm")
    }

    /// Nil while the file at the path is the one opened (or none was there to begin
    /// with, as for `:memory:`); otherwise how it changed.
    public func replacedOrRemoved() -> Change? {
        guard let database else { return nil }
        guard let now = FileIdentity(path: path) else { return .removed }
        return now == database ? nil : .replaced
    }

    /// True when the file at `path-wal` is still the one the store opened with.
    var walIsOurs: Bool { wal != nil && FileIdentity(path: path + "-wal") == wal }

    /// Remembers `path-wal` and `path-shm` again, after the store left WAL mode and
    /// entered it again (which makes new files), while the database at the path is still
    /// the one opened; otherwise the names are not ours, and forgotten.
    func rememberCompanions() {
        let ours = replacedOrRemoved() == nil
        wal = ours ? FileIdentity(path: path + "-wal") : nil
        shm = ours ? FileIdentity(path: path + "-shm") : nil
    }

    /// Unlinks our `-wal`/`-shm` when the names are still ours, and forgets them.
    func unlinkOwnCompanions() {
        if walIsOurs { unlink(path + "-wal") }
        if shm != nil, FileIdentity(path: path + "-shm") == shm { unlink(path + "-shm") }
        wal = nil
        shm = nil
    }
}

/// Tells a second connection of the daemon (the live-source runner's) when it may open
/// the database file: only while the file at the path is the one the daemon's main
/// connection (the recompute thread's) has open, and that connection has not found it
/// replaced or removed.
///
/// Why: a file replaced at the path leaves the old file's `-wal`/`-shm` there until the
/// main connection takes them away (`EventStore.detachStaleFiles`); a connection opened
/// before that would read them as the new file's and corrupt it. A file moved away and
/// back is the same inode, whose SQLite state in this process (a stale shared-memory
/// index) lives as long as any old connection: a new one opened before the SIGHUP
/// reopen would share it. In both cases the runner waits for the reopen.
public final class DatabaseGate: Sendable {
    private struct State {
        var identity: FileIdentity?
        var stale = true
    }

    private let state = Mutex(State())

    public init() {}

    /// The main connection opened the file at `path`.
    public func opened(path: String) {
        let identity = FileIdentity(path: path)
        state.withLock { $0 = State(identity: identity, stale: identity == nil) }
    }

    /// The main connection found its file replaced or removed: no new connection until
    /// it reopens.
    public func markStale() {
        state.withLock { $0.stale = true }
    }

    /// Whether a new connection to `path` may be opened now.
    public func mayOpen(path: String) -> Bool {
        let now = FileIdentity(path: path)
        return state.withLock { !$0.stale && now != nil && $0.identity == now }
    }
}

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

/// The identity of a file (device and inode): tells a file replaced at the same path
/// from the one that was there.
public struct FileIdentity: Hashable, Sendable {
    /// The device the file is on (`st_dev`).
    public var device: UInt64
    /// Its inode number (`st_ino`).
    public var inode: UInt64

    /// The identity of the file at `path` now, or nil when there is none.
    public init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}
