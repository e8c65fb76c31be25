import ICalendar
import AgendaText

/// One notification: an occurrence and how long before its start it is due.
public struct Reminder: Equatable, Sendable {
    public var event: BarEvent
    /// Seconds before the start this reminder is for (`--before`).
    public var before: Int64
    /// When it is due (the start minus `before`).
    public var due: Int64 { event.start - before }
    /// What remembers it across restarts: the occurrence (UID, RECURRENCE-ID, start) and
    /// the offset. An event that moves is a new occurrence and reminds again.
    public var key: String { "\(event.uid)|\(event.recurrenceID ?? "")|\(event.start)|\(before)" }

    public var title: String { event.summary.isEmpty ? "(no title)" : event.summary }
    /// Starting within five minutes (or already due late).
    public var urgent: Bool { before <= 300 }

    /// `in 10 min · 14:00–15:00 · Room 4` (times in `zone`), as at `now`.
    public func describe(now: Int64, zone: Zone) -> String {
        // The status bar's wording (`AgendaWords`): the same countdown and times a user sees there.
        var parts = [event.start <= now ? "now" : "in " + AgendaWords.phrase(event.start - now)]
        parts.append(ItemTime(start: event.start, end: event.end, zone: zone).text)
        if let location = event.location { parts.append(location) }
        return parts.joined(separator: " · ")
    }

    /// Set by the planner when it hands the reminder out, so a `Notifier` needs no zone.
    public var body: String = ""


    public init(event: BarEvent, before: Int64) {
        self.event = event
        self.before = before
    }
}

/// Which reminders are due, and when the next one is. Pure: events, offsets, the
/// instant and what was already sent in, reminders out.
public struct ReminderPlanner: Sendable {
    /// Seconds before each event's start (`--before`, repeatable).
    public var befores: [Int64]

    public init(befores: [Int64]) { self.befores = Array(Set(befores)).sorted(by: >) }

    /// What to do at `now`: the reminders to show and every key to record as sent.
    public struct Plan: Sendable {
        public var show: [Reminder] = []
        public var record: [(key: String, start: Int64)] = []
    }

    /// Every reminder due at `now` not yet in `sent`, of timed events that have not
    /// started: a reminder missed while nothing ran still comes, late, while the event
    /// has not begun; none for one under way or over. Cancelled occurrences never reach
    /// here (`BarEvent` drops them). Of several offsets due at once for one occurrence
    /// (after a restart) only the nearest is shown; it stands for those due within the
    /// next minute as well, and all of them are recorded.
    public func plan(_ events: [BarEvent], alarms: [String: [Int64]] = [:], now: Int64, zone: Zone, sent: Set<String>) -> Plan {
        var plan = Plan()
        for event in events where !event.allDay && event.start > now {
            let unsent = offsets(event, alarms).map { Reminder(event: event, before: $0) }.filter { !sent.contains($0.key) }
            guard var nearest = unsent.filter({ $0.due <= now }).min(by: { $0.before < $1.before }) else { continue }
            nearest.body = nearest.describe(now: now, zone: zone)
            plan.show.append(nearest)
            // What it says covers the offsets due within the next minute too: a late
            // one-hour reminder at 9:50 is not followed by the ten-minute one at 9:50:30.
            plan.record += unsent.filter { $0.due <= now + 60 }.map { ($0.key, event.start) }
        }
        plan.show.sort { ($0.event.start, $0.event.summary) < ($1.event.start, $1.event.summary) }
        return plan
    }

    /// When the next reminder falls due after `now` (nil: none in these events).
    public func nextDue(_ events: [BarEvent], alarms: [String: [Int64]] = [:], after now: Int64) -> Int64? {
        events.filter { !$0.allDay && $0.start > now }
            .flatMap { e in offsets(e, alarms).map { e.start - $0 } }
            .filter { $0 > now }
            .min()
    }

    /// `befores` and the event's own display alarms (`alarms` by UID, seconds before the
    /// start, as `EventStore.alarms(uids:)` gives them), without repeats.
    func offsets(_ event: BarEvent, _ alarms: [String: [Int64]]) -> [Int64] {
        guard let own = alarms[event.uid], !own.isEmpty else { return befores }
        return befores + own.filter { $0 >= 0 && !befores.contains($0) }
    }
}
