import Foundation
import Testing
@testable import ICalendar

/// docs/data-model.md, "Liberal input": what is repaired (with a warning naming
/// the line) and what is still rejected whole.
@Suite struct LiberalParsingTests {
    static let event = ["DTSTART:20260301T090000Z", "SUMMARY:Standup"]

    static func only(_ parsed: ParsedCalendar, sourceLocation: SourceLocation = #_sourceLocation) throws -> EventRecord {
        #expect(parsed.events.count == 1, sourceLocation: sourceLocation)
        return try #require(parsed.events.first, sourceLocation: sourceLocation)
    }

    @Test func brokenFoldWithoutColonIsJoined() throws {
        let text = ICS.calendar(ICS.event(Self.event + ["DESCRIPTION:first half", "second half"]))
        let parsed = try ICS.parse(text)
        let record = try Self.only(parsed)
        #expect(record.text.contains("DESCRIPTION:first half\r\n second half"))
        let line = text.components(separatedBy: "\r\n").firstIndex(of: "second half")! + 1
        #expect(parsed.warnings.map(\.line) == [line], "\(parsed.warnings)")
        #expect(parsed.warnings.first?.message.contains("broken fold") == true)
    }

    /// Confluence splits a parameter value; the rest of the line has a ':' of its own.
    @Test func confluenceOrganizerSplitInsideAName() throws {
        let parsed = try ICS.parse(ICS.calendar(ICS.event(Self.event + [
            "ORGANIZER;X-CONFLUENCE-USER-KEY=8a4a;CN=Danie", "l Latham;CUTYPE=INDIVIDUAL:mailto:dl@example.com",
            "LOCATION:Room 1"])))
        let record = try Self.only(parsed)
        #expect(record.location == "Room 1")
        #expect(record.text.contains("CN=Danie\r\n l Latham"))
        #expect(parsed.warnings.count == 1, "\(parsed.warnings)")
    }

    @Test func unparseableLinesAreSkippedAndTheRestKept() throws {
        let text = ICS.calendar(ICS.event(Self.event + ["ORGANIZER=\"mailto:a@example.com\"", "X BAD NAME:value",
                                                         "LOCATION:Room 2"]))
        let parsed = try ICS.parse(text)
        let record = try Self.only(parsed)
        #expect(record.location == "Room 2")
        #expect(record.summary == "Standup")
        #expect(!record.text.contains("ORGANIZER"))
        let lines = text.components(separatedBy: "\r\n")
        let expected = [lines.firstIndex { $0.hasPrefix("ORGANIZER=") }! + 1, lines.firstIndex { $0.hasPrefix("X BAD") }! + 1]
        #expect(parsed.warnings.map(\.line) == expected, "\(parsed.warnings)")
        #expect(parsed.warnings.allSatisfy { $0.message.contains("skipped") })
        // The event's own line (BEGIN:VEVENT) is where the file has it, not shifted by the removed lines.
        #expect(record.line == lines.firstIndex(of: "BEGIN:VEVENT")! + 1)
    }

    @Test func latin1TextIsReadAsWindows1252() throws {
        var bytes = Array(ICS.calendar(ICS.event(Self.event.dropLast() + ["SUMMARY:Z\u{FC}rich \u{20AC}5 \u{201C}q\u{201D}"])).utf8)
        // Re-encode the summary as Windows-1252: ü = FC, € = 80, “ = 93, ” = 94.
        let utf8Summary = Array("Z\u{FC}rich \u{20AC}5 \u{201C}q\u{201D}".utf8)
        let cp1252: [UInt8] = [0x5A, 0xFC, 0x72, 0x69, 0x63, 0x68, 0x20, 0x80, 0x35, 0x20, 0x93, 0x71, 0x94]
        let at = try #require(bytes.firstRange(of: utf8Summary))
        bytes.replaceSubrange(at, with: cp1252)
        let parsed = try CalendarParser.parse(bytes)
        #expect(try Self.only(parsed).summary == "Z\u{FC}rich \u{20AC}5 \u{201C}q\u{201D}")
        #expect(parsed.warnings.count == 1 && parsed.warnings[0].message.contains("Windows-1252"), "\(parsed.warnings)")
    }

