import EventStore
import Glibc
import ICalendar
import CanonicalJSON
import Digests

/// Computes a view's snapshot from the store (docs/data-model.md): the window's dates
/// in the view's zone, occurrences expanded only within the window, multi-day
/// occurrences on every date they overlap, stable ids, the ordering rule, and the digest.
public enum SnapshotBuilder {
    /// Builds the snapshot of `view` at the instant `now` (seconds since the epoch),
    /// from scratch. Long-lived callers keep a `SnapshotEngine`, which reuses the
    /// expansion of every series that did not change.
    public static func build(_ view: View, store: EventStore, now: Int64) throws -> AgendaSnapshot {
        try SnapshotEngine().build(view, store: store, now: now)
    }

    /// The items one series contributes to the window, as (day since the epoch, item);
    /// nil when they would be more than `limit`.
    static func items(of s: StoredSeries, window: Window, zone: Zone, limit: Int = .max) -> AgendaItem.Expansion? {
        let occurrences = Expander.expand(s.series, from: window.from, to: window.to, floatingZone: zone,
                                          zones: ZoneRegistry.shared)
        // Refusing a series that asks for millions of items must not first hash and build
        // half a million of them: a lower bound on the distinct items, counted first,
        // refuses it at once.
        if limit < .max, occurrences.count > limit / max(window.days, 1),
           distinctItemsLowerBound(occurrences, master: s.series.master, window: window, zone: zone) > limit {
            return nil
        }
        return build(occurrences, of: s, window: window, zone: zone, limit: limit)
    }

    /// At least as many items as `build` would make: items are distinct per
    /// (RECURRENCE-ID, day index), so each RECURRENCE-ID contributes at least the days of
    /// its longest occurrence.
    private static func distinctItemsLowerBound(_ occurrences: [Occurrence], master: EventRecord?, window: Window,
                                                zone: Zone) -> Int {
        var longest: [String: Int] = [:]
        for o in occurrences {
            let (lo, hi) = dayRange(o, zone: zone, window: window)
            guard lo <= hi else { continue }
            let rid = recurrenceID(o, master: master, zone: zone) ?? ""
            longest[rid] = max(longest[rid] ?? 0, hi - lo + 1)
        }
        return longest.values.reduce(0, +)
    }

    /// The first and last day (since the epoch) of the window that `o` touches; lo > hi
    /// when it touches none.
    private static func dayRange(_ o: Occurrence, zone: Zone, window: Window) -> (lo: Int, hi: Int) {
        let (startDay, lastDay) = days(of: o, zone: zone)
        return (max(startDay, window.firstDay), min(lastDay, window.firstDay + window.days - 1))
    }

    /// The days (since the epoch) `o` starts and ends on.
    private static func days(of o: Occurrence, zone: Zone) -> (start: Int, last: Int) {
        if let sd = o.startDate, let ed = o.endDate {
            let start = sd.daysSinceEpoch
            return (start, max(start, ed.daysSinceEpoch - 1))
        }
        let start = zone.local(atUTC: o.start).date.daysSinceEpoch
        return (start, o.end > o.start ? zone.local(atUTC: o.end - 1).date.daysSinceEpoch : start)
    }

    /// The items of `occurrences`, nil when more than `limit`.
    private static func build(_ occurrences: [Occurrence], of s: StoredSeries, window: Window, zone: Zone,
                              limit: Int) -> AgendaItem.Expansion? {
        var out = AgendaItem.Builder()
        var ids = Set<String>()
        for o in occurrences {
            let record = o.contentIndex < 0 ? s.series.master! : s.series.overrides[o.contentIndex]
            let rid = recurrenceID(o, master: s.series.master, zone: zone)
            let (startDay, lastDay) = days(of: o, zone: zone)
            let lo = max(startDay, window.firstDay), hi = min(lastDay, window.firstDay + window.days - 1)
            guard lo <= hi else { continue }
            for day in lo...hi {
                let id = itemID(calendar: s.calendar, uid: s.uid, rid: rid ?? "", index: day - startDay)
                // Ids are unique by construction across series; within one, an instance
                // listed twice (an RDATE equal to a rule instance) is shown once.
                guard ids.insert(id).inserted else { continue }
                if out.count >= limit { return nil }
                addItem(to: &out, day: day, id: id, calendar: s.calendar, record: record, key: o.contentIndex, occurrence: o,
                        rid: rid, zone: zone, fromPrevious: day > startDay, toNext: day < lastDay)
            }
        }
        return out.make()
    }

