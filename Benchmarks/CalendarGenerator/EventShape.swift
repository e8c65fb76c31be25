// MARK: - EventShape

/// The kind of a generated master or standalone event, with its share of all events in
/// per mille. The shares sum to 1000.
enum EventShape: Int, CaseIterable, Sendable {
    /// `DTSTART;TZID=…`, 30 min – 3 h, starting on a quarter hour in 07:00 … 20:00.
    case zoned
    /// Like ``zoned`` but in UTC (`…Z`).
    case utc
    /// Like ``zoned`` but floating (no zone).
    case floating
    /// All-day (`VALUE=DATE`), one day; `DTEND`, `DURATION:P1D` or neither.
    case allDay
    /// All-day, 2–5 days.
    case multiDayAllDay
    /// Timed in a zone, crossing at least one midnight (overnight or over several days).
    case multiDayTimed
    /// Timed in a zone with neither `DTEND` nor `DURATION` (zero duration).
    case zeroDuration
    /// Travel: `DTSTART` in one zone, `DTEND` in another, 2–14 h.
    case crossZone
    /// Timed in a zone, 15–60 min, early morning (05:00–06:45) or evening (20:15–22:45).
    case offHours

    /// The share of events with this shape, in per mille.
    var perMille: Int {
        switch self {
        case .zoned: return 550
        case .utc: return 100
        case .floating: return 50
        case .allDay: return 150
        case .multiDayAllDay: return 15
        case .multiDayTimed: return 15
        case .zeroDuration: return 40
        case .crossZone: return 30
        case .offHours: return 50
        }
    }

    /// Whether events of this shape may recur.
    var mayRecur: Bool { self != .crossZone }

    /// Whether an instance of this shape can span several days (so daily rules would make
    /// instances overlap).
    var spansDays: Bool { self == .multiDayAllDay || self == .multiDayTimed }
}
