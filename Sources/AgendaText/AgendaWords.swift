import ICalendar

/// The agenda's words for dates and times, in one place for every surface: `agenda`,
/// `watch`, `subscribe --format pretty`, status bars and reminders (the dashboard writes
/// the browser's locale instead, with the same rules: Tests/Vectors/agenda-text.json).
public enum AgendaWords {
    public static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    public static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                                "September", "October", "November", "December"]

    /// A date's header: `Today, Sunday 29 November`; the year only when it is not
    /// `today`'s; the label (`today`, `tomorrow`) capitalised in front when there is one.
    public static func dayHeader(_ date: CivilDate, label: String?, today: CivilDate) -> String {
        var text = "\(weekdays[date.weekday]) \(date.day) \(months[date.month - 1])"
        if date.year != today.year { text += " \(date.year)" }
        if let label, !label.isEmpty { text = label.prefix(1).uppercased() + label.dropFirst() + ", " + text }
        return text
    }

    /// `Mon 7 Dec`: a date in a line (the dense list, a change, a detail).
    public static func shortDate(_ date: CivilDate) -> String {
        "\(weekdays[date.weekday].prefix(3)) \(date.day) \(months[date.month - 1].prefix(3))"
    }

    /// `Mon 7 Dec`, or `Mon 4 Jan 2027` when the year is not `today`'s.
    public static func shortDate(_ date: CivilDate, today: CivilDate) -> String {
        date.year == today.year ? shortDate(date) : shortDate(date) + " \(date.year)"
    }

    /// `HH:MM` of the feed's local time text (`YYYY-MM-DDTHH:MM:SS±HH:MM`): the wall
    /// clock of the view's zone, as the feed wrote it; nil when the text has no time.
    public static func clock(_ rfc3339: String?) -> String? {
        guard let text = rfc3339 else { return nil }
        let u = Array(text.utf8)
        guard u.count >= 16, u[10] == UInt8(ascii: "T"), u[13] == UInt8(ascii: ":"),
              u[11...12].allSatisfy(isDigit), u[14...15].allSatisfy(isDigit) else { return nil }
        return String(decoding: u[11..<16], as: UTF8.self)
    }

    /// `HH:MM` of an instant (seconds since the epoch) in `zone`.
    public static func clock(_ instant: Int64, _ zone: Zone) -> String {
        let t = zone.local(atUTC: instant)
        return two(t.hour) + ":" + two(t.minute)
    }

    /// Whole minutes, rounded up: a countdown says "1 min" until the moment itself.
    public static func minutes(_ seconds: Int64) -> Int64 { seconds <= 0 ? 0 : (seconds + 59) / 60 }

    /// A countdown, the same in a status bar and a reminder: `25 min`, `1 h`, `2 h 5 min`.
    public static func phrase(_ seconds: Int64) -> String {
        let m = minutes(seconds)
        if m < 60 { return "\(m) min" }
        return m % 60 == 0 ? "\(m / 60) h" : "\(m / 60) h \(m % 60) min"
    }

    /// Two digits, zero first.
    public static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// Seconds since the epoch of the feed's `YYYY-MM-DDTHH:MM:SS±HH:MM` (or `Z`, with
    /// optional fractions); nil for anything else.
    public static func instant(_ text: String) -> Int64? {
        let u = Array(text.utf8)
        guard u.count >= 20, u[10] == UInt8(ascii: "T"),
              let date = CivilDate(iso: String(decoding: u[0..<10], as: UTF8.self)),
              let h = number(u[11..<13]), let m = number(u[14..<16]), let s = number(u[17..<19]) else { return nil }
        var rest = u[19...]
        if rest.first == UInt8(ascii: ".") { rest = rest.drop { $0 == UInt8(ascii: ".") || isDigit($0) } }
        let local = Int64(date.daysSinceEpoch) * 86_400 + Int64(h * 3600 + m * 60 + s)
        if rest.elementsEqual("Z".utf8) { return local }
        guard rest.count == 6, let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
              let oh = number(rest.dropFirst().prefix(2)), let om = number(rest.suffix(2)) else { return nil }
        let offset = Int64(oh * 3600 + om * 60)
        return sign == UInt8(ascii: "+") ? local - offset : local + offset
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    static func number(_ digits: some Collection<UInt8>) -> Int? {
        var value = 0
        for d in digits {
            guard isDigit(d) else { return nil }
            value = value * 10 + Int(d - 48)
        }
        return digits.isEmpty ? nil : value
    }
}

