/// Expands a series into the occurrences that overlap a window, with libical's
/// recurrence iterator walking the rule in the series' own zone.
///
/// Rules: DTSTART is always the first instance; RDATEs add instances (PERIOD values
/// bring their own end); EXDATEs remove them; an override replaces the instance whose
/// original start equals its RECURRENCE-ID, and with `RANGE=THISANDFUTURE` also every
/// later instance (shifted by the override's move, with its duration); cancelled
/// masters, overrides and instances are not shown.
public enum Expander {
    /// Most rule steps walked for one series in one window, all its RRULEs together
    /// (guards absurd rules: a hundred FREQ=SECONDLY RRULEs on one event).
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

    /// Most overrides one expansion probes for the instance they replace (each walks the
    /// rule around its RECURRENCE-ID; a hostile series may hold thousands that name none).
    static let probeLimit = 256

    mutating func run() -> [Occurrence] {
        let overrides = series.overrides
        var exact: [Int64: Int] = [:]
        var ranges: [(at: Int64, index: Int)] = []
        for (i, o) in overrides.enumerated() where o.thisAndFuture {
            if let rid = o.recurrenceID { ranges.append((matchKey(rid), i)) }
        }
        ranges.sort { $0.at < $1.at }
        let live = series.master.flatMap { $0.status == .cancelled ? nil : $0 }
        let maxShift = ranges.map { abs(instant(overrides[$0.index].start) - instant(overrides[$0.index].recurrenceID!)) }.max() ?? 0
        let reach = (live.map { maxDuration($0) } ?? 0) + maxShift
        let originals = live.map { instances(of: $0, reach: reach) } ?? []
        // Keys of the master's instances near the window: an override naming one is current.
        let windowKeys = Set(originals.map { matchKey($0.0) })
        // Overrides read as replacing another instance than the one their RECURRENCE-ID names
        // (looked for only when it names none of the instances walked).
        var replaced: [Int: TimeValue] = [:]
        var probes = Self.probeLimit
        for (i, o) in overrides.enumerated() where !o.thisAndFuture {
            guard let rid = o.recurrenceID else { continue }
            let key = matchKey(rid), at = instant(rid)
            if !windowKeys.contains(key), let master = series.master, at > from - reach - 2 * 86_400, at < to + 2 * 86_400,
               probes > 0, let original = { probes -= 1; return replacedInstance(o, of: master) }() {
                replaced[i] = original
                exact[matchKey(original)] = i
            } else {
                exact[key] = i
            }
        }

        if let master = live {
            let recurring = master.isRecurring || !overrides.isEmpty
            for (original, explicitEnd) in originals {
                let key = matchKey(original)
                let at = instant(original)
                if exact[key] != nil { continue }
                if let range = ranges.last(where: { $0.at <= key }) {
                    let o = overrides[range.index]
                    if o.status == .cancelled || key == range.at { continue }
                    let shifted = shift(original, by: o, rangeStart: instant(o.recurrenceID!))
                    emit(start: shifted, days: o.durationDays, seconds: o.durationSeconds,
                         rid: original, content: range.index)
                } else if let explicitEnd {
                    // An RDATE PERIOD brings its own end.
                    let seconds = max(0, instant(explicitEnd) - at)
                    emit(start: original, days: 0, seconds: seconds, rid: original, content: -1)
                } else {
                    emit(start: original, days: master.durationDays, seconds: master.durationSeconds,
                         rid: recurring ? original : nil, content: -1)
                }
            }
        }
        if series.master?.status != .cancelled {
            // An override of an instance that EXDATE removes is a deleted modification: not shown.
            let excluded = series.master.map { exclusion($0) } ?? Exclusion()
            for (i, o) in overrides.enumerated() where o.status != .cancelled {
                if let rid = o.recurrenceID, excluded.contains(rid, walker: self) { continue }
                if replaced[i] == nil, let master = series.master, o.sequence < master.sequence, overlapsWindow(o),
                   let rid = o.recurrenceID, !windowKeys.contains(matchKey(rid)), isSuperseded(o, by: master) { continue }
                emit(start: o.start, days: o.durationDays, seconds: o.durationSeconds,
                     rid: replaced[i] ?? o.recurrenceID ?? o.start, content: i)
            }
        }
        output.sort { ($0.start, $0.end, $0.contentIndex) < ($1.start, $1.end, $1.contentIndex) }
        return output
    }

    // MARK: - Instances

