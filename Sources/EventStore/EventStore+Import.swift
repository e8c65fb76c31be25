import Foundation
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
        for input in inputs where !isValidCalendarName(input.calendar) {
            throw ImportError.invalidCalendarName(input.calendar)
        }
        let plain = !options.strict && !options.replace
        do {
            return try importRun(inputs, options: options, now: now, skipBlocks: plain && options.reuseUnchangedBlocks,
                                 progress: progress)
        } catch is BlockSkipConflict {
            // A skipped block's key was also in a changed block of the same file (rare):
            // the run is rolled back and done again, parsing everything.
            return try importRun(inputs, options: options, now: now, skipBlocks: false, progress: progress)
        }
    }

    /// `importCalendars`; with `skipBlocks`, VEVENT blocks whose digest a row of the
    /// target calendar stored are not parsed again (see `ImportWriter+Blocks`).
    private func importRun(_ inputs: [ImportInput], options: ImportOptions, now: Int64, skipBlocks: Bool,
                           progress: ((Double) -> Void)?) throws -> [FileImportResult] {
        let plain = !options.strict && !options.replace
        let hashes = plain ? inputs.map { ContentHash.of(bytes: $0.bytes) } : []
        if plain {
            let same = try read { try unchangedInputs(inputs, hashes: hashes) }
            if same.count == inputs.count { return inputs.indices.map { same[$0]! } }
        }
        // A larger page cache for the run, so that the indexes' pages are not spilled to
        // the WAL and rewritten while the transaction grows; 32 MiB, not the whole
        // database: the table's own pages are appended once, and eventctl's peak RSS
        // follows this cache (issue 12: at most twice the file plus 64 MiB).
        let previousCache = try db.scalarInt("PRAGMA cache_size") ?? -2000
        try db.execute("PRAGMA cache_size = -32768")
        defer { try? db.execute("PRAGMA cache_size = \(previousCache)") }
        let totalBytes = max(1, inputs.reduce(0) { $0 + $1.bytes.count })
        return try db.inTransaction {
            var writer = try ImportWriter(db: db, now: now)
            var results: [FileImportResult] = []
            var doneBytes = 0
            // Looked up again under the write lock: another import may have run since.
            let same = plain ? try unchangedInputs(inputs, hashes: hashes) : [:]
            for (index, input) in inputs.enumerated() {
                if let result = same[index] {
                    results.append(result)
                    doneBytes += input.bytes.count
                    continue
                }
                let before = doneBytes
                writer.progress = progress.map { report in { fraction in
                    report(Double(before) / Double(totalBytes) + fraction * Double(input.bytes.count) / Double(totalBytes))
                } }
                results.append(try importOne(input, writer: &writer, options: options, skipBlocks: skipBlocks))
                doneBytes += input.bytes.count
            }
            if options.replace {
                try writer.removeUntouched(results: &results)
            }
            return results
        }
    }

    /// What the parser hands the writer.
    private enum ParseMessage: Sendable {
        case part(CalendarParser.Part)
        case done(ParsedCalendar)
        case failed(ICalendarSyntaxError)
    }

    /// Files up to this size are parsed on this thread when its stack is large: for a
    /// vdir of many small files a helper thread per file costs more than the parse.
    static let inlineParseLimit = 256 << 10

    /// Parses one file (a large one on a helper thread while this thread stores its
    /// events) and writes it.
    private func importOne(_ input: ImportInput, writer: inout ImportWriter, options: ImportOptions,
                           skipBlocks: Bool) throws -> FileImportResult {
        let bytes = input.bytes
        // Digests are always computed (and stored), so that the next import can skip.
        let known = skipBlocks && bytes.count >= options.reuseBlocksFromBytes
            ? try writer.knownBlocks(calendar: input.calendar) : []
        // (libical recurses on nested components: only on a thread with a large stack.)
        if bytes.count <= Self.inlineParseLimit, onLargeStack() {
            var messages: [ParseMessage] = []
            do {
                let summary = try CalendarParser.parse(bytes, batchSize: 256, known: known) { messages.append(.part($0)) }
                messages.append(.done(summary))
            } catch {
                messages.append(.failed(error))
            }
            var next = messages.makeIterator()
            return try write(input, writer: &writer, options: options) { next.next()! }
        }
        let channel = BatchChannel<ParseMessage>(capacity: 16)
        let parser = Thread {
            do {
                let summary = try CalendarParser.parse(bytes, batchSize: 256, known: known) { part in channel.send(.part(part)) }
                channel.send(.done(summary))
            } catch let error as ICalendarSyntaxError {
                channel.send(.failed(error))
            } catch {
                channel.send(.failed(ICalendarSyntaxError(line: 0, message: "\(error)")))
            }
        }
        parser.stackSize = 8 << 20
        parser.start()
        defer { channel.close() }
        return try write(input, writer: &writer, options: options) { channel.receive() }
    }

    /// Stores what `next` delivers, up to the parse's end.
    private func write(_ input: ImportInput, writer: inout ImportWriter, options: ImportOptions,
                       next: () -> ParseMessage) throws -> FileImportResult {
        var file: ImportWriter.FileState?
        while true {
            switch next() {
            case .part(.header(let header)):
                file = try writer.begin(input, header)
                file?.replace = options.replace
            case .part(.events(let events)):
                guard file != nil else { continue }
                for record in events { try writer.add(record, to: &file!) }
            case .part(.unchanged(let digests)):
                guard file != nil else { continue }
                try writer.confirmUnchanged(digests, in: &file!)
            case .done(let summary):
                if options.strict, !summary.warnings.isEmpty {
                    throw ImportError.strict(file: input.displayName, issues: summary.warnings)
                }
                guard var state = file else { return FileImportResult(path: input.path, displayName: input.displayName, calendar: input.calendar) }
                // Let go of the other reference first: the calendar's rows must not be
                // copied once per file (quadratic for a vdir of many files).
                file = nil
                return try writer.finish(&state, summary: summary, replace: options.replace)
            case .failed(let error):
                throw ImportError.syntax(file: input.displayName, line: error.line, message: error.message)
            }
        }
    }
}

