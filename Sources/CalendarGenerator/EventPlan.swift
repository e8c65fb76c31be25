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

// MARK: - TimeBase

/// How the date-time values of an event are expressed.
enum TimeBase: Equatable, Sendable {
    /// Local time with `TZID=`.
    case zone(GeneratorZone)
    /// UTC, `…Z`.
    case utc
    /// Floating local time.
    case floating
    /// `VALUE=DATE`.
    case date
}

// MARK: - EventTiming

/// Start and end of an event (or of an override).
///
/// Times are absolute minute counts since 1970-01-01 00:00 *in the event's own time base*
/// (local wall-clock minutes for zoned and floating events, UTC minutes for UTC events,
/// whole days × 1440 for dates).
struct EventTiming: Sendable {
    /// How the end is expressed.
    enum End: Sendable {
        /// No `DTEND` and no `DURATION`.
        case none
        /// `DTEND` at `minutes`; for zoned starts, `zone` is the end's zone (may differ).
        case dtend(minutes: Int, zone: GeneratorZone?)
        /// `DURATION`: `PTnHnM` for timed events, `PnD` for dates.
        case duration(minutes: Int)
    }

    var base: TimeBase
    var start: Int
    var end: End

    /// The day (since 1970-01-01, in the event's time base) on which the event starts.
    var startDay: Int {
        start >= 0 ? start / 1_440 : (start - 1_439) / 1_440
    }

    /// The timing moved by `minutes` (a multiple of 1440 for dates).
    func shifted(by minutes: Int) -> EventTiming {
        var copy = self
        copy.start += minutes
        if case .dtend(let endMinutes, let zone) = end {
            copy.end = .dtend(minutes: endMinutes + minutes, zone: zone)
        }
        return copy
    }
}

// MARK: - EventStatus

/// The `STATUS` of a VEVENT.
enum EventStatus: Sendable {
    case confirmed
    case tentative
    case cancelled
}

// MARK: - OverridePlan

/// One override of a recurring event: a VEVENT with the master's UID and a RECURRENCE-ID.
struct OverridePlan: Sendable {
    /// The 0-based index of the overridden instance of the (simple) rule.
    var instance: Int
    /// How far the instance moves, in minutes (whole days for all-day events).
    var shiftMinutes: Int
    /// Whether the override cancels the instance (`STATUS:CANCELLED`).
    var cancelled: Bool
    /// Which summary prefix the override gets (index into the vocabulary).
    var summaryPrefix: Int
}

// MARK: - EventPlan

/// Every random decision about one master or standalone event and its overrides. The
/// planner makes all choices; the serializer only turns a plan into text.
struct EventPlan: Sendable {
    /// The 1-based event number, used in the UID.
    var number: Int
    var shape: EventShape
    var timing: EventTiming
    /// UTC seconds since 1970 for DTSTAMP.
    var stampSeconds: Int
    /// Whether LAST-MODIFIED (equal to DTSTAMP) is written.
    var hasLastModified: Bool
    /// SEQUENCE, when written.
    var sequence: Int?
    /// Index into the summary vocabulary.
    var summary: Int
    /// Index into the location vocabulary, when LOCATION is written.
    var location: Int?
    /// Seed of the description's sentence choice, when DESCRIPTION is written.
    var descriptionSeed: UInt64?
    var status: EventStatus?
    /// Whether `TRANSP:TRANSPARENT` is written.
    var transparent: Bool
    var rule: RecurrenceRule?
    /// Instance indices excluded with EXDATE.
    var exceptionInstances: [Int]
    /// Whether each EXDATE value gets its own line (otherwise one comma-separated line).
    var exceptionsOnSeparateLines: Bool
    var overrides: [OverridePlan]

    /// The original start of instance `index` of the event's simple rule.
    func instanceStart(_ index: Int) -> Int {
        guard let step = rule?.stepDays else {
            preconditionFailure("instances are only computed for simple rules")
        }
        return timing.start + index * step * 1_440
    }
}
