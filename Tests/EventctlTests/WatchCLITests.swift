import Testing
import Foundation
import TestSupport

/// `eventctl watch` end to end: the real eventd, the real eventctl in a pseudo-terminal,
/// and what a VT emulator (pyte) makes of the bytes it writes.
@Suite(.enabled(if: PseudoTerminal.isAvailable, "pyte is not installed in .venv (make venv)")) struct WatchCLITests {
    static let week: [TestEvent] = [
        TestEvent("fest", "20261128", "20261201", "Festival"),
        TestEvent("breakfast", "20261129T090000Z", "20261129T100000Z", "Breakfast"),
        TestEvent("standup", "20261129T113000Z", "20261129T123000Z", "Standup", extra: ["LOCATION:Room 4"]),
        TestEvent("review", "20261129T150000Z", "20261129T160000Z", "Review"),
        TestEvent("planning", "20261130T100000Z", "20261130T110000Z", "Planning"),
        TestEvent("dentist", "20261208T100000Z", "20261208T110000Z", "Dentist"),
    ]

    func watch(_ daemon: DaemonHarness, columns: Int = 100, lines: Int = 30, environment: [String: String] = [:]) throws -> PseudoTerminal {
        try daemon.watch(columns: columns, lines: lines, environment: environment)
    }

    /// A second calendar (another colour), wide characters, a week day and a date past the week.
    static let home: [TestEvent] = [
        TestEvent("gym", "20261129T180000Z", "20261129T190000Z", "Gym", extra: ["LOCATION:Studio 2"]),
        TestEvent("dinner", "20261130T190000Z", "20261130T213000Z", "Dinner with Sam", extra: ["LOCATION:Trattoria"]),
        TestEvent("kaigi", "20261201T090000Z", "20261201T100000Z", "会議: 予算レビュー", extra: ["LOCATION:東京オフィス"]),
        TestEvent("trip", "20261203", "20261206", "Trip to Lisbon"),
        TestEvent("tax", "20261210T080000Z", "20261210T083000Z", "Tax return due"),
    ]

    @Test func firstPaintRenameResizeAndQuit() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(icsCalendar(Self.week))
            try await daemon.importCalendar(icsCalendar(Self.home), file: "home.ics", calendar: "home")
            // The calendar's own colour (eventd's status), over the palette's: xterm's red.
            let coloured = try await daemon.eventctl(["calendars", "--calendar", "home", "--color", "#ff0000"])
            #expect(coloured.succeeded, "\(coloured.stderr)")
            try await daemon.start()
            let terminal = try watch(daemon)
            defer { terminal.close() }
            let first = try terminal.wait(for: "● live")
            #expect(first.ok, "\(first.text)")
            let painted = try terminal.quiet(300)
            for text in ["Today, Sunday 29 November", "Tomorrow, Monday 30 November", "Later", "── now 12:00",
                         "▶ 11:30–12:30", "all day     ●  Festival ", "Tue 8 Dec", "Room 4", "会議: 予算レビュー  東京オフィス",
                         "Dinner with Sam  Trattoria", "Thursday 3 December"] {
                #expect(painted.text.contains(text), "\(text) missing:\n\(painted.text)")
            }
            #expect(painted.alternateScreen)
            #expect(painted.cursorHidden)
            #expect(Self.colors(painted, "Dinner with Sam").contains("ff0000"), "home is not red: \(Self.colors(painted, "Dinner with Sam"))")
            #expect(!(Self.colors(painted, "Planning").contains("ff0000")), "the palette's colour for the other calendar")
            try Self.screenshot(terminal, "watch-first-paint")

            // A rename: only the row's cells (and the title's time) are written again.
            var renamed = Self.week
            renamed[3].summary = "Review moved"
            // Bounded from the import's exit: how long a debug import takes on a loaded
            // machine is not the watch's to answer for.
            try await daemon.importCalendar(icsCalendar(renamed))
            let arrived = try terminal.wait(for: "Review moved", timeout: 1.5)
            #expect(arrived.ok, "the rename did not arrive within 1.5 s:\n\(arrived.text)")
            let settled = try terminal.quiet(1_500)
            let renameBytes = settled.bytes - painted.bytes
            print("watch: first paint \(painted.bytes) bytes, the rename \(renameBytes) bytes (highlight on and off included)")
            #expect(renameBytes * 2 <= painted.bytes, "rename wrote \(renameBytes) bytes, first paint \(painted.bytes)")

            // A colour changed while watching shows by itself within 2 s of the command
            // (eventd's `calendars` message), no key pressed.
            let recoloured = try await daemon.eventctl(["calendars", "--calendar", "home", "--color", "#0000ff"])
            #expect(recoloured.succeeded, "\(recoloured.stderr)")
            let asked = monotonicNow()
            var blue = try terminal.quiet(100)
            while !Self.colors(blue, "Dinner with Sam").contains("0000ff"), monotonicNow() - asked < 2 {
                blue = try terminal.quiet(50, timeout: 1)
            }
            print("watch: recoloured \(Int((monotonicNow() - asked) * 1000)) ms after calendars --color returned")
            #expect(Self.colors(blue, "Dinner with Sam").contains("0000ff"), "home is not blue within 2 s: \(Self.colors(blue, "Dinner with Sam"))")

            let resized = try terminal.send(["op": "resize", "cols": 60, "rows": 20])
            let small = try terminal.quiet(200, after: resized.bytes, timeout: 2)
            #expect(small.screen.count == 20)
            #expect(small.screen[0].hasPrefix(" eventd watch"), "\(small.text)")
            #expect(small.screen[19].hasPrefix(" ↑↓ select"), "\(small.text)")
            #expect(small.screen[19].contains("? help") && small.screen[19].contains("q quit"), "the key line keeps help and quit:\n\(small.text)")
            #expect(small.screen.contains { $0.hasPrefix("Today, Sunday 29 November") }, "\(small.text)")
            try Self.screenshot(terminal, "watch-60x20")

            try terminal.type("q")
            let end = try terminal.send(["op": "exit", "timeout": 5])
            #expect(end.status == 0)
            #expect(!end.alternateScreen, "the alternate screen was left")
            #expect(!end.cursorHidden, "the cursor is shown again")
        }
    }

    @Test func hostileSummaryChangesNothing() async throws {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[41mRED\u{1B}[0m\u{202E}evil"
        let events = Self.week + [TestEvent("hostile", "20261129T170000Z", "20261129T180000Z", hostile)]
        try await DaemonHarness.with(running: events) { daemon in
            let terminal = try watch(daemon)
            defer { terminal.close() }
            let screen = try terminal.wait(for: "● live")
            #expect(screen.ok, "\(screen.text)")
            let after = try terminal.quiet(300)
            #expect(after.title == "", "a SUMMARY retitled the terminal")
            #expect(after.text.contains("^[]0;pwned^G^[[2J^[[41mRED^[[0m�evil"), "\(after.text)")
            #expect(after.screen[1].hasPrefix("Today, Sunday 29 November"), "the screen was cleared:\n\(after.text)")
            let row = after.json["colors"]?.arrayValue?[after.screen.firstIndex { $0.contains("RED") }!]
            let colors = Set(row?.arrayValue?.compactMap(\.stringValue) ?? [])
            #expect(!colors.contains("red"), "the summary coloured the terminal: \(colors)")
            try terminal.type("\u{3}")
            let end = try terminal.send(["op": "exit"])
            #expect(end.status == 0, "Ctrl-C quits")
            #expect(!end.alternateScreen)
            #expect(!end.cursorHidden)
        }
    }

    /// A crash (here SIGSEGV from outside) still leaves the alternate screen and shows the
    /// cursor: the handler writes terminfo's strings, then the signal takes its course.
    @Test func crashAndHangupRestoreTheTerminal() async throws {
        try await DaemonHarness.with(running: Self.week) { daemon in
            for signal: Int64 in [11, 1] {
                let terminal = try watch(daemon)
                defer { terminal.close() }
                #expect(try terminal.wait(for: "● live").ok)
                try terminal.send(["op": "signal", "signal": .int(signal)])
                let end = try terminal.send(["op": "exit", "timeout": 5])
                #expect(end.status == -Int(signal), "died of signal \(signal)")
                #expect(!end.alternateScreen, "signal \(signal) left the alternate screen on")
                #expect(!end.cursorHidden, "signal \(signal) left the cursor hidden")
            }
        }
    }

    @Test func staleWhileEventdIsDownAndChangesShowAfterItsRestart() async throws {
        try await DaemonHarness.with(running: Self.week) { daemon in
            let terminal = try watch(daemon)
            defer { terminal.close() }
            #expect(try terminal.wait(for: "● live").ok)
            _ = await daemon.stop()
            let stale = try terminal.wait(for: "stale · last update 12:00:", timeout: 5)
            #expect(stale.ok, "\(stale.text)")
            #expect(stale.text.contains("Review"), "the last state stays on screen")
            var changed = Self.week
            changed[4].summary = "Planning (changed while eventd was down)"
            try await daemon.importCalendar(icsCalendar(changed))
            try await daemon.start()
            let back = try terminal.wait(for: "Planning (changed while eventd was down)", timeout: 6)
            #expect(back.ok, "the change did not show within 6 s of the restart:\n\(back.text)")
            #expect(try terminal.wait(for: "● live", timeout: 2).ok)
            try terminal.send(["op": "signal", "signal": 15])
            let end = try terminal.send(["op": "exit", "timeout": 5])
            #expect(!end.alternateScreen, "SIGTERM left the alternate screen on")
            #expect(!end.cursorHidden)
        }
    }

    /// An unknown calendar is named as `agenda` and `subscribe` name it (exit 65, the
    /// calendars listed), before the screen is taken.
    @Test func anUnknownCalendarIsBadDataAndTheTerminalRestored() async throws {
        try await DaemonHarness.with(running: Self.week) { daemon in
            let env = daemon.daemonEnvironment(["TERM": "xterm-256color", "LANG": "C.UTF-8"])
            let terminal = try PseudoTerminal(DaemonHarness.eventctl, ["--db", daemon.dbPath, "--socket", daemon.socketPath,
                                                                       "watch", "--calendar", "nope"], environment: env)
            defer { terminal.close() }
            let end = try terminal.send(["op": "exit", "timeout": 5])
            #expect(end.status == 65)
            #expect(end.text.contains("no calendar named \"nope\" (calendars: "), "\(end.text)")
            #expect(!end.alternateScreen)
            #expect(!end.cursorHidden)
        }
    }

    @Test func notATerminalIsAUsageError() async throws {
        try await DaemonHarness.with { daemon in
            let result = try await daemon.eventctl(["watch"])
            #expect(result.exit == .exited(64), "\(result.stderr)")
            #expect(result.stderr.contains("eventctl agenda") && result.stderr.contains("eventctl subscribe"), "\(result.stderr)")
        }
    }

    /// The foreground colours (pyte's: a name, or `rrggbb` for 256 and direct colours) of
    /// the first line showing `text`.
    static func colors(_ answer: PseudoTerminal.Answer, _ text: String) -> Set<String> {
        guard let line = answer.screen.firstIndex(where: { $0.contains(text) }) else { return [] }
        return Set(answer.json["colors"]?.arrayValue?[line].arrayValue?.compactMap(\.stringValue) ?? [])
    }

    /// Draws the emulator's screen to a PNG in the temporary directory (and, with
    /// EVENTD_WATCH_SCREENSHOTS=DIR, into DIR: how README's image is made).
    static func screenshot(_ terminal: PseudoTerminal, _ name: String) throws {
        let directory = ProcessInfo.processInfo.environment["EVENTD_WATCH_SCREENSHOTS"] ?? NSTemporaryDirectory()
        let path = directory + "/" + name + ".png"
        try terminal.send(["op": "png", "path": .string(path)])
        #expect(FileManager.default.fileExists(atPath: path), "\(path)")
    }
}
