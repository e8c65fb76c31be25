import Foundation
import EventStore

extension RecomputeWorker {
    func openStore() throws {
        // No memory map, a small page cache, a private file when it is created here.
        store = try EventStore(path: config.databasePath, options: .daemon)
        config.databaseGate.opened(path: config.databasePath)
        // Zone definitions are read when a query first needs them (`EventStore.ensureZones`);
        // rows an older eventd left without events go now.
        _ = try? store?.collectUnusedZones()
        lastDataVersion = -1
        counts = EventCounts()
    }

    /// SIGHUP: reopen the database and recompute every view.
    func reopen() {
        log.notice("SIGHUP: reopening the database \(config.databasePath)")
        // A file replaced since the last tick: first take our WAL/shm away from the new
        // file. Then close before opening, so that the new connection shares nothing
        // (SQLite's per-file state) with the old one.
        checkFileReplaced()
        config.databaseGate.markStale()
        store = nil
        do {
            try openStore()
            engine.reset()
            fileProblem = nil
            problem = nil
        } catch { report("cannot reopen \(config.databasePath): \(error)") }
        for view in Array(views.keys) { recompute(view, force: true) }
        publishInfo()
    }

    /// The database file replaced or removed under us: keep serving the last good
    /// snapshots and say so; SIGHUP reopens it. Our WAL and shared-memory files are
    /// taken away from the new file first (`EventStore.detachStaleFiles` says why).
    func checkFileReplaced() {
        guard fileProblem == nil, let change = store?.files.replacedOrRemoved() else { return }
        let message = "the database \(config.databasePath) was \(change); serving the last good snapshots until SIGHUP"
        fileProblem = message
        config.databaseGate.markStale()
        log.error(message)
        do { try store?.detachStaleFiles() } catch { log.warning("checkpoint before detaching \(config.databasePath)-wal: \(error)") }
        publishInfo()
    }
}
