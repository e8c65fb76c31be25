import ICalendar

extension EventStore {
    /// Imports `inputs` in one transaction: every file or none.
    ///
    /// Each file synchronises its source: events the file no longer has are removed.
    /// With `replace`, each target calendar ends up holding exactly this run's events.
    /// Conflicts on `(calendar, UID, RECURRENCE-ID)` go to the higher SEQUENCE, then the
    /// later LAST-MODIFIED/DTSTAMP, then the later import. Unchanged events are not
    /// rewritten, so importing an unchanged file changes no row.
    public func importCalendars(_ inputs: [ImportInput], options: ImportOptions = ImportOptions(),
                                now: Int64 = currentUnixTime(),
                                progress: ((Double) -> Void)? = nil) throws -> [FileImportResult] {
        // Parse everything first: a bad file stops the run before anything is written.
        var parsed: [(ImportInput, ParsedCalendar)] = []
        let totalBytes = max(1, inputs.reduce(0) { $0 + $1.bytes.count })
        var parsedBytes = 0
        for input in inputs {
            defer {
                parsedBytes += input.bytes.count
                progress?(0.5 * Double(parsedBytes) / Double(totalBytes))
            }
            guard isValidCalendarName(input.calendar) else { throw ImportError.invalidCalendarName(input.calendar) }
            do {
                let calendar = try CalendarParser.parse(input.bytes)
                if options.strict, !calendar.warnings.isEmpty {
                    throw ImportError.strict(file: input.displayName, issues: calendar.warnings)
                }
                parsed.append((input, calendar))
            } catch let error as ICalendarSyntaxError {
                throw ImportError.syntax(file: input.displayName, line: error.line, message: error.message)
            }
        }
        return try db.inTransaction {
            var writer = try ImportWriter(db: db, now: now)
            let totalEvents = max(1, parsed.reduce(0) { $0 + $1.1.events.count })
            writer.progress = progress.map { report in { done in report(0.5 + 0.5 * Double(done) / Double(totalEvents)) } }
            var results: [FileImportResult] = []
            for (input, calendar) in parsed {
                results.append(try writer.write(input, calendar, replace: options.replace))
            }
            if options.replace {
                try writer.removeUntouched(results: &results)
            }
            return results
        }
    }
}

/// Seconds since the epoch, now.
public func currentUnixTime() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec)
}

#if canImport(Glibc)
import Glibc
#endif

/// The rows one import run writes, inside its transaction.
struct ImportWriter {
    let db: Connection
    let now: Int64
    /// Existing rows per calendar: key -> row summary.
    var existing: [Int64: [EventKey: ExistingRow]] = [:]
    /// Rows written or confirmed by this run, per calendar.
    var touched: [Int64: Set<Int64>] = [:]
    var calendarNames: [Int64: String] = [:]
    var fileIndexByCalendar: [Int64: Int] = [:]
    /// Called with the number of events written so far.
    var progress: ((Int) -> Void)?
    var written = 0

    struct EventKey: Hashable {
        var uid: String
        var rid: String
    }

    struct ExistingRow {
        var id: Int64
        var sourceID: Int64
        var sequence: Int
        var modified: Int64?
        var hash: String
    }

    init(db: Connection, now: Int64) throws {
        self.db = db
        self.now = now
    }

    // MARK: - Writing one file

