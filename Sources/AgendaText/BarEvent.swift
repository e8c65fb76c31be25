import FeedProtocol
import ICalendar

/// One event as a status bar or a reminder needs it: the feed's item reduced to instants
/// and text.
///
/// A status bar shows "now" and "next", so it works on instants (seconds since the
/// epoch); all-day events keep their dates, which mean the same day in every zone.
public struct BarEvent: Hashable, Sendable {
    public var summary: String
    public var location: String?
    public var calendar: String
    /// The event's UID and, for one instance of a series, its RECURRENCE-ID (as the feed
    /// gives them): with the start they name an occurrence (reminders remember them).
    public var uid: String = ""
    public var recurrenceID: String?
    /// Timed events: the instants; all-day events: midnight UTC of `startDate`/`endDate`.
    public var start: Int64
    public var end: Int64
    public var allDay: Bool
    /// All-day events: the first date and the date after the last (exclusive, as in iCalendar).
    public var startDate: CivilDate
    public var endDate: CivilDate

    public init(summary: String, location: String? = nil, calendar: String, start: Int64, end: Int64) {
        self.summary = summary
        self.location = location
        self.calendar = calendar
        self.start = start
        self.end = max(end, start)
        allDay = false
        startDate = CivilDate(daysSinceEpoch: Int(start.floorDiv(86_400)))
        endDate = CivilDate(daysSinceEpoch: Int(self.end.floorDiv(86_400)))
    }

    public init(summary: String, location: String? = nil, calendar: String, allDayFrom first: CivilDate, until end: CivilDate) {
        self.summary = summary
        self.location = location
        self.calendar = calendar
        startDate = first
        endDate = max(end, first.adding(days: 1))
        start = Int64(first.daysSinceEpoch) * 86_400
        self.end = Int64(endDate.daysSinceEpoch) * 86_400
        allDay = true
    }

    /// The event an item of the feed describes, or nil for a placeholder, a cancelled
    /// occurrence or an item whose times cannot be read.
    public init?(item: FeedItem) {
        guard item.kind == .event, item.status?.uppercased() != "CANCELLED",
              let startText = item.start, let endText = item.end else { return nil }
        let summary = item.summary ?? "(no title)"
        let location = item.location.flatMap { $0.isEmpty ? nil : $0 }
        let calendar = item.calendar ?? ""
        if item.allDay {
            guard let first = CivilDate(iso: startText), let last = CivilDate(iso: endText) else { return nil }
            self.init(summary: summary, location: location, calendar: calendar, allDayFrom: first, until: last)
        } else {
            guard let s = AgendaWords.instant(startText), let e = AgendaWords.instant(endText) else { return nil }
            self.init(summary: summary, location: location, calendar: calendar, start: s, end: e)
        }
        uid = item.uid ?? ""
        recurrenceID = item.recurrenceID
    }

    /// The distinct events of a feed's local copy, in order of start. An event that spans
    /// several dates is an item in each of their sections; it counts once.
    public static func events(in model: FeedClientState.Model) -> [BarEvent] {
        var memo = Memo()
        return memo.events(in: model)
    }

    /// Remembers the event each item made, so that a follower's copy, read again after
    /// every diff, converts only the items the diff changed (the rest are compared by
    /// their canonical bytes).
    public struct Memo {
        private var byItem: [String: (item: FeedItem, event: BarEvent?)] = [:]

        public init() {}

        /// `BarEvent.events(in:)`, reusing the conversions of unchanged items.
        public mutating func events(in model: FeedClientState.Model) -> [BarEvent] {
            var next: [String: (item: FeedItem, event: BarEvent?)] = [:]
            next.reserveCapacity(byItem.count)
            var seen = Set<BarEvent>()
            var events: [BarEvent] = []
            for section in model.sections {
                for item in section.items {
                    let known = byItem[item.id].flatMap { $0.item == item.content ? $0.event : nil as BarEvent?? }
                    let event = known ?? BarEvent(item: item.content)
                    next[item.id] = (item.content, event)
                    guard let event, seen.insert(event).inserted else { continue }
                    events.append(event)
                }
            }
            byItem = next
            return events.sorted { ($0.start, $0.allDay ? 0 : 1, $0.end, $0.summary) < ($1.start, $1.allDay ? 0 : 1, $1.end, $1.summary) }
        }
    }
}

extension Int64 {
    /// Division rounding toward negative infinity (dates before 1970 too).
    public func floorDiv(_ d: Int64) -> Int64 { self >= 0 ? self / d : (self - d + 1) / d }
}
