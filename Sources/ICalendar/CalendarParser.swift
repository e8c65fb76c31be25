import CLibical
import Foundation
import Digests
import Threads

/// Parses iCalendar bytes into normalised `EventRecord`s with libical.
///
/// One pass validates structure and slices components (`CalendarScanner`); each
/// VTIMEZONE becomes a `Zone` and each VEVENT is parsed by libical on its own, so
/// warnings can name the component's line and the stored text is the file's own.
public enum CalendarParser {
    /// Parses a whole file. Throws for files that are not usable iCalendar at all.
    public static func parse(_ bytes: [UInt8]) throws(ICalendarSyntaxError) -> ParsedCalendar {
        var events: [EventRecord] = []
        var result = try parse(bytes, batchSize: 1024) { part in
            if case .events(let batch) = part { events.append(contentsOf: batch) }
        }
        result.events = events
        return result
    }

    /// One part of a streamed parse.
    public enum Part: Sendable {
        /// The calendar's metadata (zones, X-WR properties), before any event.
        case header(ParsedCalendar)
        /// The next events, in file order.
        case events([EventRecord])
        /// The next VEVENT blocks, in file order, that were not parsed because their
        /// digest is one of the `known` ones.
        case unchanged([BlockDigest])
        /// Every event and block has been delivered; the checks that need them all (and
        /// the summary) still take a while, which a consumer may use.
        case delivered
    }

    /// Parses a file, handing its events to `deliver` in batches as they are read (so a
    /// consumer on another thread can store them meanwhile). Returns the metadata,
    /// warnings and skip count, without events, in file order. Large files are parsed
    /// by two threads (libical keeps its parser state per thread; shared zone state is
    /// behind this module's lock); events are still delivered in file order.
    ///
    /// With `known`, every VEVENT block's `BlockDigest` is computed; a block whose digest
    /// is in `known` is not parsed but reported as `.unchanged`, and every record read
    /// without warnings carries its digest (`EventRecord.blockDigest`) for next time.
    public static func parse(_ bytes: [UInt8], batchSize: Int, known: Set<BlockDigest>? = nil,
                             deliver: (Part) -> Void) throws(ICalendarSyntaxError) -> ParsedCalendar {
        try parse(bytes, batchSize: batchSize, parallel: true, known: known, deliver: deliver)
    }

    /// `feedAllLines` gives libical every line of each block (tests compare it with
    /// `ParserFeed`'s selection).
    static func parse(_ bytes: [UInt8], batchSize: Int, parallel: Bool, known: Set<BlockDigest>? = nil,
                      feedAllLines: Bool = false,
                      deliver: (Part) -> Void) throws(ICalendarSyntaxError) -> ParsedCalendar {
        // A large file is checked for repairs on a helper thread while this one scans
        // the bytes as they stand: for a clean file (most are) that scan is the one
        // needed. Each pass takes about 40 ms of the 100,000-event file's import, before
        // any event is parsed.
        var asTheyStand: Result<ScannedCalendar, ICalendarSyntaxError>?
        let repaired: RepairedInput
        if parallel, bytes.count >= concurrentRepairBytes {
            let checker = WorkerThread(name: "eventd-repair") { repair(bytes) }
            asTheyStand = bytes.withUnsafeBufferPointer { buffer in
                Result { () throws(ICalendarSyntaxError) in try CalendarScanner.scan(buffer) }
            }
            repaired = checker.join()
        } else {
            repaired = repair(bytes)
        }
        let text = repaired.bytes ?? bytes
        return try text.withUnsafeBufferPointer { (buffer) throws(ICalendarSyntaxError) -> ParsedCalendar in
            var scanned: ScannedCalendar
            do throws(ICalendarSyntaxError) {
                if repaired.bytes == nil, let asTheyStand {
                    scanned = try asTheyStand.get()
                } else {
                    scanned = try CalendarScanner.scan(buffer)
                }
            } catch {
                throw ICalendarSyntaxError(line: repaired.originalLine(error.line), message: error.message)
            }
            scanned.mapLines(repaired)
            guard var check = ReplacementCheck(buffer, scanned.events) else {
                let result = build(scanned, text, buffer, batchSize: max(1, batchSize), parallel: parallel, known: known,
                                   feedAllLines: feedAllLines, deliver: deliver)
                deliver(.delivered)
                return result
            }
            var result = build(scanned, text, buffer, batchSize: max(1, batchSize), parallel: parallel, known: known,
                               feedAllLines: feedAllLines) { part in
                check.observe(part)
                deliver(part)
            }
            deliver(.delivered)
            result.warnings += check.warnings()
            return result
        }
    }