    @Test func windows1252TableMatchesTheCodePage() {
        // Spot checks from Microsoft's cp1252 table; the five undefined bytes are their C1 code points.
        #expect(Windows1252.scalar(0x80) == 0x20AC)
        #expect(Windows1252.scalar(0x8A) == 0x0160)
        #expect(Windows1252.scalar(0x9F) == 0x0178)
        #expect(Windows1252.scalar(0xA0) == 0x00A0)
        #expect(Windows1252.scalar(0xFF) == 0x00FF)
        #expect([0x81, 0x8D, 0x8F, 0x90, 0x9D].map { Windows1252.scalar($0) } == [0x81, 0x8D, 0x8F, 0x90, 0x9D])
        #expect(Windows1252.high.count == 32)
    }

    @Test func whiteSpaceBeforeBeginAndBareLineEnds() throws {
        let body = ICS.calendar(ICS.event(Self.event))
        for (label, text) in [("leading", "  \r\n\t" + body), ("LF", body.replacingOccurrences(of: "\r\n", with: "\n")),
                              ("CR", body.replacingOccurrences(of: "\r\n", with: "\r"))] {
            let parsed = try ICS.parse(text)
            #expect(parsed.events.count == 1, "\(label)")
            #expect(parsed.events.first?.summary == "Standup", "\(label)")
            #expect(parsed.warnings.count == 1, "\(label): \(parsed.warnings)")
        }
    }

    @Test func brokenRRULEIsSalvaged() throws {
        for (rule, expected) in [("FREQ=WEEKLY\\;BYDAY=MO\\,WE\\;COUNT=4", "FREQ=WEEKLY;COUNT=4;BYDAY=MO,WE"),
                                 ("FREQ=DAILY;COUNT=3;X-FOO=bar", "FREQ=DAILY;COUNT=3"),
                                 ("FREQ=DAILY;COUNT=-1;UNTIL=20260310T000000Z", "FREQ=DAILY;UNTIL=20260310T000000Z")] {
            let parsed = try ICS.parse(ICS.calendar(ICS.event(Self.event + ["RRULE:" + rule])))
            let record = try Self.only(parsed)
            #expect(record.rrule == expected, "\(rule): \(record.rrule ?? "nil")")
            #expect(parsed.warnings.contains { $0.message.contains("RRULE repaired") }, "\(rule): \(parsed.warnings)")
        }
        let hopeless = try ICS.parse(ICS.calendar(ICS.event(Self.event + ["RRULE:FREQ=NEVER;COUNT=2"])))
        #expect(try Self.only(hopeless).rrule == nil)
        #expect(hopeless.warnings.contains { $0.message.contains("RRULE") }, "\(hopeless.warnings)")
    }

    /// Not iCalendar, binary, empty and truncated files are still rejected whole.
    @Test(arguments: [
        ("", 1), ("  \r\n\r\n", 2), ("<html><body>404</body></html>\n", 1),
        // Truncated: the error names the last line, where the missing END was due.
        ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nDTSTART:20260301T090000Z\r\n", 4),
        ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nDTSTART:20260301T090000Z\r\nEND:VEVENT\r\n", 5),
        // A NUL outside a property value (in a name, or a line of NULs) is binary.
        ("BEGIN:VCALENDAR\r\nSUM\u{0}MARY:ab\r\nEND:VCALENDAR\r\n", 2),
        ("BEGIN:VCALENDAR\r\n\u{0}\u{0}\r\nEND:VCALENDAR\r\n", 2),
    ])
    func stillRejected(_ text: String, _ line: Int) throws {
        let error = #expect(throws: ICalendarSyntaxError.self) { try ICS.parse(text) }
        #expect(error?.line == line, "\(String(describing: error))")
    }
}
