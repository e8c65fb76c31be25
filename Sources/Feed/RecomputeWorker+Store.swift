import Agenda
import CLinux
import EventStore
import FeedProtocol
import Foundation
import SectionedDiff

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

extension RecomputeWorker {
    /// The diff engine's form of a view with the items themselves as contents: equal
    /// items compare as one pointer (the engine shares unchanged items between builds)
    /// or by their compact JSON, and nothing is copied to diff a year-long view.
    typealias ItemsSnapshot = Snapshot<String, [UInt8], String, AgendaItem>
    typealias ItemsDiff = SnapshotDiff<String, [UInt8], String, AgendaItem>

    /// The changes from `old` to `new`. When the engine built `new` from `old` (`change`
    /// starts at `old`'s digest), only the sections it touched are diffed; the result is
    /// the same as the whole diff (`SnapshotDiff.restricted` says why), which stays the
    /// fallback. The ids' indexes are built for the diffed sections only, and dropped
    /// after. The items the diff carries get their JSON at the end.
    static func diff(from old: AgendaSnapshot, to new: AgendaSnapshot, change: SnapshotChange?) throws -> FeedDiff {
        if let change, change.baseDigest == old.digest, old.today == new.today,
           let restricted = try ItemsDiff.restricted(
               old: old.sections.map(\.id), new: new.sections.map(\.id), changed: change.sectionIDs,
               oldSection: { old.sections[$0].itemsSection }, newSection: { new.sections[$0].itemsSection }) {
            return restricted.mapItemContents(\.json)
        }
        let whole = ItemsDiff(from: try ItemsSnapshot(sections: old.sections.map(\.itemsSection)),
                              to: try ItemsSnapshot(sections: new.sections.map(\.itemsSection)))
        return whole.mapItemContents(\.json)
    }
}

extension AgendaSection {
    /// The section in the diff engine's form, its items as they are.
    var itemsSection: RecomputeWorker.ItemsSnapshot.Section {
        RecomputeWorker.ItemsSnapshot.Section(id: id, content: headerJSON, items: items.map { .init(id: $0.id, content: $0) })
    }
}

/// Gives freed heap pages back to the kernel. glibc keeps what a dropped view freed in
/// its arenas (one per thread that allocated it) for reuse, so without this a daemon's
/// RSS stays at the high-water mark of the views it once held, long after they expired.
enum ReleasedMemory {
    /// `malloc_trim(0)`: every arena's free pages, not only the top of the main heap.
    /// It takes each arena's lock in turn: call it when views went, not on every build.
    static func returnToSystem() {
        _ = malloc_trim(0)
    }

    /// Fixes glibc's mmap threshold at 4 MiB, so that every larger block (a fetched
    /// body, up to 64 MiB) is its own mapping, unmapped when freed. glibc otherwise
    /// raises the threshold to the size of each mapped block freed (up to 32 MiB), and
    /// the next such block then comes from a thread's arena, where, freed, it joins the
    /// arena's top, which `malloc_trim` does not give back for arenas other than the
    /// main one: three aborted 64 MiB downloads kept about 100 MB (issue 52).
    static func mapLargeBlocksAlways() {
        _ = mallopt(M_MMAP_THRESHOLD, 4 << 20)
    }
}
