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
