import Foundation
import ICalendar
#if canImport(Glibc)
import Glibc
import Threads
#endif

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
        // Each file's hash, once, when first needed: the unchanged check and its source
        // row both use it.
        let hashes = FileHashes(inputs)
        if plain {
            let same = try read { try unchangedInputs(inputs, hashes: hashes) }
            if same.count == inputs.count { return inputs.indices.map { same[$0]! } }
        }
        // A larger page cache for the run than SQLite's 2 MiB default, so that fewer
        // index pages are spilled to the WAL and rewritten while the transaction grows
        // (`importCacheKiB`).
        let previousCache = try db.scalarInt("PRAGMA cache_size") ?? -2000
        try db.execute("PRAGMA cache_size = -\(Self.importCacheKiB)")
        defer { try? db.execute("PRAGMA cache_size = \(previousCache)") }
        // With temp storage in memory SQLite's sorter never spills: rebuilding a bulk
        // load's indexes held every key in memory (36 MiB at 400,000 events). On file it
        // keeps at most the page cache's size (`endBulkLoad`) and merges runs from a
        // temporary file. Set outside the transaction: SQLite refuses it inside one.
        try db.execute("PRAGMA temp_store = FILE")
        defer { try? db.execute("PRAGMA temp_store = MEMORY") }
        let totalBytes = max(1, inputs.reduce(0) { $0 + $1.bytes.count })
        let rollbackJournal = enterRollbackJournal(forBytes: totalBytes, within: options.rollbackJournalBytes)
        defer { if rollbackJournal { leaveRollbackJournal() } }
        return try db.inTransaction {
            var writer = try ImportWriter(db: db, now: now)
            writer.bulkLoadFromBlocks = options.bulkLoadFromBlocks
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
                results.append(try importOne(input, fileHash: { hashes[index] }, writer: &writer, options: options,
                                             skipBlocks: skipBlocks, last: index == inputs.count - 1 && !options.replace))
                doneBytes += input.bytes.count
            }
            if options.replace {
                try writer.removeUntouched(results: &results)
            }
            // Before the commit: the indexes and trigger a bulk load dropped.
            try writer.endBulkLoad()
            // Events rewritten or removed may have been a definition's last use.
            if options.replace || results.contains(where: { $0.updated + $0.removed > 0 }) {
                try Self.collectUnusedZones(db)
            }
            return results
        }
    }

    /// The page cache of an import run, in KiB. 8 MiB: a larger cache made an import of
    /// the 400k-event file no faster beyond noise (the event table's pages are appended
    /// once), while the peak RSS follows the cache, and it must stay under twice the file
    /// plus 64 MiB.
    static let importCacheKiB = 8192

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
    /// The `last` file of the run (not with `--replace`, which deletes after it) may end
    /// a bulk load as soon as its events are stored.
    private func importOne(_ input: ImportInput, fileHash: () -> String, writer: inout ImportWriter, options: ImportOptions,
                           skipBlocks: Bool, last: Bool) throws -> FileImportResult {
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
            return try write(input, fileHash: fileHash(), writer: &writer, options: options, last: last) { next.next()! }
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
        // Hashed while the parser repairs and scans (the hash is first needed with the
        // file's header).
        let hash = fileHash()
        return try write(input, fileHash: hash, writer: &writer, options: options, last: last) { channel.receive() }
    }

    /// Stores what `next` delivers, up to the parse's end.
    private func write(_ input: ImportInput, fileHash: String, writer: inout ImportWriter, options: ImportOptions,
                       last: Bool, next: () -> ParseMessage) throws -> FileImportResult {
        var file: ImportWriter.FileState?
        while true {
            switch next() {
            case .part(.header(let header)):
                file = try writer.begin(input, header, fileHash: fileHash)
                file?.replace = options.replace
            case .part(.events(let events)):
                guard file != nil else { continue }
                // Borrowed from the batch: `for record in events` copies each record
                // (a retain and a release of every field), 8% of the writer's samples.
                try events.withUnsafeBufferPointer { records in
                    for index in records.indices { try writer.add(records[index], to: &file!) }
                }
            case .part(.unchanged(let digests)):
                guard file != nil else { continue }
                try writer.confirmUnchanged(digests, in: &file!)
            case .part(.delivered):
                // The dropped indexes are built while the parser finishes its checks (a
                // file with overrides has its replacements checked after the last event).
                // Only for the run's last file: a later file would insert with them.
                if last { try writer.endBulkLoad() }
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

