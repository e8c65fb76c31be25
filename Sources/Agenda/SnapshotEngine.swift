import Dispatch
import EventStore
import ICalendar
import Synchronization

/// Computes snapshots and remembers, per series, the items its expansion produced, so
/// that a recompute only expands the series whose rows changed (by content hash) or
/// whose window moved. One owner at a time (the daemon's recompute task, a command).
public final class SnapshotEngine {
    /// A series' expansion in a window: 24 bytes, no strings (a year's view keeps tens
    /// of thousands of keys). The fingerprint mixes every row's id and content hash, so
    /// two series alive at once never share one; an entry left by a series whose row
    /// ids were reused (SQLite reuses the highest rowids after deletes) is told apart
    /// by its series' hash (`Entry.series`) and replaced.
    struct Key: Hashable {
        var fingerprint: UInt64
        /// The window's first day and length, and the view's zone (its number in
        /// `zoneNumbers`): together, the window.
        var firstDay: Int32
        var days: Int32
        var zone: Int32

        init(fingerprint: UInt64, zone: Int32, window: SnapshotBuilder.Window) {
            self.fingerprint = fingerprint
            self.zone = zone
            firstDay = Int32(truncatingIfNeeded: window.firstDay)
            days = Int32(truncatingIfNeeded: window.days)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(fingerprint)
            hasher.combine(firstDay)
        }
    }

    /// A series' remembered items. A class whose `lastUsed` is atomic, so that a lookup
    /// on another thread marks it used without writing to the dictionary
    /// (`SnapshotEngine+Lookup`).
    final class Entry: Sendable {
        let items: AgendaItem.Expansion
        let lastUsed: Atomic<Int>
        /// The hash of the series' calendar and UID (`ViewMemo.SeriesID.stringsHash`):
        /// items carry their calendar, so a series' entry is another's only when both
        /// its fingerprint and this match.
        let series: Int

        init(items: AgendaItem.Expansion, lastUsed: Int, series: Int) {
            self.items = items
            self.lastUsed = Atomic(lastUsed)
            self.series = series
        }
    }

    /// Each view zone's number in the cache's keys (a handful: the zones views use).
    var zoneNumbers: [String: Int32] = [:]

    func zoneNumber(_ zone: String) -> Int32 {
        if let n = zoneNumbers[zone] { return n }
        let n = Int32(zoneNumbers.count)
        zoneNumbers[zone] = n
        return n
    }

    var cache: [Key: Entry] = [:]
    /// Each view's last build, for the next one (`SnapshotEngine+Incremental`).
    var memos: [View: ViewMemo] = [:]
    var generation = 0
    /// Entries added since the cache was last swept (`evict`).
    var insertedSinceSweep = 0
    /// Builds after which an expansion no build used is dropped. Low enough that a
    /// calendar rewritten wholesale on every poll (each build's series all new) keeps a
    /// few builds' expansions, not dozens; views rebuilt less often keep their items in
    /// their memos.
    static let cacheHorizon = 16

