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
