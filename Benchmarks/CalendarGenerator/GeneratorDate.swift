import ICalendar

// MARK: - GeneratorDate

/// A proleptic Gregorian calendar date (year, month, day) with the arithmetic the generator
/// needs: conversion to and from a day count, weekdays and month lengths.
///
/// Conversions are `ICalendar.GregorianCalendar`'s (Howard Hinnant's `days_from_civil` /
/// `civil_from_days`, exact for every date representable in `Int`).
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
        (year, month, day) = GregorianCalendar.date(daysSinceEpoch: days)
    }

    // MARK: - Day counts

    /// The number of days from 1970-01-01 to this date (negative before 1970).
    public var daysSinceEpoch: Int { GregorianCalendar.daysSinceEpoch(year: year, month: month, day: day) }

    /// The weekday, `0` = Sunday … `6` = Saturday.
    public var weekday: Int {
        GeneratorDate.weekday(daysSinceEpoch: daysSinceEpoch)
    }

    /// The weekday of the day `days` days after 1970-01-01 (a Thursday), `0` = Sunday.
    public static func weekday(daysSinceEpoch days: Int) -> Int { GregorianCalendar.weekday(daysSinceEpoch: days) }

    /// The date `days` days later (earlier for negative `days`).
    public func adding(days: Int) -> GeneratorDate {
        GeneratorDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    // MARK: - Calendar rules

    /// Whether `year` is a Gregorian leap year.
    public static func isLeapYear(_ year: Int) -> Bool { GregorianCalendar.isLeapYear(year) }

    /// The number of days in `month` of `year`.
    public static func daysInMonth(year: Int, month: Int) -> Int { GregorianCalendar.daysInMonth(year: year, month: month) }

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