/// Whether the calling thread has a large stack: the main thread (the system's 8 MiB),
/// or a Foundation thread started with at least 4 MiB (the source runner's).
func onLargeStack() -> Bool {
    Thread.isMainThread || Thread.current.stackSize >= 4 << 20
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
    /// The keys each source owns, per calendar (so that a file's stale rows are found
    /// without looking at every row of its calendar: a vdir of many small files).
    var owned: [Int64: [Int64: Set<EventKey>]] = [:]
    var calendarNames: [Int64: String] = [:]
    var fileIndexByCalendar: [Int64: Int] = [:]
    /// Called now and then with the fraction of the current file done (approximate).
    var progress: ((Double) -> Void)?
    var written = 0
    /// The key of each stored block digest of the calendar being imported (`knownBlocks`).
    var blockKeys: [BlockDigest: EventKey] = [:]

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
        /// The digest of the block the row was read from (nil: unknown or read with warnings).
        var block: BlockDigest?
        /// The file being imported contained this key.
        var seenHere = false
    }

    init(db: Connection, now: Int64) throws {
        self.db = db
        self.now = now
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
        var rows: [EventKey: ExistingRow]
        /// The keys each source of the calendar owns.
        var owned: [Int64: Set<EventKey>]
        /// The keys this file contained (`seenHere` is reset for these only).
        var seen: [EventKey] = []
        var touched: Set<Int64>
        /// This file's keys so far, with the (SEQUENCE, modified) that won.
        /// `--replace`: this run owns every event it contains.
        var replace = false
    }

    mutating func begin(_ input: ImportInput, _ header: ParsedCalendar) throws -> FileState {
        let calendarID = try calendarID(named: input.calendar)
        fileIndexByCalendar[calendarID] = fileIndexByCalendar[calendarID] ?? 0
        for (key, zone) in header.timezones {
            try db.statement("INSERT OR IGNORE INTO timezone(key, tzid, definition) VALUES (?, ?, ?)")
                .run([.text(key), .text(zone.tzid), .text(zone.text)])
        }
        try loadExisting(calendarID)
        let sourceID = try db.scalarInt("SELECT id FROM source WHERE calendar_id = ? AND path = ?",
                                        [.int(calendarID), .text(input.path)])
        var state = FileState(result: FileImportResult(path: input.path, displayName: input.displayName, calendar: input.calendar),
                              calendarID: calendarID, sourceID: sourceID, fileHash: ContentHash.of(bytes: input.bytes),
                              defaultZone: header.defaultTimeZone, path: input.path,
                              rows: existing[calendarID] ?? [:], owned: owned[calendarID] ?? [:], touched: touched[calendarID] ?? [])
        existing[calendarID] = nil
        owned[calendarID] = nil
        return state
    }

    /// The source row is created only when this file first owns a row, so importing an
    /// export of events already present adds nothing, not even a source.
    func ensureSource(_ file: inout FileState) throws -> Int64 {
        if let id = file.sourceID { return id }
        let id = try sourceID(calendarID: file.calendarID, path: file.path, hash: file.fileHash, defaultZone: file.defaultZone)
        file.sourceID = id
        return id
    }

    mutating func add(_ record: EventRecord, to file: inout FileState) throws {
        written += 1
        if written % 2048 == 0 { progress?(0) }
        let key = EventKey(uid: record.uid, rid: record.ridKey)
        let startEncoded = record.start.encoded
        let hash = record.contentHash.isEmpty ? contentFingerprint(record.text, startEncoded) : record.contentHash
        guard let index = file.rows.index(forKey: key) else {
            let sourceID = try ensureSource(&file)
            let id = try insert(calendarID: file.calendarID, sourceID: sourceID, record: record, key: key, hash: hash,
                                startEncoded: startEncoded)
            file.rows[key] = ExistingRow(id: id, sourceID: sourceID, sequence: record.sequence,
                                         modified: record.modified, hash: hash, block: record.blockDigest, seenHere: true)
            file.owned[sourceID, default: []].insert(key)
            file.seen.append(key)
            if file.replace { file.touched.insert(id) }
            file.result.added += 1
            return
        }
        let row = file.rows.values[index]
        // The same key twice in one file: the conflict rule, the later one winning ties.
        if row.seenHere, !wins(record.sequence, record.modified, over: row.sequence, row.modified, tieGoesToNew: true) {
            return
        }
        file.rows.values[index].seenHere = true
        file.seen.append(key)
        if file.replace { file.touched.insert(row.id) }
        if row.hash == hash {
            // Same content (from this or another source): keep the row as it is,
            // except that with --replace the row now belongs to this file.
            if file.replace, row.sourceID != file.sourceID {
                let sourceID = try ensureSource(&file)
                try db.statement("UPDATE event SET source_id = ? WHERE id = ?").run([.int(sourceID), .int(row.id)])
                try invalidateSynced(sourceID: row.sourceID)
                file.rows.values[index].sourceID = sourceID
                file.owned[row.sourceID]?.remove(key)
                file.owned[sourceID, default: []].insert(key)
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
            file.owned[row.sourceID]?.remove(key)
            file.owned[sourceID, default: []].insert(key)
        }
        try update(id: row.id, sourceID: sourceID, record: record, key: key, hash: hash, startEncoded: startEncoded)
        file.rows.values[index] = ExistingRow(id: row.id, sourceID: sourceID, sequence: record.sequence,
                                              modified: record.modified, hash: hash, block: record.blockDigest, seenHere: true)
        file.result.updated += 1
    }

    mutating func finish(_ file: inout FileState, summary: ParsedCalendar, replace: Bool) throws -> FileImportResult {
        file.result.skipped = summary.skipped
        file.result.warnings = summary.warnings
        // Sync: rows of this source that the file no longer has.
        if !replace, let sourceID = file.sourceID {
            let stale = (file.owned[sourceID] ?? []).compactMap { key in
                file.rows[key].flatMap { $0.seenHere ? nil : (key, $0) }
            }
            for (key, row) in stale.sorted(by: { $0.1.id < $1.1.id }) {
                try db.statement("DELETE FROM event WHERE id = ?").run([.int(row.id)])
                file.rows[key] = nil
                file.owned[sourceID]?.remove(key)
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
        for key in file.seen { file.rows[key]?.seenHere = false }
        file.seen.removeAll()
        existing[file.calendarID] = file.rows
        owned[file.calendarID] = file.owned
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
