import EventStore
import ICalendar

extension SnapshotEngine {
    /// At most this share of a view's series may change for a build to start from the
    /// previous one (1 in 8, and at least 64): past it, a whole build, which sorts each
    /// date once, costs about the same.
    static func incrementalLimit(series: Int) -> Int { max(64, series / 8) }

    /// Brings `memo` (the view's last build, same window and date) to the store's state:
    /// the series of `delta` are taken out and put in again, and only the dates their
    /// old and new items lie on are sorted and made into sections again. The digest is
    /// computed over all sections. Returns nil (and leaves `memo` as it was) when too
    /// much changed.
    func update(_ memo: inout ViewMemo, _ view: View, delta: ViewMemo.Delta, zone: Zone,
                store: EventStore) throws -> (snapshot: AgendaSnapshot, change: SnapshotChange)? {
        guard let base = memo.snapshot else { return nil }
        let (changed, vanished) = (delta.changed, delta.vanished)
        if changed.count + vanished.count > Self.incrementalLimit(series: max(memo.series.count, delta.series)) { return nil }
        lastReused = max(0, memo.series.count - changed.count - vanished.count)
        if changed.isEmpty && vanished.isEmpty { return (base, SnapshotChange(baseDigest: base.digest, sectionIDs: [])) }

        var dirty = Set<Int>()
        var gone = Set<ObjectIdentifier>()
        for id in vanished { memo.remove(id, gone: &gone, dirty: &dirty) }
        for f in changed { memo.remove(ViewMemo.SeriesID(calendar: f.calendar, uid: f.uid), gone: &gone, dirty: &dirty) }
        if !gone.isEmpty {
            for offset in dirty { memo.perDay[offset].removeAll { gone.contains($0.identity) } }
        }
        for f in changed {
            let id = ViewMemo.SeriesID(calendar: f.calendar, uid: f.uid)
            let items = try expansion(of: f, id: id, view: view, window: memo.window, zone: zone, total: memo.total,
                                      store: store)
            memo.add(id, fingerprint: f.fingerprint, items: items)
            for (day, _) in items { dirty.insert(day - memo.window.firstDay) }
        }
        let offsets = dirty.sorted()
        let snapshot = memo.finish(view, offsets: offsets, hashedElsewhere: hashedElsewhereItems)
        let ids = Set(offsets.map { memo.first.adding(days: $0).iso })
        return (snapshot, SnapshotChange(baseDigest: base.digest, sectionIDs: ids))
    }
}

/// Which sections of a view's previous snapshot a build may have changed: every other
/// section of the new snapshot is the previous one's, unchanged. The recompute thread
/// then diffs only these (`SnapshotDiff.restricted`).
public struct SnapshotChange: Sendable, Equatable {
    /// The digest of the snapshot the change starts from.
    public var baseDigest: String
    /// The section ids (ISO dates) that may differ, present in either snapshot or both.
    public var sectionIDs: Set<String>

    /// A change from the snapshot with `baseDigest`, touching `sectionIDs`.
    public init(baseDigest: String, sectionIDs: Set<String>) {
        self.baseDigest = baseDigest
        self.sectionIDs = sectionIDs
    }
}
