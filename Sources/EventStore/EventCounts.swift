/// The number of events in a store, kept up to date from the change log: after a
/// change only the calendars it names are counted again.
///
/// The daemon publishes the store's counts (for `status`) before each change's
/// diff, so that a client that has seen a diff never gets older counts. A whole
/// `count(*)` of the 100,000-event store reads every page of the event table's UNIQUE
/// index, and after another connection's write (an import) none of them is in this
/// connection's cache: up to 14 ms on the way of every diff to its
/// subscribers. A one-event change now counts one small calendar.
///
/// Whatever the log cannot tell (no log, another file, pruned entries, a calendar
/// removed, renamed or bulk loaded) counts every calendar again, so the counts are
/// always those of `count(*)`.
public struct EventCounts: Sendable {
    /// Events per calendar name, every calendar of the store (those with none too).
    public private(set) var byCalendar: [String: Int] = [:]
    /// The change log position the counts are of (nil: counted without a log).
    private var position: ChangeLogPosition?
    /// Whether the last `update` counted only the calendars the log named.
    public private(set) var lastUsedChangeLog = false

    public init() {}

    /// Every event, over all calendars.
    public var total: Int { byCalendar.values.reduce(0, +) }

    /// Brings the counts to the store's current state (read in one transaction).
    public mutating func update(_ store: EventStore) throws {
        try store.read {
            let now = try store.changeLogPosition()
            lastUsedChangeLog = false
            if let old = position, let now, let names = try store.changedSeries(since: old, upTo: now) {
                // Also the calendars made or gone without an event written (the
                // calendar table is a few rows).
                let calendars = Set(try store.calendarNames())
                let known = Set(byCalendar.keys)
                for calendar in Set(names.map(\.calendar)).union(calendars.subtracting(known)) {
                    byCalendar[calendar] = try store.eventCount(ofCalendar: calendar)
                }
                for gone in known.subtracting(calendars) { byCalendar[gone] = nil }
                lastUsedChangeLog = true
            } else {
                byCalendar = try store.eventCountsByCalendar()
            }
            position = now
        }
    }
}
