/// The parts of an RRULE that bound its extent, read from the rule text (as libical
/// normalised it) without starting libical's iterator.
struct RuleSummary {
    var freq: String
    var count: Int?
    var interval: Int
    var until: CivilDateTime?
    var untilIsUTC = false
    var untilIsDate = false
    var parts: [String: String] = [:]

    init?(_ rule: Substring) {
        var freq: String?
        var interval = 1
        for part in rule.split(separator: ";") {
            guard let eq = part.firstIndex(of: "=") else { continue }
            // libical writes rules in capitals: no case mapping (a new string) for those.
            let name = Self.upper(part[..<eq])
            let value = part[part.index(after: eq)...]
            switch name {
            case "FREQ": freq = Self.upper(value)
            case "COUNT": count = Int(value)
            case "INTERVAL": interval = max(1, Int(value) ?? 1)
            case "UNTIL":
                if value.hasSuffix("Z") {
                    until = CivilDateTime(basic: value.dropLast())
                    untilIsUTC = true
                } else if value.utf8.count == 8, let d = CivilDate(basic: value) {
                    until = CivilDateTime(date: d)
                    untilIsDate = true
                } else {
                    until = CivilDateTime(basic: value)
                }
            default: parts[name] = String(value)
            }
        }
        guard let freq else { return nil }
        self.freq = freq
        self.interval = interval
    }

    /// `text` in capitals, mapped only when it has a lower-case letter.
    static func upper(_ text: Substring) -> String {
        text.utf8.contains(where: { $0 >= 97 && $0 <= 122 }) ? text.uppercased() : String(text)
    }

    /// The parts a COUNT rule may have for `countReach` to bound it by arithmetic.
    private static let reachableParts: Set<String> = ["WKST", "BYHOUR", "BYMINUTE", "BYSECOND", "BYDAY", "BYMONTHDAY", "BYMONTH"]

    /// For a COUNT rule whose every period is certain to hold an instance: how far
    /// (in days or months) the last instance can lie from DTSTART. Nil when the rule
    /// can skip periods (BYSETPOS, BYMONTHDAY 29-31, 5th weekdays, BYWEEKNO, ...), so
    /// the caller must walk it.
    var countReach: (days: Int, months: Int)? {
        guard let count, count > 0 else { return nil }
        guard parts.keys.allSatisfy(Self.reachableParts.contains) else { return nil }
        if let monthDays = parts["BYMONTHDAY"] {
            let values = monthDays.split(separator: ",").compactMap { Int($0) }
            guard values.allSatisfy({ (1...28).contains(abs($0)) }) else { return nil }
        }
        let byDay = parts["BYDAY"]?.split(separator: ",") ?? []
        let prefixes = byDay.map { Int($0.dropLast(2)) ?? 0 }
        let steps = count * interval + 1
        switch freq {
        case "DAILY":
            guard parts["BYMONTH"] == nil, parts["BYMONTHDAY"] == nil, prefixes.allSatisfy({ $0 == 0 }) else { return nil }
            return (steps * (byDay.isEmpty ? 1 : 7), 0)
        case "WEEKLY":
            guard parts["BYMONTH"] == nil, parts["BYMONTHDAY"] == nil, prefixes.allSatisfy({ $0 == 0 }) else { return nil }
            return (steps * 7, 0)
        case "MONTHLY":
            guard parts["BYMONTH"] == nil, prefixes.allSatisfy({ (-4...4).contains($0) && $0 != 0 }) else { return nil }
            return (0, steps)
        case "YEARLY":
            guard byDay.isEmpty || prefixes.allSatisfy({ (-4...4).contains($0) && $0 != 0 }) && parts["BYMONTH"] != nil else { return nil }
            return (0, steps * 12)
        default:
            return nil
        }
    }
}

extension CivilDateTime {
    /// This wall-clock time `months` later (the day clamped to the month's length).
    func adding(months: Int) -> CivilDateTime {
        let total = date.year * 12 + (date.month - 1) + months
        let year = total / 12, month = total % 12 + 1
        let day = min(date.day, CivilDate.daysIn(month: month, year: year))
        return CivilDateTime(date: CivilDate(year: year, month: month, day: day), hour: hour, minute: minute, second: second)
    }
}

/// What a FREQ=SECONDLY or MINUTELY rule limited by BYxxx parts costs to walk.
///
/// libical tests every step of such a rule (every second of `FREQ=SECONDLY;BYMONTH=2`),
/// also between instances and past the window, until the next instance. The cost of a
/// walk is therefore its length in steps plus the longest gap between two instances:
/// what the rule can produce in the window (bounded by COUNT, UNTIL and the window's
/// length), not its shape. `FREQ=MINUTELY;COUNT=10;BYHOUR=11,12` costs a day of minutes.
extension RuleSummary {
    /// The shortest step (FREQ unit times INTERVAL, in seconds) walked without a cost check.
    static let minimumLimitedStep = 900

