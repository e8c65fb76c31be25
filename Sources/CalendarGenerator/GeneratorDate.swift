// MARK: - GeneratorDate

/// A proleptic Gregorian calendar date (year, month, day) with the arithmetic the generator
/// needs: conversion to and from a day count, weekdays and month lengths.
///
/// Conversions use Howard Hinnant's `days_from_civil` / `civil_from_days` algorithms, which
/// are exact for every date representable in `Int`. No Foundation is involved.
public struct GeneratorDate: Sendable, Hashable, Comparable, CustomStringConvertible {

    // MARK: - Fields

    /// The year, e.g. `2025`.
    public var year: Int
    /// The month, `1 ... 12`.
    public var month: Int
    /// The day of the month, `1 ... 31`.
    public var day: Int

    /// Creates a date.
    /// - Precondition: `month` is `1 ... 12` and `day` exists in that month.
    public init(year: Int, month: Int, day: Int) {
        precondition((1...12).contains(month), "month out of range: \(month)")
        precondition(day >= 1 && day <= GeneratorDate.daysInMonth(year: year, month: month),
                     "day out of range: \(year)-\(month)-\(day)")
        self.year = year
        self.month = month
        self.day = day
    }

    /// Creates the date that lies `daysSinceEpoch` days after 1970-01-01 (negative: before).
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    // MARK: - Day counts

    /// The number of days from 1970-01-01 to this date (negative before 1970).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The weekday, `0` = Sunday … `6` = Saturday.
    public var weekday: Int {
        GeneratorDate.weekday(daysSinceEpoch: daysSinceEpoch)
    }

    /// The weekday of the day `days` days after 1970-01-01 (a Thursday), `0` = Sunday.
    public static func weekday(daysSinceEpoch days: Int) -> Int {
        let remainder = (days + 4) % 7
        return remainder >= 0 ? remainder : remainder + 7
    }

    /// The date `days` days later (earlier for negative `days`).
    public func adding(days: Int) -> GeneratorDate {
        GeneratorDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    // MARK: - Calendar rules

    /// Whether `year` is a Gregorian leap year.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` of `year`.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // MARK: - Comparable, description

    /// Chronological order.
    public static func < (lhs: GeneratorDate, rhs: GeneratorDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// The ISO 8601 form, `YYYY-MM-DD`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}
