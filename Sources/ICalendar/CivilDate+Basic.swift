/// The iCalendar basic forms (`YYYYMMDD`, `YYYYMMDDTHHMMSS`), written digit by digit
/// into one string.
///
/// Built from six padded `String`s and their concatenations, `TimeValue.encoded`
/// cost about 5,000 instructions per event in an import's writer (callgrind), more than
/// binding the whole row. Fields outside their usual widths (a year past 9999, a
/// negative or three-digit field in a date read but not valid) keep the padded form.
extension CivilDate {
    /// Whether every field fits its fixed width.
    var fitsBasicWidths: Bool {
        (0...9999).contains(year) && (0...99).contains(month) && (0...99).contains(day)
    }

    /// Writes `YYYYMMDD` at `p` (8 bytes); the fields must fit (`fitsBasicWidths`).
    @inline(__always)
    func writeBasic(to p: UnsafeMutablePointer<UInt8>) {
        writeDigits(year, count: 4, to: p)
        writeDigits(month, count: 2, to: p + 4)
        writeDigits(day, count: 2, to: p + 6)
    }
}

extension CivilDateTime {
    /// Whether every field fits its fixed width.
    var fitsBasicWidths: Bool {
        date.fitsBasicWidths && (0...99).contains(hour) && (0...99).contains(minute) && (0...99).contains(second)
    }

    /// Writes `YYYYMMDDTHHMMSS` at `p` (15 bytes); the fields must fit (`fitsBasicWidths`).
    @inline(__always)
    func writeBasic(to p: UnsafeMutablePointer<UInt8>) {
        date.writeBasic(to: p)
        p[8] = UInt8(ascii: "T")
        writeDigits(hour, count: 2, to: p + 9)
        writeDigits(minute, count: 2, to: p + 11)
        writeDigits(second, count: 2, to: p + 13)
    }

    /// `basic` followed by `suffix` (`Z`, or `@` and a zone key), as one string.
    func basic(followedBy first: UInt8, _ rest: String = "") -> String {
        guard fitsBasicWidths else { return basic + String(decoding: [first], as: UTF8.self) + rest }
        var rest = rest
        return rest.withUTF8 { tail in
            String(unsafeUninitializedCapacity: 16 + tail.count) { buffer in
                let p = buffer.baseAddress!
                writeBasic(to: p)
                p[15] = first
                if let base = tail.baseAddress { (p + 16).update(from: base, count: tail.count) }
                return 16 + tail.count
            }
        }
    }
}

/// Writes `value` (0 ≤ value < 10^count) as exactly `count` decimal digits at `p`.
@inline(__always)
func writeDigits(_ value: Int, count: Int, to p: UnsafeMutablePointer<UInt8>) {
    var v = value
    var i = count - 1
    while i >= 0 {
        p[i] = UInt8(truncatingIfNeeded: 48 + v % 10)
        v /= 10
        i -= 1
    }
}

/// Day counts of the proleptic Gregorian calendar, with Howard Hinnant's
/// `days_from_civil` / `civil_from_days` algorithms (exact for every date in `Int`).
/// The one implementation behind `ICalendar.CivilDate` and `CalendarGenerator.GeneratorDate`.
public enum GregorianCalendar {
    /// The date `days` days after 1970-01-01 (negative: before it).
    @inlinable
    public static func date(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The days from 1970-01-01 to `year-month-day` (negative before 1970).
    @inlinable
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The weekday of the day `days` days after 1970-01-01 (a Thursday): 0 = Sunday ... 6 = Saturday.
    @inlinable
    public static func weekday(daysSinceEpoch days: Int) -> Int {
        let remainder = (days + 4) % 7
        return remainder >= 0 ? remainder : remainder + 7
    }

    /// Whether `year` is a leap year.
    @inlinable
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` of `year`.
    @inlinable
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
