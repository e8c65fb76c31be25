import Testing
import TestSupport
import CalendarGenerator
@testable import ICalendar

/// The clean-file fast paths of `InputRepair` and `CalendarScanner` (memchr, word-at-a-time
/// ASCII and CRLF checks, lines read one at a time) against the byte-by-byte code they
/// replaced (`ReferenceRepair`, `ReferenceScanner`): the same repaired bytes, line maps,
/// warnings, slices and errors for random inputs built from the bytes the passes look at.
@Suite struct RepairFastPathTests {
    // MARK: - Inputs

    /// Pieces of a byte soup: line ends, white space, separators, keywords, and text that
    /// is not ASCII, not UTF-8 or both (a fold inside a character, a lone continuation byte).
    static let pieces: [[UInt8]] = {
        let text = ["\r\n", "\r\n", "\r\n", "\r", "\n", " ", "\t", ":", ";", "=", "\"", "-", "a", "z",
                    "BEGIN:VCALENDAR", "END:VCALENDAR", "BEGIN:VEVENT", "END:VEVENT", "BEGIN:VTIMEZONE",
                    "END:VTIMEZONE", "BEGIN:", "END:", "X-WR-CALNAME:", "SUMMARY:", "vevent", " VEVENT ",
                    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-", "\u{E9}", "\u{301}", "\u{600}", "\u{1F600}"]
        let bytes: [[UInt8]] = [[0xFF], [0xC3], [0xE2, 0x82], [0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                                [0xC0, 0xAF], [0xC3, 0x0D, 0x0A, 0x20, 0xA9], [0xE2, 0x0A, 0x09, 0x82, 0xAC], [0xFC]]
        return text.map { Array($0.utf8) } + bytes + (65...90).map { [UInt8($0)] }
    }()

    /// `count` random pieces; a NUL now and then.
    static func soup(_ rng: inout SeededRandom, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        for _ in 0..<count {
            if rng.below(200) == 0 { out.append(0); continue }
            out += pieces[rng.below(pieces.count)]
        }
        return out
    }

    /// Lines a calendar may hold, well formed or as the exporters break them.
    static let lineKinds = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "X-WR-CALNAME:Team", "x-wr-timezone:Europe/Berlin", " continued",
        "\tcontinued:with a colon", "", "BEGIN:VEVENT", "UID:1", "SUMMARY:Caf\u{E9}", "DESCRIPTION:first half",
        "second half", "DTSTART;TZID=Europe/Berlin:20260301T090000", "ORGANIZER;CN=Danie",
        "l Latham;CUTYPE=INDIVIDUAL:mailto:x", "ORGANIZER=\"mailto:a\"", "X BAD NAME:value", "UID", " :956630271",
        "END:VEVENT", "END:VTOOD", "BEGIN:VTODO", "END:VTODO", "BEGIN: vevent ", "END:  VEVENT\t",
        "BEGIN: \u{301}VEVENT", "BEGIN:VEVENT \u{301}", "END:\u{600} VEVENT", "END:VCALENDAR", "  BEGIN:VCALENDAR",
        "   ", "X-COMMENT:Cached from", "end:vcalendar", "begin:vevent", "BEGIN:VTIMEZONE", "TZID:X",
        "END:VTIMEZONE", "BEGIN", "END:", ":value", "-:x",
    ].map { Array($0.utf8) } + [[0x53, 0x3A, 0x5A, 0xFC, 0x72], [0x53, 0x3A, 0x00, 0x31], [0x20, 0x80, 0x3A]]

    /// A calendar: half of them well formed (components with bodies, nested, some names
    /// in lower case or spaced out) with a few random lines dropped in, half random lines;
    /// mostly CRLF line ends, now and then a soup piece.
    static func calendar(_ rng: inout SeededRandom) -> [UInt8] {
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        var lines: [[UInt8]] = []
        if rng.percent(50) {
            lines = [bytes("BEGIN:VCALENDAR"), bytes("VERSION:2.0"), bytes("X-WR-CALNAME:Team"), bytes(" Calendar")]
            for _ in 0..<rng.below(5) {
                let (begin, end) = [("BEGIN:VEVENT", "END:VEVENT"), ("begin:vevent", "END:  VEVENT\t"),
                                    ("BEGIN:VTIMEZONE", "END:VTIMEZONE"), ("BEGIN:VTODO", "END:VTOOD")][rng.below(4)]
                lines.append(bytes(begin))
                let body = [" continued", "UID:1", "SUMMARY:Caf\u{E9}", "DESCRIPTION:first half",
                            "DTSTART;TZID=Europe/Berlin:20260301T090000", "UID"]
                for _ in 0..<rng.below(4) { lines.append(bytes(body[rng.below(body.count)])) }
                if rng.percent(20) { lines += [bytes("BEGIN:VALARM"), bytes("ACTION:DISPLAY"), bytes("END:VALARM")] }
                lines.append(bytes(end))
            }
            lines.append(bytes("END:VCALENDAR"))
            for _ in 0..<rng.below(3) { lines.insert(lineKinds[rng.below(lineKinds.count)], at: rng.below(lines.count + 1)) }
        } else {
            if rng.percent(90) { lines.append(bytes("BEGIN:VCALENDAR")) }
            for _ in 0..<rng.below(40) {
                lines.append(rng.percent(30) ? lineKinds[rng.below(8)] : lineKinds[rng.below(lineKinds.count)])
            }
            if rng.percent(80) { lines.append(bytes("END:VCALENDAR")) }
        }
        let ends: [[UInt8]] = rng.percent(60) ? [[13, 10]] : [[13, 10], [13, 10], [10], [13]]
        var out: [UInt8] = []
        for (k, line) in lines.enumerated() {
            if rng.percent(3) { out += soup(&rng, count: 1) }
            out += line
            if k + 1 < lines.count || rng.percent(90) { out += ends[rng.below(ends.count)] }
        }
        return out
    }

    // MARK: - Comparing

    static func describe(_ repaired: RepairedInput) -> String {
        "bytes: \(repaired.bytes.map { String(decoding: $0, as: UTF8.self).debugDescription } ?? "unchanged")\n"
            + "lineMap: \(repaired.lineMap.map { "\($0)" } ?? "nil")\nwarnings: \(repaired.warnings)"
    }

    static func describe(_ scan: () throws(ICalendarSyntaxError) -> ScannedCalendar) -> String {
        do {
            let s = try scan()
            let slices = { (slices: [ComponentSlice]) in slices.map { "\($0.range) line \($0.line) in \($0.calendar)" } }
            return "events: \(slices(s.events))\ntimezones: \(slices(s.timezones))\n"
                + "properties: \(s.calendarProperties.map { "\($0.name)=\($0.value.debugDescription) line \($0.line) in \($0.calendar)" })\n"
                + "warnings: \(s.warnings)\ncalendars: \(s.calendarCount)"
        } catch {
            return "error: line \(error.line): \(error.message)"
        }
    }

    /// Repairs and scans `input` both ways, as `CalendarParser.parse` does; also scans
    /// the input as it stands (what the scanner sees when there is nothing to repair).
    /// Descriptions are compared as bytes: `String`'s `==` would take a precomposed
    /// character for its decomposed form.
    /// Returns the repair's warnings and whether the scan accepted the repaired text.
    @discardableResult
    static func expectSame(_ input: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> (warnings: [ImportIssue], scanned: Bool) {
        let shown = "input \(input): \(String(decoding: input, as: UTF8.self).debugDescription)"
        return input.withUnsafeBufferPointer { bytes in
            let fast = InputRepair.repair(bytes), reference = ReferenceRepair.repair(bytes)
            #expect(fast.bytes == reference.bytes && fast.lineMap == reference.lineMap
                    && Array(describe(fast).utf8) == Array(describe(reference).utf8),
                    "\(shown)\nfast: \(describe(fast))\nreference: \(describe(reference))", sourceLocation: sourceLocation)
            let text = reference.bytes ?? input
            let fastScan = text.withUnsafeBufferPointer { b in describe { () throws(ICalendarSyntaxError) in try CalendarScanner.scan(b) } }
            let referenceScan = text.withUnsafeBufferPointer { b in describe { () throws(ICalendarSyntaxError) in try ReferenceScanner.scan(b) } }
            #expect(Array(fastScan.utf8) == Array(referenceScan.utf8), "\(shown)\nfast: \(fastScan)\nreference: \(referenceScan)",
                    sourceLocation: sourceLocation)
            let rawScan = describe { () throws(ICalendarSyntaxError) in try CalendarScanner.scan(bytes) }
            let rawReference = describe { () throws(ICalendarSyntaxError) in try ReferenceScanner.scan(bytes) }
            #expect(Array(rawScan.utf8) == Array(rawReference.utf8), "\(shown)\nfast: \(rawScan)\nreference: \(rawReference)",
                    sourceLocation: sourceLocation)
            return (reference.warnings, !referenceScan.hasPrefix("error:"))
        }
    }

    // MARK: - Whole passes

    @Test func byteSoupsRepairAndScanAsBefore() {
        var rng = SeededRandom(seed: 0x5EED_0001)
        for _ in 0..<3000 { Self.expectSame(Self.soup(&rng, count: rng.below(60))) }
    }

    @Test func brokenCalendarsRepairAndScanAsBefore() {
        var rng = SeededRandom(seed: 0x5EED_0002)
        var messages: [String] = []
        var scanned = 0
        for _ in 0..<3000 {
            let outcome = Self.expectSame(Self.calendar(&rng))
            messages += outcome.warnings.map(\.message)
            if outcome.scanned { scanned += 1 }
        }
        // The inputs reach every repair, and many of them scan (not only the first error).
        for kind in ["broken fold", "(no ':'", "no property name", "invalid character", "Windows-1252", "bare CR",
                     "bare LF", "white space before", "after END:VCALENDAR"] {
            #expect(messages.contains { $0.contains(kind) }, "no input was repaired with \(kind)")
        }
        #expect(scanned >= 600, "only \(scanned) of 3000 inputs scanned")
    }

    /// A clean generated calendar (the fast paths' common case), and the same with the
    /// line ends or one byte changed.
    @Test func generatedCalendarRepairsAndScansAsBefore() {
        var clean: [UInt8] = []
        _ = CalendarGenerator(.init(events: 150, seed: 7)).write(into: &clean)
        Self.expectSame(clean)
        Self.expectSame(Array(String(decoding: clean, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").utf8))
        var rng = SeededRandom(seed: 0x5EED_0003)
        for _ in 0..<40 {
            var changed = clean
            changed[rng.below(changed.count)] = [0, 9, 10, 13, 32, 58, 0xC3, 0xFF, 0x80][rng.below(9)]
            Self.expectSame(changed)
        }
    }

    // MARK: - The pieces, at every alignment and length

    /// Short soups at a random offset into a larger buffer, so that word loads start
    /// anywhere and the buffer ends in every position of a word.
    static func withShortSoups(seed: UInt64, _ body: (UnsafeBufferPointer<UInt8>, [UInt8]) -> Void) {
        var rng = SeededRandom(seed: seed)
        for _ in 0..<4000 {
            let soup = Self.soup(&rng, count: rng.below(24))
            let offset = rng.below(8)
            let padded = [UInt8](repeating: 0x41, count: offset) + soup
            padded.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[offset...]), soup) }
        }
    }

    @Test func utf8ValidationMatchesTheByteByByteCheck() {
        Self.withShortSoups(seed: 0x5EED_0004) { bytes, soup in
            #expect(CalendarScanner.isValidUTF8(bytes) == ReferenceRepair.isValidUTF8(bytes), "\(soup)")
        }
    }

    @Test func lineEndChecksMatchAByteByByteCheck() {
        Self.withShortSoups(seed: 0x5EED_0005) { bytes, soup in
            let n = bytes.count
            let bareCR = bytes.indices.contains { bytes[$0] == 13 && ($0 + 1 == n || bytes[$0 + 1] != 10) }
            let bareLF = bytes.indices.first { bytes[$0] == 10 && ($0 == 0 || bytes[$0 - 1] != 13) }.map { $0 + 1 } ?? 0
            #expect(InputRepair.hasBareCR(bytes) == bareCR, "\(soup)")
            #expect(InputRepair.firstBareLF(bytes) == bareLF, "\(soup)")
            #expect(ByteSearch.lineEndsAreCRLF(bytes) == (!bareCR && bareLF == 0), "\(soup)")
            for byte: UInt8 in [0, 10, 13, 58] {
                let from = n == 0 ? 0 : soup.count % n
                #expect(ByteSearch.firstIndex(of: byte, in: bytes, from: from, to: n) == (from..<n).first { bytes[$0] == byte }, "\(soup)")
            }
        }
    }

    /// Lines read one at a time are the lines `physicalLines` lists, for text with no bare CR.
    @Test func linesReadOneAtATimeMatchTheLineArray() {
        Self.withShortSoups(seed: 0x5EED_0006) { bytes, soup in
            guard !InputRepair.hasBareCR(bytes) else { return }
            var lines: [InputRepair.PhysicalLine] = []
            var next = 0
            while next < bytes.count {
                let line = InputRepair.physicalLine(bytes, at: next)
                lines.append(line)
                next = line.next
            }
            let expected = InputRepair.physicalLines(bytes)
            #expect(lines.map(\.content) == expected.map(\.content) && lines.map(\.end) == expected.map(\.end), "\(soup)")
        }
    }

    @Test func componentNamesTrimAsCharacters() {
        Self.withShortSoups(seed: 0x5EED_0007) { bytes, soup in
            let range = 0..<bytes.count
            let name = CalendarScanner.componentName(bytes, range)
            #expect(Array(name.utf8) == Array(CalendarScanner.upperASCII(bytes, range).trimmingSpaces().utf8), "\(soup)")
        }
    }
}
