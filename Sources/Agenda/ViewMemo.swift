import EventStore
import ICalendar
import Digests

/// What `SnapshotEngine` remembers of a view's last build, so that the next build with
/// the same window and date touches only the series whose fingerprint changed and the
/// dates their old and new items lie on. Items are shared (copy-on-write) with the
/// engine's expansion cache and the snapshot's sections, never copied.
struct ViewMemo {
    /// A series' identity across builds.
    struct SeriesID: Hashable, Sendable {
        let calendar: String
        let uid: String
        /// The strings hashed once, where the id is made: a whole build makes its ids on
        /// the lookup thread (`SnapshotEngine+Lookup`), and the memo's dictionary then
        /// hashes one integer per insert instead of both strings. Also what tells a
        /// cached expansion's series (`SnapshotEngine.Entry.series`).
        let stringsHash: Int

        init(calendar: String, uid: String) {
            self.calendar = calendar
            self.uid = uid
            var hasher = Hasher()
            hasher.combine(calendar)
            hasher.combine(uid)
            stringsHash = hasher.finalize()
        }

        static func == (a: SeriesID, b: SeriesID) -> Bool {
            a.stringsHash == b.stringsHash && a.uid == b.uid && a.calendar == b.calendar
        }

        func hash(into hasher: inout Hasher) { hasher.combine(stringsHash) }
    }

    /// A series' fingerprint and the items it contributed.
    struct SeriesItems {
        var fingerprint: UInt64
        var items: AgendaItem.Expansion
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
    /// Protocol 2: each date's section digest (hex; nil without a section), made with
    /// the section, so a change hashes only the dates it touched.
    var sectionDigests: [[UInt8]?]
    /// Each date's items and share of the sections' encoded size, and their sums: the
    /// snapshot's counts without a walk over every item.
    var sectionItems: [Int]
    var sectionSizes: [Int]
    var itemSum = 0
    var sizeSum = 2
    /// The sections the last `finish` hashed (for protocol 1, every one from the first
    /// changed date on).
    var hashedSections = 0

    /// `seriesCapacity`: how many series the build will add (no rehashing while it does).
    init(window: SnapshotBuilder.Window, today: CivilDate, first: CivilDate, generation: Int, seriesCapacity: Int = 0) {
        self.window = window
        self.today = today
        self.first = first
        perDay = Array(repeating: [], count: window.days)
        sections = Array(repeating: nil, count: window.days)
        sectionDigests = Array(repeating: nil, count: window.days)
        sectionItems = Array(repeating: 0, count: window.days)
        sectionSizes = Array(repeating: 0, count: window.days)
        lastUsed = generation
        series.reserveCapacity(seriesCapacity)
    }

    /// Records a series' items (the series was not recorded, or was taken out); on their
    /// dates too unless `placed` is false (then `placeAll` places them).
    mutating func add(_ id: SeriesID, fingerprint: UInt64, items: AgendaItem.Expansion, placed: Bool = true) {
        series[id] = SeriesItems(fingerprint: fingerprint, items: items)
        total += items.count
        if placed { for (day, item) in items { perDay[day - window.firstDay].append(item) } }
    }

    /// Places the items of every series on their dates, each date's list made at its
    /// size: a whole build adds its series unplaced, then this. A year's view has a
    /// hundred thousand items; its lists grown by doubling held a third more.
    mutating func placeAll() {
        var counts = [Int](repeating: 0, count: perDay.count)
        for s in series.values {
            for k in 0..<s.items.count { counts[Int(s.items.block.slot(k).day) - window.firstDay] += 1 }
        }
        for offset in perDay.indices { perDay[offset].reserveCapacity(counts[offset]) }
        for s in series.values {
            for (day, item) in s.items { perDay[day - window.firstDay].append(item) }
        }
    }

    /// Takes a series' items out; returns the date offsets they were on and adds the
    /// items to `gone` (by their block's identity: `perDay` holds items of the same
    /// block, and a block holds one series' items).
    mutating func remove(_ id: SeriesID, gone: inout Set<ObjectIdentifier>, dirty: inout Set<Int>) {
        guard let old = series.removeValue(forKey: id) else { return }
        total -= old.items.count
        gone.insert(ObjectIdentifier(old.items.block))
        for (day, _) in old.items { dirty.insert(day - window.firstDay) }
    }

    /// Sorts the dates at `offsets`, makes their sections, and the snapshot from all
    /// sections. Each date is sorted just before the digest copies its bytes, in date
    /// order; with many items to hash (from `hashedElsewhere` on), another thread hashes
    /// what this one copies (`ViewMemo+Digest`), so the sorting and copying here overlap
    /// the hashing there.
    mutating func finish(_ view: View, offsets: some Sequence<Int>, hashedElsewhere: Int) -> AgendaSnapshot {
        let dates = offsets.sorted()
        if view.digestVersion == .sections { return finishBySection(view, dates: dates, hashedElsewhere: hashedElsewhere) }
        var job = digestJob(from: dates.first ?? sections.count)
        job.elsewhere = perDay[job.from...].reduce(0) { $0 + $1.count } >= hashedElsewhere
        // The digest starts at or before the first date to sort and visits dates in order.
        var next = 0
        let result = job.run { offset in
            while next < dates.count, dates[next] <= offset {
                if dates[next] == offset { makeSection(offset, view) }
                next += 1
            }
            return sections[offset]
        }
        for offset in dates[next...] { makeSection(offset, view) }
        keep(result, from: job.from)
        hashedSections = sections[job.from...].reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        return made(view, digest: AgendaSnapshot.finishDigest(result.final))
    }

    /// The snapshot of the memo's sections with `digest`, kept for the next build.
    mutating func made(_ view: View, digest: String) -> AgendaSnapshot {
        let snapshot = AgendaSnapshot(view: view, sections: sections.compactMap { $0 }, digest: digest, today: today,
                                      itemCount: itemSum, sectionsSize: sizeSum)
        self.snapshot = snapshot
        return snapshot
    }

    /// Sorts one date's items and makes its section (nil: no section that day).
    mutating func makeSection(_ offset: Int, _ view: View) {
        let date = first.adding(days: offset)
        let items: [AgendaItem]
        itemSum -= sectionItems[offset]
        sizeSum -= sectionSizes[offset]
        sectionItems[offset] = 0
        sectionSizes[offset] = 0
        if perDay[offset].isEmpty {
            guard view.emptyDays == .placeholder else {
                sections[offset] = nil
                return
            }
            items = [SnapshotBuilder.placeholder(date)]
        } else {
            // In place: the memo's array is the only one holding these items until the
            // section takes it (sorting a copy would retain and release every item).
            SnapshotBuilder.sortItems(&perDay[offset])
            items = perDay[offset]
        }
        let section = AgendaSection(date: date, label: SnapshotBuilder.label(date, today: today), items: items)
        sections[offset] = section
        sectionItems[offset] = items.count
        sectionSizes[offset] = AgendaSnapshot.encodedSize(of: section)
        itemSum += items.count
        sizeSum += sectionSizes[offset]
    }
}