extension AgendaWords {
    /// An RRULE in words: `every week on Tuesday and Thursday, until 1 March 2027`,
    /// `every second month on the last Friday, 10 times`. Parts it has no words for
    /// (BYHOUR, BYWEEKNO…) follow as the rule itself, so nothing a rule says is hidden.
    public static func recurrence(_ rule: String, extraDates: Bool = false) -> String {
        var parts: [String: String] = [:]
        for part in rule.split(separator: ";") {
            guard let eq = part.firstIndex(of: "=") else { continue }
            parts[part[..<eq].uppercased()] = String(part[part.index(after: eq)...]).uppercased()
        }
        let units = ["SECONDLY": "second", "MINUTELY": "minute", "HOURLY": "hour", "DAILY": "day",
                     "WEEKLY": "week", "MONTHLY": "month", "YEARLY": "year"]
        guard let freq = parts.removeValue(forKey: "FREQ"), let unit = units[freq] else { return "repeats: " + rule }
        let interval = parts.removeValue(forKey: "INTERVAL").flatMap { Int($0) } ?? 1
        var text = interval == 1 ? "every \(unit)" : "every \(ordinalWord(interval)) \(unit)"
        let days = parts.removeValue(forKey: "BYDAY").map { $0.split(separator: ",").map(String.init) } ?? []
        let position = parts.removeValue(forKey: "BYSETPOS").flatMap { Int($0) }
        let monthDays = parts.removeValue(forKey: "BYMONTHDAY").map { $0.split(separator: ",").compactMap { Int($0) } } ?? []
        let months = parts.removeValue(forKey: "BYMONTH").map { $0.split(separator: ",").compactMap { Int($0) } } ?? []
        parts["WKST"] = nil
        if freq == "WEEKLY" || freq == "DAILY", Set(days) == ["MO", "TU", "WE", "TH", "FR"], interval == 1 {
            text = "every weekday"
        } else if !days.isEmpty {
            text += " on " + list(days.map { weekdayPhrase($0, position: position) })
        }
        if !monthDays.isEmpty { text += " on the " + list(monthDays.map(dayOfMonth)) }
        if !months.isEmpty { text += " in " + list(months.filter { (1...12).contains($0) }.map { Self.months[$0 - 1] }) }
        if let count = parts.removeValue(forKey: "COUNT").flatMap({ Int($0) }) {
            text += count == 1 ? ", once" : ", \(count) times"
        }
        if let until = parts.removeValue(forKey: "UNTIL"), let date = CivilDate(iso: isoDate(until)) {
            text += ", until \(date.day) \(Self.months[date.month - 1]) \(date.year)"
        }
        if extraDates { text += ", and on other dates" }
        if !parts.isEmpty { text += " (" + parts.keys.sorted().map { "\($0)=\(parts[$0]!)" }.joined(separator: ";") + ")" }
        return text
    }

    /// `TU` → `Tuesday`; `2TU` → `the second Tuesday`; `-1FR` → `the last Friday`.
    static func weekdayPhrase(_ code: String, position: Int?) -> String {
        let names = ["SU": 0, "MO": 1, "TU": 2, "WE": 3, "TH": 4, "FR": 5, "SA": 6]
        let name = names[String(code.suffix(2))].map { weekdays[$0] } ?? code
        let n = Int(code.dropLast(2)) ?? position
        guard let n, n != 0 else { return name }
        return n == -1 ? "the last \(name)" : n < 0 ? "the \(ordinalWord(-n)) last \(name)" : "the \(ordinalWord(n)) \(name)"
    }

    /// `2` → `second`, up to `fifth`; then `6th`.
    static func ordinalWord(_ n: Int) -> String {
        let words = ["first", "second", "third", "fourth", "fifth"]
        return (1...5).contains(n) ? words[n - 1] : ordinal(n)
    }

    /// `1st`, `2nd`, `23rd`, `-1` → `last day`.
    static func dayOfMonth(_ n: Int) -> String { n == -1 ? "last day" : n < 0 ? "\(ordinal(-n)) last day" : ordinal(n) }

    static func ordinal(_ n: Int) -> String {
        switch (n % 100, n % 10) {
        case (11...13, _): return "\(n)th"
        case (_, 1): return "\(n)st"
        case (_, 2): return "\(n)nd"
        case (_, 3): return "\(n)rd"
        default: return "\(n)th"
        }
    }

    /// `a, b and c`.
    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// `20270301T000000Z` or `20270301` as `2027-03-01`.
    static func isoDate(_ basic: String) -> String {
        let d = Array(basic.prefix(8))
        guard d.count == 8 else { return basic }
        return String(d[0..<4]) + "-" + String(d[4..<6]) + "-" + String(d[6..<8])
    }
}