    /// Most libical steps one walk of one rule may take (a few hundred milliseconds).
    static let walkLimit: Int64 = 2_000_000

    /// Why a rule is not expanded, for warnings.
    static let costlyReason = "a rule stepping every few seconds or minutes whose instances can lie too far apart "
        + "(BYxxx parts) is too costly to expand (only DTSTART is used)"

    /// The step in seconds of a SECONDLY or MINUTELY rule finer than `minimumLimitedStep`
    /// that BYxxx parts limit; nil for every other rule (walked without a cost check).
    var limitedStep: Int64? {
        let unit: Int
        switch freq {
        case "SECONDLY": unit = 1
        case "MINUTELY": unit = 60
        default: return nil
        }
        guard interval < (Self.minimumLimitedStep + unit - 1) / unit else { return nil }
        // BYSECOND adds instances to a MINUTELY rule; every other BYxxx part removes some.
        let expanding: Set<String> = unit == 60 ? ["BYSECOND"] : []
        guard parts.keys.contains(where: { $0.hasPrefix("BY") && !expanding.contains($0) }) else { return nil }
        return Int64(unit * interval)
    }

    /// An upper bound of the seconds between two instances of a limited rule; nil when
    /// the parts do not bound it (BYSETPOS, ordinal weekdays, BYMONTH=2;BYMONTHDAY=30, ...).
    var longestGap: Int64? {
        let day: Int64 = 86_400
        func values(_ name: String) -> [Int]? { parts[name].map { $0.split(separator: ",").compactMap { Int($0) } } }
        var gap: Int64 = parts["BYHOUR"] != nil ? day : parts["BYMINUTE"] != nil ? 3600 : 60
        if let days = parts["BYDAY"] {
            guard days.split(separator: ",").allSatisfy({ $0.count == 2 }) else { return nil }
            gap = max(gap, 7 * day)
        }
        if let monthDays = values("BYMONTHDAY") {
            guard monthDays.allSatisfy({ (1...31).contains(abs($0)) }) else { return nil }
            let everyMonth = monthDays.allSatisfy { abs($0) <= 28 }
            if parts["BYMONTH"] != nil, !everyMonth || parts["BYDAY"] != nil { return nil }
            // Friday the 13th comes at least every 14 months.
            gap = max(gap, parts["BYDAY"] != nil ? 15 * 31 * day : everyMonth ? 31 * day : 62 * day)
        }
        if parts["BYMONTH"] != nil { gap = max(gap, 373 * day) }
        if let yearDays = values("BYYEARDAY") {
            guard yearDays.allSatisfy({ (1...365).contains(abs($0)) }), parts["BYMONTH"] == nil, parts["BYDAY"] == nil else { return nil }
            gap = max(gap, 366 * day)
        }
        if let weeks = values("BYWEEKNO") {
            guard weeks.allSatisfy({ (1...52).contains(abs($0)) }), parts["BYMONTH"] == nil else { return nil }
            gap = max(gap, 380 * day)
        }
        if parts["BYSETPOS"] != nil { return nil }
        return gap
    }

    /// True when no walk of the rule is cheap, not even over a day: one gap between two
    /// instances already takes more than `walkLimit` steps. Such a rule is dropped on import.
    var isTooCostly: Bool {
        guard let step = limitedStep else { return false }
        guard let gap = longestGap else { return true }
        return (gap + 86_400) / step > Self.walkLimit
    }

    /// libical steps to walk the rule from `start` (DTSTART, as an instant) for the
    /// window ending at `to`, skipping to `skipTo` when it has no COUNT; 0 for rules
    /// that need no check.
    func walkSteps(start: Int64, skipTo: Int64, to: Int64) -> Int64 {
        guard let step = limitedStep else { return 0 }
        guard let gap = longestGap else { return .max }
        var end = to
        // UNTIL read as UTC give or take a day (the zone's offset is not needed for a bound).
        if let until { end = min(end, until.secondsAsIfUTC + 86_400) }
        var from = start
        if let count, count > 0 {
            let (reach, overflow) = Int64(count).multipliedReportingOverflow(by: gap)
            if !overflow { end = min(end, start &+ reach) }
        } else {
            from = max(start, skipTo)
        }
        return max(0, end - from) / step + gap / step + 1
    }
}
