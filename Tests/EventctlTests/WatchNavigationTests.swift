import Testing
import Foundation
import TestSupport

/// `eventctl watch`'s keys of part two in a real pseudo-terminal read through pyte: the
/// help, going to a date and moving the window, an unknown TERM.
@Suite(.enabled(if: PseudoTerminal.isAvailable, "pyte is not installed in .venv (make venv)")) struct WatchNavigationTests {
    static let events: [TestEvent] = WatchCLITests.week + [
        TestEvent("kickoff", "20270104T100000Z", "20270104T110000Z", "Kickoff 2027"),
        TestEvent("retro", "20270106T140000Z", "20270106T150000Z", "Retro in January"),
    ]

    func watch(_ daemon: DaemonHarness, term: String = "xterm-256color", _ extra: [String] = []) throws -> PseudoTerminal {
        try daemon.watch(["--tz", "UTC", "--days", "14"] + extra, columns: 80, lines: 24, environment: ["TERM": term])
    }

    /// The first line of the body that names a date or an event.
    static func firstRow(_ answer: PseudoTerminal.Answer) -> String {
        answer.screen.dropFirst().first {
            let text = $0.trimmingCharacters(in: .whitespaces)
            return !text.isEmpty && text != "Later"
        } ?? ""
    }

    @Test func helpThenGoToADateAndMoveByDaysAndWeeks() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let terminal = try watch(daemon)
            defer { terminal.close() }
            #expect(try terminal.wait(for: "● live").ok)
            let agenda = try terminal.quiet(300)
            #expect(agenda.screen.last?.contains("? help") == true && agenda.screen.last?.contains("q quit") == true, "\(agenda.text)")

            try terminal.type("?")
            let help = try terminal.wait(for: "this help", timeout: 2)
            #expect(help.ok && help.text.contains("go to date: YYYY-MM-DD"), "\(help.text)")
            #expect(!help.text.contains("Review"), "the help is drawn over the agenda")
            try terminal.type("\u{1B}")
            #expect(try terminal.wait(for: "Review", timeout: 2).ok)
            let back = try terminal.quiet(300)
            #expect(back.screen == agenda.screen, "the agenda is back as it was:\n\(back.text)")

            try terminal.type("g")
            #expect(try terminal.wait(for: "Go to:", timeout: 2).ok)
            try terminal.type("2027-01-04\r")
            let jumped = try terminal.wait(for: "Kickoff 2027", timeout: 2)
            #expect(jumped.ok, "4 January did not show within 2 s:\n\(jumped.text)")
            let first = try terminal.quiet(300)
            #expect(first.screen[0].contains("from Mon 4 Jan 2027"), "\(first.text)")
            #expect(Self.firstRow(first).contains("Mon 4 Jan 2027") && Self.firstRow(first).contains("Kickoff 2027"), "\(first.text)")
            #expect(!first.text.contains("Review"), "29 November is before the window")

            try terminal.type("]")
            let later = try terminal.wait(for: "from Tue 5 Jan 2027", timeout: 2)
            #expect(later.ok, "\(later.text)")
            let dayLater = try terminal.quiet(300)
            #expect(!dayLater.text.contains("Kickoff 2027") && dayLater.text.contains("Retro in January"), "\(dayLater.text)")
            try terminal.type("{")
            #expect(try terminal.wait(for: "from Tue 29 Dec", timeout: 2).ok)
            try terminal.type("}[")
            #expect(try terminal.wait(for: "from Mon 4 Jan 2027", timeout: 2).ok)
            #expect(try terminal.wait(for: "Kickoff 2027", timeout: 2).ok)

            try terminal.type("gsomeday\r")
            let refused = try terminal.wait(for: "invalid date 'someday'", timeout: 2)
            #expect(refused.ok, "\(refused.text)")
            try terminal.type("\u{1B}t")
            let today = try terminal.wait(for: "Review", timeout: 2)
            #expect(today.ok && !today.screen[0].contains("from"), "t brings the window back to today:\n\(today.text)")

            try terminal.type("q")
            #expect(try terminal.send(["op": "exit", "timeout": 5]).status == 0)
        }
    }

    /// `--from` words are read against today as agenda reads them (here Monday, the day
    /// after the fake Sunday), and `t` slides the window back to today.
    @Test func fromWordsStartTheWindowAndTodayBringsItBack() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let terminal = try watch(daemon, ["--from", "monday"])
            defer { terminal.close() }
            #expect(try terminal.wait(for: "● live").ok)
            let monday = try terminal.quiet(300)
            #expect(monday.screen[0].contains("from Mon 30 Nov"), "\(monday.text)")
            #expect(Self.firstRow(monday).hasPrefix("Tomorrow, Monday 30 November"), "\(monday.text)")
            #expect(!monday.text.contains("Review"), "Sunday is before the window")
            try terminal.type("t")
            let today = try terminal.wait(for: "Review", timeout: 2)
            #expect(today.ok && !today.screen[0].contains("from"), "\(today.text)")
            try terminal.type("q")
            #expect(try terminal.send(["op": "exit", "timeout": 5]).status == 0)
        }
    }

    /// Ctrl-L paints the whole screen again: text another process wrote over it goes. The
    /// mouse is reported only with --mouse.
    @Test func ctrlLClearsInjectedTextAndTheMouseIsOffUnlessAsked() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let terminal = try watch(daemon)
            defer { terminal.close() }
            #expect(try terminal.wait(for: "● live").ok)
            let clean = try terminal.quiet(300)
            #expect(!clean.mouseReporting, "mouse reporting on without --mouse")
            try terminal.inject("\u{1B}[5;20HGARBAGE-XYZ\u{1B}[12;3HMORE-JUNK")
            let dirty = try terminal.wait(for: "MORE-JUNK", timeout: 2)
            #expect(dirty.ok && dirty.text.contains("GARBAGE-XYZ"), "\(dirty.text)")
            try terminal.type("\u{0C}")
            let repainted = try terminal.quiet(300, after: dirty.bytes)
            #expect(!repainted.text.contains("GARBAGE") && !repainted.text.contains("JUNK"), "\(repainted.text)")
            #expect(repainted.screen == clean.screen, "the same screen again:\n\(repainted.text)")
            try terminal.type("q")
            #expect(try terminal.send(["op": "exit", "timeout": 5]).status == 0)

            let mouse = try watch(daemon, ["--mouse"])
            defer { mouse.close() }
            #expect(try mouse.wait(for: "● live").ok)
            #expect(try mouse.quiet(300).mouseReporting, "--mouse turns mouse reporting on")
            try mouse.type("q")
            let end = try mouse.send(["op": "exit", "timeout": 5])
            #expect(end.status == 0)
            #expect(!end.mouseReporting, "mouse reporting is off again after the watch")
        }
    }

    /// Ctrl-Z gives the terminal back and raises SIGTSTP. The emulator starts the watch in
    /// a session of its own, an orphaned process group, so the kernel drops the stop and
    /// the watch takes the terminal again at once: the same screen, every cell repainted.
    @Test func ctrlZGivesTheTerminalBackAndRepaintsWhenContinued() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let terminal = try watch(daemon)
            defer { terminal.close() }
            #expect(try terminal.wait(for: "● live").ok)
            let before = try terminal.quiet(300)
            try terminal.inject("\u{1B}[5;20HGARBAGE-XYZ")
            let dirty = try terminal.wait(for: "GARBAGE-XYZ", timeout: 2)
            #expect(dirty.ok)
            try terminal.type("\u{1A}")
            let after = try terminal.quiet(300, after: dirty.bytes)
            #expect(after.alternateScreen && after.cursorHidden, "the terminal is the watch's again")
            #expect(!after.text.contains("GARBAGE"), "every cell was painted again:\n\(after.text)")
            #expect(after.screen == before.screen, "the same screen again:\n\(after.text)")
            try terminal.type("j")
            _ = try terminal.quiet(200)
            try terminal.type("q")
            let end = try terminal.send(["op": "exit", "timeout": 5])
            #expect(end.status == 0)
            #expect(!end.alternateScreen)
        }
    }

    /// A TERM terminfo does not know is drawn as xterm-256color, and the title says so.
    @Test func anUnknownTermFallsBack() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let terminal = try watch(daemon, term: "nosuch")
            defer { terminal.close() }
            // The title says live as the subscription opens; the agenda follows with the
            // snapshot, so the screen is read once that has been drawn.
            let live = try terminal.wait(for: "Review")
            #expect(live.ok, "\(live.text)")
            #expect(live.text.contains("● live"), "\(live.text)")
            #expect(live.screen.last?.contains("TERM 'nosuch' unknown to terminfo: drawn as xterm-256color") == true, "\(live.text)")
            #expect(live.screen.last?.contains("q quit") == true, "\(live.text)")
            try terminal.type("j")
            let keyed = try terminal.quiet(300)
            #expect(!keyed.text.contains("unknown to terminfo"), "said once, until a key:\n\(keyed.text)")
            try terminal.type("q")
            let end = try terminal.send(["op": "exit", "timeout": 5])
            #expect(end.status == 0)
            #expect(!end.alternateScreen)
        }
    }
}
