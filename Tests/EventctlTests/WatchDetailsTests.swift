import Testing
import Foundation
import TestSupport

/// `eventctl watch`'s details (issue 55, item 4): wrapped and scrollable, with the
/// recurrence in words, organizer, attendees, source and the whole description, which
/// the feed's item carries only the first 1,024 bytes of.
@Suite(.enabled(if: PseudoTerminal.isAvailable, "pyte is not installed in .venv (make venv)")) struct WatchDetailsTests {
    static let title = (1...400).map { String(format: "w%03d", $0) }.joined(separator: " ") + " Omega"
    static let description = (1...400).map { "line\($0)" }.joined(separator: " ") + " FINALWORD"
    static let events: [TestEvent] = [
        TestEvent("sync", "20261130T090000Z", "20261130T100000Z", "Team sync",
                  extra: ["RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20270301T000000Z", "ORGANIZER;CN=Ana Lopez:mailto:ana@example.org",
                          "ATTENDEE;CN=Kim;PARTSTAT=ACCEPTED:mailto:kim@example.org",
                          "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:bob@example.org", "URL:https://example.org/sync"]),
        TestEvent("long", "20261130T150000Z", "20261130T160000Z", title, extra: ["DESCRIPTION:" + description]),
    ]

    @Test func detailsWrapScrollAndSayWhatTheFileSays() async throws {
        #expect(Self.title.count >= 2_000 && Self.description.utf8.count > 1_024)
        try await DaemonHarness.with(running: Self.events) { daemon in
            let terminal = try daemon.watch(["--tz", "UTC", "--days", "7"], columns: 80, lines: 24)
            defer { terminal.close() }
            #expect(try terminal.wait(for: "● live").ok)
            // The first event after now is selected: Team sync, tomorrow.
            try terminal.type("\r")
            let sync = try terminal.wait(for: "Kim <kim@example.org> (accepted)", timeout: 3)
            #expect(sync.ok, "\(sync.text)")
            for text in ["every week on Monday, until 1 March 2027", "Ana Lopez <ana@example.org>", "bob@example.org (needs-action)",
                         "imported from", "https://example.org/sync"] {
                #expect(sync.text.contains(text), "\(text) missing:\n\(sync.text)")
            }
            // The next event: its 2,000-character title wraps, nothing cut with "…".
            try terminal.type("j")
            let long = try terminal.wait(for: "w001 w002", timeout: 3)
            #expect(long.ok, "\(long.text)")
            #expect(!long.text.contains("…"), "\(long.text)")
            #expect(!long.text.contains("Omega"), "the title is longer than a screen")
            // Page by page to the end: the rest of the title, then the whole description.
            var seen = long.text
            for _ in 0..<12 where !seen.contains("FINALWORD") {
                try terminal.type("\u{1B}[6~")
                seen += try terminal.quiet(150).text
            }
            #expect(seen.contains("w400 Omega"), "the title's end never showed")
            #expect(seen.contains("line400 FINALWORD"), "the description's end (past the feed's 1,024 bytes) never showed")
            // Back to the top with Home; Esc back to the list.
            try terminal.type("\u{1B}[H")
            #expect(try terminal.wait(for: "w001 w002", timeout: 2).ok)
            try terminal.type("\u{1B}")
            let list = try terminal.wait(for: "Tomorrow, Monday 30 November", timeout: 2)
            #expect(list.ok, "\(list.text)")
            try terminal.type("q")
            #expect(try terminal.send(["op": "exit", "timeout": 5]).status == 0)
        }
    }
}