    /// A view's window: its dates and the instants that bound them.
    struct Window: Hashable {
        var firstDay: Int
        var days: Int
        var from: Int64
        var to: Int64
    }

    // MARK: - Items

    /// Sorts by `itemOrder`. The integer keys are compared from one contiguous array; the
    /// summaries' and ids' bytes are read only between items that tie on them.
    static func sortItems(_ items: inout [AgendaItem]) {
        guard items.count > 1 else { return }
        var keys = items.withUnsafeBufferPointer { items in
            [SortKey](unsafeUninitializedCapacity: items.count) { keys, count in
                for n in 0..<items.count {
                    let slot = items[n].block.slot(items[n].index)
                    keys[n] = SortKey(start: slot.sortStart, end: slot.sortEnd, summaryPrefix: items[n].summaryPrefix,
                                      index: Int32(n), allDay: slot.allDay)
                }
                count = items.count
            }
        }
        items.withUnsafeBufferPointer { items in
            keys.sort { a, b in
                if a.allDay != b.allDay { return a.allDay }
                if a.start != b.start { return a.start < b.start }
                if a.end != b.end { return a.end < b.end }
                if a.summaryPrefix != b.summaryPrefix { return a.summaryPrefix < b.summaryPrefix }
                return tieOrder(items[Int(a.index)], items[Int(b.index)])
            }
        }
        // Moved into their places, not copied: a copy retains every item and the old
        // array's release releases it, each a write to a record the cache rarely holds.
        items.withUnsafeMutableBufferPointer { items in
            guard let base = items.baseAddress else { return }
            let moved = UnsafeMutablePointer<AgendaItem>.allocate(capacity: items.count)
            defer { moved.deallocate() }
            moved.moveInitialize(from: base, count: items.count)
            for (n, key) in keys.enumerated() { (base + n).moveInitialize(from: moved + Int(key.index), count: 1) }
        }
    }

    /// An item's integer sort keys and its place in the list being sorted.
    private struct SortKey {
        var start: Int64
        var end: Int64
        var summaryPrefix: UInt64
        var index: Int32
        var allDay: Bool
    }

    /// Order (docs/data-model.md): all-day first, then start, end, summary, id (byte order).
    static func itemOrder(_ a: AgendaItem, _ b: AgendaItem) -> Bool {
        if a.allDay != b.allDay { return a.allDay }
        if a.sortStart != b.sortStart { return a.sortStart < b.sortStart }
        if a.sortEnd != b.sortEnd { return a.sortEnd < b.sortEnd }
        return tieOrder(a, b)
    }

    /// Summary, then id, byte-wise: String's == treats canonically equivalent summaries
    /// ("é" and "e\u{301}") as equal, which would make the order intransitive.
    private static func tieOrder(_ a: AgendaItem, _ b: AgendaItem) -> Bool {
        let summary = a.withSummaryBytes { sa in b.withSummaryBytes { sb in compareBytes(sa, sb) } }
        if summary != 0 { return summary < 0 }
        return a.withIDBytes { ia in b.withIDBytes { ib in compareBytes(ia, ib) } } < 0
    }