    /// An override older than its master (lower SEQUENCE, RFC 5545 3.8.7.4) whose
    /// RECURRENCE-ID names no instance the master now generates: the master was revised
    /// after the override was written and the revision removed that instance (a series
    /// cut short by a new UNTIL, moved to another time), as Outlook and Google discard
    /// such exceptions. recurring-ical-events' issue 253 calendar is one.
    /// Whether an override can overlap the window (before asking whether it is superseded,
    /// which walks the rule).
    func overlapsWindow(_ o: EventRecord) -> Bool {
        let at = instant(o.start)
        return at < to && at + Int64(o.durationDays) * 86_400 + o.durationSeconds + 7200 >= from
    }

    func isSuperseded(_ o: EventRecord, by master: EventRecord) -> Bool {
        guard !o.thisAndFuture, o.sequence < master.sequence, let rid = o.recurrenceID else { return false }
        let key = matchKey(rid), at = instant(rid)
        // Instances near the RECURRENCE-ID (two days either side covers a date named by a
        // UTC time), compared as the override matching compares them.
        let probe = SeriesWalker(series: series, from: at - 2 * 86_400, to: at + 2 * 86_400,
                                 floatingZone: floatingZone, zones: zones)
        return !probe.instances(of: master, reach: 0).contains { matchKey($0.0) == key }
    }

    /// Upper bound of an instance's length, for deciding which starts can reach the window.
    func maxDuration(_ e: EventRecord) -> Int64 {
        var d = Int64(e.durationDays) * 86_400 + e.durationSeconds + 7200
        for r in e.rdates { if let end = r.end { d = max(d, instant(end) - instant(r.start) + 7200) } }
        return d
    }

    /// How an original start, a RECURRENCE-ID or an EXDATE is compared with the
    /// series' instances: by date for an all-day series (a date-time RECURRENCE-ID on an
    /// all-day series names its date, as Outlook writes them), otherwise by instant,
    /// with floating values read in the series' own zone.
    func matchKey(_ v: TimeValue) -> Int64 {
        guard let master = series.master else { return instant(v) }
        switch (master.start, v) {
        case (.date, .utc(let s)):
            // Exchange writes an all-day instance's RECURRENCE-ID as UTC midnight of its
            // date, or as the UTC instant of local midnight: the local date it names.
            let t = CivilDateTime(secondsAsIfUTC: s)
            let isMidnight = t.hour == 0 && t.minute == 0 && t.second == 0
            return Int64((isMidnight ? t.date : floatingZone.local(atUTC: s).date).daysSinceEpoch)
        case (.date, _): return Int64(v.wallClock.date.daysSinceEpoch)
        case (.zoned(_, let key), .floating(let t)): return (zones.zone(forKey: key) ?? .utc).instant(forLocal: t)
        case (.utc, .floating(let t)): return t.secondsAsIfUTC
        default: return instant(v)
        }
    }

    /// The instants and dates EXDATE removes.
    struct Exclusion {
        var keys = Set<Int64>()
        var dates = Set<CivilDate>()

        func contains(_ v: TimeValue, walker: SeriesWalker) -> Bool {
            if keys.contains(walker.matchKey(v)) { return true }
            return !dates.isEmpty && dates.contains(v.wallClock.date)
        }
    }

    func exclusion(_ master: EventRecord) -> Exclusion {
        var e = Exclusion()
        for x in master.exdates {
            if case .date(let d) = x, !master.start.isDate { e.dates.insert(d) } else { e.keys.insert(matchKey(x)) }
        }
        return e
    }

    /// Original starts of `master` that can overlap the window (DTSTART, RRULE, RDATE;
    /// minus EXDATE), with the explicit end of RDATE PERIOD values.
    func instances(of master: EventRecord, reach: Int64) -> [(TimeValue, TimeValue?)] {
        let lower = from - reach
        var result: [(TimeValue, TimeValue?)] = []
        var seen = Set<Int64>()
        func consider(_ v: TimeValue, _ end: TimeValue?) {
            let at = instant(v)
            guard at < to, seen.insert(at).inserted else { return }
            let reaches = end.map { instant($0) } ?? (at + reach)
            guard reaches >= from || at >= lower else { return }
            result.append((v, end))
        }
        for r in master.rdates where r.end != nil { consider(r.start, r.end) }
        // A rule whose UNTIL lies before DTSTART has an empty recurrence set.
        if !ruleEndsBeforeStart(master) { consider(master.start, nil) }
        for r in master.rdates where r.end == nil { consider(r.start, nil) }
        if let rrule = master.rrule {
            var budget = Expander.stepLimit
            for rule in rrule.split(separator: "\n") where budget > 0 {
                walkRule(String(rule), master: master, lower: lower, budget: &budget) { consider($0, nil) }
            }
        }
        if master.exdates.isEmpty { return result }
        let excluded = exclusion(master)
        return result.filter { !excluded.contains($0.0, walker: self) }
    }

