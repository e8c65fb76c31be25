import Testing
import TestSupport
@testable import EventStore

/// A re-import parses only the VEVENT blocks whose digest no stored row has; it must
/// leave exactly what a full import (every block parsed) leaves: the same rows, sources,
/// zones and results, on random edit sequences of two files sharing one calendar,
/// including edits of a VTIMEZONE or X-WR-TIMEZONE alone (which must make the events
/// read in them be read again) and duplicate keys within a file.
@Suite struct IncrementalImportTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func incrementalImportEqualsFullImport(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        var model = EditModel(random: &random)
        let incremental = try ScratchStore(), full = try ScratchStore()
        var reused = 0
        for step in 0..<40 {
            if step > 0 { model.edit(&random) }
            let inputs = model.inputs()
            var fullOptions = ImportOptions()
            fullOptions.reuseUnchangedBlocks = false
            let now = 1_790_000_000 + Int64(step)
            var options = ImportOptions()
            options.reuseBlocksFromBytes = 0
            let a = try incremental.store.importCalendars(inputs, options: options, now: now)
            let b = try full.store.importCalendars(inputs, options: fullOptions, now: now)
            #expect(b.allSatisfy { $0.reusedBlocks == 0 })
            reused += a.reduce(0) { $0 + $1.reusedBlocks }
            #expect(a.map(\.comparable) == b.map(\.comparable), "seed \(seed) step \(step): \(model.lastEdit)")
            for table in ["event", "source", "timezone", "calendar"] {
                let (x, y) = (try incremental.dump(table), try full.dump(table))
                #expect(x == y, "seed \(seed) step \(step) table \(table): \(model.lastEdit)")
                if x != y { return }
            }
        }
        // The incremental store really skipped parsing (else this test compares nothing).
        #expect(reused > 20)
    }

    @Test func smallFilesAreParsedWholeByDefault() throws {
        var random = SeededRandom(seed: 7)
        var model = EditModel(random: &random)
        model.files[0].append(["UID:warn@x", "DTSTART;TZID=Nowhere/Land:20260601T090000", "DURATION:PT1H"])
        let s = try ScratchStore()
        _ = try s.store.importCalendars(model.inputs())
        let again = try s.store.importCalendars(model.inputs())
        #expect(again.allSatisfy { $0.reusedBlocks == 0 && !$0.changedAnything })
    }

    @Test func aZoneEditRereadsTheEventsOfItsCalendar() throws {
        var random = SeededRandom(seed: 99)
        var model = EditModel(random: &random)
        model.files[0].append(["UID:warn@x", "DTSTART;TZID=Nowhere/Land:20260601T090000", "DURATION:PT1H"])
        let s = try ScratchStore()
        var options = ImportOptions()
        options.reuseBlocksFromBytes = 0
        _ = try s.store.importCalendars(model.inputs(), options: options)
        let before = try s.dump("event")
        model.zoneOffsets["Custom Alpha"]! += 1
        let results = try s.store.importCalendars(model.inputs(), options: options)
        #expect(results[0].reusedBlocks == 0)
        #expect(results[0].updated > 0)
        #expect(try s.dump("event") != before)
        // The same bytes once more: nothing changes, and (the file had warnings, so the
        // whole-file shortcut does not apply) every warning-free block is reused.
        let again = try s.store.importCalendars(model.inputs(), options: options)
        #expect(again[0].updated + again[0].added + again[0].removed == 0)
        #expect(again[0].reusedBlocks > 0)
    }
}

extension FileImportResult {
    /// Everything but `reusedBlocks`.
    var comparable: FileImportResult {
        var copy = self
        copy.reusedBlocks = 0
        return copy
    }
}

extension ScratchStore {
    /// Every row of `table` as text (every column, quoted), in a stable order.
    func dump(_ table: String) throws -> [String] {
        let columns = try store.db.statement("SELECT name FROM pragma_table_info(?) ORDER BY cid").map([.text(table)]) { $0.text(0) }
        let select = columns.map { "quote(\($0))" }.joined(separator: " || '|' || ")
        return try store.db.statement("SELECT \(select) FROM \(table) ORDER BY 1").map { $0.text(0) }
    }
}

/// Two calendar files of one calendar, edited at random.
struct EditModel {
    var zoneOffsets: [String: Int] = ["Custom Alpha": 1, "Custom Beta": -5]
    var defaultZone: String?
    var files: [[[String]]] = [[], []]
    var next = 0
    var lastEdit = "initial"

    init(random: inout SeededRandom) {
        for _ in 0..<30 { files[0].append(contentsOf: newEvent(&random)) }
        for _ in 0..<6 { files[1].append(contentsOf: newEvent(&random)) }
        // A few events in both files.
        files[1].append(files[0][3])
        files[1].append(files[0][7])
    }

