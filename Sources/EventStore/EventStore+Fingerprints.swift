import ICalendar

/// The identity and content fingerprint of a series in a window, without its data:
/// enough to decide whether a cached expansion is still valid.
public struct SeriesFingerprint: Sendable {
    public var calendar: String
    public var uid: String
    /// Row ids of the master and overrides.
    public var rowIDs: [Int64]
    /// Changes whenever any of the rows changes (their ids and content hashes).
    public var fingerprint: UInt64
}

extension EventStore {
    /// The series that can occur in `[fromMinute, toMinute)`, as fingerprints only
    /// (row ids and content hashes; no event data is decoded). A recurring master
    /// brings all its overrides.
    public func seriesFingerprints(fromMinute: Int64, toMinute: Int64, calendars: [String]? = nil) throws -> [SeriesFingerprint] {
        var calendarIDs: [Int64: String] = [:]
        try db.statement("SELECT id, name FROM calendar").forEachRow { row in calendarIDs[row.int(0)] = row.text(1) }
        if let calendars {
            let wanted = Set(calendars)
            calendarIDs = calendarIDs.filter { wanted.contains($0.value) }
        }
        if calendarIDs.isEmpty { return [] }
        struct GroupKey: Hashable { var calendar: Int64; var uid: String }
        var groups: [GroupKey: (rows: [(Int64, UInt64)], recurring: Bool)] = [:]
        var order: [GroupKey] = []
        var seen = Set<Int64>()
        func take(_ row: Row) {
            let id = row.int(0)
            let calendarID = row.int(1)
            guard calendarIDs[calendarID] != nil, seen.insert(id).inserted else { return }
            let key = GroupKey(calendar: calendarID, uid: row.text(2))
            if groups[key] == nil { order.append(key); groups[key] = ([], false) }
            groups[key]!.rows.append((id, UInt64(row.text(3), radix: 16) ?? 0))
            if row.int(4) != 0 { groups[key]!.recurring = true }
        }
        let window = try db.statement(
            "SELECT id, calendar_id, uid, content_hash, (recurrence_id = '' AND (rrule IS NOT NULL OR rdates IS NOT NULL)) "
            + "FROM event WHERE span_class = ? AND first_minute >= ? AND first_minute < ? AND last_minute > ?")
        for k in Array(0...SpanClass.largest) + [SpanClass.open] {
            let lower = k == SpanClass.open ? Int64.min : fromMinute - SpanClass.reach(k)
            try window.forEachRow([.int(Int64(k)), .int(lower), .int(toMinute), .int(fromMinute)]) { take($0) }
        }
        let overrides = try db.statement(
            "SELECT id, calendar_id, uid, content_hash, 0 FROM event WHERE calendar_id = ? AND uid = ? AND recurrence_id <> ''")
        for key in order where groups[key]!.recurring {
            try overrides.forEachRow([.int(key.calendar), .text(key.uid)]) { take($0) }
        }
        return order.map { key in
            let rows = groups[key]!.rows.sorted { $0.0 < $1.0 }
            var fp: UInt64 = 0xcbf2_9ce4_8422_2325
            for (id, hash) in rows {
                fp = (fp ^ UInt64(bitPattern: id)) &* 0x0000_0100_0000_01B3
                fp = (fp ^ hash) &* 0x0000_0100_0000_01B3
                fp ^= fp >> 29
            }
            return SeriesFingerprint(calendar: calendarIDs[key.calendar]!, uid: key.uid, rowIDs: rows.map(\.0), fingerprint: fp)
        }
    }

    /// Loads the series made of `rowIDs` (a master and its overrides).
    public func series(rowIDs: [Int64]) throws -> Series {
        var zoneKeys = Set<String>()
        var master: EventRecord?
        var overrides: [EventRecord] = []
        let st = try db.statement("SELECT \(Self.queryColumns) FROM event WHERE id = ?")
        for id in rowIDs {
            try st.forEachRow([.int(id)]) { row in
                guard let record = Self.decode(row, zoneKeys: &zoneKeys) else { return }
                if record.recurrenceID == nil { master = record } else { overrides.append(record) }
            }
        }
        try ensureZones(zoneKeys)
        return Series(master: master, overrides: overrides)
    }
}
