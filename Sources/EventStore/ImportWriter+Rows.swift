import CSQLite
import ICalendar

extension ImportWriter {
    // MARK: - Rows

    func wins(_ seq: Int, _ modified: Int64?, over oldSeq: Int, _ oldModified: Int64?, tieGoesToNew: Bool) -> Bool {
        if seq != oldSeq { return seq > oldSeq }
        let a = modified ?? Int64.min, b = oldModified ?? Int64.min
        if a != b { return a > b }
        return tieGoesToNew
    }

    mutating func calendarID(named name: String) throws -> Int64 {
        if let id = try db.scalarInt("SELECT id FROM calendar WHERE name = ?", [.text(name)]) {
            calendarNames[id] = name
            return id
        }
        try db.statement("INSERT INTO calendar(name) VALUES (?)").run([.text(name)])
        let id = db.lastInsertRowID
        calendarNames[id] = name
        return id
    }

    mutating func sourceID(calendarID: Int64, path: String, hash: String, defaultZone: String?, liveSource: String?) throws -> Int64 {
        if let id = try db.scalarInt("SELECT id FROM source WHERE calendar_id = ? AND path = ?", [.int(calendarID), .text(path)]) {
            return id
        }
        try db.statement("INSERT INTO source(calendar_id, path, content_hash, imported_at, default_tz, live_source) VALUES (?, ?, ?, ?, ?, ?)")
            .run([.int(calendarID), .text(path), .text(hash), .int(now), defaultZone.map { .text($0) } ?? .null,
                  liveSource.map { .text($0) } ?? .null])
        let id = db.lastInsertRowID
        owners[id] = .some(liveSource)
        return id
    }

    mutating func loadExisting(_ calendarID: Int64) throws {
        guard existing[calendarID] == nil else { return }
        var rows = ImportRowIndex()
        if let count = try db.scalarInt("SELECT count(*) FROM event WHERE calendar_id = ?", [.int(calendarID)]) {
            rows.reserve(Int(count))
        }
        typealias Column = EventColumns.Existing
        try db.statement("SELECT \(Column.selectList) FROM event WHERE calendar_id = ?")
            .forEachRow([.int(calendarID)]) { row in
                // Hashed from SQLite's bytes: no String per key.
                let keyHash = row.withTextBytes(Column.uid.rawValue) { uid in
                    row.withTextBytes(Column.recurrenceID.rawValue) { rid in ImportRowIndex.keyHash(uid: uid, rid: rid) }
                }
                let hash = row.withTextBytes(Column.contentHash.rawValue) { ImportRowIndex.contentHash(hexBytes: $0) }
                let block = row.isNull(Column.blockHash) ? nil
                    : row.withTextBytes(Column.blockHash.rawValue) { BlockDigest(hexBytes: $0) }
                // Keys are unique in a calendar: the key text is needed only for a hash
                // that another stored key has, read then.
                rows.append(ImportRowIndex.Row(id: row.int(Column.id), sourceID: row.int(Column.sourceID),
                                               modified: row.optionalInt(Column.modified), hash: hash, keyHash: keyHash,
                                               block: block, sequence: Int(row.int(Column.sequence))),
                            key: EventKey(uid: row.text(Column.uid), rid: row.text(Column.recurrenceID)))
            }
        existing[calendarID] = rows
    }

    /// Binds every `EventColumns.Written` column of `r`, the first at parameter `first`:
    /// integers at once, texts through `textArena` (bound when it runs the statement).
    func bindEvent(_ st: Statement, _ r: EventRecord, key: EventKey, hash: String, startEncoded: String, first: Int32) throws {
        let texts = textArena
        for column in EventColumns.Written.all {
            let at = first + column.rawValue
            switch column {
            case .uid: try texts.add(r.uid, at: at, of: st)
            case .recurrenceID: try texts.add(key.rid, at: at, of: st)
            case .thisAndFuture: try st.bindInt(r.thisAndFuture ? 1 : 0, at: at)
            case .dtstart: try texts.add(startEncoded, at: at, of: st)
            case .allDay: try st.bindInt(r.isAllDay ? 1 : 0, at: at)
            case .durationDays: try st.bindInt(Int64(r.durationDays), at: at)
            case .durationSeconds: try st.bindInt(r.durationSeconds, at: at)
            case .rrule: try texts.add(r.rrule, at: at, of: st)
            case .rdates: try texts.add(r.rdates.isEmpty ? nil : r.rdates.map(\.encoded).joined(separator: ","), at: at, of: st)
            case .exdates: try texts.add(r.exdates.isEmpty ? nil : r.exdates.map(\.encoded).joined(separator: ","), at: at, of: st)
            case .status: try texts.add(r.status?.rawValue, at: at, of: st)
            case .summary: try texts.add(r.summary, at: at, of: st)
            case .location: try texts.add(r.location, at: at, of: st)
            case .sequence: try st.bindInt(Int64(r.sequence), at: at)
            case .modified: try st.bindInt(r.modified, at: at)
            case .importSerial: try st.bindInt(now, at: at)
            case .firstMinute: try st.bindInt(r.firstMinute, at: at)
            case .lastMinute: try st.bindInt(r.lastMinute, at: at)
            case .spanClass: try st.bindInt(Int64(SpanClass.of(first: r.firstMinute, last: r.lastMinute)), at: at)
            case .defaultTZ: try texts.add(r.defaultZone, at: at, of: st)
            case .contentHash: try texts.add(hash, at: at, of: st)
            case .vevent: try texts.add(r.text, at: at, of: st)
            case .blockHash: try texts.add(r.blockDigest, at: at, of: st)
            case .alarms: try texts.add(r.alarms.isEmpty ? nil : r.alarms.map(String.init).joined(separator: ","), at: at, of: st)
            case .description: try texts.add(r.description, at: at, of: st)
            case .url: try texts.add(r.url, at: at, of: st)
            }
        }
    }

    /// `calendar_id, source_id`, then the event columns.
    static let insertSQL = "INSERT INTO event(calendar_id, source_id, \(EventColumns.Written.selectList)) VALUES ("
        + Array(repeating: "?", count: 2 + EventColumns.Written.allCases.count).joined(separator: ", ") + ")"
    /// `source_id`, then the event columns, then the row id.
    static let updateSQL = "UPDATE event SET source_id = ?, "
        + EventColumns.Written.allCases.map { "\($0.sql) = ?" }.joined(separator: ", ") + " WHERE id = ?"

    func insert(calendarID: Int64, sourceID: Int64, record: EventRecord, key: EventKey, hash: String,
                startEncoded: String) throws -> Int64 {
        let st = insertStatement
        try st.bindInt(calendarID, at: 1)
        try st.bindInt(sourceID, at: 2)
        try bindEvent(st, record, key: key, hash: hash, startEncoded: startEncoded, first: 3)
        try textArena.run(st)
        return db.lastInsertRowID
    }

    func update(id: Int64, sourceID: Int64, record: EventRecord, key: EventKey, hash: String, startEncoded: String) throws {
        let st = updateStatement
        try st.bindInt(sourceID, at: 1)
        try bindEvent(st, record, key: key, hash: hash, startEncoded: startEncoded, first: 2)
        try st.bindInt(id, at: 2 + EventColumns.Written.count)
        try textArena.run(st)
    }
}
