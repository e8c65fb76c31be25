// Random edit sequences on a small calendar, for the property tests of incremental
// recomputes (incremental result == whole rebuild): adds, deletes, moves across dates,
// recurrence changes, overrides, zone changes, content changes.

import ICalendar

/// A calendar of a few series that random edits change; `events` renders it as VEVENT
/// bodies (content lines) for `icsCalendar(events:)`.
public struct RandomAgendaEdits {
    /// One series: a master, perhaps daily-recurring, and overrides of its instances.
    struct Series {
        var uid: String
        /// Days after `RandomAgendaEdits.base`, minutes after midnight.
        var day: Int
        var minute: Int
        var durationMinutes: Int
        var allDay: Bool
        /// nil: floating; "Z": UTC; else a TZID.
        var zone: String?
        /// Daily instances (COUNT), nil for none.
        var count: Int?
        var summary: String
        var status: String?
        /// Instance index -> (days moved, summary).
        var overrides: [Int: (shift: Int, summary: String)] = [:]
    }

    /// The first date edits place events on (years, months and days of the Gregorian calendar).
    public let base: (year: Int, month: Int, day: Int)
    /// How many dates from `base` events start on.
    public let spread: Int
    var rng: SplitMix64
    var series: [String: Series] = [:]
    var nextUID = 0
    var round = 0

    static let zones: [String?] = [nil, "Z", "Europe/Berlin", "America/New_York", "Asia/Tokyo"]

    /// An empty calendar; edits start events within `spread` dates from `base`.
    public init(seed: UInt64, base: (year: Int, month: Int, day: Int), spread: Int = 12) {
        rng = SplitMix64(seed: seed)
        self.base = base
        self.spread = spread
    }

    /// Applies `count` random edits and says which kinds, in order.
    @discardableResult
    public mutating func edit(_ count: Int) -> [String] {
        var done: [String] = []
        for _ in 0..<count { done.append(editOnce()) }
        round += 1
        return done
    }

    private mutating func editOnce() -> String {
        let uids = series.keys.sorted()
        guard !uids.isEmpty, rng.below(5) != 0 else { add(); return "add" }
        let uid = uids[rng.below(uids.count)]
        var s = series[uid]!
        let kind: String
        switch rng.below(8) {
        case 0: series[uid] = nil; return "delete"
        case 1: s.day += rng.below(7) - 3; kind = "move"
        case 2: s.minute = rng.below(24 * 4) * 15; s.durationMinutes = 15 * (1 + rng.below(4 * 30)); kind = "retime"
        case 3: s.count = s.count == nil ? 1 + rng.below(6) : (rng.below(2) == 0 ? nil : 1 + rng.below(6)); kind = "recurrence"
        case 4:
            guard let count = s.count else { s.count = 3; kind = "recurrence"; break }
            let k = rng.below(count)
            if s.overrides[k] != nil && rng.below(2) == 0 {
                s.overrides[k] = nil
            } else {
                s.overrides[k] = (rng.below(5) - 2, "\(uid) override r\(round)")
            }
            kind = "override"
        case 5: if !s.allDay { s.zone = Self.zones[rng.below(Self.zones.count)] }; kind = "zone"
        case 6: s.summary = "\(uid) r\(round) \(rng.below(100))"; s.status = [nil, "TENTATIVE", "CANCELLED"][rng.below(3)]; kind = "content"
        default: s.allDay.toggle(); kind = "all-day"
        }
        series[uid] = s
        return kind
    }

    private mutating func add() {
        let uid = "r\(nextUID)"
        nextUID += 1
        let allDay = rng.below(4) == 0
        series[uid] = Series(uid: uid, day: rng.below(spread), minute: rng.below(24 * 4) * 15,
                             durationMinutes: 15 * (1 + rng.below(allDay ? 4 * 24 * 3 : 4 * 30)), allDay: allDay,
                             zone: Self.zones[rng.below(Self.zones.count)], count: rng.below(3) == 0 ? 1 + rng.below(6) : nil,
                             summary: "\(uid) added", status: nil)
    }

    /// The calendar's VEVENTs as content lines, masters then overrides, by UID.
    public var events: [[String]] {
        var out: [[String]] = []
        for uid in series.keys.sorted() {
            let s = series[uid]!
            var master = ["UID:\(uid)", "DTSTAMP:20260101T000000Z"] + times(s, day: s.day) + ["SUMMARY:\(s.summary)"]
            if let status = s.status { master.append("STATUS:\(status)") }
            if let count = s.count { master.append("RRULE:FREQ=DAILY;COUNT=\(count)") }
            out.append(master)
            guard let count = s.count else { continue }
            for k in s.overrides.keys.sorted() where k < count {
                let o = s.overrides[k]!
                out.append(["UID:\(uid)", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID" + stamp(s, day: s.day + k)]
                           + times(s, day: s.day + k + o.shift) + ["SUMMARY:\(o.summary)"])
            }
        }
        return out
    }

    private func times(_ s: Series, day: Int) -> [String] {
        if s.allDay {
            let days = max(1, s.durationMinutes / (24 * 60))
            return ["DTSTART;VALUE=DATE:\(basic(day))", "DTEND;VALUE=DATE:\(basic(day + days))"]
        }
        let end = s.minute + s.durationMinutes
        return ["DTSTART" + stamp(s, day: day), "DTEND" + stamp(s, day: day + end / (24 * 60), minute: end % (24 * 60))]
    }

    /// `;TZID=…:YYYYMMDDTHHMMSS`, `:…Z` or `:…` (floating); a date for all-day series.
    private func stamp(_ s: Series, day: Int, minute: Int? = nil) -> String {
        if s.allDay { return ";VALUE=DATE:\(basic(day))" }
        let m = minute ?? s.minute
        let time = basic(day) + "T" + two(m / 60) + two(m % 60) + "00"
        switch s.zone {
        case nil: return ":" + time
        case "Z": return ":" + time + "Z"
        case let zone?: return ";TZID=\(zone):" + time
        }
    }

    private func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// `YYYYMMDD` of `base` plus `offset` days (proleptic Gregorian, by day numbers).
    private func basic(_ offset: Int) -> String {
        let date = GregorianCalendar.date(daysSinceEpoch: GregorianCalendar.daysSinceEpoch(year: base.year, month: base.month, day: base.day) + offset)
        return String(date.year) + two(date.month) + two(date.day)
    }
}
