/// One concrete instance of an event in a window.
public struct Occurrence: Sendable, Equatable {
    /// The instance's original start (its RECURRENCE-ID); nil for a non-recurring event.
    public var recurrenceID: TimeValue?
    /// Start and end instants (seconds since the epoch); for all-day occurrences, the
    /// instants of their dates' midnights in the floating zone.
    public var start: Int64
    /// The end instant (see `start`).
    public var end: Int64
    /// All-day occurrences: the first date and the exclusive end date.
    public var startDate: CivilDate?
    /// The exclusive end date of an all-day occurrence.
    public var endDate: CivilDate?
    /// Which record supplies summary, location and status: -1 for the master, else
    /// an index into the overrides passed to `Expander.expand`.
    public var contentIndex: Int
    /// The instance's start was a floating time (read in the floating zone).
    public var isFloating: Bool = false

    /// True for an all-day occurrence.
    public var isAllDay: Bool { startDate != nil }
}

/// A master event with its overrides (same calendar and UID).
public struct Series: Sendable {
    /// The master (nil when only overrides are stored).
    public var master: EventRecord?
    /// The overrides (RECURRENCE-ID), in storage order.
    public var overrides: [EventRecord]

    /// Creates a series.
    public init(master: EventRecord?, overrides: [EventRecord] = []) {
        self.master = master
        self.overrides = overrides
    }
}

extension ParsedCalendar {
    /// The file's events grouped into series by UID. Where one (UID, RECURRENCE-ID)
    /// appears twice, the import conflict rule picks the winner: higher SEQUENCE, then
    /// later LAST-MODIFIED/DTSTAMP, then the later one in the file.
    public func series(zones: ZoneResolver = ZoneRegistry.shared) -> [(uid: String, series: Series)] {
        var order: [String] = []
        var byUID: [String: [String: EventRecord]] = [:]
        for e in events {
            let key = e.recurrenceKey(zones: zones)
            if byUID[e.uid] == nil { order.append(e.uid) }
            if let old = byUID[e.uid]?[key] {
                let newer = e.sequence != old.sequence ? e.sequence > old.sequence
                    : (e.modified ?? .min) >= (old.modified ?? .min)
                if !newer { continue }
            }
            byUID[e.uid, default: [:]][key] = e
        }
        return order.map { uid in
            let records = byUID[uid]!
            let overrides = records.filter { $0.key != "" }.sorted { $0.key < $1.key }.map(\.value)
            return (uid, Series(master: records[""], overrides: overrides))
        }
    }
}
