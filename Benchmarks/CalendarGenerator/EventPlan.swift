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
