
/// A calendar date in the proleptic Gregorian calendar, without a zone.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year (1...9999 for a valid date).
    public var year: Int
    /// The month, 1...12.
    public var month: Int
    /// The day of the month, from 1.
    public var day: Int

    /// A date from its fields (not checked; see `isValid`).
    public init(year: Int, month: Int, day: Int) { (self.year, self.month, self.day) = (year, month, day) }

    /// The date `days` days after 1970-01-01 (negative before it).
    public init(daysSinceEpoch days: Int) {
        let (year, month, day) = GregorianCalendar.date(daysSinceEpoch: days)
        self.init(year: year, month: month, day: day)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int { GregorianCalendar.daysSinceEpoch(year: year, month: month, day: day) }

    /// 0 = Sunday ... 6 = Saturday.
    public var weekday: Int { GregorianCalendar.weekday(daysSinceEpoch: daysSinceEpoch) }

    /// True when year/month/day name a real date.
    public var isValid: Bool {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1 else { return false }
        return day <= CivilDate.daysIn(month: month, year: year)
    }

    /// The number of days in `month` of `year`.
    public static func daysIn(month: Int, year: Int) -> Int { GregorianCalendar.daysInMonth(year: year, month: month) }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// `YYYY-MM-DD`.
    public var description: String { iso }
    /// `YYYY-MM-DD`.
    public var iso: String { pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }
    /// `YYYYMMDD` (iCalendar DATE form).
    public var basic: String {
        guard fitsBasicWidths else { return pad(year, 4) + pad(month, 2) + pad(day, 2) }
        return String(unsafeUninitializedCapacity: 8) { writeBasic(to: $0.baseAddress!); return 8 }
    }

    /// Parses `YYYY-MM-DD`.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
        guard isValid else { return nil }
    }

    /// A date as people type it on a command line: `YYYY-MM-DD`, `today`, `tomorrow`,
    /// `yesterday`, a weekday name or its first three letters (the next such day, today
    /// included), or `+3d`, `-1w` (days or weeks from today). Any case.
    public init?(words text: String, today: CivilDate) {
        if let date = CivilDate(iso: text) { self = date; return }
        let word = text.lowercased()
        switch word {
        case "today": self = today; return
        case "tomorrow": self = today.adding(days: 1); return
        case "yesterday": self = today.adding(days: -1); return
        default: break
        }
        let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        if word.count >= 3, let weekday = weekdays.firstIndex(where: { $0 == word || $0.prefix(3) == word }) {
            self = today.adding(days: (weekday - today.weekday + 7) % 7)
            return
        }
        guard let sign = word.first, sign == "+" || sign == "-", let unit = word.last, unit == "d" || unit == "w",
              word.count >= 3, word.count <= 7, let n = Int(word.dropFirst().dropLast()), n >= 0 else { return nil }
        self = today.adding(days: (sign == "-" ? -n : n) * (unit == "w" ? 7 : 1))
    }

    /// Parses `YYYYMMDD`.
    public init?(basic text: Substring) {
        guard text.utf8.count == 8, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let v = Int(text) else { return nil }
        self.init(year: v / 10000, month: (v / 100) % 100, day: v % 100)
        guard isValid else { return nil }
    }

    /// Chronological order.
    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

/// A wall-clock date and time, without a zone.
public struct CivilDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The date.
    public var date: CivilDate
    /// The hour, 0...23.
    public var hour: Int
    /// The minute, 0...59.
    public var minute: Int
    /// The second, 0...59.
    public var second: Int

    /// A wall-clock time from its fields.
    public init(date: CivilDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The wall-clock time read as if it were UTC: seconds since the epoch.
    public var secondsAsIfUTC: Int64 {
        Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The wall-clock time of `seconds` read as if UTC.
    public init(secondsAsIfUTC seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - days * 86_400)
        self.init(date: CivilDate(daysSinceEpoch: Int(days)), hour: rest / 3600, minute: (rest / 60) % 60, second: rest % 60)
    }

    /// `YYYYMMDDTHHMMSS`.
    public var basic: String {
        guard fitsBasicWidths else { return date.basic + "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2) }
        return String(unsafeUninitializedCapacity: 15) { writeBasic(to: $0.baseAddress!); return 15 }
    }
    /// `YYYYMMDDTHHMMSS`.
    public var description: String { basic }

    /// Parses `YYYYMMDDTHHMMSS` (no zone suffix).
    public init?(basic text: Substring) {
        let u = Array(text.utf8)
        guard u.count == 15, u[8] == UInt8(ascii: "T"), let date = CivilDate(basic: text.prefix(8)),
              u[9...].allSatisfy({ $0 >= 48 && $0 <= 57 }), let hms = Int(text.suffix(6)) else { return nil }
        self.init(date: date, hour: hms / 10000, minute: (hms / 100) % 100, second: hms % 100)
        guard hour < 24, minute < 60, second < 61 else { return nil }
        if second == 60 { second = 59 } // leap seconds are read as :59
    }

    /// Chronological order.
    public static func < (a: CivilDateTime, b: CivilDateTime) -> Bool { a.secondsAsIfUTC < b.secondsAsIfUTC }
}

@inline(__always)
func pad(_ value: Int, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}
