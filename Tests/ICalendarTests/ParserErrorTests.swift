import Foundation
import Testing
@testable import ICalendar

/// Bad input: files that are not usable at all throw `ICalendarSyntaxError` with the
/// line and a clear message; components that cannot be used are skipped with a warning.
@Suite struct ParserErrorTests {
    /// Parses `bytes`, which must fail; returns the error.
    func failure(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> ICalendarSyntaxError? {
        #expect(throws: ICalendarSyntaxError.self, sourceLocation: sourceLocation) {
            _ = try CalendarParser.parse(bytes)
        }
    }

    func failure(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ICalendarSyntaxError? {
        failure(Array(text.utf8), sourceLocation: sourceLocation)
    }

    func crlf(_ lines: [String]) -> String { lines.map { $0 + "\r\n" }.joined() }

    let minimalEvent = ["BEGIN:VEVENT", "UID:a@x", "DTSTAMP:20260101T000000Z", "DTSTART:20260601T090000Z", "END:VEVENT"]

    // MARK: - Not iCalendar at all

    @Test func emptyInput() throws {
        let error = try #require(failure([UInt8]()))
        #expect(error.line == 1)
        #expect(error.message.contains("empty"), "\(error)")
    }

    @Test func byteOrderMarkOnly() throws {
        let error = try #require(failure([0xEF, 0xBB, 0xBF]))
        #expect(error.line == 1)
        #expect(error.message.contains("empty"), "\(error)")
    }

    @Test func whitespaceOnly() throws {
        for text in ["\r\n\r\n\r\n", "   \r\n", "\t\n \n", " "] {
            let error = try #require(failure(text))
            #expect(error.line == 1, "\(text.debugDescription): \(error)")
            #expect(error.message.contains("empty"), "\(text.debugDescription): \(error)")
        }
    }

    @Test func binaryWithNulByte() throws {
        // In the property name: a NUL in a value is padding, removed (ImportFidelityTests).
        let bytes = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-A".utf8) + [0] + Array(":bc\r\nEND:VCALENDAR\r\n".utf8)
        let error = try #require(failure(bytes))
        #expect(error.line == 3)
        #expect(error.message.contains("binary"), "\(error)")
    }

    @Test func binaryFileHeader() throws {
        // A PNG signature and a gzip header.
        for bytes: [UInt8] in [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D],
                               [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]] {
            let error = try #require(failure(bytes))
            #expect(error.line == 1, "\(error)")
            #expect(error.message.contains("binary") || error.message.contains("not an iCalendar file"), "\(error)")
        }
    }

    @Test func plainText() throws {
        let error = try #require(failure("Dear team,\nthe meeting moves to Tuesday.\n"))
        #expect(error.line == 1)
        #expect(error.message.contains("not an iCalendar file"), "\(error)")
        // Looks like a content line, but there is no VCALENDAR.
        let colon = try #require(failure("Subject: lunch\r\n"))
        #expect(colon.line == 1)
        #expect(colon.message.contains("not an iCalendar file"), "\(colon)")
    }

    @Test func json() throws {
        let error = try #require(failure("{\"events\": [{\"start\": \"2026-06-01\"}]}\n"))
        #expect(error.line == 1)
        #expect(error.message.contains("not an iCalendar file"), "\(error)")
    }

    @Test func html() throws {
        let error = try #require(failure("<!DOCTYPE html>\n<html><body>Calendar</body></html>\n"))
        #expect(error.line == 1)
        #expect(error.message.contains("not an iCalendar file"), "\(error)")
    }

    @Test func vcardIsNotICalendar() throws {
        let error = try #require(failure(crlf(["BEGIN:VCARD", "VERSION:3.0", "FN:Jana", "END:VCARD"])))
        #expect(error.line == 1)
        #expect(error.message.contains("not an iCalendar file"), "\(error)")
        #expect(error.message.contains("VCARD"), "\(error)")
    }

    @Test func leadingBlankLinesThenText() throws {
        let error = try #require(failure("\r\n\r\nhello world\r\n"))
        #expect(error.line == 3)
    }

    // MARK: - Truncated and unbalanced

