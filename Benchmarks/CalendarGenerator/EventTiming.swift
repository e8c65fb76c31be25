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