    mutating func write(_ input: ImportInput, _ calendar: ParsedCalendar, replace: Bool) throws -> FileImportResult {
        var result = FileImportResult(path: input.path, displayName: input.displayName, calendar: input.calendar)
        result.skipped = calendar.skipped
        result.warnings = calendar.warnings
        let calendarID = try calendarID(named: input.calendar)
        fileIndexByCalendar[calendarID] = fileIndexByCalendar[calendarID] ?? 0
        let fileHash = ContentHash.of(bytes: input.bytes)
        // The source row is created only when this file first owns a row, so importing an
        // export of events already present adds nothing, not even a source.
        var existingSourceID = try db.scalarInt("SELECT id FROM source WHERE calendar_id = ? AND path = ?",
                                                [.int(calendarID), .text(input.path)])
        func ensureSource() throws -> Int64 {
            if let id = existingSourceID { return id }
            let id = try self.sourceID(calendarID: calendarID, path: input.path, hash: fileHash,
                                       defaultZone: calendar.defaultTimeZone)
            existingSourceID = id
            return id
        }
        try loadExisting(calendarID)

        for (key, zone) in calendar.timezones {
            try db.statement("INSERT OR IGNORE INTO timezone(key, tzid, definition) VALUES (?, ?, ?)")
                .run([.text(key), .text(zone.tzid), .text(zone.text)])
        }

        // Winners within the file (same key twice: the conflict rule, later wins ties).
        var winners: [EventKey: EventRecord] = [:]
        var order: [EventKey] = []
        let zones = ZoneRegistry.shared
        for record in calendar.events {
            let key = EventKey(uid: record.uid, rid: record.recurrenceKey(zones: zones))
            if let previous = winners[key] {
                if !wins(record.sequence, record.modified, over: previous.sequence, previous.modified, tieGoesToNew: true) { continue }
            } else {
                order.append(key)
            }
            winners[key] = record
        }

        var seenIDs = Set<Int64>()
        for key in order {
            let record = winners[key]!
            written += 1
            if written % 2000 == 0 { progress?(written) }
            let hash = ContentHash.of(record.text, record.start.encoded)
            if let row = existing[calendarID]?[key] {
                seenIDs.insert(row.id)
                touched[calendarID, default: []].insert(row.id)
                if row.hash == hash {
                    // Same content (from this or another source): keep the row as it is.
                    result.unchanged += 1
                    continue
                }
                if row.sourceID != existingSourceID,
                   !wins(record.sequence, record.modified, over: row.sequence, row.modified, tieGoesToNew: true) {
                    result.unchanged += 1
                    continue
                }
                let sourceID = try ensureSource()
                try update(id: row.id, sourceID: sourceID, record: record, key: key, hash: hash)
                existing[calendarID]![key] = ExistingRow(id: row.id, sourceID: sourceID, sequence: record.sequence,
                                                         modified: record.modified, hash: hash)
                result.updated += 1
            } else {
                let sourceID = try ensureSource()
                let id = try insert(calendarID: calendarID, sourceID: sourceID, record: record, key: key, hash: hash)
                existing[calendarID, default: [:]][key] = ExistingRow(id: id, sourceID: sourceID, sequence: record.sequence,
                                                                      modified: record.modified, hash: hash)
                seenIDs.insert(id)
                touched[calendarID, default: []].insert(id)
                result.added += 1
            }
        }

        // Sync: rows of this source that the file no longer has.
        if !replace, let sourceID = existingSourceID {
            let stale = try db.statement("SELECT id, uid, recurrence_id FROM event WHERE source_id = ?")
                .map([.int(sourceID)]) { row in (row.int(0), EventKey(uid: row.text(1), rid: row.text(2))) }
                .filter { !seenIDs.contains($0.0) }
            for (id, key) in stale {
                try db.statement("DELETE FROM event WHERE id = ?").run([.int(id)])
                existing[calendarID]?[key] = nil
                result.removed += 1
            }
        }
        if let sourceID = existingSourceID, result.changedAnything || replace {
            try db.statement("UPDATE source SET content_hash = ?, imported_at = ?, default_tz = ? WHERE id = ? AND (content_hash <> ? OR default_tz IS NOT ?)")
                .run([.text(fileHash), .int(now), calendar.defaultTimeZone.map { .text($0) } ?? .null, .int(sourceID),
                      .text(fileHash), calendar.defaultTimeZone.map { .text($0) } ?? .null])
        }
        return result
    }

