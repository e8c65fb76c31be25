/// Expands a series into the occurrences that overlap a window, with libical's
/// recurrence iterator walking the rule in the series' own zone.
///
/// Rules: DTSTART is always the first instance; RDATEs add instances (PERIOD values
/// bring their own end); EXDATEs remove them; an override replaces the instance whose
/// original start equals its RECURRENCE-ID, and with `RANGE=THISANDFUTURE` also every
/// later instance (shifted by the override's move, with its duration); cancelled
/// masters, overrides and instances are not shown.
public enum Expander {
    /// Most rule steps walked for one series in one window (guards absurd rules).
    public static let stepLimit = 200_000

    /// Occurrences of `series` overlapping `[from, to)` (instants), ordered by start.
    /// Dates and floating times are read in `floatingZone`.
    public static func expand(_ series: Series, from: Int64, to: Int64, floatingZone: Zone,
                              zones: ZoneResolver) -> [Occurrence] {
        LibICal.locked {
            var walker = SeriesWalker(series: series, from: from, to: to, floatingZone: floatingZone, zones: zones)
            return walker.run()
        }
    }
}

/// The working state of one expansion.
struct SeriesWalker {
    let series: Series
    let from: Int64
    let to: Int64
    let floatingZone: Zone
    let zones: ZoneResolver
    var output: [Occurrence] = []

    init(series: Series, from: Int64, to: Int64, floatingZone: Zone, zones: ZoneResolver) {
        self.series = series
        self.from = from
        self.to = to
        self.floatingZone = floatingZone
        self.zones = zones
    }

    func instant(_ value: TimeValue) -> Int64 { value.instant(zones: zones, floatingZone: floatingZone) }

    mutating func run() -> [Occurrence] {
        let overrides = series.overrides
        var exact: [Int64: Int] = [:]
        var ranges: [(at: Int64, index: Int)] = []
        for (i, o) in overrides.enumerated() {
            guard let rid = o.recurrenceID else { continue }
            if o.thisAndFuture { ranges.append((instant(rid), i)) } else { exact[instant(rid)] = i }
        }
        ranges.sort { $0.at < $1.at }

        if let master = series.master, master.status != .cancelled {
            let recurring = master.isRecurring || !overrides.isEmpty
            let maxShift = ranges.map { abs(instant(overrides[$0.index].start) - $0.at) }.max() ?? 0
            let reach = maxDuration(master) + maxShift
            for original in instances(of: master, reach: reach) {
                let at = instant(original)
                if exact[at] != nil { continue }
                if let range = ranges.last(where: { $0.at <= at }) {
                    let o = overrides[range.index]
                    if o.status == .cancelled || at == range.at { continue }
                    let shifted = shift(original, by: o, rangeStart: range.at)
                    emit(start: shifted, days: o.durationDays, seconds: o.durationSeconds,
                         rid: original, content: range.index)
                } else {
                    emit(start: original, days: master.durationDays, seconds: master.durationSeconds,
                         rid: recurring ? original : nil, content: -1)
                }
            }
        }
        if series.master?.status != .cancelled {
            for (i, o) in overrides.enumerated() where o.status != .cancelled {
                emit(start: o.start, days: o.durationDays, seconds: o.durationSeconds,
                     rid: o.recurrenceID ?? o.start, content: i)
            }
        }
        output.sort { ($0.start, $0.end, $0.contentIndex) < ($1.start, $1.end, $1.contentIndex) }
        return output
    }

    // MARK: - Instances

    /// Upper bound of an instance's length, for deciding which starts can reach the window.
    func maxDuration(_ e: EventRecord) -> Int64 {
        var d = Int64(e.durationDays) * 86_400 + e.durationSeconds + 7200
        for r in e.rdates { if let end = r.end { d = max(d, instant(end) - instant(r.start) + 7200) } }
        return d
    }

