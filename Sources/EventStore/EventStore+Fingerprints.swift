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
    ///
    /// Read on every whole build, so it makes one String per row (the UID, its group's
    /// key) and no array per series: rows go to one flat list, sorted by series then id.
    /// The overrides of the window's recurring masters come from one join per span class
    /// (SQLite follows the UNIQUE index), not one query per master.
    public func seriesFingerprints(fromMinute: Int64, toMinute: Int64, calendars: [String]? = nil) throws -> [SeriesFingerprint] {
        let calendarIDs = try calendarIDs(restrictedTo: calendars)
        if calendarIDs.isEmpty { return [] }
        typealias Column = EventColumns.WindowFingerprint
        // A struct the row closures reach as a local, not state a local function
        // captures: that state is checked for exclusive access at run time on every row.
        var scan = FingerprintScan(calendarIDs: calendarIDs)
        // Large scans read their longest classes and the overrides on the second
        // connection (`WindowReader`). Rows are taken in the order one connection reads
        // them (classes in order, then overrides), which decides the series' order.
        let second = startSecondPart(fromMinute: fromMinute, toMinute: toMinute)
        let ours = second == nil ? SpanClass.all : SpanClass.firstPart
        // The other thread is joined whatever happens here: it uses the second
        // connection, which the next scan would otherwise use at the same time.
        let windowScan = Result {
            try forEachRowInWindow(Column.self, fromMinute: fromMinute, toMinute: toMinute, classes: ours) { scan.take($0) }
        }
        let finished = second?.join()
        try windowScan.get()
        if let finished, let theirs = try accepted(finished) {
            for row in theirs.windowRows { scan.take(row) }
            for row in theirs.overrides { scan.take(row) }
        } else {
            if second != nil {
                try forEachRowInWindow(Column.self, fromMinute: fromMinute, toMinute: toMinute,
                                       classes: SpanClass.secondPart) { scan.take($0) }
            }
            try Self.forEachOverrideOfWindowMasters(db, fromMinute: fromMinute, toMinute: toMinute) { scan.take($0) }
        }
        lastWindowRows = scan.rows.count
        var rows: [(group: Int32, id: Int64, hash: UInt64)] = []
        swap(&rows, &scan.rows)
        let keys = scan.keys
        // A row can come twice (in the window, and as an override of a master in it).
        rows.sort { $0.group != $1.group ? $0.group < $1.group : $0.id < $1.id }
        var out: [SeriesFingerprint] = []
        out.reserveCapacity(keys.count)
        var i = 0
        while i < rows.count {
            let g = rows[i].group
            var ids: [Int64] = []
            var fp = Self.fingerprintSeed
            while i < rows.count, rows[i].group == g {
                if ids.last != rows[i].id {
                    ids.append(rows[i].id)
                    fp = Self.fingerprintStep(fp, id: rows[i].id, hash: rows[i].hash)
                }
                i += 1
            }
            let key = keys[Int(g)]
            out.append(SeriesFingerprint(calendar: calendarIDs[key.calendar]!, uid: key.uid, rowIDs: ids, fingerprint: fp))
        }
        return out
    }

    /// The rows of a window scan, grouped by series as they come.
    private struct FingerprintScan {
        typealias Column = EventColumns.WindowFingerprint
        let calendarIDs: [Int64: String]
        var group: [SeriesKey: Int32] = [:]
        var keys: [SeriesKey] = []
        var rows: [(group: Int32, id: Int64, hash: UInt64)] = []

        init(calendarIDs: [Int64: String]) {
            self.calendarIDs = calendarIDs
            group.reserveCapacity(8192)
            rows.reserveCapacity(8192)
        }

        /// A row of a calendar not asked for is left before its UID is read.
        mutating func take(_ row: Row) {
            guard calendarIDs[row.int(Column.calendarID)] != nil else { return }
            add(WindowReader.WindowRow(row))
        }

        mutating func take(_ row: WindowReader.WindowRow) {
            guard calendarIDs[row.calendarID] != nil else { return }
            add(row)
        }

        private mutating func add(_ row: WindowReader.WindowRow) {
            let key = SeriesKey(calendar: row.calendarID, uid: row.uid)
            let n: Int32
            if let known = group[key] {
                n = known
            } else {
                n = Int32(keys.count)
                group[key] = n
                keys.append(key)
            }
            rows.append((n, row.id, row.hash))
        }
    }

    /// One span class of `forEachOverrideOfWindowMasters`: the masters' side reads only
    /// the partial index `event_recurring_window` (its WHERE is this query's, word for word).
    static let windowMastersOverridesQuery = """
        SELECT o.id, o.calendar_id, o.uid, o.content_hash, 0
        FROM event AS m JOIN event AS o
          ON o.calendar_id = m.calendar_id AND o.uid = m.uid AND o.recurrence_id <> ''
        WHERE m.span_class = ? AND m.first_minute >= ? AND m.first_minute < ? AND m.last_minute > ?
          AND m.recurrence_id = '' AND (m.rrule IS NOT NULL OR m.rdates IS NOT NULL)
        """

    /// The overrides (as `EventColumns.WindowFingerprint`, wherever they lie) of every
    /// recurring master that `forEachRowInWindow` gives for `[fromMinute, toMinute)`,
    /// read on `db` (the store's connection, or its `WindowReader`'s).
    static func forEachOverrideOfWindowMasters(_ db: Connection, fromMinute: Int64, toMinute: Int64,
                                               _ body: (Row) throws -> Void) throws {
        let st = try db.statement(Self.windowMastersOverridesQuery)
        for k in SpanClass.all {
            let lower = k == SpanClass.open ? Int64.min : fromMinute - SpanClass.reach(k)
            try st.forEachRow([.int(Int64(k)), .int(lower), .int(toMinute), .int(fromMinute)], body)
        }
    }

    /// A content hash column (hex) as an integer, read from SQLite's bytes (0 when not
    /// at most 16 hex digits).
    static func hexHash(_ row: Row, _ column: Int32) -> UInt64 {
        row.withTextBytes(column) { BlockDigest.hexValue($0) } ?? 0
    }

    /// The fingerprint of a series made of `rows` (row id, content hash), in any order.
    static func fingerprint(calendar: String, uid: String, rows: [(Int64, UInt64)]) -> SeriesFingerprint {
        let rows = rows.sorted { $0.0 < $1.0 }
        var fp = fingerprintSeed
        for (id, hash) in rows { fp = fingerprintStep(fp, id: id, hash: hash) }
        return SeriesFingerprint(calendar: calendar, uid: uid, rowIDs: rows.map(\.0), fingerprint: fp)
    }

    static let fingerprintSeed: UInt64 = 0xcbf2_9ce4_8422_2325

    /// One row (id, content hash) into a series' fingerprint, rows in id order.
    @inline(__always)
    static func fingerprintStep(_ fp: UInt64, id: Int64, hash: UInt64) -> UInt64 {
        var fp = (fp ^ UInt64(bitPattern: id)) &* 0x0000_0100_0000_01B3
        fp = (fp ^ hash) &* 0x0000_0100_0000_01B3
        return fp ^ (fp >> 29)
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
                let entry = (row.int(Column.id), Self.hexHash(row, Column.contentHash.rawValue))
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