    @Test func truncatedInsideAnEvent() throws {
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a@x", "DTSTART:20260601T090000Z"])
        let error = try #require(failure(text))
        #expect(error.line == 5)
        #expect(error.message.contains("BEGIN:VEVENT at line 3"), "\(error)")
        #expect(error.message.contains("END:VEVENT"), "\(error)")
    }

    @Test func truncatedMidLine() throws {
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a@x"]) + "DTSTA"
        let error = try #require(failure(text))
        #expect(error.line == 5, "\(error)")
    }

    @Test func missingEndVCalendar() throws {
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0"] + minimalEvent)
        let error = try #require(failure(text))
        #expect(error.line == 7)
        #expect(error.message.contains("END:VCALENDAR"), "\(error)")
    }

    @Test func missingEndVEventBeforeEndVCalendar() throws {
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a@x", "DTSTART:20260601T090000Z", "END:VCALENDAR"])
        let error = try #require(failure(text))
        #expect(error.line == 6)
        #expect(error.message.contains("BEGIN:VEVENT at line 3"), "\(error)")
        #expect(error.message.contains("missing END:VEVENT"), "\(error)")
    }

    @Test func endNamingAnOuterComponent() throws {
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a@x", "DTSTART:20260601T090000Z",
                         "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "END:VEVENT", "END:VCALENDAR"])
        let error = try #require(failure(text))
        #expect(error.line == 9)
        #expect(error.message.contains("END:VEVENT does not match BEGIN:VALARM at line 6"), "\(error)")
    }

    @Test func endWithoutBegin() throws {
        let error = try #require(failure(crlf(["END:VCALENDAR"])))
        #expect(error.line == 1)
        #expect(error.message.contains("without a matching BEGIN"), "\(error)")
    }

    // MARK: - Broken lines

