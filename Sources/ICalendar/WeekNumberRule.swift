/// A `FREQ=YEARLY` rule with `BYWEEKNO`, expanded here rather than by libical: libical
/// 3.0 numbers the weeks of later years wrongly (`BYWEEKNO=1,52;BYDAY=MO,FR` yields a
/// Tuesday in 2026, and week 52 of 2027 is lost), so such series came out with a few
/// instances where a dozen were due (upstream issues 438 and 794, pull request 941).
///
/// Each year (every INTERVAL-th from DTSTART's) is the set of its days that pass every
/// BYxxx filter, in the order RFC 5545 3.3.10 applies them; a day belongs to week n of
/// the week-numbering year it falls in (ISO 8601 with `WKST` as the first day: week 1
/// holds at least four days of its year), and a negative n counts from that year's last
/// week, as python-dateutil reads it. Times come from BYHOUR/BYMINUTE/BYSECOND, else from
/// DTSTART; BYSETPOS picks from the year's set. DTSTART is always the first instance; it
/// counts towards COUNT when the rule yields it, as libical and python-dateutil count.
struct WeekNumberRule {
    private let start: CivilDateTime
    private let isDate: Bool
    private let interval: Int
    private let count: Int?
    /// UNTIL as wall-clock time in the series' frame (a date for an all-day series).
    private let until: CivilDateTime?
    private let weeks: Set<Int>
    private let weekdays: Set<Int>?
    private let months: Set<Int>?
    private let monthDays: Set<Int>?
    private let yearDays: Set<Int>?
    private let times: [(hour: Int, minute: Int, second: Int)]
    private let setPositions: [Int]
    /// The first day of a week, 0 = Sunday (`WKST`, Monday when absent).
    private let weekStart: Int

    private var year: Int
    private var pending: [CivilDateTime] = []
    private var emitted = 0
    private var startPending = true
    private var finished = false

    /// Nil when the rule is not one for this expander (not YEARLY, no BYWEEKNO, or a
    /// BYDAY with an ordinal, which RFC 5545 erratum 3779 forbids beside BYWEEKNO).
    init?(_ rule: String, start: CivilDateTime, isDate: Bool, until: CivilDateTime?) {
        guard let summary = RuleSummary(Substring(rule)), summary.freq == "YEARLY",
              let weekList = summary.parts["BYWEEKNO"] else { return nil }
        let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        func numbers(_ name: String) -> [Int]? {
            summary.parts[name].map { $0.split(separator: ",").compactMap { Int($0) } }
        }
        var weekdays: Set<Int>?
        if let byDay = summary.parts["BYDAY"] {
            var days = Set<Int>()
            for item in byDay.split(separator: ",") {
                guard item.count == 2, let day = names.firstIndex(of: String(item)) else { return nil }
                days.insert(day)
            }
            weekdays = days
        }
        self.weeks = Set(weekList.split(separator: ",").compactMap { Int($0) })
        guard !weeks.isEmpty else { return nil }
        self.start = start
        self.isDate = isDate
        self.interval = summary.interval
        self.count = summary.count
        self.until = until
        self.weekdays = weekdays
        self.months = numbers("BYMONTH").map(Set.init)
        self.monthDays = numbers("BYMONTHDAY").map(Set.init)
        self.yearDays = numbers("BYYEARDAY").map(Set.init)
        self.setPositions = numbers("BYSETPOS") ?? []
        self.weekStart = summary.parts["WKST"].flatMap { names.firstIndex(of: $0) } ?? 1
        var times: [(Int, Int, Int)] = []
        for h in isDate ? [0] : numbers("BYHOUR") ?? [start.hour] {
            for m in isDate ? [0] : numbers("BYMINUTE") ?? [start.minute] {
                for s in isDate ? [0] : numbers("BYSECOND") ?? [start.second] { times.append((h, m, s)) }
            }
        }
        self.times = times.sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        self.year = start.date.year
    }

    /// Moves on so that no instance before `local`'s year is produced (rules without COUNT).
    mutating func skip(to local: CivilDateTime) {
        guard count == nil, local.date.year > year else { return }
        let years = (local.date.year - 1 - start.date.year) / interval * interval
        year = max(year, start.date.year + max(0, years))
        pending = []
        startPending = false
    }

    mutating func next() -> CivilDateTime? {
        if startPending {
            startPending = false
            return start
        }
        while !finished {
            if let t = pending.first {
                pending.removeFirst()
                guard t >= start else { continue }
                if let until, isDate ? t.date > until.date : t > until { finished = true; return nil }
                if let count, emitted >= count { finished = true; return nil }
                emitted += 1
                // DTSTART, given first, counts when the rule yields it too.
                if t == start { continue }
                return t
            }
            // A rule no year can satisfy (week 53 in June) ends after a 400-year cycle.
            guard year <= 9999, year - start.date.year <= 400 || emitted > 0 else { finished = true; return nil }
            pending = instances(in: year)
            year += interval
        }
        return nil
    }

    /// The year's instances, in order.
    private func instances(in year: Int) -> [CivilDateTime] {
        let first = CivilDate(year: year, month: 1, day: 1).daysSinceEpoch
        let length = CivilDate(year: year + 1, month: 1, day: 1).daysSinceEpoch - first
        let weekOne = (year - 1...year + 2).map(firstDayOfWeekOne)
        var set: [CivilDateTime] = []
        for offset in 0..<length {
            let day = first + offset
            let date = CivilDate(daysSinceEpoch: day)
            if let months, !months.contains(date.month) { continue }
            guard inWeeks(day, weekOne: weekOne) else { continue }
            if let yearDays, !yearDays.contains(offset + 1), !yearDays.contains(offset - length) { continue }
            if let monthDays {
                let last = CivilDate.daysIn(month: date.month, year: year)
                if !monthDays.contains(date.day), !monthDays.contains(date.day - last - 1) { continue }
            }
            if let weekdays, !weekdays.contains(date.weekday) { continue }
            for t in times { set.append(CivilDateTime(date: date, hour: t.hour, minute: t.minute, second: t.second)) }
        }
        guard !setPositions.isEmpty else { return set }
        let picked = setPositions.compactMap { p -> CivilDateTime? in
            let i = p > 0 ? p - 1 : set.count + p
            return set.indices.contains(i) ? set[i] : nil
        }
        return Array(Set(picked.map(\.secondsAsIfUTC))).sorted().map { CivilDateTime(secondsAsIfUTC: $0) }
    }

    /// Whether `day` lies in one of the rule's weeks of the week-numbering year it belongs to.
    private func inWeeks(_ day: Int, weekOne: [Int]) -> Bool {
        // weekOne: the first day of week 1 of the previous year, this year and the two next.
        let i = day >= weekOne[2] ? 2 : day >= weekOne[1] ? 1 : 0
        let number = (day - weekOne[i]) / 7 + 1
        let weeksInYear = (weekOne[i + 1] - weekOne[i]) / 7
        return weeks.contains(number) || weeks.contains(number - weeksInYear - 1)
    }

    /// Week 1 of `year` is the first week (from WKST) with at least four days in the year.
    private func firstDayOfWeekOne(_ year: Int) -> Int {
        let jan1 = CivilDate(year: year, month: 1, day: 1)
        let back = (jan1.weekday - weekStart + 7) % 7
        return jan1.daysSinceEpoch - back + (back <= 3 ? 0 : 7)
    }
}