    /// With `--replace`: rows of the target calendars that no file of this run contained.
    mutating func removeUntouched(results: inout [FileImportResult]) throws {
        for (calendarID, keep) in touched.merging(fileIndexByCalendar.mapValues { _ in [] }, uniquingKeysWith: { a, _ in a }) {
            let ids = try db.statement("SELECT id FROM event WHERE calendar_id = ?").map([.int(calendarID)]) { $0.int(0) }
            let name = calendarNames[calendarID]
            var removed = 0
            for id in ids where !keep.contains(id) {
                try db.statement("DELETE FROM event WHERE id = ?").run([.int(id)])
                removed += 1
            }
            try db.statement("DELETE FROM source WHERE calendar_id = ? AND NOT EXISTS (SELECT 1 FROM event WHERE source_id = source.id) AND id NOT IN (SELECT id FROM source WHERE calendar_id = ? AND imported_at = ?)")
                .run([.int(calendarID), .int(calendarID), .int(now)])
            if removed > 0, let index = results.lastIndex(where: { $0.calendar == name }) {
                results[index].removed += removed
            }
        }
    }

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

    func sourceID(calendarID: Int64, path: String, hash: String, defaultZone: String?) throws -> Int64 {
        if let id = try db.scalarInt("SELECT id FROM source WHERE calendar_id = ? AND path = ?", [.int(calendarID), .text(path)]) {
            return id
        }
        try db.statement("INSERT INTO source(calendar_id, path, content_hash, imported_at, default_tz) VALUES (?, ?, ?, ?, ?)")
            .run([.int(calendarID), .text(path), .text(hash), .int(now), defaultZone.map { .text($0) } ?? .null])
        return db.lastInsertRowID
    }

    mutating func loadExisting(_ calendarID: Int64) throws {
        guard existing[calendarID] == nil else { return }
        var rows: [EventKey: ExistingRow] = [:]
        try db.statement("SELECT id, source_id, uid, recurrence_id, sequence, modified, content_hash FROM event WHERE calendar_id = ?")
            .forEachRow([.int(calendarID)]) { row in
                rows[EventKey(uid: row.text(2), rid: row.text(3))] =
                    ExistingRow(id: row.int(0), sourceID: row.int(1), sequence: Int(row.int(4)),
                                modified: row.optionalInt(5), hash: row.text(6))
            }
        existing[calendarID] = rows
    }

    static let columns = """
        uid, recurrence_id, this_and_future, dtstart, all_day, duration_days, duration_seconds, rrule, rdates, \
        exdates, status, summary, location, sequence, modified, import_serial, first_minute, last_minute, content_hash, vevent
        """

    func values(_ r: EventRecord, key: EventKey, hash: String) -> [SQLValue] {
        [.text(r.uid), .text(key.rid), .int(r.thisAndFuture ? 1 : 0), .text(r.start.encoded), .int(r.isAllDay ? 1 : 0),
         .int(Int64(r.durationDays)), .int(r.durationSeconds), r.rrule.map { .text($0) } ?? .null,
         r.rdates.isEmpty ? .null : .text(r.rdates.map(\.encoded).joined(separator: ",")),
         r.exdates.isEmpty ? .null : .text(r.exdates.map(\.encoded).joined(separator: ",")),
         r.status.map { .text($0.rawValue) } ?? .null, r.summary.map { .text($0) } ?? .null,
         r.location.map { .text($0) } ?? .null, .int(Int64(r.sequence)), r.modified.map { .int($0) } ?? .null,
         .int(now), .int(r.firstMinute), .int(r.lastMinute), .text(hash), .text(r.text)]
    }

    func insert(calendarID: Int64, sourceID: Int64, record: EventRecord, key: EventKey, hash: String) throws -> Int64 {
        try db.statement("INSERT INTO event(calendar_id, source_id, \(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .run([.int(calendarID), .int(sourceID)] + values(record, key: key, hash: hash))
        return db.lastInsertRowID
    }

    func update(id: Int64, sourceID: Int64, record: EventRecord, key: EventKey, hash: String) throws {
        let assignments = Self.columns.split(separator: ",").map { "\($0.trimmingCharacters()) = ?" }.joined(separator: ", ")
        try db.statement("UPDATE event SET source_id = ?, \(assignments) WHERE id = ?")
            .run([.int(sourceID)] + values(record, key: key, hash: hash) + [.int(id)])
    }
}

extension Substring {
    func trimmingCharacters() -> String {
        String(self.drop(while: { $0 == " " || $0 == "\n" }).reversed().drop(while: { $0 == " " || $0 == "\n" }).reversed())
    }
}
