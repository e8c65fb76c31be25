import ICalendar

/// A series as stored: its calendar, UID and records.
public struct StoredSeries: Sendable {
    public var calendar: String
    public var uid: String
    public var series: Series

    public init(calendar: String, uid: String, series: Series) {
        self.calendar = calendar
        self.uid = uid
        self.series = series
    }
}

extension EventStore {
    /// Every series with at least one record that can occur in `[fromMinute, toMinute)`
    /// (minutes since the epoch), restricted to `calendars` when given. A recurring
    /// master brings all its overrides, wherever they lie.
    public func series(fromMinute: Int64, toMinute: Int64, calendars: [String]? = nil) throws -> [StoredSeries] {
        var calendarIDs: [Int64: String] = [:]
        try db.statement("SELECT id, name FROM calendar").forEachRow { row in calendarIDs[row.int(0)] = row.text(1) }
        if let calendars {
            let wanted = Set(calendars)
            calendarIDs = calendarIDs.filter { wanted.contains($0.value) }
        }
        if calendarIDs.isEmpty { return [] }

        struct GroupKey: Hashable { var calendar: Int64; var uid: String }
        var groups: [GroupKey: (master: EventRecord?, overrides: [Int64: EventRecord])] = [:]
        var order: [GroupKey] = []
        var seenIDs = Set<Int64>()
        var zoneKeys = Set<String>()

        func take(_ row: Row) {
            let id = row.int(0)
            guard seenIDs.insert(id).inserted else { return }
            let calendarID = row.int(1)
            guard calendarIDs[calendarID] != nil, let record = Self.decode(row, zoneKeys: &zoneKeys) else { return }
            let key = GroupKey(calendar: calendarID, uid: record.uid)
            if groups[key] == nil { order.append(key); groups[key] = (nil, [:]) }
            if record.recurrenceID == nil { groups[key]!.master = record } else { groups[key]!.overrides[id] = record }
        }

        let window = try db.statement("""
            SELECT \(Self.queryColumns) FROM event
            WHERE span_class = ? AND first_minute >= ? AND first_minute < ? AND last_minute > ?
            """)
        for k in Array(0...SpanClass.largest) + [SpanClass.open] {
            let lower = k == SpanClass.open ? Int64.min : fromMinute - SpanClass.reach(k)
            try window.forEachRow([.int(Int64(k)), .int(lower), .int(toMinute), .int(fromMinute)]) { take($0) }
        }
        // Overrides of recurring masters, wherever they are.
        let overrides = try db.statement("SELECT \(Self.queryColumns) FROM event WHERE calendar_id = ? AND uid = ? AND recurrence_id <> ''")
        for key in order where groups[key]!.master?.isRecurring == true {
            try overrides.forEachRow([.int(key.calendar), .text(key.uid)]) { take($0) }
        }
        try ensureZones(zoneKeys)
        return order.map { key in
            let g = groups[key]!
            let overrides = g.overrides.sorted { $0.key < $1.key }.map(\.value)
            return StoredSeries(calendar: calendarIDs[key.calendar]!, uid: key.uid,
                                series: Series(master: g.master, overrides: overrides))
        }
    }

    static let queryColumns = """
        id, calendar_id, uid, recurrence_id, this_and_future, dtstart, duration_days, duration_seconds, \
        rrule, rdates, exdates, status, summary, location, sequence, modified
        """

    /// A record from a `queryColumns` row (without the original text).
    static func decode(_ row: Row, zoneKeys: inout Set<String>) -> EventRecord? {
        let startText = row.text(5)
        guard let start = TimeValue(encoded: startText) else { return nil }
        var r = EventRecord(uid: row.text(2), start: start, text: "", line: 0)
        if case .zoned(_, let key) = start { zoneKeys.insert(key) }
        let rid = row.text(3)
        if !rid.isEmpty { r.recurrenceID = TimeValue(encoded: rid); r.ridKey = rid }
        r.thisAndFuture = row.int(4) != 0
        r.durationDays = Int(row.int(6))
        r.durationSeconds = row.int(7)
        r.rrule = row.optionalText(8)
        if let rdates = row.optionalText(9) {
            r.rdates = rdates.split(separator: ",").compactMap { RecurrenceDate(encoded: $0) }
            for d in r.rdates { if case .zoned(_, let key) = d.start { zoneKeys.insert(key) } }
        }
        if let exdates = row.optionalText(10) {
            r.exdates = exdates.split(separator: ",").compactMap { TimeValue(encoded: $0) }
            for d in r.exdates { if case .zoned(_, let key) = d { zoneKeys.insert(key) } }
        }
        r.status = row.optionalText(11).flatMap(EventStatus.init(rawValue:))
        r.summary = row.optionalText(12)
        r.location = row.optionalText(13)
        r.sequence = Int(row.int(14))
        r.modified = row.optionalInt(15)
        return r
    }
}
