import CSQLite
import ICalendar

/// The rows one import run writes, inside its transaction.
struct ImportWriter {
    typealias Slot = ImportRowIndex.Slot

    let db: Connection
    let now: Int64
    /// Existing rows per calendar (`ImportRowIndex`: fixed-size summaries found by key hash).
    var existing: [Int64: ImportRowIndex] = [:]
    /// Rows written or confirmed by this run, per calendar.
    var touched: [Int64: Set<Int64>] = [:]
    var calendarNames: [Int64: String] = [:]
    var fileIndexByCalendar: [Int64: Int] = [:]
    /// Called now and then with the fraction of the current file done (approximate).
    var progress: ((Double) -> Void)?
    var written = 0
    /// The slot of each stored block digest of the calendar being imported (`knownBlocks`).
    var blockSlots: [BlockDigest: Slot] = [:]
    /// Each known input row's owner (`source.live_source`; `.some(nil)`: an import),
    /// loaded per calendar (`ImportWriter+Ownership`).
    var owners: [Int64: String?] = [:]
    var ownersLoaded: Set<Int64> = []
    /// Files of at least this many VEVENTs may be loaded in bulk (`ImportWriter+BulkLoad`).
    var bulkLoadFromBlocks = ImportOptions.defaultBulkLoadFromBlocks
    /// Set while the run loads in bulk.
    var bulkLoad: BulkLoad?
    /// The per-row statements, prepared once: `Connection.statement` finds a cached one
    /// by hashing its SQL text, which per row cost more than binding.
    let insertStatement: Statement
    let updateStatement: Statement
    let keyCheckStatement: Statement
    /// The texts of the row being written (`BoundTextArena`).
    let textArena = BoundTextArena()

    /// An event's identity in its calendar: UID and `recurrenceKey`.
    struct EventKey: Hashable {
        var uid: String
        var rid: String
    }

    init(db: Connection, now: Int64) throws {
        self.db = db
        self.now = now
        insertStatement = try db.statement(Self.insertSQL)
        updateStatement = try db.statement(Self.updateSQL)
        keyCheckStatement = try db.statement("SELECT uid = ? AND recurrence_id = ? FROM event WHERE id = ?")
    }

    // MARK: - Writing one file

    /// The state of the file being written.
    struct FileState {
        var result: FileImportResult
        var calendarID: Int64
        var sourceID: Int64?
        var fileHash: String
        var defaultZone: String?
        var path: String
        var rows: ImportRowIndex
        /// The slots this file contained (`seenHere` is reset for these only).
        var seen: [Slot] = []
        var touched: Set<Int64>
        /// `--replace`: this run owns every event it contains.
        var replace = false
        /// The live source writing the file (`ImportInput.liveSource`); nil: an import.
        var liveSource: String?
        /// The file's input row belongs to another owner: nothing of it is written.
        var foreign = false
    }

    mutating func begin(_ input: ImportInput, _ header: ParsedCalendar, fileHash: String) throws -> FileState {
        let calendarID = try calendarID(named: input.calendar)
        if let color = header.calendarColor {
            try db.statement("UPDATE calendar SET color = ? WHERE id = ?").run([.text(color), .int(calendarID)])
        }
        fileIndexByCalendar[calendarID] = fileIndexByCalendar[calendarID] ?? 0
        try considerBulkLoad(blockCount: header.blockCount, calendarID: calendarID, minimumBlocks: bulkLoadFromBlocks)
        try loadExisting(calendarID)
        let (sourceID, foreign) = try ownedSource(calendarID: calendarID, input: input)
        var rows = existing[calendarID] ?? ImportRowIndex()
        // Taken out first, so that reserving does not copy the calendar's rows.
        existing[calendarID] = nil
        rows.reserve(header.blockCount)
        var state = FileState(result: FileImportResult(path: input.path, displayName: input.displayName, calendar: input.calendar),
                              calendarID: calendarID, sourceID: sourceID, fileHash: fileHash,
                              defaultZone: header.defaultTimeZone, path: input.path,
                              rows: rows, touched: touched[calendarID] ?? [])
        state.liveSource = input.liveSource
        state.foreign = foreign
        return state
    }

    /// The source row is created only when this file first owns a row, so importing an
    /// export of events already present adds nothing, not even a source.
    mutating func ensureSource(_ file: inout FileState) throws -> Int64 {
        if let id = file.sourceID { return id }
        let id = try sourceID(calendarID: file.calendarID, path: file.path, hash: file.fileHash, defaultZone: file.defaultZone,
                              liveSource: file.liveSource)
        file.sourceID = id
        return id
    }

