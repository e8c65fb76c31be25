import Foundation
import ICalendar

/// An event whose text matched `EventStore.search`.
public struct SearchHit: Sendable, Equatable {
    /// The calendar's name.
    public var calendar: String
    public var uid: String
    public var summary: String?
    public var location: String?
    /// The event's (its series') start, as stored.
    public var start: TimeValue
    /// A recurring master: `start` is its first occurrence.
    public var recurring: Bool

    public init(calendar: String, uid: String, summary: String?, location: String?, start: TimeValue, recurring: Bool) {
        (self.calendar, self.uid, self.summary, self.location) = (calendar, uid, summary, location)
        (self.start, self.recurring) = (start, recurring)
    }
}

extension EventStore {
    /// Every event (master or override) whose summary, location or description contains
    /// `text`, ignoring case (Unicode's lower case, not SQLite's ASCII-only one), in
    /// order of start (read in `floatingZone`), at most `limit`. The zones of the hits'
    /// starts are registered, so `start.instant(zones:floatingZone:)` reads them.
    public func search(_ text: String, floatingZone: Zone, limit: Int = 500) throws -> [SearchHit] {
        let needle = text.lowercased()
        guard !needle.isEmpty else { return [] }
        let rows = try db.statement("""
            SELECT calendar.name, event.uid, event.summary, event.location, event.description, event.dtstart,
                   event.rrule IS NOT NULL OR event.rdates IS NOT NULL
            FROM event JOIN calendar ON calendar.id = event.calendar_id
            """)
        var hits: [SearchHit] = []
        var zoneKeys = Set<String>()
        try rows.forEachRow { row in
            let fields = [row.optionalText(2), row.optionalText(3), row.optionalText(4)]
            guard fields.contains(where: { $0?.lowercased().contains(needle) == true }),
                  let start = TimeValue(encoded: row.text(5)) else { return }
            if case .zoned(_, let key) = start { zoneKeys.insert(key) }
            hits.append(SearchHit(calendar: row.text(0), uid: row.text(1), summary: fields[0], location: fields[1],
                                  start: start, recurring: row.int(6) != 0))
        }
        try ensureZones(zoneKeys)
        let zones = ZoneRegistry.shared
        let ordered = hits.map { (instant: $0.start.instant(zones: zones, floatingZone: floatingZone), hit: $0) }
            .sorted { ($0.instant, $0.hit.summary ?? "", $0.hit.uid) < ($1.instant, $1.hit.summary ?? "", $1.hit.uid) }
        return ordered.prefix(limit).map(\.hit)
    }
}

/// What `watch`'s details show beyond the feed's item: read from the stored VEVENT.
public struct EventDetails: Sendable, Equatable {
    /// Someone an event names: `CN` and the address (a `mailto:` without the scheme).
    public struct Person: Sendable, Equatable {
        public var name: String?
        public var address: String
        /// `PARTSTAT` in lower case (`accepted`, `needs-action`…), nil when not given.
        public var participation: String?
    }

    /// The whole description (the feed carries its first 1,024 bytes).
    public var description: String?
    public var organizer: Person?
    public var attendees: [Person] = []
    /// The series' RRULE value, as stored.
    public var rule: String?
    /// Also repeats on extra dates (RDATE).
    public var extraDates = false
    /// Where the event comes from: a live source's kind and name, or the imported file.
    public var source: String
}

extension EventStore {
    /// The details of `uid` in `calendar`: the override of `recurrenceID` when there is
    /// one (a moved occurrence has its own text), else the series' master (the row every
    /// other occurrence shares), else its first override; nil when there is no such event.
    public func details(calendar: String, uid: String, recurrenceID: String? = nil) throws -> EventDetails? {
        let row = try db.statement("""
            SELECT event.description, event.rrule, event.rdates IS NOT NULL, event.vevent, source.path
            FROM event JOIN calendar ON calendar.id = event.calendar_id JOIN source ON source.id = event.source_id
            WHERE calendar.name = ? AND event.uid = ?
            ORDER BY event.recurrence_id != ?, event.recurrence_id != '', event.recurrence_id LIMIT 1
            """).map([.text(calendar), .text(uid), .text(recurrenceID ?? "")]) { row in
            (row.optionalText(0), row.optionalText(1), row.int(2) != 0, row.text(3), row.text(4))
        }.first
        guard let (description, rule, extraDates, vevent, path) = row else { return nil }
        var details = EventDetails(description: description, rule: rule, extraDates: extraDates, source: "")
        for text in vevent.removingCarriageReturns().replacingFolds().split(separator: "\n") {
            guard let line = ContentLine(String(text)), line.name == "ORGANIZER" || line.name == "ATTENDEE" else { continue }
            var address = line.value
            if address.lowercased().hasPrefix("mailto:") { address = String(address.dropFirst(7)) }
            let person = EventDetails.Person(name: line.parameter("CN"), address: address,
                                             participation: line.parameter("PARTSTAT")?.lowercased())
            if line.name == "ORGANIZER" { details.organizer = person } else { details.attendees.append(person) }
        }
        if let live = try liveSources().first(where: { $0.calendar == calendar }) {
            details.source = "\(live.kind.rawValue) \"\(live.name)\": " + live.redactedLocation
                + (live.kind == .vdir ? " (\((path as NSString).lastPathComponent))" : "")
        } else {
            details.source = "imported from " + path
        }
        return details
    }
}
