import Foundation
import Testing

@Suite struct ImportCLITests {
    /// Writes `contents` to `name` in `cli`'s directory and imports it alone: refused
    /// (65). Returns the file's path and eventctl's standard error.
    func refusedImport(_ cli: CLIRunner, _ name: String, _ contents: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> (path: String, stderr: String) {
        let path = cli.file(name, contents)
        let r = try cli.run(["import", path])
        #expect(r.status == 65, "\(name): \(r.stderr)", sourceLocation: sourceLocation)
        return (path, r.stderr)
    }

    @Test func importsAndReimportsIdempotently() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let first = try cli.run(["import", cli.sample("team.ics")])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("team.ics: 14 added, 0 updated, 0 removed, 0 skipped"))
        let again = try cli.run(["import", cli.sample("team.ics")])
        #expect(again.status == 0)
        #expect(again.stdout.contains("0 added, 0 updated, 0 removed, 0 skipped"))
    }

    @Test func notICalendarExits65WithFileAndLine() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let (path, stderr) = try refusedImport(cli, "notes.ics", "Shopping list\nmilk\n")
        #expect(stderr.hasPrefix("eventctl: \(path):1: not an iCalendar file"))
        let listing = try cli.run(["calendars"])
        #expect(listing.status == 66 || listing.stdout.contains("no calendars"))
    }

    @Test func truncatedFileExits65() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let cut = try refusedImport(cli, "cut.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20261201T100000Z\r\n")
        #expect(cut.stderr.contains("cut.ics:5: unexpected end of file"))
    }

    @Test func binaryAndEmptyFilesExit65() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        _ = try refusedImport(cli, "empty.ics", "")
        let binaryURL = cli.directory.appendingPathComponent("blob.ics")
        try Data([0x42, 0x45, 0x00, 0xFF, 0x10]).write(to: binaryURL)
        let r = try cli.run(["import", binaryURL.path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("blob.ics:1:"))
    }

    @Test func missingFileExits66AndUsageErrorsExit64() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let missing = try cli.run(["import", "/nonexistent/x.ics"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "eventctl: /nonexistent/x.ics: no such file\n")
        let noArgs = try cli.run(["import"])
        #expect(noArgs.status == 64)
        #expect(noArgs.stderr.hasPrefix("eventctl: missing <file>"))
        let unknown = try cli.run(["import", "--frobnicate", "x.ics"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown option '--frobnicate'"))
        #expect(try cli.run(["bogus"]).status == 64)
        let badName = try cli.run(["import", cli.sample("team.ics"), "--calendar", "no spaces allowed"])
        #expect(badName.status == 64)
    }

    @Test func allFilesOrNone() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let bad = cli.file("bad.ics", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VCALENDAR\r\n")
        let r = try cli.run(["import", cli.sample("team.ics"), bad])
        #expect(r.status == 65)
        #expect(r.stderr.contains("bad.ics:3: END:VCALENDAR does not match BEGIN:VEVENT"))
        let list = try cli.run(["calendars", "--json"])
        #expect(list.stdout.contains("\"calendars\":[]"))
    }

    @Test func skippedComponentsWarnAndStrictFails() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let path = cli.file("mixed.ics", calendar("UID:ok\nDTSTART:20261201T100000Z\nSUMMARY:Fine",
                                                  "UID:broken\nSUMMARY:No start"))
        let strict = try cli.run(["import", path, "--strict"])
        #expect(strict.status == 65)
        #expect(strict.stderr.contains("mixed.ics:9: VEVENT has no usable DTSTART"))
        #expect(try cli.run(["calendars", "--json"]).stdout.contains("\"calendars\":[]"))
        let lenient = try cli.run(["import", path])
        #expect(lenient.status == 0)
        #expect(lenient.stdout.contains("1 added, 0 updated, 0 removed, 1 skipped"))
        #expect(lenient.stderr.contains("eventctl: \(path):9: warning: VEVENT has no usable DTSTART"))
    }

    @Test func standardInputAndJSON() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let text = calendar("UID:x\nDTSTART:20261201T100000Z\nSUMMARY:From stdin")
        let r = try cli.run(["import", "-", "--calendar", "phone", "--json"], stdin: Data(text.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let files = json?["files"] as? [[String: Any]]
        #expect(files?.first?["added"] as? Int == 1)
        #expect(files?.first?["calendar"] as? String == "phone")
        #expect(files?.first?["file"] as? String == "<stdin>")
    }

    @Test func syncRemovesWhatTheFileDropped() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let path = cli.file("s.ics", calendar("UID:a\nDTSTART:20261201T100000Z", "UID:b\nDTSTART:20261202T100000Z"))
        #expect(try cli.run(["import", path]).status == 0)
        _ = cli.file("s.ics", calendar("UID:a\nDTSTART:20261201T110000Z"))
        let r = try cli.run(["import", path])
        #expect(r.stdout.contains("0 added, 1 updated, 1 removed, 0 skipped"))
    }

    @Test func exportRoundTripsAndRemoveDeletes() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        for name in ["team.ics", "google.ics", "outlook.ics"] {
            #expect(try cli.run(["import", cli.sample(name)]).status == 0)
        }
        for name in ["team", "google", "outlook"] {
            let exported = try cli.run(["export", "--calendar", name])
            #expect(exported.status == 0)
            let path = cli.file("\(name)-export.ics", exported.stdout)
            let again = try cli.run(["import", path, "--calendar", name])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("0 added, 0 updated, 0 removed, 0 skipped"), "\(name): \(again.stdout)")
        }
        let removed = try cli.run(["remove", "--calendar", "team"])
        #expect(removed.status == 0)
        #expect(removed.stdout.contains("removed calendar team (14 events)"))
        #expect(try cli.run(["remove", "--calendar", "team"]).status == 65)
    }

    @Test func missingDatabaseIsExplained() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let r = try cli.run(["calendars"])
        #expect(r.status == 66)
        #expect(r.stderr == "eventctl: no database at \(cli.database); import a calendar first with `eventctl import FILE`\n")
    }
}