    /// `InputRepair.repair` of `bytes` after any byte-order mark, and first without the
    /// NUL bytes that pad property values (`InputRepair.removingValueNULs`).
    private static func repair(_ bytes: [UInt8]) -> RepairedInput {
        bytes.withUnsafeBufferPointer { buffer in
            let bom = buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF ? 3 : 0
            let text = UnsafeBufferPointer(rebasing: buffer[bom...])
            guard let (cleaned, warning) = InputRepair.removingValueNULs(text) else { return InputRepair.repair(text) }
            var result = cleaned.withUnsafeBufferPointer { InputRepair.repair($0) }
            if result.bytes == nil { result.bytes = cleaned }
            // Removing NULs keeps every line: the warning's line is the file's.
            result.warnings = ([warning] + result.warnings).sorted { $0.line < $1.line }
            return result
        }
    }

    /// Files of at least this many bytes are checked for repairs and scanned at once.
    static let concurrentRepairBytes = 1 << 20

    /// Files with at least this many VEVENTs are parsed by two threads.
    static let parallelThreshold = 4096

    // MARK: - Building

    /// Builds every VCALENDAR of the file in turn: each has its own VTIMEZONEs and
    /// X-WR-TIMEZONE (a file may hold several, as `eventctl export` writes them).
    /// `buffer` is `bytes`' storage (the helper thread gets the array itself).
    private static func build(_ scanned: ScannedCalendar, _ bytes: [UInt8], _ buffer: UnsafeBufferPointer<UInt8>,
                              batchSize: Int, parallel: Bool, known: Set<BlockDigest>?, feedAllLines: Bool,
                              deliver: (Part) -> Void) -> ParsedCalendar {
        var result = ParsedCalendar()
        result.warnings = scanned.warnings
        var contexts: [ReaderContext] = []
        var defaults: [String?] = []
        var blockContexts: [BlockContext] = []
        let budget = FileZoneBudget()
        for index in 0..<max(scanned.calendarCount, 1) {
            var context = ReaderContext()
            var defaultZone: String?
            for property in scanned.calendarProperties where property.calendar == index {
                switch property.name {
                case "X-WR-CALNAME": result.calendarName = result.calendarName ?? unescapeText(property.value)
                case "X-WR-TIMEZONE": defaultZone = property.value.trimmingSpaces()
                case "COLOR": result.calendarColor = CalendarColor.normalized(property.value) ?? result.calendarColor
                case "X-APPLE-CALENDAR-COLOR": result.calendarColor = result.calendarColor ?? CalendarColor.normalized(property.value)
                default: break
                }
            }
            // Zones defined in this VCALENDAR.
            // Kept as text: read only when an event names them (`FileZoneBudget`).
            context.zoneBudget = budget
            var zoneTexts: [String] = []
            for slice in scanned.timezones where slice.calendar == index {
                let text = CalendarScanner.decodeText(UnsafeBufferPointer(rebasing: buffer[slice.range]))
                zoneTexts.append(text)
                let key = FileZone.key(of: text)
                if let tzid = FileZone.tzid(of: text) {
                    context.addFileZone(FileZone(key: key, text: text, line: slice.line), tzid: tzid)
                    if context.fileZoneTZID == nil { context.fileZoneTZID = tzid }
                } else {
                    result.warnings.append(ImportIssue(line: slice.line, message: "VTIMEZONE without a TZID; ignored"))
                }
            }
            if let name = defaultZone {
                if let zone = context.zone(forTZID: name) {
                    context.defaultZone = zone
                } else {
                    result.warnings.append(ImportIssue(line: 1, message: "unknown X-WR-TIMEZONE \"\(name)\"; floating times stay floating"))
                }
            }
            result.defaultTimeZone = result.defaultTimeZone ?? defaultZone
            contexts.append(context)
            defaults.append(defaultZone)
            if known != nil { blockContexts.append(BlockContext(defaultZone: defaultZone, zoneTexts: zoneTexts)) }
        }
        let digests = known.map { RangeDigests(contexts: blockContexts, known: $0) }
        let feed = feedAllLines ? ParserFeed.appendAll : ParserFeed.append

        // The header declares no zones: those the events used come with the result.
        var header = result
        header.blockCount = scanned.events.count
        deliver(.header(header))
        // Chunks of blocks alternate between this thread (even) and a helper (odd), which
        // hands each parsed chunk over through a bounded channel: events still arrive in
        // file order, and at most a few chunks are held however large the file (memory
        // follows the batch, not the file).
        // Shared, never copied: each thread reads its chunks' slices from this one array.
        let slices = scanned.events
        let shared = SharedUIDs.assignments(slices, buffer)
        let chunkSize = max(batchSize * 4, 1024)
        let chunks = stride(from: 0, to: slices.count, by: chunkSize).map { $0..<min($0 + chunkSize, slices.count) }
        var used = Set<String>()
        func merge(_ range: RangeResult) {
            result.warnings += range.warnings
            result.skipped += range.skipped
            used.formUnion(range.usedZoneKeys)
        }
        guard parallel, slices.count >= parallelThreshold, chunks.count > 1 else {
            merge(parseRange(slices, slices.indices, shared, buffer, contexts: &contexts, defaults: defaults, digests: digests,
                             feed: feed, batchSize: batchSize, deliver: deliver))
            return finish(result, contexts: contexts, used: used)
        }
        let channel = BatchChannel<RangeResult>(capacity: 2)
        let helperChunks = chunks.indices.filter { $0 % 2 == 1 }.map { chunks[$0] }
        let contextsCopy = contexts, defaultsCopy = defaults
        let helper = WorkerThread(name: "eventd-parse") { () -> Bool in
            var localContexts = contextsCopy
            return bytes.withUnsafeBufferPointer { buffer in
                for chunk in helperChunks {
                    var parts: [Part] = []
                    var range = parseRange(slices, chunk, shared, buffer, contexts: &localContexts, defaults: defaultsCopy, digests: digests,
                                           feed: feed, batchSize: batchSize) { parts.append($0) }
                    range.parts = parts
                    guard channel.send(range) else { return false }
                }
                return true
            }
        }
        for (index, range) in chunks.enumerated() {
            if index % 2 == 0 {
                merge(parseRange(slices, range, shared, buffer, contexts: &contexts, defaults: defaults, digests: digests,
                                 feed: feed, batchSize: batchSize, deliver: deliver))
            } else {
                let parsed = channel.receive()
                for part in parsed.parts { deliver(part) }
                merge(parsed)
            }
        }
        channel.close()
        _ = helper.join()
        return finish(result, contexts: contexts, used: used)
    }

