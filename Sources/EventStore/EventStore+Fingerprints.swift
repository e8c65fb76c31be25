import ICalendar

/// The identity and content fingerprint of a series in a window, without its data:
/// enough to decide whether a cached expansion is still valid.
public struct SeriesFingerprint: Sendable {
    /// The calendar's name.
    public var calendar: String
    /// The series' UID.
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
        let calendarIDs = try calendarIDs(restrictedTo: calendars)
        if calendarIDs.isEmpty { return [] }
        typealias Column = EventColumns.Fingerprint
        var groups: [SeriesKey: (rows: [(Int64, UInt64)], recurring: Bool)] = [:]
        var order: [SeriesKey] = []
        var seen = Set<Int64>()
        func take(_ row: Row) {
            let id = row.int(Column.id)
            let calendarID = row.int(Column.calendarID)
            guard calendarIDs[calendarID] != nil, seen.insert(id).inserted else { return }
            let key = SeriesKey(calendar: calendarID, uid: row.text(Column.uid))
            if groups[key] == nil { order.append(key); groups[key] = ([], false) }
            groups[key]!.rows.append((id, UInt64(row.text(Column.contentHash), radix: 16) ?? 0))
            if row.int(Column.isRecurringMaster) != 0 { groups[key]!.recurring = true }
        }
        try forEachRowInWindow(Column.self, fromMinute: fromMinute, toMinute: toMinute) { take($0) }
        for key in order where groups[key]!.recurring {
            try forEachOverride(Column.self, calendarID: key.calendar, uid: key.uid) { take($0) }
        }
        return order.map { key in
            Self.fingerprint(calendar: calendarIDs[key.calendar]!, uid: key.uid, rows: groups[key]!.rows)
        }
    }

    /// The fingerprint of a series made of `rows` (row id, content hash), in any order.
    static func fingerprint(calendar: String, uid: String, rows: [(Int64, UInt64)]) -> SeriesFingerprint {
        let rows = rows.sorted { $0.0 < $1.0 }
        var fp: UInt64 = 0xcbf2_9ce4_8422_2325
        for (id, hash) in rows {
            fp = (fp ^ UInt64(bitPattern: id)) &* 0x0000_0100_0000_01B3
            fp = (fp ^ hash) &* 0x0000_0100_0000_01B3
            fp ^= fp >> 29
        }
        return SeriesFingerprint(calendar: calendar, uid: uid, rowIDs: rows.map(\.0), fingerprint: fp)
    }

    /// The fingerprints of the series `names` that can occur in `[fromMinute, toMinute)`,
    /// each exactly as `seriesFingerprints(fromMinute:...)` gives it (the same rows: those
    /// in the window, and every override when one of them is a recurring master); a
    /// series not in the window (or removed, or of a calendar not in `calendars`) is absent.
    public func seriesFingerprints(of names: some Sequence<SeriesName>, fromMinute: Int64, toMinute: Int64,
                                   calendars: [String]? = nil) throws -> [SeriesFingerprint] {
        var idByName: [String: Int64] = [:]
        for (id, name) in try calendarIDs(restrictedTo: calendars) { idByName[name] = id }
        typealias Column = EventColumns.Fingerprint
        let extra = Column.count
        let st = try db.statement("""
            SELECT \(Column.selectList), span_class, first_minute, last_minute, recurrence_id <> ''
            FROM event WHERE calendar_id = ? AND uid = ?
            """)
        var out: [SeriesFingerprint] = []
        for name in names {
            guard let calendarID = idByName[name.calendar] else { continue }
            var inWindow: [(Int64, UInt64)] = []
            var overrides: [(Int64, UInt64)] = []
            var recurring = false
            try st.forEachRow([.int(calendarID), .text(name.uid)]) { row in
                let entry = (row.int(Column.id), UInt64(row.text(Column.contentHash), radix: 16) ?? 0)
                let isOverride = row.int(extra + 3) != 0
                if isOverride { overrides.append(entry) }
                guard Self.inWindow(spanClass: row.int(extra), first: row.int(extra + 1), last: row.int(extra + 2),
                                    fromMinute: fromMinute, toMinute: toMinute) else { return }
                inWindow.append(entry)
                if row.int(Column.isRecurringMaster) != 0 { recurring = true }
            }
            if inWindow.isEmpty { continue }
            var rows = inWindow
            if recurring {
                let taken = Set(inWindow.map(\.0))
                rows += overrides.filter { !taken.contains($0.0) }
            }
            out.append(Self.fingerprint(calendar: name.calendar, uid: name.uid, rows: rows))
        }
        return out
    }

    /// Loads the series made of `rowIDs` (a master and its overrides).
    public func series(rowIDs: [Int64]) throws -> Series {
        var zoneKeys = Set<String>()
        var master: EventRecord?
        var overrides: [EventRecord] = []
        let st = try db.statement("SELECT \(EventColumns.Record.selectList) FROM event WHERE id = ?")
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
