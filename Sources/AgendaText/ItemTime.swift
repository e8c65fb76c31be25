import FeedProtocol
import ICalendar

/// An item's time as the agenda writes it, decided once for every surface:
///
/// - a timed event: `09:00–10:00`; a zero-length one (a deadline) is a moment, `18:00`;
/// - a night or a span, on its first day `22:00–…`, on a day it continues into
///   `…–07:05`, on a day it covers whole `…`;
/// - an all-day event: `all day`.
///
/// Where an event continues from or to another day, `mark` says so (`←`, `→`, `↔`);
/// in a column (`column`) the times line up: `…    –07:05`.
public struct ItemTime: Sendable, Equatable {
    /// Which of the forms above.
    public enum Shape: String, Sendable, CaseIterable {
        case allDay = "all_day"
        case moment
        case range
        /// Began on an earlier day, ends this one.
        case continuesFrom = "continues_from"
        /// Begins this day, ends on a later one.
        case continuesTo = "continues_to"
        /// Covers this whole day.
        case continuesThrough = "continues_through"
    }

    public var shape: Shape
    /// `HH:MM`, or `…` where the event began on an earlier day (`??:??` unreadable).
    public var start: String
    /// `HH:MM`, or `…` where it ends on a later day.
    public var end: String

    /// An all-day event's time.
    public static let allDayText = "all day"

    /// The width of `column`: `HH:MM–HH:MM`.
    public static let columnWidth = 11

    public init(_ item: FeedItem) {
        let from = item.continuesFromPreviousDay, to = item.continuesToNextDay
        start = from ? "…" : AgendaWords.clock(item.start) ?? "??:??"
        end = to ? "…" : AgendaWords.clock(item.end) ?? "??:??"
        if item.allDay {
            shape = .allDay
        } else if from && to {
            shape = .continuesThrough
        } else if from {
            shape = .continuesFrom
        } else if to {
            shape = .continuesTo
        } else {
            shape = item.start == item.end ? .moment : .range
        }
        mark = from && to ? "↔" : from ? "←" : to ? "→" : nil
    }

    /// A timed event's time from its instants in `zone`, as shown on `day` (the
    /// instants it spans; nil: the event's own), for surfaces that hold instants (status
    /// bars, reminders).
    public init(start: Int64, end: Int64, zone: Zone, day: Range<Int64>? = nil) {
        let from = day.map { start < $0.lowerBound } ?? false, to = day.map { end > $0.upperBound } ?? false
        self.start = from ? "…" : AgendaWords.clock(start, zone)
        self.end = to ? "…" : AgendaWords.clock(end, zone)
        shape = from && to ? .continuesThrough : from ? .continuesFrom : to ? .continuesTo : start == end ? .moment : .range
        mark = from && to ? "↔" : from ? "←" : to ? "→" : nil
    }

    /// `←` (continues from the day before), `→` (to the next), `↔` (both), else nil;
    /// all-day events spanning days carry it too.
    public var mark: String?

    /// The time in a line of its own words: `18:00`, `09:00–10:00`, `…–07:05`,
    /// `22:00–…`, `…`, `all day`.
    public var text: String {
        switch shape {
        case .allDay: return Self.allDayText
        case .moment: return start
        case .continuesThrough: return "…"
        case .range, .continuesFrom, .continuesTo: return start + "–" + end
        }
    }

    /// The time in the agenda's column (`columnWidth` wide): the dash where a range's
    /// is, `…    –07:05`, `22:00–…    `, `…    –…    `.
    public var column: String {
        let text: String
        switch shape {
        case .allDay: text = Self.allDayText
        case .moment: text = start
        case .range, .continuesFrom, .continuesTo, .continuesThrough:
            text = Self.padded(start, to: 5) + "–" + end
        }
        return Self.padded(text, to: Self.columnWidth)
    }

    /// `text` with spaces after it up to `width` characters.
    public static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