    /// The file's result with the in-file zones its events used.
    private static func finish(_ result: ParsedCalendar, contexts: [ReaderContext], used: Set<String>) -> ParsedCalendar {
        var result = result
        // One warning per unknown TZID in the file, also where several VCALENDARs or the
        // two parser threads each met it.
        var seen = Set<String>()
        result.warnings.removeAll { $0.message.hasPrefix("unknown time zone ") && !seen.insert($0.message).inserted }
        for context in contexts {
            for (tzid, entry) in context.fileZones where used.contains(entry.key) && result.timezones[entry.key] == nil {
                let identifier = ZoneRegistry.shared.zone(forKey: entry.key)?.identifier ?? tzid
                result.timezones[entry.key] = (identifier, entry.text)
            }
        }
        if let budget = contexts.first?.zoneBudget { result.warnings += budget.warnings }
        return result
    }

    /// What parsing a run of VEVENTs produced.
    struct RangeResult: Sendable {
        /// What a helper thread parsed, to be delivered after the first half.
        var parts: [Part] = []
        var warnings: [ImportIssue] = []
        var skipped = 0
        var usedZoneKeys = Set<String>()
    }

    /// The digests' inputs for a parse with `known` digests.
    struct RangeDigests: Sendable {
        var contexts: [BlockContext]
        var known: Set<BlockDigest>
    }

