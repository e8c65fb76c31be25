import Testing
import Agenda
import TestSupport

/// The human agenda shows calendar text, never a control from it: with colour on, the
/// only escapes are the formatter's own SGR codes.
@Suite struct AgendaFormatterTests {
    /// As written in the file: `\\n` is iCalendar's escaped line break.
    static let hostile = "\u{1B}[31mRed\u{1B}]0;title\u{07}\u{9B}2J\u{202E}txt.exe\tnext\\nline"

    func render(color: Bool) throws -> String {
        let s = try ScratchStore()
        try s.load([ICS.event("x@example.com", "DTSTART:20261129T100000Z", "DTEND:20261129T110000Z",
                              "SUMMARY:\(Self.hostile)", "LOCATION:\(Self.hostile)")])
        return AgendaFormatter(color: color).render(try s.build(Fixture.view("UTC")))
    }

    @Test func calendarTextIsShownWithStandIns() throws {
        let text = try render(color: false)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E })
        #expect(text.contains("^[[31mRed^[]0;title^G\u{FFFD}2J\u{FFFD}txt.exe next line"))
        // One line per item, still: the newline in the summary became a space (after
        // the zone's line and the day's header).
        #expect(text.split(separator: "\n").count == 3)
    }

    @Test func colourAddsOnlyItsOwnSGRCodes() throws {
        let text = try render(color: true)
        var scalars = Array(text.unicodeScalars)[...]
        while let escape = scalars.firstIndex(of: "\u{1B}") {
            // ESC [ digits m, and nothing else.
            var i = escape + 1
            #expect(i < scalars.endIndex && scalars[i] == "[", "an escape that is not SGR in \(text.debugDescription)")
            i += 1
            while i < scalars.endIndex, ("0"..."9").contains(scalars[i]) { i += 1 }
            #expect(i < scalars.endIndex && scalars[i] == "m", "an escape that is not SGR in \(text.debugDescription)")
            scalars = scalars[(i + 1)...]
        }
        #expect(text.contains("^[[31mRed"))
    }

    @Test func saysTheZoneAndShowsAMomentAsOneTime() throws {
        let s = try ScratchStore()
        try s.load([ICS.event("m@example.com", "DTSTART:20261129T170000Z", "DTEND:20261129T170000Z", "SUMMARY:Deadline"),
                    ICS.event("n@example.com", "DTSTART:20261129T180000Z", "DTEND:20261129T190000Z", "SUMMARY:Talk")])
        let lines = AgendaFormatter(color: false).render(try s.build(Fixture.view("Europe/Berlin"))).split(separator: "\n")
        #expect(lines.first == "Times in Europe/Berlin")
        let deadline = lines.first { $0.contains("Deadline") }.map(String.init) ?? ""
        #expect(deadline.hasPrefix("  18:00 ") && !deadline.contains("–"), "\(deadline)")
        #expect(lines.contains { $0.hasPrefix("  19:00–20:00") && $0.contains("Talk") })
    }
}