    /// docs/data-model.md: a line without ':' after a content line is a broken fold, joined to it (here
    /// it spoils the DTSTART before it, so the event is skipped, with both warnings).
    @Test func contentLineWithoutColon() throws {
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a@x", "DTSTART:20260601T090000Z",
                         "SUMMARYTeam lunch", "END:VEVENT", "END:VCALENDAR"])
        let parsed = try CalendarParser.parse(Array(text.utf8))
        #expect(parsed.events.isEmpty && parsed.skipped == 1)
        #expect(parsed.warnings.contains { $0.line == 6 && $0.message.contains("broken fold") }, "\(parsed.warnings)")
    }

    @Test func contentLineWithoutColonOrName() throws {
        // A broken fold: the continuation lost its leading space.
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a@x", "DTSTART:20260601T090000Z",
                         "DESCRIPTION:a long text that was folded", "but the fold lost its space.", "END:VEVENT", "END:VCALENDAR"])
        let parsed = try CalendarParser.parse(Array(text.utf8))
        #expect(parsed.events.count == 1)
        #expect(parsed.events.first?.text.contains("folded\r\n but the fold") == true)
        #expect(parsed.warnings.map(\.line) == [7], "\(parsed.warnings)")
    }

    /// Lines after END:VCALENDAR (a caching proxy's comment) are skipped with a warning.
    @Test func brokenLineWithoutColonAtEndOfFile() throws {
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0"] + minimalEvent + ["END:VCALENDAR", "X"])
        let parsed = try CalendarParser.parse(Array(text.utf8))
        #expect(parsed.events.count == 1)
        #expect(parsed.warnings.map(\.line) == [9], "\(parsed.warnings)")
    }

    @Test func colonInAFoldedContinuationIsAccepted() throws {
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a@x", "DTSTART:20260601T090000Z",
                         "X-LONG-PROPERTY-NAME", " :value", "END:VEVENT", "END:VCALENDAR"])
        #expect(try CalendarParser.parse(Array(text.utf8)).events.count == 1)
    }

    @Test func continuationLineAtTheVeryStart() throws {
        // White space before BEGIN:VCALENDAR is repaired; before anything else it is not iCalendar.
        let parsed = try CalendarParser.parse(Array(" BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n".utf8))
        #expect(parsed.warnings.map(\.line) == [1], "\(parsed.warnings)")
        let error = try #require(failure(" folded first line\r\nBEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"))
        #expect(error.line == 1)
        #expect(error.message.contains("continuation"), "\(error)")
    }

    @Test func invalidUTF8NamesItsLine() throws {
        var bytes = Array(crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a@x"]).utf8)
        bytes += Array("SUMMARY:Caf".utf8) + [0xE9] + Array("\r\n".utf8) // Latin-1 é
        bytes += Array(crlf(["DTSTART:20260601T090000Z", "END:VEVENT", "END:VCALENDAR"]).utf8)
        let parsed = try CalendarParser.parse(bytes)
        #expect(parsed.events.first?.summary == "Caf\u{E9}")
        #expect(parsed.warnings.map(\.line) == [5], "\(parsed.warnings)")
        #expect(parsed.warnings.first?.message.contains("UTF-8") == true)
    }

    /// Overlong forms, surrogates and code points past U+10FFFF are not UTF-8: their
    /// line is read as Windows-1252, byte by byte.
    @Test func overlongAndSurrogateUTF8AreReadAsWindows1252() throws {
        for (bad, text) in [([0xC0, 0xAF] as [UInt8], "\u{C0}\u{AF}"), ([0xED, 0xA0, 0x80], "\u{ED}\u{A0}\u{20AC}"),
                            ([0xF4, 0x90, 0x80, 0x80], "\u{F4}\u{0090}\u{20AC}\u{20AC}")] {
            let bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20260601T090000Z\r\nSUMMARY:".utf8) + bad
                + Array("\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
            let parsed = try CalendarParser.parse(bytes)
            #expect(parsed.events.first?.summary == text, "\(bad)")
            #expect(parsed.warnings.map(\.line) == [4], "\(bad): \(parsed.warnings)")
        }
    }

    @Test func nestingDeeperThanSixteen() throws {
        // VCALENDAR, VEVENT and 15 more: the 17th BEGIN is one too many.
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a@x", "DTSTART:20260601T090000Z"]
        for i in 1...15 { lines.append("BEGIN:X-LEVEL\(i)") }
        for i in (1...15).reversed() { lines.append("END:X-LEVEL\(i)") }
        lines += ["END:VEVENT", "END:VCALENDAR"]
        let error = try #require(failure(crlf(lines)))
        #expect(error.line == 20)
        #expect(error.message.contains("16"), "\(error)")
        // Sixteen levels are fine.
        var ok = lines
        ok.removeAll { $0 == "BEGIN:X-LEVEL15" || $0 == "END:X-LEVEL15" }
        #expect(try CalendarParser.parse(Array(crlf(ok).utf8)).events.count == 1)
    }

    @Test func deepNestingDoesNotRecurseForever() throws {
        var text = "BEGIN:VCALENDAR\r\n"
        for _ in 0..<100_000 { text += "BEGIN:X\r\n" }
        let error = try #require(failure(text))
        #expect(error.line == 17)
    }

    @Test func contentAfterEndVCalendar() throws {
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0"] + minimalEvent + ["END:VCALENDAR", "X-TRAILER:junk"])
        let parsed = try CalendarParser.parse(Array(text.utf8))
        #expect(parsed.events.count == 1)
        #expect(parsed.warnings.contains { $0.line == 9 && $0.message.contains("after END:VCALENDAR") }, "\(parsed.warnings)")
        // An END after the end is still refused: the calendar's structure is broken.
        let extraEnd = crlf(["BEGIN:VCALENDAR", "VERSION:2.0"] + minimalEvent + ["END:VCALENDAR", "END:VCALENDAR"])
        #expect(try #require(failure(extraEnd)).line == 9)
    }

    @Test func nestedVCalendarIsRejected() throws {
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VCALENDAR", "END:VCALENDAR", "END:VCALENDAR"])
        let error = try #require(failure(text))
        #expect(error.line == 3)
    }

    // MARK: - Accepted variants

    @Test func byteOrderMarkIsAccepted() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(crlf(["BEGIN:VCALENDAR", "VERSION:2.0"] + minimalEvent + ["END:VCALENDAR"]).utf8)
        let parsed = try CalendarParser.parse(bytes)
        #expect(parsed.events.count == 1)
        #expect(parsed.events.first?.line == 3)
    }

    @Test func lfOnlyLineEndingsAreAccepted() throws {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "X-WR-CALNAME:Work"] + minimalEvent + ["END:VCALENDAR"])
            .joined(separator: "\n") + "\n"
        let parsed = try CalendarParser.parse(Array(text.utf8))
        #expect(parsed.events.count == 1)
        #expect(parsed.events.first?.start == .utc(utcSeconds(2026, 6, 1, 9)))
        #expect(parsed.calendarName == "Work")
        // docs/data-model.md: repaired with a warning (one per file), so --strict refuses it.
        #expect(parsed.warnings.map(\.line) == [1], "\(parsed.warnings)")
    }

    @Test func noFinalLineBreakIsAccepted() throws {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0"] + minimalEvent + ["END:VCALENDAR"]).joined(separator: "\r\n")
        #expect(try CalendarParser.parse(Array(text.utf8)).events.count == 1)
    }

    @Test func foldedLinesAreJoined() throws {
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a@x", "DTSTART:20260601T090000Z",
                         "SUMMARY:Quarterly planning with", "  the whole team", "END:VEVENT", "END:VCALENDAR"])
        #expect(try CalendarParser.parse(Array(text.utf8)).events.first?.summary == "Quarterly planning with the whole team")
    }

    @Test func foldInsideAMultiByteCharacterIsAccepted() throws {
        // "Zürich": ü is C3 BC; the fold falls between the two bytes.
        var bytes = Array(crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a@x", "DTSTART:20260601T090000Z"]).utf8)
        bytes += Array("SUMMARY:Z".utf8) + [0xC3] + Array("\r\n ".utf8) + [0xBC] + Array("rich\r\n".utf8)
        bytes += Array("LOCATION:Caf".utf8) + [0xC3] + Array("\n\t".utf8) + [0xA9] + Array("\r\n".utf8) // LF and a tab
        bytes += Array("DESCRIPTION:".utf8) + [0xF0, 0x9F] + Array("\r\n ".utf8) + [0x93, 0x85] + Array("\r\n".utf8) // 📅
        bytes += Array(crlf(["END:VEVENT", "END:VCALENDAR"]).utf8)
        let parsed = try CalendarParser.parse(bytes)
        let event = try #require(parsed.events.first)
        #expect(event.summary == "Zürich")
        #expect(event.location == "Café")
        // The stored text must stay valid text (it is exported again).
        #expect(!event.text.contains("\u{FFFD}"), "stored text has replacement characters: \(event.text.debugDescription)")
        let reparsed = try CalendarParser.parse(Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + event.text + "END:VCALENDAR\r\n").utf8))
        #expect(reparsed.events.first?.summary == "Zürich")
        #expect(reparsed.events.first?.uid == event.uid)
    }

    @Test func severalCalendarsInOneFile() throws {
        let one = crlf(["BEGIN:VCALENDAR", "VERSION:2.0"] + minimalEvent + ["END:VCALENDAR"])
        let parsed = try CalendarParser.parse(Array((one + one.replacingOccurrences(of: "UID:a@x", with: "UID:b@x")).utf8))
        #expect(parsed.events.map(\.uid) == ["a@x", "b@x"])
    }

    // MARK: - Components skipped with a warning

    func calendar(_ events: [[String]]) -> String {
        crlf(["BEGIN:VCALENDAR", "VERSION:2.0"] + events.flatMap { ["BEGIN:VEVENT"] + $0 + ["END:VEVENT"] } + ["END:VCALENDAR"])
    }

    let good = ["UID:good@x", "DTSTAMP:20260101T000000Z", "DTSTART:20260601T090000Z", "SUMMARY:Good"]

    @Test func eventWithoutDtstartIsSkipped() throws {
        let parsed = try CalendarParser.parse(Array(calendar([good, ["UID:bad@x", "SUMMARY:No start"]]).utf8))
        #expect(parsed.events.map(\.uid) == ["good@x"])
        #expect(parsed.skipped == 1)
        try #require(parsed.warnings.count == 1)
        #expect(parsed.warnings[0].line == 9) // BEGIN:VEVENT of the second event
        #expect(parsed.warnings[0].message.contains("DTSTART"), "\(parsed.warnings)")
    }

    @Test func eventWithUnparseableDtstartIsSkipped() throws {
        for value in ["DTSTART:notadate", "DTSTART:20261345T250000Z", "DTSTART;VALUE=DATE:2026", "DTSTART:20260230T090000"] {
            let parsed = try CalendarParser.parse(Array(calendar([["UID:bad@x", value, "SUMMARY:Bad"], good]).utf8))
            #expect(parsed.events.map(\.uid) == ["good@x"], "\(value)")
            #expect(parsed.skipped == 1, "\(value)")
            #expect(parsed.warnings.contains { $0.line == 3 && $0.message.contains("DTSTART") }, "\(value): \(parsed.warnings)")
        }
    }

    @Test func invalidRRuleIsDroppedWithAWarningAndTheEventKept() throws {
        // Not salvaged: no FREQ, or an UNTIL that cannot be read (dropping it would make the rule endless).
        for rule in ["RRULE:FREQ=SOMETIMES", "RRULE:INTERVAL=2", "RRULE:FREQ=DAILY;UNTIL=never"] {
            let parsed = try CalendarParser.parse(Array(calendar([["UID:r@x", "DTSTART:20260601T090000Z", rule]]).utf8))
            let event = try #require(parsed.events.first, "\(rule)")
            #expect(event.rrule == nil, "\(rule): \(event.rrule ?? "")")
            #expect(parsed.skipped == 0)
            #expect(parsed.warnings.contains { $0.line == 3 && $0.message.contains("RRULE") }, "\(rule): \(parsed.warnings)")
            let occurrences = Expander.expand(parsed.series()[0].series, from: utcSeconds(2026, 1, 1), to: utcSeconds(2027, 1, 1),
                                              floatingZone: .utc, zones: ZoneRegistry.shared)
            #expect(occurrences.count == 1, "\(rule)")
        }
    }

    @Test func misspeltEndOfAnInnerComponentIsAWarning() throws {
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:t@x", "END:VTOOD"] + minimalEvent + ["END:VCALENDAR"])
        let parsed = try CalendarParser.parse(Array(text.utf8))
        #expect(parsed.events.count == 1)
        #expect(parsed.warnings.contains { $0.line == 5 })
    }

    // MARK: - Synthesized UIDs

    func uidless(_ extra: [String]) throws -> String {
        let parsed = try CalendarParser.parse(Array(calendar([["DTSTART:20260601T090000Z"] + extra]).utf8))
        return try #require(parsed.events.first).uid
    }

    @Test func missingUIDGetsAStableSynthesizedOne() throws {
        let a = try uidless(["DTSTAMP:20260101T000000Z", "SUMMARY:Lunch"])
        let b = try uidless(["DTSTAMP:20260101T000000Z", "SUMMARY:Lunch"])
        #expect(!a.isEmpty)
        #expect(a == b)
        // Exporters rewrite DTSTAMP on every export: it does not change the UID.
        #expect(try uidless(["DTSTAMP:20270505T121212Z", "SUMMARY:Lunch"]) == a)
        // Different content: a different UID.
        #expect(try uidless(["DTSTAMP:20260101T000000Z", "SUMMARY:Dinner"]) != a)
        // Line endings and folding do not matter.
        let lf = try CalendarParser.parse(Array(calendar([["DTSTART:20260601T090000Z", "DTSTAMP:20260101T000000Z", "SUMMARY:Lunch"]])
            .replacingOccurrences(of: "\r\n", with: "\n").utf8))
        #expect(lf.events.first?.uid == a)
    }

    @Test func twoUIDlessEventsInOneFileStayApart() throws {
        let parsed = try CalendarParser.parse(Array(calendar([
            ["DTSTART:20260601T090000Z", "SUMMARY:One"], ["DTSTART:20260602T090000Z", "SUMMARY:Two"],
        ]).utf8))
        #expect(parsed.events.count == 2)
        #expect(Set(parsed.events.map(\.uid)).count == 2)
        #expect(parsed.series().count == 2)
    }
}
