import Foundation

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
