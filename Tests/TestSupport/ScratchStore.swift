import EventStore
import Foundation

/// An event store in a fresh temporary file, removed (with its WAL files) when released.
/// Test targets add what they need in extensions (imports, queries, snapshots).
public final class ScratchStore {
    /// The database file.
    public let path: String
    /// The open store (nil only while `reopen` runs).
    public private(set) var store: EventStore!

    /// Opens a store on a new file in the system's temporary directory.
    public init() throws {
        path = DatabaseFiles.scratchPath("scratch-store")
        store = try EventStore(path: path)
    }

    /// Closes and re-opens the store.
    public func reopen() throws {
        store = nil
        store = try EventStore(path: path)
    }

    deinit {
        store = nil
        DatabaseFiles.remove(path)
    }
}
