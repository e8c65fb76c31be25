import EventStore
import ICalendar
import Support

/// Computes snapshots and remembers, per series, the items its expansion produced, so
/// that a recompute only expands the series whose rows changed (by content hash) or
/// whose window moved. One owner at a time (the daemon's recompute task, a command).
public final class SnapshotEngine {
    private struct Key: Hashable {
        var fingerprint: UInt64
        /// Row ids can be reused for the same text in another calendar (SQLite reuses the
        /// highest rowids after deletes), and items carry their calendar.
        var calendar: String
        var uid: String
        var zone: String
        var window: SnapshotBuilder.Window
    }

    private struct Entry {
        var items: [(day: Int, item: AgendaItem)]
        var lastUsed: Int
    }

    private var cache: [Key: Entry] = [:]
    private var generation = 0
    /// Series expanded (cache misses) and reused by the last `build`.
    public private(set) var lastExpanded = 0
    /// Series whose remembered items the last `build` reused.
    public private(set) var lastReused = 0
    /// Most series kept across builds.
    public var capacity = 200_000
    /// Most items one snapshot may hold: building a larger one throws `ViewError` (a
    /// 10 KB file of FREQ=SECONDLY events would otherwise expand to gigabytes).
    public static let maxItems = 500_000

    /// An engine with nothing remembered.
    public init() {}

    /// Builds the snapshot of `view` at `now` (seconds since the epoch).
    public func build(_ view: View, store: EventStore, now: Int64) throws -> AgendaSnapshot {
        guard let zone = Zone.system(view.timeZone) else { throw ViewError("unknown time zone \"\(view.timeZone)\"") }
        generation += 1
        let today = zone.local(atUTC: now).date
        let first = view.from ?? today.adding(days: -view.pastDays)
        let window = SnapshotBuilder.Window(
            firstDay: first.daysSinceEpoch, days: view.days,
            from: zone.instant(forLocal: CivilDateTime(date: first)),
            to: zone.instant(forLocal: CivilDateTime(date: first.adding(days: view.days))))

        // One read transaction: every query sees the same database state.
        return try store.read {
            try build(view, window: window, first: first, today: today, zone: zone, store: store)
        }
    }

    private func build(_ view: View, window: SnapshotBuilder.Window, first: CivilDate, today: CivilDate, zone: Zone,
                       store: EventStore) throws -> AgendaSnapshot {
        let fingerprints = try store.seriesFingerprints(fromMinute: floorDiv(window.from, 60) - 1,
                                                        toMinute: floorDiv(window.to, 60) + 2, calendars: view.calendars)
        var perDay = [[AgendaItem]](repeating: [], count: view.days)
        var total = 0
        lastExpanded = 0
        lastReused = 0
        for f in fingerprints {
            let key = Key(fingerprint: f.fingerprint, calendar: f.calendar, uid: f.uid, zone: view.timeZone, window: window)
            var items: [(day: Int, item: AgendaItem)]?
            if let entry = cache[key] {
                items = entry.items
                cache[key]!.lastUsed = generation
                lastReused += 1
            } else {
                let series = try store.series(rowIDs: f.rowIDs)
                // One series alone can ask for billions of items (200,000 instances of a
                // 1,000-year event, each on every day of the window): stop at the limit.
                items = SnapshotBuilder.items(of: StoredSeries(calendar: f.calendar, uid: f.uid, series: series),
                                              window: window, zone: zone, limit: Self.maxItems - total)
                if let items { cache[key] = Entry(items: items, lastUsed: generation) }
                lastExpanded += 1
            }
            total += items?.count ?? 0
            guard let items, total <= Self.maxItems else {
                // A few rules repeating every second would otherwise take gigabytes; the
                // expansions of this build are not kept either.
                cache = cache.filter { $0.value.lastUsed != generation }
                throw ViewError("the window holds more than \(Self.maxItems) items; show fewer days or calendars")
            }
            for (day, item) in items {
                perDay[day - window.firstDay].append(item)
            }
        }
        evict()

        var sections: [AgendaSection] = []
        sections.reserveCapacity(view.days)
        for offset in 0..<view.days {
            let date = first.adding(days: offset)
            var items = perDay[offset]
            if items.isEmpty {
                guard view.emptyDays == .placeholder else { continue }
                items = [SnapshotBuilder.placeholder(date)]
            } else {
                SnapshotBuilder.sortItems(&items)
            }
            sections.append(AgendaSection(date: date, label: SnapshotBuilder.label(date, today: today), items: items))
        }
        return AgendaSnapshot(view: view, sections: sections, digest: AgendaSnapshot.digest(of: sections), today: today)
    }

    /// Forgets series not used by recent builds once the cache is over capacity, and
    /// anything not used for many builds.
    private func evict() {
        let stale = generation - 64
        if cache.count > capacity || generation % 16 == 0 {
            cache = cache.filter { $0.value.lastUsed > stale && (cache.count <= capacity || $0.value.lastUsed == generation) }
        }
    }

    /// Drops every remembered expansion (after the database was replaced).
    public func reset() { cache.removeAll() }
}
