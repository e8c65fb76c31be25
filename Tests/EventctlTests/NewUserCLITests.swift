import Foundation
import Testing
import TestSupport

/// What a new user meets first (issue 45): one answer to an unknown calendar, forgiving
/// dates, zones and command names, a readable calendar list, a notice for a second file
/// in a calendar, and `subscribe --format pretty` that names what it deletes.
@Suite struct NewUserCLITests {
    static let now = ["EVENTD_FAKE_NOW": "2026-11-29T12:00:00Z"]   // a Sunday

    @Test func anUnknownCalendarIs65InEveryCommandAndNamesTheKnownOnes() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        try cli.run(["import", cli.sample("team.ics")])
        try cli.run(["import", cli.sample("holidays.ics")])
        for args in [["agenda", "--calendar", "nosuch"], ["export", "--calendar", "nosuch"], ["remove", "--calendar", "nosuch"],
                     ["subscribe", "--calendar", "nosuch"], ["remind", "--calendar", "nosuch"],
                     ["agenda", "--calendar", "team", "--calendar", "nosuch"]] {
            let r = try cli.run(args)
            #expect(r.status == 65, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.hasPrefix("eventctl: no calendar named \"nosuch\"") && r.stderr.contains("calendars: holidays, team"),
                    "\(args): \(r.stderr)")
        }
    }

    @Test func datesAreReadAsPeopleWriteThem() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        try cli.run(["import", cli.sample("team.ics")])
        for (word, date) in [("today", "2026-11-29"), ("tomorrow", "2026-11-30"), ("yesterday", "2026-11-28"),
                             ("friday", "2026-12-04"), ("Sun", "2026-11-29"), ("+3d", "2026-12-02"), ("-1w", "2026-11-22"),
                             ("2026-12-24", "2026-12-24")] {
            let r = try cli.run(["agenda", "--json", "--tz", "UTC", "--from", word], extraEnvironment: Self.now)
            #expect(r.status == 0, "\(word): \(r.stderr)")
            #expect(r.stdout.contains("\"from\":\"\(date)\""), "\(word): \(r.stdout.prefix(200))")
        }
        let bad = try cli.run(["agenda", "--from", "someday"])
        #expect(bad.status == 64 && bad.stderr.contains("today, tomorrow"), "\(bad.stderr)")
    }

    @Test func zonesInAnyCaseAndEveryNameTheImporterReads() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        try cli.run(["import", cli.sample("team.ics")])
        for (given, zone) in [("europe/berlin", "Europe/Berlin"), ("W. Europe Standard Time", "Europe/Berlin"),
                              ("w. europe standard time", "Europe/Berlin"), ("AMERICA/NEW_YORK", "America/New_York"),
                              ("Pacific Standard Time", "America/Los_Angeles")] {
            let r = try cli.run(["agenda", "--json", "--tz", given], extraEnvironment: Self.now)
            #expect(r.status == 0, "\(given): \(r.stderr)")
            #expect(r.stdout.contains("\"tz\":\"\(zone)\""), "\(given): \(r.stdout.prefix(200))")
        }
        let text = try cli.run(["agenda", "--tz", "europe/berlin"], extraEnvironment: Self.now)
        #expect(text.stdout.hasPrefix("Times in Europe/Berlin\n"), "\(text.stdout)")
        #expect(try cli.run(["agenda", "--tz", "Mars/Olympus"]).status == 64)
    }

    @Test func aMistypedCommandOrOptionGetsTheNearestOne() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let improt = try cli.run(["improt", "x.ics"])
        #expect(improt.status == 64 && improt.stderr.contains("did you mean 'import'?"), "\(improt.stderr)")
        let calendar = try cli.run(["calendras"])
        #expect(calendar.status == 64 && calendar.stderr.contains("did you mean 'calendars'?"), "\(calendar.stderr)")
        let days = try cli.run(["agenda", "--dyas", "3"])
        #expect(days.status == 64 && days.stderr.contains("did you mean '--days'?"), "\(days.stderr)")
        let far = try cli.run(["frobnicate"])
        #expect(far.status == 64 && !far.stderr.contains("did you mean"), "\(far.stderr)")
    }

    @Test func aVdirIsListedAsItsDirectoryAndACount() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let directory = cli.directory.appendingPathComponent("vdir").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var files: [String] = []
        for n in 0..<40 {
            let path = directory + "/event-\(n).ics"
            try icsCalendar([TestEvent("e\(n)@vdir", "20261201T0900\(String(format: "%02d", n % 60))Z", nil, "E \(n)")])
                .write(toFile: path, atomically: true, encoding: .utf8)
            files.append(path)
        }
        #expect(try cli.run(["import", "--calendar", "many"] + files).status == 0)
        try cli.run(["import", cli.sample("team.ics")])
        let list = try cli.run(["calendars"])
        let line = list.stdout.split(separator: "\n").first { $0.hasPrefix("many") }.map(String.init) ?? ""
        #expect(line.hasSuffix("\(directory)/ (40 files)"), "\(line)")
        #expect(list.stdout.contains(cli.sample("team.ics")))
        let json = try cli.run(["calendars", "--json"])
        #expect(json.stdout.contains(files[39]), "--json lists every file")
    }

    @Test func aSecondFileInACalendarGetsANoticeNamingTheFirstAndReplace() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let first = cli.file("team.ics", calendar(event("a@x", "20261201T090000Z", "A")))
        let second = cli.file("team-changed.ics", calendar(event("a@x", "20261201T090000Z", "A moved"), event("b@x", "20261202T090000Z", "B")))
        #expect(try cli.run(["import", first]).stderr.isEmpty)
        let r = try cli.run(["import", second, "--calendar", "team"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("notice: calendar team also holds the events of \(first)") && r.stderr.contains("--replace"), "\(r.stderr)")
        // Again the same file: the notice again, for the other one is still there.
        #expect(try cli.run(["import", second, "--calendar", "team"]).stderr.contains("notice:"))
        // With --replace the calendar is this file's alone, and nothing is said.
        let replaced = try cli.run(["import", second, "--calendar", "team", "--replace"])
        #expect(replaced.status == 0 && replaced.stderr.isEmpty, "\(replaced.stderr)")
        #expect(try cli.run(["import", second, "--calendar", "team"]).stderr.isEmpty)
    }

    @Test func eventdWebSaysWhereItsTokenIsAlsoWithoutXDGRuntimeDir() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let runtime = cli.directory.appendingPathComponent("runtime").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let fallback = URL(fileURLWithPath: "/tmp/eventd-web-\(getuid())").resolvingSymlinksInPath().path
        for (environment, directory) in [(["XDG_RUNTIME_DIR": runtime], runtime + "/eventd-web"), ([:], fallback)] {
            var env = ChildProcess.isolatedEnvironment(environment)
            env["XDG_RUNTIME_DIR"] = environment["XDG_RUNTIME_DIR"]
            let output = cli.directory.appendingPathComponent("web-\(environment.count).out").path
            let pid = try ChildProcess.spawn(Products.path("eventd-web"),
                                             ["--listen", "unix:" + cli.directory.appendingPathComponent("web-\(environment.count).sock").path,
                                              "--socket", cli.directory.appendingPathComponent("feed.sock").path],
                                             environment: env, stdoutPath: output, stderrPath: output + ".err")
            defer { _ = ChildProcess.killAndReap(pid) }
            let deadline = Date().addingTimeInterval(10)
            var text = ""
            while !text.contains("token file: "), Date() < deadline {
                usleep(20_000)
                text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            }
            let line = text.split(separator: "\n").first { $0.hasPrefix("token file: ") }.map(String.init) ?? ""
            #expect(line == "token file: \(directory)/token", "\(text)")
            let token = text.split(separator: "\n").first { $0.hasPrefix("dashboard: ") }?.split(separator: "?token=").last
                .map { String($0.prefix { $0.isHexDigit }) } ?? "?"
            let stored = (try? String(contentsOfFile: directory + "/token", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(stored == token, "the printed file holds the token")
        }
    }

    @Test func prettyNamesWhatADiffDeletesAndShowsContinuationsAsAgendaDoes() async throws {
        let events = [TestEvent("maint@x", "20261129T210000Z", "20261130T010000Z", "Database maintenance window"),
                      TestEvent("gone@x", "20261130T180000Z", "20261130T190000Z", "Soon cancelled")]
        try await DaemonHarness.with(running: events) { daemon in
            let output = daemon.directory + "/pretty.out"
            let child = try daemon.spawnOther(DaemonHarness.eventctl,
                                              ["--db", daemon.dbPath, "--socket", daemon.socketPath, "subscribe", "--format", "pretty",
                                               "--tz", "UTC", "--days", "7"],
                                              environment: daemon.daemonEnvironment(["NO_COLOR": "1"]), output: output)
            func text() -> String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
            var deadline = Date().addingTimeInterval(10)
            while !text().contains("= snapshot"), Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
            try await daemon.importCalendar(icsCalendar([events[0]]))
            deadline = Date().addingTimeInterval(10)
            while !text().contains("= diff"), Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
            try await Task.sleep(nanoseconds: 200_000_000)
            kill(child, SIGTERM)
            let lines = text().split(separator: "\n").map(String.init)
            #expect(lines.contains("  21:00–… Database maintenance window → (Sun 29 Nov)"), "\(lines)")
            #expect(lines.contains("  …–01:00 Database maintenance window ← (Mon 30 Nov)"), "\(lines)")
            #expect(lines.contains("- 18:00–19:00 Soon cancelled (Mon 30 Nov)"), "\(lines)")
        }
    }
}

/// A VEVENT body of one hour from `start` (UTC, basic form), for `calendar(_:)`.
private func event(_ uid: String, _ start: String, _ summary: String) -> String {
    "UID:\(uid)\nDTSTAMP:20261101T000000Z\nDTSTART:\(start)\nDURATION:PT1H\nSUMMARY:\(summary)"
}