    /// Parses `slices[range]` in order (with what `shared` says each block's UID takes,
    /// by index into `slices`), handing records (and skipped blocks) to `deliver` in
    /// batches of at most `batchSize`, in file order; `feed` selects each block's lines
    /// for libical (`ParserFeed`).
    static func parseRange(_ slices: [ComponentSlice], _ range: Range<Int>, _ shared: [Int: SharedUIDs.Assignment],
                           _ buffer: UnsafeBufferPointer<UInt8>, contexts: inout [ReaderContext],
                           defaults: [String?], digests: RangeDigests?,
                           feed: @Sendable (UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void, batchSize: Int,
                           deliver: (Part) -> Void) -> RangeResult {
        var result = RangeResult()
        var scratch = [UInt8]()
        var batch: [EventRecord] = []
        var kept: [BlockDigest] = []
        let digester = digests.map { _ in SHA256Digester() }
        batch.reserveCapacity(batchSize)
        func flushRecords() {
            if !batch.isEmpty { deliver(.events(batch)); batch.removeAll(keepingCapacity: true) }
        }
        func flushKept() {
            if !kept.isEmpty { deliver(.unchanged(kept)); kept.removeAll(keepingCapacity: true) }
        }
        for position in range {
            let slice = slices[position]
            let assignment = shared.isEmpty ? nil : shared[position]
            if batch.count >= batchSize { flushRecords() }
            if kept.count >= batchSize { flushKept() }
            let bytes = UnsafeBufferPointer(rebasing: buffer[slice.range])
            let index = min(slice.calendar, contexts.count - 1)
            var digest: BlockDigest?
            if let digests {
                let d = BlockDigest.of(bytes, context: digests.contexts[index], digester: digester!)
                // A block of a shared UID is always read: its id depends on the others.
                if assignment == nil, digests.known.contains(d) {
                    flushRecords()
                    kept.append(d)
                    continue
                }
                digest = d
            }
            flushKept()
            scratch.removeAll(keepingCapacity: true)
            feed(bytes, &scratch)
            scratch.append(0)
            guard let component = scratch.withUnsafeBufferPointer({ buffer in
                buffer.withMemoryRebound(to: CChar.self) { icalparser_parse_string($0.baseAddress) }
            }) else {
                result.skipped += 1
                result.warnings.append(ImportIssue(line: slice.line, message: "VEVENT could not be parsed; skipped"))
                continue
            }
            defer { icalcomponent_free(component) }
            let text = CalendarScanner.decodeText(bytes)
            var issues: [String] = []
            if var record = VEventReader.read(component, text: text, line: slice.line, context: &contexts[index], issues: &issues) {
                record.defaultZone = defaults[index]
                if let assignment { SharedUIDs.apply(assignment, to: &record, &issues) }
                // Only a block read without warnings may be skipped next time: skipping
                // would not report them again.
                if issues.isEmpty { record.blockDigest = digest }
                batch.append(record)
            } else {
                result.skipped += 1
            }
            for message in issues { result.warnings.append(ImportIssue(line: slice.line, message: message)) }
        }
        flushRecords()
        flushKept()
        for context in contexts { result.usedZoneKeys.formUnion(context.usedZoneKeys) }
        return result
    }

    /// VTIMEZONE text without line-ending and folding differences, for a stable key.
    static func normalisedZoneText(_ text: String) -> String {
        text.removingCarriageReturns().replacingFolds()
    }
}

/// Reads iCalendar TEXT escapes (`\n`, `\,`, `\;`, `\\`).
func unescapeText(_ raw: String) -> String {
    guard raw.contains("\\") else { return raw }
    var out = ""
    var escaping = false
    for ch in raw {
        if escaping {
            switch ch {
            case "n", "N": out.append("\n")
            default: out.append(ch)
            }
            escaping = false
        } else if ch == "\\" {
            escaping = true
        } else {
            out.append(ch)
        }
    }
    return out
}

extension String {
    /// Joins folded lines (a newline followed by one space or tab).
    public func replacingFolds() -> String {
        var out = String.UnicodeScalarView()
        var pendingNewline = false
        for scalar in unicodeScalars {
            if pendingNewline {
                pendingNewline = false
                if scalar == " " || scalar == "\t" { continue }
                out.append("\n")
            }
            if scalar == "\n" { pendingNewline = true } else { out.append(scalar) }
        }
        if pendingNewline { out.append("\n") }
        return String(out)
    }
}
