import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The files of the SQLite databases tests create: a database is its file plus the
/// WAL, shared-memory and journal files SQLite may leave next to it.
public enum DatabaseFiles {
    /// The suffixes of the files that belong to a database at `path`.
    public static let suffixes = ["", "-wal", "-shm", "-journal"]

    /// A fresh path for a database in the system's temporary directory (nothing is
    /// created): `eventd-<label>-<UUID>.db`.
    public static func scratchPath(_ label: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("eventd-\(label)-\(UUID().uuidString).db").path
    }

    /// Removes the database at `path` with its WAL, shared-memory and journal files.
    public static func remove(_ path: String) {
        for suffix in suffixes { unlink(path + suffix) }
    }
}
