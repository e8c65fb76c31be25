// MARK: - RecurrenceRule

/// A generated RRULE.
///
/// Only the *simple* patterns — `DAILY` and `WEEKLY` without `BYDAY` — have instances the
/// generator computes (the start plus a multiple of ``stepDays``); only those get EXDATEs
/// and overrides, so every EXDATE and RECURRENCE-ID is guaranteed to name a real instance.
struct RecurrenceRule: Sendable {

    // MARK: - Pattern and limit

    /// The frequency and BYxxx parts.
    enum Pattern: Sendable {
        case daily(interval: Int)
        case weekly(interval: Int)
        /// `WEEKLY;BYDAY=…`; `days` is a bit set, bit 0 = Sunday … bit 6 = Saturday.
        case weeklyOnDays(interval: Int, days: UInt8)
        /// `MONTHLY;BYMONTHDAY=d`.
        case monthlyOnDay(Int)
        /// `MONTHLY;BYDAY=2TU` style; `ordinal` is 1…4 or -1, `weekday` 0 = Sunday.
        case monthlyOnWeekday(ordinal: Int, weekday: Int)
        /// Plain `YEARLY`.
        case yearly
        /// `YEARLY;BYMONTH=m;BYMONTHDAY=d`.
        case yearlyOnDate(month: Int, day: Int)
    }

    /// How the rule ends.
    enum Limit: Sendable {
        case count(Int)
        /// UNTIL on this day (`YYYYMMDD` for dates, 23:59:59 UTC or floating otherwise).
        case until(day: Int)
        case open
    }

    var pattern: Pattern
    var limit: Limit

    // MARK: - Simple instances

    /// The distance between consecutive instances in days, for simple patterns only.
    var stepDays: Int? {
        switch pattern {
        case .daily(let interval): return interval
        case .weekly(let interval): return 7 * interval
        default: return nil
        }
    }

    /// The highest instance index that safely exists, for simple patterns: `COUNT - 1`;
    /// for UNTIL the last instance on a day *before* the UNTIL day (so the time of day and
    /// the zone cannot matter); for open rules an arbitrary 24.
    func lastSafeInstance(startDay: Int) -> Int? {
        guard let step = stepDays else { return nil }
        switch limit {
        case .count(let count): return count - 1
        case .until(let day): return max(0, (day - 1 - startDay) / step)
        case .open: return 24
        }
    }

    // MARK: - Writing

    private static let weekdayCodes: [StaticString] = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
    /// BYDAY lists are written Monday first.
    private static let weekdayOrder = [1, 2, 3, 4, 5, 6, 0]

    /// Writes the complete `RRULE:` line for an event whose DTSTART uses `base`.
    func write(to writer: inout ContentLineWriter, base: TimeBase) {
        writer.begin("RRULE:FREQ=")
        switch pattern {
        case .daily(let interval):
            writer.append("DAILY")
            appendInterval(interval, to: &writer)
        case .weekly(let interval):
            writer.append("WEEKLY")
            appendInterval(interval, to: &writer)
        case .weeklyOnDays(let interval, let days):
            writer.append("WEEKLY")
            appendInterval(interval, to: &writer)
            writer.append(";BYDAY=")
            var first = true
            for weekday in Self.weekdayOrder where days & (1 << weekday) != 0 {
                if !first { writer.append(",") }
                writer.append(Self.weekdayCodes[weekday])
                first = false
            }
        case .monthlyOnDay(let day):
            writer.append("MONTHLY;BYMONTHDAY=")
            writer.append(number: day)
        case .monthlyOnWeekday(let ordinal, let weekday):
            writer.append("MONTHLY;BYDAY=")
            if ordinal < 0 {
                writer.append("-")
            }
            writer.append(number: abs(ordinal))
            writer.append(Self.weekdayCodes[weekday])
        case .yearly:
            writer.append("YEARLY")
        case .yearlyOnDate(let month, let day):
            writer.append("YEARLY;BYMONTH=")
            writer.append(number: month)
            writer.append(";BYMONTHDAY=")
            writer.append(number: day)
        }
        switch limit {
        case .count(let count):
            writer.append(";COUNT=")
            writer.append(number: count)
        case .until(let day):
            // RFC 5545 §3.3.10: UNTIL has DTSTART's value type; UTC when DTSTART is UTC or
            // has a TZID, floating when DTSTART is floating.
            writer.append(";UNTIL=")
            switch base {
            case .date:
                writer.append(date: day)
            case .floating:
                writer.append(dateTime: day * 1_440 + 1_439, seconds: 59)
            case .utc, .zone:
                writer.append(dateTime: day * 1_440 + 1_439, seconds: 59)
                writer.append("Z")
            }
        case .open:
            break
        }
        writer.end()
    }

    private func appendInterval(_ interval: Int, to writer: inout ContentLineWriter) {
        if interval > 1 {
            writer.append(";INTERVAL=")
            writer.append(number: interval)
        }
    }
}