    mutating func add(_ record: EventRecord, to file: inout FileState) throws {
        written += 1
        if written % 2048 == 0 { progress?(0) }
        if file.foreign {
            file.result.keptFromOthers += 1
            return
        }
        let key = EventKey(uid: record.uid, rid: record.ridKey)
        let keyHash = ImportRowIndex.keyHash(key)
        let startEncoded = record.start.encoded
        let hashText = record.contentHash.isEmpty ? contentFingerprint(record.text, startEncoded) : record.contentHash
        let hash = ImportRowIndex.contentHash(hashText)
        guard let slot = try file.rows.slot(of: key, hash: keyHash, matches: { try storedRow($0, has: key) }) else {
            let sourceID = try ensureSource(&file)
            let id = try insert(calendarID: file.calendarID, sourceID: sourceID, record: record, key: key, hash: hashText,
                                startEncoded: startEncoded)
            let slot = file.rows.append(ImportRowIndex.Row(id: id, sourceID: sourceID, modified: record.modified, hash: hash,
                                                           keyHash: keyHash, block: record.blockDigest,
                                                           sequence: record.sequence, seenHere: true), key: key)
            file.seen.append(slot)
            if file.replace { file.touched.insert(id) }
            file.result.added += 1
            return
        }
        let row = file.rows[slot]
        if !mayTakeOver(row.sourceID, for: file) {
            file.result.keptFromOthers += 1
            return
        }
        // The same key twice in one file: the conflict rule, the later one winning ties.
        if row.seenHere, !wins(record.sequence, record.modified, over: row.sequence, row.modified, tieGoesToNew: true) {
            return
        }
        file.rows[slot].seenHere = true
        file.seen.append(slot)
        if file.replace { file.touched.insert(row.id) }
        if let hash, row.hash == hash {
            // Same content (from this or another source): keep the row as it is,
            // except that with --replace the row now belongs to this file.
            if file.replace, row.sourceID != file.sourceID {
                let sourceID = try ensureSource(&file)
                try db.statement("UPDATE event SET source_id = ? WHERE id = ?").run([.int(sourceID), .int(row.id)])
                try invalidateSynced(sourceID: row.sourceID)
                file.rows[slot].sourceID = sourceID
            }
            file.result.unchanged += 1
            return
        }
        if row.sourceID != file.sourceID,
           !wins(record.sequence, record.modified, over: row.sequence, row.modified, tieGoesToNew: true) {
            file.result.unchanged += 1
            return
        }
        let sourceID = try ensureSource(&file)
        if row.sourceID != sourceID {
            try invalidateSynced(sourceID: row.sourceID)
        }
        try update(id: row.id, sourceID: sourceID, record: record, key: key, hash: hashText, startEncoded: startEncoded)
        file.rows[slot] = ImportRowIndex.Row(id: row.id, sourceID: sourceID, modified: record.modified, hash: hash,
                                             keyHash: keyHash, block: record.blockDigest, sequence: record.sequence,
                                             seenHere: true)
        file.result.updated += 1
    }

    /// Whether the stored row `id` has `key` (a key-hash hit is confirmed here).
    func storedRow(_ id: Int64, has key: EventKey) throws -> Bool {
        let st = keyCheckStatement
        defer { sqlite3_reset(st.handle) }
        try st.bindText(key.uid, at: 1)
        try st.bindText(key.rid, at: 2)
        try st.bindInt(id, at: 3)
        return try st.step() && Row(handle: st.handle).int(0) == 1
    }

    mutating func finish(_ file: inout FileState, summary: ParsedCalendar, replace: Bool) throws -> FileImportResult {
        file.result.skipped = summary.skipped
        file.result.warnings = summary.warnings
        noteKept(&file)
        // The zones the file's events used (after them, in the same transaction).
        try storeZones(of: summary, file: file.result.displayName)
        // Sync: rows of this source that the file no longer has.
        if !replace, let sourceID = file.sourceID {
            let stale = (file.rows.owned[sourceID] ?? []).filter { !file.rows[$0].seenHere }
                .sorted { file.rows[$0].id < file.rows[$1].id }
            for slot in stale {
                try db.statement("DELETE FROM event WHERE id = ?").run([.int(file.rows[slot].id)])
                file.rows.remove(slot)
                file.result.removed += 1
            }
        }
        if let sourceID = file.sourceID, file.result.changedAnything || replace {
            let zone: SQLValue = file.defaultZone.map { .text($0) } ?? .null
            try db.statement("UPDATE source SET content_hash = ?, imported_at = ?, default_tz = ? WHERE id = ? AND (content_hash <> ? OR default_tz IS NOT ?)")
                .run([.text(file.fileHash), .int(now), zone, .int(sourceID), .text(file.fileHash), zone])
        }
        if file.result.removed > 0 {
            // Another file of the calendar may hold a deleted key it lost to this one.
            try invalidateSynced(calendarID: file.calendarID)
        }
        if !replace { try markSynced(file) }
        file.rows.clearSeen(file.seen)
        file.seen.removeAll()
        existing[file.calendarID] = file.rows
        touched[file.calendarID] = file.touched
        return file.result
    }

    /// With `--replace`: rows of the target calendars that no file of this run contained.
    mutating func removeUntouched(results: inout [FileImportResult]) throws {
        for (calendarID, keep) in touched.merging(fileIndexByCalendar.mapValues { _ in [] }, uniquingKeysWith: { a, _ in a }) {
            let ids = try db.statement("SELECT id FROM event WHERE calendar_id = ?").map([.int(calendarID)]) { $0.int(0) }
            let name = calendarNames[calendarID]
            var removed = 0
            if ids.contains(where: { !keep.contains($0) }) { try invalidateSynced(calendarID: calendarID) }
            for id in ids where !keep.contains(id) {
                try db.statement("DELETE FROM event WHERE id = ?").run([.int(id)])
                removed += 1
            }
            // Sources that no longer own any event are gone with --replace.
            try db.statement("DELETE FROM source WHERE calendar_id = ? AND NOT EXISTS (SELECT 1 FROM event WHERE source_id = source.id)")
                .run([.int(calendarID)])
            if removed > 0, let index = results.lastIndex(where: { $0.calendar == name }) {
                results[index].removed += removed
            }
        }
    }
}
