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