    /// memcmp order, a shorter prefix first.
    private static func compareBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = min(a.count, b.count)
        if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let c = memcmp(pa, pb, n)
            if c != 0 { return Int(c) }
        }
        return a.count - b.count
    }

    static func label(_ date: CivilDate, today: CivilDate) -> String? {
        switch date.daysSinceEpoch - today.daysSinceEpoch {
        case -1: return "yesterday"
        case 0: return "today"
        case 1: return "tomorrow"
        default: return nil
        }
    }

    /// The instance's original start as `recurrence_id` (nil for a non-recurring event),
    /// read the way the expander matches RECURRENCE-IDs to instances, so that an override
    /// has the `recurrence_id` (and id) of the instance it replaces.
    static func recurrenceID(_ o: Occurrence, master: EventRecord?, zone: Zone) -> String? {
        guard let rid = o.recurrenceID else { return nil }
        let zones = ZoneRegistry.shared
        switch (master?.start, rid) {
        case (_, .date(let d)): return d.basic
        // An all-day series names its instances by date, whatever form the RECURRENCE-ID has.
        case (.some(.date), _): return rid.wallClock.date.basic
        // A floating RECURRENCE-ID of a zoned or UTC series is a wall clock in the series' zone.
        case (.some(.zoned(_, let key)), .floating(let t)):
            return CivilDateTime(secondsAsIfUTC: (zones.zone(forKey: key) ?? .utc).instant(forLocal: t)).basic + "Z"
        case (.some(.utc), .floating(let t)): return t.basic + "Z"
        default: return CivilDateTime(secondsAsIfUTC: rid.instant(zones: zones, floatingZone: zone)).basic + "Z"
        }
    }

    /// Opaque, stable: derived from (calendar, UID, RECURRENCE-ID, date index), never content.
    static func itemID(calendar: String, uid: String, rid: String, index: Int) -> String {
        var input = [UInt8]()
        input.reserveCapacity(calendar.utf8.count + uid.utf8.count + rid.utf8.count + 8)
        input.append(contentsOf: calendar.utf8); input.append(0)
        input.append(contentsOf: uid.utf8); input.append(0)
        input.append(contentsOf: rid.utf8); input.append(0)
        input.append(contentsOf: String(index).utf8)
        let digest = SHA256.hash(input)
        var out = [UInt8]()
        out.reserveCapacity(32)
        let hex = Array("0123456789abcdef".utf8)
        for b in digest.prefix(16) { out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func placeholder(_ date: CivilDate) -> AgendaItem {
        var w = JSONWriter()
        w.beginObject(); w.key("id")
        let idStart = w.bytes.count
        w.string("placeholder:" + date.iso)
        let idRange = idStart..<w.bytes.count
        w.key("kind"); w.string("placeholder"); w.endObject()
        var block = AgendaItem.Builder()
        block.add(json: w.takeBytes(), parts: [.init(range: idRange, kind: .id)], summary: 0..<0, rawSummary: nil, key: 0,
                  day: date.daysSinceEpoch, allDay: true, sortStart: 0, sortEnd: 0, startField: 0, endField: 0)
        return AgendaItem(block: block.make().block, index: 0)
    }

    /// Adds the item of occurrence `o` on `day` to `block`; `key` names its record
    /// (items of one record share their template).
    static func addItem(to block: inout AgendaItem.Builder, day: Int, id: String, calendar: String, record: EventRecord,
                        key: Int, occurrence o: Occurrence, rid: String?, zone: Zone, fromPrevious: Bool, toNext: Bool) {
        let start: String, end: String
        let allDay = o.isAllDay
        let startField: Int32, endField: Int32
        if let sd = o.startDate, let ed = o.endDate {
            start = sd.iso
            end = ed.iso
            (startField, endField) = (Int32(clamping: sd.daysSinceEpoch), Int32(clamping: ed.daysSinceEpoch))
        } else {
            start = rfc3339(o.start, zone: zone)
            end = rfc3339(o.end, zone: zone)
            (startField, endField) = (Int32(zone.offset(atUTC: o.start)), Int32(zone.offset(atUTC: o.end)))
        }
        // The dates are written from the fields only as what they are (all-day dates or
        // instants with offsets); `Builder.add` checks that they give these bytes.
        let dated = allDay == (o.startDate != nil && o.endDate != nil)
        var parts: [AgendaItem.Part] = []
        parts.reserveCapacity(6)
        var w = JSONWriter(reservingCapacity: 384)
        func part(_ kind: AgendaItem.Part.Kind, _ write: (inout JSONWriter) -> Void) {
            let from = w.bytes.count
            write(&w)
            parts.append(.init(range: from..<w.bytes.count, kind: kind))
        }
        w.beginObject()
        w.key("all_day"); w.bool(allDay)
        w.key("calendar"); w.string(calendar)
        w.key("continues_from_previous_day"); part(.from) { $0.bool(fromPrevious) }
        w.key("continues_to_next_day"); part(.to) { $0.bool(toNext) }
        // Only when the event has one: items without keep their bytes and digests.
        if let description = record.description { w.key("description"); w.string(capped(description, to: maxDescriptionBytes)) }
        w.key("end"); part(dated ? .end : .own) { $0.string(end) }
        w.key("id"); part(.id) { $0.string(id) }
        w.key("kind"); w.string("event")
        w.key("location"); optional(&w, record.location.map { capped($0) })
        w.key("recurrence_id"); part(.recurrenceID) { optional(&$0, rid) }
        w.key("start"); part(dated ? .start : .own) { $0.string(start) }
        w.key("status"); optional(&w, record.status.map { $0 == .cancelled ? "cancelled" : $0.rawValue })
        w.key("summary")
        let summaryStart = w.bytes.count + 1
        let summary = record.summary.map { capped($0) }
        optional(&w, summary)
        // Escaping only lengthens: the same length means the JSON form is the bytes.
        let verbatim = summary.map { w.bytes.count - 1 - summaryStart == $0.utf8.count } ?? true
        let summaryRange = summary == nil || !verbatim ? 0..<0 : summaryStart..<(w.bytes.count - 1)
        w.key("uid"); w.string(capped(record.uid))
        if let url = record.url.flatMap(linkable) { w.key("url"); w.string(url) }
        w.endObject()
        block.add(json: w.takeBytes(), parts: parts, summary: summaryRange,
                  rawSummary: verbatim ? nil : summary.map { Array($0.utf8) }, key: key, day: day, allDay: allDay,
                  sortStart: o.start, sortEnd: o.end, startField: startField, endField: endField)
    }

    /// The most UTF-8 bytes of calendar text (a summary, a location, a UID) one item
    /// carries. Every occurrence of an event is an item of its own, so a 1 MB SUMMARY
    /// on a daily event would otherwise make a year's view a gigabyte, whatever its item
    /// count: the feed shows the text's start, the database and `export` keep it whole.
    public static let maxTextBytes = 2048

    /// The most UTF-8 bytes of an event's DESCRIPTION one item carries (the detail
    /// views show its start; the database and `export` keep it whole).
    public static let maxDescriptionBytes = 1024

    /// The longest URL an item carries; a longer one is left out, not cut.
    public static let maxURLBytes = 2048

    /// `text` cut to its first `limit` bytes (whole characters' scalars) and `…`.
    static func capped(_ text: String, to limit: Int = maxTextBytes) -> String {
        guard text.utf8.count > limit else { return text }
        var out = String.UnicodeScalarView(), bytes = 0
        for scalar in text.unicodeScalars {
            bytes += UTF8.width(scalar)
            if bytes > limit - 3 { break }
            out.append(scalar)
        }
        out.append("…")
        return String(out)
    }

    /// `url` when clients may link it: an `http:`, `https:` or `mailto:` address (the
    /// scheme in any case) of at most `maxURLBytes` bytes; nil for any other
    /// (`javascript:`, `data:`, …), which an item never carries.
    static func linkable(_ url: String) -> String? {
        guard url.utf8.count <= maxURLBytes, let colon = url.firstIndex(of: ":") else { return nil }
        guard ["http", "https", "mailto"].contains(url[..<colon].lowercased()) else { return nil }
        return url
    }

    static func optional(_ w: inout JSONWriter, _ value: String?) {
        if let value { w.string(value) } else { w.null() }
    }

    /// `2026-11-29T10:00:00+01:00`: the instant in `zone`, with its offset.
    public static func rfc3339(_ instant: Int64, zone: Zone) -> String {
        let offset = zone.offset(atUTC: instant)
        let local = CivilDateTime(secondsAsIfUTC: instant + Int64(offset))
        let sign = offset < 0 ? "-" : "+"
        let a = abs(offset)
        let d = local.date
        return "\(pad4(d.year))-\(pad2(d.month))-\(pad2(d.day))T\(pad2(local.hour)):\(pad2(local.minute)):\(pad2(local.second))"
            + "\(sign)\(pad2(a / 3600)):\(pad2((a / 60) % 60))"
    }

    static func pad2(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
    static func pad4(_ v: Int) -> String {
        let s = String(v)
        return s.count >= 4 ? s : String(repeating: "0", count: 4 - s.count) + s
    }
}

@inline(__always)
func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