    /// Original starts of `master` that can overlap the window (DTSTART, RRULE, RDATE; minus EXDATE).
    func instances(of master: EventRecord, reach: Int64) -> [TimeValue] {
        let lower = from - reach
        var result: [TimeValue] = []
        var seen = Set<Int64>()
        func consider(_ v: TimeValue) {
            let at = instant(v)
            guard at >= lower, at < to, seen.insert(at).inserted else { return }
            result.append(v)
        }
        consider(master.start)
        for r in master.rdates { consider(r.start) }
        if let rrule = master.rrule { walkRule(rrule, master: master, lower: lower, into: consider) }
        if master.exdates.isEmpty { return result }
        var excludedInstants = Set<Int64>()
        var excludedDates = Set<CivilDate>()
        for x in master.exdates {
            if case .date(let d) = x { excludedDates.insert(d) } else { excludedInstants.insert(instant(x)) }
        }
        return result.filter { v in
            if excludedInstants.contains(instant(v)) { return false }
            if !excludedDates.isEmpty, excludedDates.contains(v.wallClock.date) { return false }
            return true
        }
    }

    func walkRule(_ rrule: String, master: EventRecord, lower: Int64, into consider: (TimeValue) -> Void) {
        let start = master.start
        var zone: Zone?
        switch start {
        case .zoned(_, let key): zone = zones.zone(forKey: key) ?? .utc
        case .utc: zone = .utc
        default: zone = nil
        }
        guard let iterator = RuleIterator(rrule: rrule, start: start.wallClock, isDate: start.isDate, zone: zone?.handle) else { return }
        if !iterator.hasCount, lower - 2 * 86_400 > instant(start) {
            let skipTo = lower - 2 * 86_400
            let local = (zone ?? floatingZone).local(atUTC: skipTo)
            iterator.skip(to: start.isDate ? CivilDateTime(date: local.date) : local)
        }
        var steps = 0
        while steps < Expander.stepLimit, let next = iterator.next() {
            steps += 1
            let value: TimeValue
            switch start {
            case .zoned(_, let key): value = .zoned(next, zoneKey: key)
            case .utc: value = .utc(next.secondsAsIfUTC)
            case .date: value = .date(next.date)
            case .floating: value = .floating(next)
            }
            if instant(value) >= to { break }
            consider(value)
        }
    }

    /// An instance moved by a THISANDFUTURE override: by the same offset the override moved its own instance.
    func shift(_ original: TimeValue, by o: EventRecord, rangeStart: Int64) -> TimeValue {
        guard let rid = o.recurrenceID else { return original }
        switch (original, rid, o.start) {
        case (.date(let d), .date(let r), .date(let s)):
            return .date(d.adding(days: s.daysSinceEpoch - r.daysSinceEpoch))
        default:
            let delta = instant(o.start) - rangeStart
            return .utc(instant(original) + delta)
        }
    }

    // MARK: - Output

    mutating func emit(start: TimeValue, days: Int, seconds: Int64, rid: TimeValue?, content: Int) {
        var occurrence: Occurrence
        switch start {
        case .date(let d):
            let endDate = d.adding(days: max(days, 1))
            occurrence = Occurrence(recurrenceID: rid,
                                    start: floatingZone.instant(forLocal: CivilDateTime(date: d)),
                                    end: floatingZone.instant(forLocal: CivilDateTime(date: endDate)),
                                    startDate: d, endDate: endDate, contentIndex: content)
        case .floating(let t):
            let s = floatingZone.instant(forLocal: t)
            let e = days == 0 ? s + seconds
                : floatingZone.instant(forLocal: CivilDateTime(secondsAsIfUTC: t.secondsAsIfUTC + Int64(days) * 86_400)) + seconds
            occurrence = Occurrence(recurrenceID: rid, start: s, end: e, contentIndex: content)
        case .zoned(let t, let key):
            let zone = zones.zone(forKey: key) ?? .utc
            let s = zone.instant(forLocal: t)
            let e = days == 0 ? s + seconds
                : zone.instant(forLocal: CivilDateTime(secondsAsIfUTC: t.secondsAsIfUTC + Int64(days) * 86_400)) + seconds
            occurrence = Occurrence(recurrenceID: rid, start: s, end: e, contentIndex: content)
        case .utc(let s):
            occurrence = Occurrence(recurrenceID: rid, start: s, end: s + Int64(days) * 86_400 + seconds, contentIndex: content)
        }
        let overlaps = occurrence.end > occurrence.start
            ? (occurrence.start < to && occurrence.end > from)
            : (occurrence.start >= from && occurrence.start < to)
        if overlaps { output.append(occurrence) }
    }
}
