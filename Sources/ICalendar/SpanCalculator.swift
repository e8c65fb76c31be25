/// Computes the conservative span (`firstMinute`, `lastMinute`) an event can occupy,
/// so that "events that can occur in [a, b)" is one index lookup.
enum SpanCalculator {
    /// Slack for values read in the view's zone (dates and floating times): the widest UTC offset, plus DST.
    static let viewMargin: Int64 = 15 * 3600
    /// Most instances walked to find the end of a COUNT rule before calling it open.
    static let countLimit = 100_000

    /// `rules`: the record's rules (`record.rrule`, one by one) with their summaries.
    static func computeSpan(_ record: inout EventRecord, zones: ZoneResolver, rules: [(text: String, summary: RuleSummary?)]) {
        let margin = isViewRelative(record.start) ? viewMargin : 0
        let duration = Int64(record.durationDays) * 86_400 + record.durationSeconds + (record.durationDays > 0 ? 3600 : 0)
        let start = record.start.instant(zones: zones, floatingZone: .utc)
        var first = start - margin
        var last = start + duration + margin
        var open = false

        for (rule, summary) in rules {
            switch ruleEnd(rule, summary: summary, record: record, zones: zones) {
            case .none: open = true
            case .some(let end): last = max(last, end + duration + margin)
            }
        }
        for rdate in record.rdates {
            let s = rdate.start.instant(zones: zones, floatingZone: .utc)
            let e = rdate.end?.instant(zones: zones, floatingZone: .utc) ?? (s + duration)
            let m = isViewRelative(rdate.start) ? viewMargin : 0
            first = min(first, s - m)
            last = max(last, max(e, s + duration) + m)
        }
        if let rid = record.recurrenceID {
            let r = rid.instant(zones: zones, floatingZone: .utc)
            first = min(first, r - viewMargin)
            last = max(last, r + duration + viewMargin)
            if record.thisAndFuture { open = true }
        }
        record.firstMinute = clampMinute(floorDiv(first, 60))
        record.lastMinute = open ? EventRecord.openEndMinute : clampMinute(floorDiv(last, 60) + 1)
    }

    /// The instant of the last instance's start (or a bound past it), or nil for an
    /// open-ended rule. UNTIL and COUNT rules that cannot skip periods are bounded by
    /// arithmetic; other COUNT rules are walked with libical's iterator.
    static func ruleEnd(_ rrule: String, summary: RuleSummary?, record: EventRecord, zones: ZoneResolver) -> Int64? {
        let zone: Zone? = { if case .zoned(_, let key) = record.start { return zones.zone(forKey: key) } else { return nil } }()
        let frame = record.start
        guard let summary else { return record.start.instant(zones: zones, floatingZone: .utc) }
        if let until = summary.until {
            // An all-day series ends on UNTIL's local date in the view's zone: a date bound.
            if summary.untilIsUTC, !record.start.isDate { return until.secondsAsIfUTC }
            if summary.untilIsDate || record.start.isDate { return until.secondsAsIfUTC + 86_400 + viewMargin }
            return (zone ?? .utc).instant(forLocal: until) + viewMargin
        }
        guard summary.count != nil else { return nil }
        func instant(of local: CivilDateTime) -> Int64 {
            return frame.withWallClock(local).instant(zones: zones, floatingZone: .utc) + (isViewRelative(frame) ? viewMargin : 0)
        }
        if let reach = summary.countReach {
            let start = frame.wallClock
            let last = CivilDateTime(secondsAsIfUTC: start.secondsAsIfUTC + Int64(reach.days) * 86_400).adding(months: reach.months)
            return instant(of: last)
        }
        guard let iterator = LibICal.locked({
            RuleIterator(rrule: rrule, start: frame.wallClock, isDate: frame.isDate,
                         zone: zone?.handle ?? (isUTC(frame) ? LibICal.utc : nil))
        }) else { return record.start.instant(zones: zones, floatingZone: .utc) }
        var lastStart: CivilDateTime?
        var steps = 0
        while let next = LibICal.locked({ iterator.next() }) {
            lastStart = next
            steps += 1
            if steps > countLimit { return nil }
        }
        guard let lastStart else { return record.start.instant(zones: zones, floatingZone: .utc) }
        return instant(of: lastStart)
    }

    static func isViewRelative(_ value: TimeValue) -> Bool {
        switch value {
        case .date, .floating: return true
        default: return false
        }
    }

    static func isUTC(_ value: TimeValue) -> Bool { if case .utc = value { return true } else { return false } }

    static func clampMinute(_ m: Int64) -> Int64 { min(max(m, -Int64(Int32.max)), EventRecord.openEndMinute) }
}

@inline(__always)
func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
