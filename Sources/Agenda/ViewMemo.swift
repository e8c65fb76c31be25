import Dispatch
import EventStore
import ICalendar
import Support

/// What `SnapshotEngine` remembers of a view's last build, so that the next build with
/// the same window and date touches only the series whose fingerprint changed and the
/// dates their old and new items lie on. Items are shared (copy-on-write) with the
/// engine's expansion cache and the snapshot's sections, never copied.
struct ViewMemo {
    /// A series' identity across builds.
    struct SeriesID: Hashable {
        var calendar: String
        var uid: String
    }

    /// A series' fingerprint and the items it contributed.
    struct SeriesItems {
        var fingerprint: UInt64
        var items: [(day: Int, item: AgendaItem)]
    }

    let window: SnapshotBuilder.Window
    let today: CivilDate
    let first: CivilDate
    /// Every series of the window with its items (also those with none in it).
    var series: [SeriesID: SeriesItems] = [:]
    /// Each date's items (offset from `first`); sorted once `finish` ran.
    var perDay: [[AgendaItem]]
    /// Each date's section, nil for a date without one (omitted when empty).
    var sections: [AgendaSection?]
    /// The number of items over all series.
    var total = 0
    /// The snapshot of the last build.
    var snapshot: AgendaSnapshot?
    /// The store's change log position the memo is of (nil: the store has no log).
    var position: ChangeLogPosition?
    /// The engine generation that last used it.
    var lastUsed: Int
    /// The digest's SHA-256 state before each date's section (and after the last), and
    /// whether any section came before: a build hashes again only from its first
    /// changed date (SHA-256 goes on from a kept state; it cannot skip ahead).
    var digestMarks: [(sha: SHA256, noneBefore: Bool)] = []

    /// `seriesCapacity`: how many series the build will add (no rehashing while it does).
    init(window: SnapshotBuilder.Window, today: CivilDate, first: CivilDate, generation: Int, seriesCapacity: Int = 0) {
        self.window = window
        self.today = today
        self.first = first
        perDay = Array(repeating: [], count: window.days)
        sections = Array(repeating: nil, count: window.days)
        lastUsed = generation
        series.reserveCapacity(seriesCapacity)
    }

    /// Records a series' items (the series was not recorded, or was taken out).
    mutating func add(_ id: SeriesID, fingerprint: UInt64, items: [(day: Int, item: AgendaItem)]) {
        series[id] = SeriesItems(fingerprint: fingerprint, items: items)
        total += items.count
        for (day, item) in items { perDay[day - window.firstDay].append(item) }
    }

    /// Takes a series' items out; returns the date offsets they were on and adds the
    /// items to `gone` (by identity: `perDay` holds the same records).
    mutating func remove(_ id: SeriesID, gone: inout Set<ObjectIdentifier>, dirty: inout Set<Int>) {
        guard let old = series.removeValue(forKey: id) else { return }
        total -= old.items.count
        for (day, item) in old.items {
            dirty.insert(day - window.firstDay)
            gone.insert(item.identity)
        }
    }

    /// Sorts the dates at `offsets`, makes their sections, and the snapshot from all
    /// sections, with the digest (`ViewMemo+Digest`) hashed one of three ways:
    /// - many items to sort and to hash (a whole build): on another thread, which takes
    ///   each section as this one sorts it;
    /// - else many items to hash (a change early in the window): here, each date sorted
    ///   just before its bytes are copied, and hashed on another thread;
    /// - else (a few hundred items): all here.
    mutating func finish(_ view: View, offsets: some Sequence<Int>, thresholds: DigestThresholds) -> AgendaSnapshot {
        let dates = offsets.sorted()
        var job = digestJob(from: dates.first ?? sections.count)
        let sorted = dates.reduce(0) { $0 + perDay[$1].count }
        let hashed = perDay[job.from...].reduce(0) { $0 + $1.count }
        let result: DigestJob.Result
        if dates.count >= 2, min(sorted, hashed) >= thresholds.sorting {
            // The other thread copies and hashes while this one sorts: sorting takes
            // less time than hashing, so that thread never waits after the start (as it
            // would, woken at every date, if it only hashed what this one copied).
            let channel = BatchChannel<AgendaSection?>(capacity: dates.count)
            let done = BatchChannel<DigestJob.Result>(capacity: 1)
            let unsorted = sections, sorting = Set(dates), job = job
            DispatchQueue.global(qos: .userInitiated).async {
                done.send(job.run { sorting.contains($0) ? channel.receive() : unsorted[$0] })
            }
            for offset in dates {
                makeSection(offset, view)
                channel.send(sections[offset])
            }
            result = done.receive()
        } else {
            job.elsewhere = hashed >= thresholds.hashedElsewhere
            // The digest starts at or before the first date to sort and visits dates in order.
            var next = 0
            result = job.run { offset in
                while next < dates.count, dates[next] <= offset {
                    if dates[next] == offset { makeSection(offset, view) }
                    next += 1
                }
                return sections[offset]
            }
            for offset in dates[next...] { makeSection(offset, view) }
        }
        keep(result, from: job.from)
        let list = sections.compactMap { $0 }
        let snapshot = AgendaSnapshot(view: view, sections: list, digest: AgendaSnapshot.finishDigest(result.final), today: today)
        self.snapshot = snapshot
        return snapshot
    }

    /// Sorts one date's items and makes its section (nil: no section that day).
    private mutating func makeSection(_ offset: Int, _ view: View) {
        let date = first.adding(days: offset)
        var items = perDay[offset]
        if items.isEmpty {
            guard view.emptyDays == .placeholder else {
                sections[offset] = nil
                return
            }
            items = [SnapshotBuilder.placeholder(date)]
        } else {
            SnapshotBuilder.sortItems(&items)
            perDay[offset] = items
        }
        sections[offset] = AgendaSection(date: date, label: SnapshotBuilder.label(date, today: today), items: items)
    }
}
