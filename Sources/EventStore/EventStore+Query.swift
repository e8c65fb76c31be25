import ICalendar

/// A series as stored: its calendar, UID and records.
public struct StoredSeries: Sendable {
    /// The calendar's name.
    public var calendar: String
    /// The series' UID.
    public var uid: String
    /// The master and its overrides.
    public var series: Series

    /// Creates a stored series.
    public init(calendar: String, uid: String, series: Series) { (self.calendar, self.uid, self.series) = (calendar, uid, series) }
}

extension EventStore {
    /// Every series with at least one record that can occur in `[fromMinute, toMinute)`
    /// (minutes since the epoch), restricted to `calendars` when given. A recurring
    /// master brings all its overrides, wherever they lie.
    public func series(fromMinute: Int64, toMinute: Int64, calendars: [String]? = nil) throws -> [StoredSeries] {
        let calendarIDs = try calendarIDs(restrictedTo: calendars)
        if calendarIDs.isEmpty { return [] }

        var groups: [SeriesKey: (master: EventRecord?, overrides: [Int64: EventRecord])] = [:]
        var order: [SeriesKey] = []
        var seenIDs = Set<Int64>()
        var zoneKeys = Set<String>()

        func take(_ row: Row) {
            let id = row.int(Column.id)
            guard seenIDs.insert(id).inserted else { return }
            let calendarID = row.int(Column.calendarID)
            guard calendarIDs[calendarID] != nil, let record = Self.decode(row, zoneKeys: &zoneKeys) else { return }
            let key = SeriesKey(calendar: calendarID, uid: record.uid)
            if groups[key] == nil { order.append(key); groups[key] = (nil, [:]) }
            if record.recurrenceID == nil { groups[key]!.master = record } else { groups[key]!.overrides[id] = record }
        }

        try forEachRowInWindow(Column.self, fromMinute: fromMinute, toMinute: toMinute) { take($0) }
        // Overrides of recurring masters, wherever they are.
        for key in order where groups[key]!.master?.isRecurring == true {
            try forEachOverride(Column.self, calendarID: key.calendar, uid: key.uid) { take($0) }
        }
        try ensureZones(zoneKeys)
        return order.map { key in
            let g = groups[key]!
            let overrides = g.overrides.sorted { $0.key < $1.key }.map(\.value)
            return StoredSeries(calendar: calendarIDs[key.calendar]!, uid: key.uid,
                                series: Series(master: g.master, overrides: overrides))
        }
    }

    private typealias Column = EventColumns.Record

    /// A record from an `EventColumns.Record` row (without the original text).
    static func decode(_ row: Row, zoneKeys: inout Set<String>) -> EventRecord? {
        let startText = row.text(Column.dtstart)
        guard let start = TimeValue(encoded: startText) else { return nil }
        var r = EventRecord(uid: row.text(Column.uid), start: start, text: "", line: 0)
        if case .zoned(_, let key) = start { zoneKeys.insert(key) }
        let rid = row.text(Column.recurrenceID)
        if !rid.isEmpty { r.recurrenceID = TimeValue(encoded: rid); r.ridKey = rid }
        r.thisAndFuture = row.int(Column.thisAndFuture) != 0
        r.durationDays = Int(row.int(Column.durationDays))
        r.durationSeconds = row.int(Column.durationSeconds)
        r.rrule = row.optionalText(Column.rrule)
        if let rdates = row.optionalText(Column.rdates) {
            r.rdates = rdates.split(separator: ",").compactMap { RecurrenceDate(encoded: $0) }
            for d in r.rdates { if case .zoned(_, let key) = d.start { zoneKeys.insert(key) } }
        }
        if let exdates = row.optionalText(Column.exdates) {
            r.exdates = exdates.split(separator: ",").compactMap { TimeValue(encoded: $0) }
            for d in r.exdates { if case .zoned(_, let key) = d { zoneKeys.insert(key) } }
        }
        r.status = row.optionalText(Column.status).flatMap(EventStatus.init(rawValue:))
        r.summary = row.optionalText(Column.summary)
        r.location = row.optionalText(Column.location)
        r.description = row.optionalText(Column.description)
        r.url = row.optionalText(Column.url)
        r.sequence = Int(row.int(Column.sequence))
        r.modified = row.optionalInt(Column.modified)
        return r
    }
}
