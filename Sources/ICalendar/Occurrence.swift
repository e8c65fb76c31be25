/// One concrete instance of an event in a window.
public struct Occurrence: Sendable, Equatable {
    /// The instance's original start (its RECURRENCE-ID); nil for a non-recurring event.
    public var recurrenceID: TimeValue?
    /// Start and end instants (seconds since the epoch); for all-day occurrences, the
    /// instants of their dates' midnights in the floating zone.
    public var start: Int64
    public var end: Int64
    /// All-day occurrences: the first date and the exclusive end date.
    public var startDate: CivilDate?
    public var endDate: CivilDate?
    /// Which record supplies summary, location and status: -1 for the master, else
    /// an index into the overrides passed to `Expander.expand`.
    public var contentIndex: Int

    public var isAllDay: Bool { startDate != nil }
}

/// A master event with its overrides (same calendar and UID).
public struct Series: Sendable {
    public var master: EventRecord?
    public var overrides: [EventRecord]

    public init(master: EventRecord?, overrides: [EventRecord] = []) {
        self.master = master
        self.overrides = overrides
    }
}
