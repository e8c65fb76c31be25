import Testing
import Foundation
import TestSupport

/// `eventctl watch`'s `/`: every event in the database, found far outside the window.
@Suite(.enabled(if: PseudoTerminal.isAvailable, "pyte is not installed in .venv (make venv)")) struct WatchSearchTests {
    /// 200 days after the fake Sunday (29 November 2026): Thursday 17 June 2027.
    static let events: [TestEvent] = WatchCLITests.week + [
        TestEvent("harbour", "20270617T090000Z", "20270617T100000Z", "Harbour Festival briefing", extra: ["LOCATION:Pier 9"]),
        TestEvent("ferry", "20270617T140000Z", "20270617T150000Z", "Ferry timetable"),
        TestEvent("notes", "20270301T090000Z", "20270301T093000Z", "Quarterly notes", extra: ["DESCRIPTION:bring the harbour map"]),
    ]

    @Test func slashFindsAnEvent200DaysAwayAndEnterShowsItsDate() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let terminal = try daemon.watch()
            defer { terminal.close() }
            #expect(try terminal.wait(for: "● live").ok)
            try terminal.type("/HARBOUR")
            #expect(try terminal.wait(for: "Search: HARBOUR", timeout: 2).ok)
            try terminal.type("\r")
            let found = try terminal.wait(for: "2 found", timeout: 3)
            #expect(found.ok, "\(found.text)")
            #expect(found.text.contains("Thu 17 Jun 2027") && found.text.contains("Harbour Festival briefing"), "\(found.text)")
            #expect(found.text.contains("Mon 1 Mar 2027") && found.text.contains("Quarterly notes"), "found by its description:\n\(found.text)")
            #expect(!found.text.contains("Ferry timetable"), "\(found.text)")
            // The results are in date order: March first, the cursor on it; June next.
            try terminal.type("j\r")
            let shown = try terminal.wait(for: "from Thu 17 Jun 2027", timeout: 3)
            #expect(shown.ok, "\(shown.text)")
            let day = try terminal.wait(for: "Ferry timetable", timeout: 3)
            #expect(day.ok, "the date's other events show:\n\(day.text)")
            #expect(day.text.contains("Harbour Festival briefing") && !day.text.contains("2 found"), "\(day.text)")
            #expect(!day.text.contains("Review"), "29 November is outside the window")
            try terminal.type("q")
            #expect(try terminal.send(["op": "exit", "timeout": 5]).status == 0)
        }
    }
}