    /// Series expanded (cache misses) and reused by the last `build`.
    public internal(set) var lastExpanded = 0
    /// Series whose remembered items the last `build` reused.
    public internal(set) var lastReused = 0
    /// What the last `build` changed in the view's previous snapshot; nil when it was
    /// built whole (first build, a new window or date, many changes).
    public internal(set) var lastChange: SnapshotChange?
    /// Whether a build may start from the view's previous build (tests turn it off to
    /// compare with whole builds; `SnapshotBuilder.build` never has a previous build).
    public var incremental = true
    /// Whether an incremental build asks the store's change log which series changed
    /// (else it compares every series' fingerprint: the fallback, and the tests' oracle).
    public var useChangeLog = true
    /// Digests of at least this many items are hashed on another thread
    /// (`ViewMemo.finish`); tests move it to take either path.
    var hashedElsewhereItems = ViewMemo.hashedElsewhereItems
    /// Whole builds of at least this many series look up their remembered items on
    /// another thread (`SnapshotEngine+Lookup`; below it, starting the thread costs more
    /// than the lookups it takes off this one); tests move it to take either path.
    var lookedUpElsewhereSeries = 2048
    /// The sections whose JSON the last `build` hashed (its digest's work).
    public internal(set) var lastHashedSections = 0
    /// Whether the last `build` found its changed series through the change log.
    public internal(set) var lastUsedChangeLog = false
    /// Most series kept across builds.
    public var capacity = 200_000
    /// Most items one snapshot may hold: building a larger one throws `ViewError` (a
    /// 10 KB file of FREQ=SECONDLY events would otherwise expand to gigabytes).
    public static let maxItems = 500_000
    /// This engine's `maxItems` (tests lower it).
    var itemLimit = SnapshotEngine.maxItems

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
        let fromMinute = floorDiv(window.from, 60) - 1, toMinute = floorDiv(window.to, 60) + 2
        // Read in the same transaction as the rows: the state this build is of.
        let position = try store.changeLogPosition()
        var fingerprints: [SeriesFingerprint]?
        func scan() throws -> [SeriesFingerprint] {
            if let fingerprints { return fingerprints }
            let all = try store.seriesFingerprints(fromMinute: fromMinute, toMinute: toMinute, calendars: view.calendars)
            fingerprints = all
            return all
        }
        lastExpanded = 0
        lastReused = 0
        lastChange = nil
        lastUsedChangeLog = false
        // Taken out while it changes, so that it is never copied; put back when done.
        var retired = incremental ? memos.removeValue(forKey: view) : nil
        if var memo = retired, memo.window == window, memo.today == today {
            retired = nil
            let delta: ViewMemo.Delta?
            // The change log names the series changed since the memo's build; when it
            // cannot tell (first build, another file, pruned), compare every fingerprint.
            if useChangeLog, let old = memo.position, let position,
               let names = try store.changedSeries(since: old, upTo: position) {
                lastUsedChangeLog = true
                delta = names.count > Self.incrementalLimit(series: memo.series.count) ? nil
                    : memo.delta(names: names, fingerprints: try store.seriesFingerprints(
                        of: names, fromMinute: fromMinute, toMinute: toMinute, calendars: view.calendars))
            } else {
                delta = memo.delta(fingerprints: try scan())
            }
            if let delta, let result = try update(&memo, view, delta: delta, zone: zone, store: store) {
                lastHashedSections = result.change.sectionIDs.isEmpty ? 0 : memo.hashedSections
                memo.lastUsed = generation
                memo.position = position
                memos[view] = memo
                lastChange = result.change
                evict()
                return result.snapshot
            }
            retired = memo
        }
        var all = try scan()
        fingerprints = nil
        var memo = ViewMemo(window: window, today: today, first: first, generation: generation, seriesCapacity: all.count)
        memo.position = position
        try addAll(all, to: &memo, view: view, zone: zone, store: store)
        // Let the window's fingerprints (and their rows' ids) go before the items are
        // placed on their dates and the sections and digest made, which then reuse their
        // memory: a year's view has tens of thousands of series, and its build's peak is
        // there.
        all = []
        memo.placeAll()
        let snapshot = memo.finish(view, offsets: 0..<view.days, hashedElsewhere: hashedElsewhereItems)
        lastHashedSections = memo.hashedSections
        Self.retire(memos.updateValue(memo, forKey: view) ?? retired)
        evict()
        return snapshot
    }

    /// Lets a replaced view memo go on a background queue: freeing a busy month's (or a
    /// year's) items, series and digest states, thousands of objects, is not the build's
    /// work (about a twentieth of a whole build of the bench's 30-day view).
    static func retire(_ memo: ViewMemo?) {
        guard let memo else { return }
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(memo) {} }
    }

    /// The items of series `f` in the window, from the cache or expanded; throws when
    /// they would bring the view's items (`total` so far) over `itemLimit`.
    func expansion(of f: SeriesFingerprint, id: ViewMemo.SeriesID, view: View, window: SnapshotBuilder.Window,
                   zone: Zone, total: Int, store: EventStore) throws -> AgendaItem.Expansion {
        let key = Key(fingerprint: f.fingerprint, zone: zoneNumber(view.timeZone), window: window)
        var items: AgendaItem.Expansion?
        if let entry = cache[key], entry.series == id.stringsHash {
            items = entry.items
            entry.lastUsed.store(generation, ordering: .relaxed)
            lastReused += 1
        } else {
            let series = try store.series(rowIDs: f.rowIDs)
            // One series alone can ask for billions of items (200,000 instances of a
            // 1,000-year event, each on every day of the window): stop at the limit.
            items = SnapshotBuilder.items(of: StoredSeries(calendar: f.calendar, uid: f.uid, series: series),
                                          window: window, zone: zone, limit: itemLimit - total)
            if let items {
                cache[key] = Entry(items: items, lastUsed: generation, series: id.stringsHash)
                insertedSinceSweep += 1
            }
            lastExpanded += 1
        }
        guard let items, total + items.count <= itemLimit else { throw tooManyItems(view) }
        return items
    }

    /// The error of a build whose window holds more than `itemLimit` items. A few rules
    /// repeating every second would otherwise take gigabytes: the expansions this build
    /// used are not kept either, nor is the view's memo.
    func tooManyItems(_ view: View) -> ViewError {
        cache = cache.filter { $0.value.lastUsed.load(ordering: .relaxed) != generation }
        memos[view] = nil
        return ViewError("the window holds more than \(itemLimit) items; show fewer days or calendars")
    }

    /// Forgets series no build used in the last `cacheHorizon` builds (and, over
    /// capacity, all but this build's), and memos of views not built for 64 builds.
    /// Swept every 16 builds, and as soon as a quarter of the cache is new since the
    /// last sweep (a wholesale change), which keeps a sweep's cost in proportion to
    /// the expansions a build just paid for.
    private func evict() {
        guard cache.count > capacity || generation % 16 == 0 || insertedSinceSweep >= max(1024, cache.count / 4) else { return }
        insertedSinceSweep = 0
        let stale = generation - Self.cacheHorizon
        cache = cache.filter {
            let used = $0.value.lastUsed.load(ordering: .relaxed)
            return used > stale && (cache.count <= capacity || used == generation)
        }
        memos = memos.filter { $0.value.lastUsed > generation - 64 }
    }

    /// Forgets `view`'s memo (its last build's items), when nobody watches it any more:
    /// a memo otherwise stays until 64 builds of other views have passed, which a daemon
    /// with few changes may not see for days. Its series' expansions stay cached for the
    /// views that share them, within `capacity` and `cacheHorizon`.
    /// When the last view goes, so does every expansion: no build is left to reuse them
    /// until a view comes again, and a daemon idle for days should not hold them.
    public func forget(_ view: View) {
        memos[view] = nil
        if memos.isEmpty { cache.removeAll() }
    }

    /// Drops every remembered expansion and view (after the database was replaced).
    public func reset() {
        cache.removeAll()
        memos.removeAll()
    }
}
