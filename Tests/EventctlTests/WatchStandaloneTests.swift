import Testing
import Foundation
import TestSupport

/// `eventctl watch` without eventd: the agenda from the database at once, then live by
/// itself once eventd starts.
@Suite(.enabled(if: PseudoTerminal.isAvailable, "pyte is not installed in .venv (make venv)")) struct WatchStandaloneTests {
    func watch(_ daemon: DaemonHarness) throws -> PseudoTerminal {
        try daemon.watch()
    }

    @Test func theDatabaseShowsUntilEventdStartsThenItGoesLive() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(icsCalendar(WatchCLITests.week))
            let terminal = try watch(daemon)
            defer { terminal.close() }
            let local = try terminal.wait(for: "not running", timeout: 3)
            #expect(local.ok, "no word of eventd not running within 3 s:\n\(local.text)")
            let database = try terminal.quiet(300)
            for text in ["Today, Sunday 29 November", "Review", "Planning", "Tue 8 Dec", "Dentist", "Festival"] {
                #expect(database.text.contains(text), "\(text) missing:\n\(database.text)")
            }
            #expect(!database.text.contains("waiting for eventd"), "\(database.text)")
            #expect(!database.text.contains("● live"))
            // Another window is read from the database at once too.
            try terminal.type("]")
            let shifted = try terminal.wait(for: "from Mon 30 Nov", timeout: 2)
            #expect(shifted.ok, "\(shifted.text)")
            let monday = try terminal.quiet(300)
            #expect(monday.text.contains("Planning") && !monday.text.contains("Review") && monday.text.contains("not running"),
                    "\(monday.text)")
            try terminal.type("t")
            #expect(try terminal.wait(for: "Review", timeout: 2).ok)
            #expect(try terminal.quiet(300).screen == database.screen, "back at today as first shown")

            try await daemon.start()
            let live = try terminal.wait(for: "● live", timeout: 6)
            #expect(live.ok, "not live within 6 s of eventd's start:\n\(live.text)")
            let daemonCopy = try terminal.quiet(600)
            #expect(!daemonCopy.text.contains("not running"), "\(daemonCopy.text)")
            // The database's copy was the very view eventd sends: only the title changed.
            #expect(Array(daemonCopy.screen.dropFirst()) == Array(database.screen.dropFirst()),
                    "database:\n\(database.text)\neventd:\n\(daemonCopy.text)")

            var changed = WatchCLITests.week
            changed[4].summary = "Planning (imported once eventd ran)"
            try await daemon.importCalendar(icsCalendar(changed))
            let arrived = try terminal.wait(for: "Planning (imported once eventd ran)", timeout: 6)
            #expect(arrived.ok, "the import's change did not show within 6 s:\n\(arrived.text)")
            try terminal.type("q")
            let end = try terminal.send(["op": "exit", "timeout": 5])
            #expect(end.status == 0)
            #expect(!end.alternateScreen)
        }
    }
}