    mutating func newEvent(_ random: inout SeededRandom) -> [[String]] {
        next += 1
        let uid = "ev\(next)@x"
        let day = 1 + random.below(27)
        let d = day < 10 ? "0\(day)" : "\(day)"
        var lines = ["UID:\(uid)", "DTSTAMP:2026010\(1 + random.below(9))T000000Z", "SUMMARY:Event \(next)"]
        var override: [String]?
        switch random.below(6) {
        case 0: lines += ["DTSTART:202606\(d)T090000Z", "DTEND:202606\(d)T100000Z"]
        case 1: lines += ["DTSTART;TZID=Custom Alpha:202606\(d)T090000", "DTEND;TZID=Custom Alpha:202606\(d)T093000"]
        case 2: lines += ["DTSTART:202606\(d)T140000", "DURATION:PT1H"]
        case 3:
            lines += ["DTSTART;TZID=Custom Beta:202606\(d)T080000", "DURATION:PT1H", "RRULE:FREQ=DAILY;COUNT=5"]
            let e = day + 1 < 10 ? "0\(day + 1)" : "\(day + 1)"
            override = ["UID:\(uid)", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID;TZID=Custom Beta:202606\(e)T080000",
                        "DTSTART;TZID=Custom Beta:202606\(e)T110000", "DURATION:PT1H", "SUMMARY:Moved \(next)"]
        case 4: lines += ["DTSTART;TZID=Nowhere/Land:202606\(d)T090000", "DURATION:PT1H"]
        default: lines += ["DTSTART;VALUE=DATE:202606\(d)", "SEQUENCE:\(random.below(3))"]
        }
        return [lines] + (override.map { [$0] } ?? [])
    }

    mutating func edit(_ random: inout SeededRandom) {
        let f = random.below(5) == 0 ? 1 : 0
        let count = files[f].count
        let i = count > 0 ? random.below(count) : 0
        switch random.below(11) {
        case 0 where count > 0:
            files[f][i] = files[f][i].map { $0.hasPrefix("SUMMARY:") ? $0 + " changed" : $0 }
            lastEdit = "summary of block \(i) in file \(f)"
        case 1 where count > 0:
            files[f].remove(at: i)
            lastEdit = "delete block \(i) of file \(f)"
        case 2:
            files[f].insert(contentsOf: newEvent(&random), at: count > 0 ? random.below(count + 1) : 0)
            lastEdit = "add an event to file \(f)"
        case 3:
            let zone = random.below(2) == 0 ? "Custom Alpha" : "Custom Beta"
            zoneOffsets[zone]! += random.below(2) == 0 ? 1 : -1
            lastEdit = "offset of \(zone)"
        case 4:
            defaultZone = [nil, "Custom Alpha", "Europe/Berlin"][random.below(3)]
            lastEdit = "X-WR-TIMEZONE \(defaultZone ?? "none")"
        case 5 where count > 0:
            files[f].insert(files[f][i], at: random.below(count + 1))
            lastEdit = "exact duplicate of block \(i) in file \(f)"
        case 6 where count > 0:
            let copy = files[f][i].filter { !$0.hasPrefix("SEQUENCE:") && !$0.hasPrefix("SUMMARY:") }
                + ["SEQUENCE:\(random.below(4))", "SUMMARY:Rival \(random.below(100))"]
            files[f].insert(copy, at: random.below(count + 1))
            lastEdit = "rival copy of block \(i) in file \(f)"
        case 7 where count > 1:
            files[f].swapAt(i, random.below(count))
            lastEdit = "swap in file \(f)"
        case 8 where count > 0:
            files[1 - f].append(files[f][i])
            lastEdit = "copy block \(i) of file \(f) to the other"
        case 9 where count > 0:
            files[f][i] = files[f][i].map { $0.hasPrefix("DTSTART:") && !$0.hasSuffix("Z") ? $0 + "Z" : $0 }
            lastEdit = "floating start made UTC in block \(i) of file \(f)"
        default:
            lastEdit = "nothing"
        }
    }

    func text(_ file: Int) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//eventd//incremental tests//EN"]
        if let defaultZone { lines.append("X-WR-TIMEZONE:\(defaultZone)") }
        for (tzid, hours) in zoneOffsets.sorted(by: { $0.key < $1.key }) {
            let offset = (hours < 0 ? "-" : "+") + (abs(hours) < 10 ? "0" : "") + "\(abs(hours))00"
            lines += ["BEGIN:VTIMEZONE", "TZID:\(tzid)", "BEGIN:STANDARD", "DTSTART:19700101T000000",
                      "TZOFFSETFROM:\(offset)", "TZOFFSETTO:\(offset)", "END:STANDARD", "END:VTIMEZONE"]
        }
        for block in files[file] { lines += ["BEGIN:VEVENT"] + block + ["END:VEVENT"] }
        lines.append("END:VCALENDAR")
        return lines.map { $0 + "\r\n" }.joined()
    }

    func inputs() -> [ImportInput] {
        (0..<2).map { StoreICS.input("file\($0).ics", text($0)) }
    }
}
