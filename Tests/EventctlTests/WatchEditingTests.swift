import Testing
import Foundation
import TestSupport

/// watch's n, e and d on a vdir calendar (issue 55, item 8), in a real pseudo-terminal
/// read through pyte, with EDITOR a script: each change reaches the vdir's files and the
/// screen within 2 s of the editor exiting (or of `y`); imported calendars are read-only.
@Suite(.enabled(if: PseudoTerminal.isAvailable, "pyte is not installed in .venv (make venv)")) struct WatchEditingTests {
    /// An EDITOR that renames the Lunch (an edit) and titles the template (a new event).
    static func editor(_ daemon: DaemonHarness) throws -> String {
        let path = daemon.directory + "/editor.sh"
        try """
        #!/bin/sh
        sed -i -e 's/^SUMMARY:Lunch\r$/SUMMARY:Lunch moved\r/' -e 's/^SUMMARY:New event\r$/SUMMARY:Written in watch\r/' "$1"
        """.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// A vdir `personal` holding one event, Lunch today (the fake Sunday) at 14:00 UTC,
    /// added as a source.
    static func vdir(_ daemon: DaemonHarness) async throws -> String {
        let vdir = daemon.directory + "/personal"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try icsCalendar([TestEvent("lunch@vdir", "20261129T140000Z", "20261129T150000Z", "Lunch")])
            .write(toFile: vdir + "/lunch.ics", atomically: true, encoding: .utf8)
        let add = try await daemon.eventctl(["source", "add", vdir])
        #expect(add.succeeded, "\(add.stderr)")
        return vdir
    }

    static func watch(_ daemon: DaemonHarness, editor: String, tz: String = "UTC") throws -> PseudoTerminal {
        try daemon.watch(["--tz", tz, "--days", "14"], environment: ["EDITOR": editor, "VISUAL": ""])
    }

    static func files(_ vdir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: vdir)) ?? []).filter { $0.hasSuffix(".ics") }.sorted()
    }

    /// Waits until the screen no longer shows `text` (at most `timeout` seconds).
    static func waitGone(_ terminal: PseudoTerminal, _ text: String, timeout: Double) throws -> PseudoTerminal.Answer {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let screen = try terminal.quiet(50, timeout: 1)
            if !screen.text.contains(text) || Date() > deadline { return screen }
        }
    }

    /// e, n, d y: the vdir's files change, and so does the screen.
    func editNewAndDelete(_ daemon: DaemonHarness, vdir: String) throws {
        let terminal = try Self.watch(daemon, editor: try Self.editor(daemon))
        defer { terminal.close() }
        #expect(try terminal.wait(for: "Lunch", timeout: 5).ok)

        try terminal.type("e")
        let edited = try terminal.wait(for: "Lunch moved", timeout: 2)
        #expect(edited.ok, "the edit did not show within 2 s:\n\(edited.text)")
        #expect(try String(contentsOfFile: vdir + "/lunch.ics", encoding: .utf8).contains("SUMMARY:Lunch moved"))
        #expect(Self.files(vdir) == ["lunch.ics"])

        try terminal.type("n")
        let created = try terminal.wait(for: "Written in watch", timeout: 2)
        #expect(created.ok, "the new event did not show within 2 s:\n\(created.text)")
        #expect(created.text.contains("13:00"), "at the next full hour:\n\(created.text)")
        let files = Self.files(vdir)
        #expect(files.count == 2, "\(files)")
        let new = try #require(files.first { $0 != "lunch.ics" })
        let text = try String(contentsOfFile: vdir + "/" + new, encoding: .utf8)
        #expect(text.contains("SUMMARY:Written in watch\r\n") && text.contains("UID:" + new.dropLast(4) + "\r\n"), "\(text)")

        // d asks; any key but y cancels.
        try terminal.type("d")
        #expect(try terminal.wait(for: "delete Lunch moved? y/n", timeout: 1.5).ok)
        try terminal.type("x")
        #expect(try terminal.wait(for: "not deleted", timeout: 1.5).ok)
        #expect(Self.files(vdir).count == 2)
        try terminal.type("d")
        #expect(try terminal.wait(for: "delete Lunch moved? y/n", timeout: 1.5).ok)
        try terminal.type("y")
        let deleted = try Self.waitGone(terminal, "Lunch moved", timeout: 2)
        #expect(!deleted.text.contains("Lunch moved") && deleted.text.contains("Written in watch"),
                "the deletion did not show within 2 s:\n\(deleted.text)")
        #expect(Self.files(vdir) == [new])
        try terminal.type("q")
        #expect(try terminal.send(["op": "exit", "timeout": 5]).status == 0)
    }

    @Test func eNAndDYChangeTheVdirAndTheScreenThroughEventd() async throws {
        try await DaemonHarness.with { daemon in
            let vdir = try await Self.vdir(daemon)
            try await daemon.start()
            try editNewAndDelete(daemon, vdir: vdir)
        }
    }

    @Test func withoutEventdTheWatchReadsTheChangeItself() async throws {
        try await DaemonHarness.with { daemon in
            let vdir = try await Self.vdir(daemon)
            try editNewAndDelete(daemon, vdir: vdir)
        }
    }

    @Test func eAndDOnAnImportedCalendarSayReadOnly() async throws {
        try await DaemonHarness.with(running: [TestEvent("review", "20261129T150000Z", "20261129T160000Z", "Review")]) { daemon in
            let terminal = try Self.watch(daemon, editor: try Self.editor(daemon))
            defer { terminal.close() }
            #expect(try terminal.wait(for: "● live").ok)
            for key in ["e", "d", "n"] {
                try terminal.type(key)
                let said = try terminal.wait(for: key == "n" ? "no vdir calendar" : "read-only", timeout: 1.5)
                #expect(said.ok, "\(key): \(said.text)")
                #expect(said.text.contains("Review") && !said.text.contains("y/n"), "\(said.text)")
            }
            #expect(try terminal.quiet(300).text.contains("Review"))
            try terminal.type("q")
            #expect(try terminal.send(["op": "exit", "timeout": 5]).status == 0)
        }
    }

    @Test func eventctlNewShowsInARunningWatch() async throws {
        try await DaemonHarness.with { daemon in
            let vdir = try await Self.vdir(daemon)
            try await daemon.start()
            let terminal = try Self.watch(daemon, editor: "true", tz: "Europe/Berlin")
            defer { terminal.close() }
            #expect(try terminal.wait(for: "Lunch", timeout: 5).ok)
            let new = try await ChildProcess.run(DaemonHarness.eventctl, [
                "--db", daemon.dbPath, "--socket", daemon.socketPath, "new", "--calendar", "personal",
                "--summary", "Lunch with Kim", "--start", "tomorrow 12:30", "--duration", "45m",
            ], environment: daemon.daemonEnvironment(["TZ": "Europe/Berlin"]))
            #expect(new.succeeded, "\(new.stderr)")
            let uid = new.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let shown = try terminal.wait(for: "Lunch with Kim", timeout: 2)
            #expect(shown.ok, "not shown within 2 s:\n\(shown.text)")
            #expect(shown.text.contains("12:30"), "\(shown.text)")
            #expect(Self.files(vdir) == ["\(uid).ics", "lunch.ics"].sorted())
            let text = try String(contentsOfFile: vdir + "/\(uid).ics", encoding: .utf8)
            for line in ["SUMMARY:Lunch with Kim", "DTSTART;TZID=Europe/Berlin:20261130T123000", "DTEND;TZID=Europe/Berlin:20261130T131500",
                         "UID:\(uid)", "TZID:Europe/Berlin", "VERSION:2.0"] {
                #expect(text.contains(line + "\r\n"), "\(line) missing:\n\(text)")
            }
            try terminal.type("q")
            #expect(try terminal.send(["op": "exit", "timeout": 5]).status == 0)
        }
    }
}
