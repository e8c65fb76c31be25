import Testing
import Foundation
import TestSupport

/// `eventctl watch` with COLORTERM=truecolor: a calendar's own colour drawn as 24-bit
/// colour (pyte reports it as `rrggbb`), and without COLORTERM the nearest of xterm's 256.
@Suite(.enabled(if: PseudoTerminal.isAvailable, "pyte is not installed in .venv (make venv)")) struct WatchTrueColorTests {
    func watch(_ daemon: DaemonHarness, _ environment: [String: String]) throws -> PseudoTerminal {
        try daemon.watch(columns: 120, lines: 40, environment: environment)
    }

    @Test func colortermTruecolorDrawsTheCalendarsOwnColourExactly() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(icsCalendar(WatchCLITests.week))
            try await daemon.importCalendar(icsCalendar(WatchCLITests.home), file: "home.ics", calendar: "home")
            let coloured = try await daemon.eventctl(["calendars", "--calendar", "home", "--color", "#ff8800"])
            #expect(coloured.succeeded, "\(coloured.stderr)")
            try await daemon.start()
            for (colorterm, expected, not) in [("truecolor", "ff8800", "ff8700"), ("24bit", "ff8800", "ff8700"),
                                               ("", "ff8700", "ff8800")] {
                let terminal = try watch(daemon, colorterm.isEmpty ? [:] : ["COLORTERM": colorterm])
                defer { terminal.close() }
                #expect(try terminal.wait(for: "● live").ok)
                let painted = try terminal.quiet(300)
                let colors = WatchCLITests.colors(painted, "Dinner with Sam")
                #expect(colors.contains(expected) && !colors.contains(not), "COLORTERM=\(colorterm): \(colors)")
                #expect(painted.text.contains("Today, Sunday 29 November") && painted.text.contains("November 2026"), "\(painted.text)")
                try terminal.type("j")
                let moved = try terminal.quiet(300)
                #expect(WatchCLITests.colors(moved, "Dinner with Sam").contains(expected), "after a key: \(WatchCLITests.colors(moved, "Dinner with Sam"))")
                try terminal.type("q")
                let end = try terminal.send(["op": "exit", "timeout": 5])
                #expect(end.status == 0 && !end.alternateScreen)
            }
        }
    }
}
