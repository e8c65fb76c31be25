import Synchronization

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