    func walkRule(_ rrule: String, master: EventRecord, lower: Int64, budget: inout Int, into consider: (TimeValue) -> Void) {
        let start = master.start
        var zone: Zone?
        switch start {
        case .zoned(_, let key): zone = zones.zone(forKey: key) ?? .utc
        case .utc: zone = .utc
        default: zone = nil
        }
        // A fine rule limited by BYxxx parts costs what libical must step through for this
        // window (see RuleSummary+Cost); one that costs too much is not walked.
        if let summary = RuleSummary(Substring(rrule)), summary.limitedStep != nil,
           summary.walkSteps(start: instant(start), skipTo: lower - 2 * 86_400, to: to) > RuleSummary.walkLimit {
            return
        }
        guard let iterator = RuleIterator(rrule: rrule, start: start.wallClock, isDate: start.isDate, zone: zone?.handle,
                                          dateZone: .utc) else { return }
        if !iterator.hasCount, lower - 2 * 86_400 > instant(start) {
            let skipTo = lower - 2 * 86_400
            let local = (zone ?? floatingZone).local(atUTC: skipTo)
            iterator.skip(to: start.isDate ? CivilDateTime(date: local.date) : local)
        }
        while budget > 0, let next = iterator.next() {
            budget -= 1
            let value = start.withWallClock(next)
            if instant(value) >= to { break }
            consider(value)
        }
    }

    func ruleEndsBeforeStart(_ master: EventRecord) -> Bool {
        guard let rrule = master.rrule else { return false }
        let start = master.start
        for rule in rrule.split(separator: "\n") {
            guard let summary = RuleSummary(rule), let until = summary.until else { continue }
            let untilValue: TimeValue = summary.untilIsUTC ? .utc(until.secondsAsIfUTC)
                : summary.untilIsDate ? .date(until.date) : .floating(until)
            if start.isDate || summary.untilIsDate {
                if untilValue.wallClock.date < start.wallClock.date { return true }
            } else if matchKey(untilValue) < matchKey(start) {
                return true
            }
        }
        return false
    }

    /// An instance moved by a THISANDFUTURE override: by the same offset the override moved its own instance.
    func shift(_ original: TimeValue, by o: EventRecord, rangeStart: Int64) -> TimeValue {
        guard let rid = o.recurrenceID else { return original }
        switch (original, rid, o.start) {
        case (.date(let d), .date(let r), .date(let s)):
            return .date(d.adding(days: s.daysSinceEpoch - r.daysSinceEpoch))
        case (.zoned(let t, let key), _, .zoned(let s, let startKey)) where startKey == key:
            // The move measured on the series' wall clock, so "a day later" stays at the
            // same local time when a DST change lies between the instances.
            let r: CivilDateTime
            if case .zoned(let ridTime, let ridKey) = rid, ridKey == key { r = ridTime }
            else { r = (zones.zone(forKey: key) ?? .utc).local(atUTC: rangeStart) }
            return .zoned(CivilDateTime(secondsAsIfUTC: t.secondsAsIfUTC + s.secondsAsIfUTC - r.secondsAsIfUTC), zoneKey: key)
        case (.floating(let t), .floating(let r), .floating(let s)):
            return .floating(CivilDateTime(secondsAsIfUTC: t.secondsAsIfUTC + s.secondsAsIfUTC - r.secondsAsIfUTC))
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
            let endDate = d.adding(days: max(days, 0))
            occurrence = Occurrence(recurrenceID: rid,
                                    start: floatingZone.instant(forLocal: CivilDateTime(date: d)),
                                    end: floatingZone.instant(forLocal: CivilDateTime(date: endDate)),
                                    startDate: d, endDate: endDate, contentIndex: content)
        case .floating(let t):
            let s = floatingZone.instant(forLocal: t)
            let e = days == 0 ? s + seconds
                : floatingZone.instant(forLocal: CivilDateTime(secondsAsIfUTC: t.secondsAsIfUTC + Int64(days) * 86_400)) + seconds
            occurrence = Occurrence(recurrenceID: rid, start: s, end: e, contentIndex: content, isFloating: true)
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
