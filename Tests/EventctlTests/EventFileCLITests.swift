import Foundation
import Testing
import TestSupport

/// `eventctl new`, `edit` and `delete` on a vdir calendar, without a daemon (the source
/// is synchronised in-process, so `agenda` shows each change at once).
@Suite struct EventFileCLITests {
    /// A runner with a vdir source `personal` holding `lunch@vdir`, and an imported `work`.
    static func setUp() throws -> (CLIRunner, String) {
        var cli = CLIRunner()
        cli.environment["EVENTD_FAKE_NOW"] = "2026-11-29T12:00:00Z"
        cli.environment["TZ"] = "Europe/Berlin"
        let vdir = cli.directory.appendingPathComponent("personal").path
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        _ = cli.file("personal/lunch.ics", icsCalendar([TestEvent("lunch@vdir", "20261130T110000Z", "20261130T120000Z", "Lunch")]))
        #expect(try cli.run(["source", "add", vdir]).status == 0)
        let work = cli.file("work.ics", icsCalendar([TestEvent("review@work", "20261130T150000Z", "20261130T160000Z", "Review")]))
        #expect(try cli.run(["import", work, "--calendar", "work"]).status == 0)
        return (cli, vdir)
    }

    @Test func newWritesOneValidFileAndPrintsItsUID() throws {
        let (cli, vdir) = try Self.setUp()
        defer { cli.cleanUp() }
        let new = try cli.run(["new", "--calendar", "personal", "--summary", "Lunch with Kim", "--start", "tomorrow 12:30",
                               "--duration", "45m", "--location", "Kim's place"])
        #expect(new.status == 0, "\(new.stderr)")
        let uid = new.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let text = try String(contentsOfFile: vdir + "/\(uid).ics", encoding: .utf8)
        #expect(text.contains("DTSTART;TZID=Europe/Berlin:20261130T123000\r\nDTEND;TZID=Europe/Berlin:20261130T131500\r\n"), "\(text)")
        let agenda = try cli.run(["agenda", "--days", "3", "--tz", "Europe/Berlin"]).stdout
        #expect(agenda.contains("12:30–13:15") && agenda.contains("Lunch with Kim"), "\(agenda)")
        // All day: --end is the last day.
        let holiday = try cli.run(["new", "--calendar", "personal", "--summary", "Holiday", "--start", "2027-08-02", "--end", "2027-08-04"])
        let holidayText = try String(contentsOfFile: vdir + "/\(holiday.stdout.trimmingCharacters(in: .whitespacesAndNewlines)).ics", encoding: .utf8)
        #expect(holidayText.contains("DTSTART;VALUE=DATE:20270802\r\nDTEND;VALUE=DATE:20270805\r\n"), "\(holidayText)")
    }

    @Test func usageErrorsExit64AndReadOnlyCalendarsExit65() throws {
        let (cli, vdir) = try Self.setUp()
        defer { cli.cleanUp() }
        for arguments in [["new", "--calendar", "personal", "--start", "today"],
                          ["new", "--calendar", "personal", "--summary", "x", "--start", "someday 12:30"],
                          ["new", "--calendar", "personal", "--summary", "x", "--start", "today 10:00", "--end", "11:00", "--duration", "1h"],
                          ["edit"], ["delete", "a", "b"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
        let imported = try cli.run(["delete", "review@work"])
        #expect(imported.status == 65 && imported.stderr.contains("read-only: calendar work was imported"), "\(imported.stderr)")
        let editImported = try cli.run(["edit", "review@work"], extraEnvironment: ["EDITOR": "true"])
        #expect(editImported.status == 65 && editImported.stderr.contains("read-only"), "\(editImported.stderr)")
        let notVdir = try cli.run(["new", "--calendar", "work", "--summary", "x", "--start", "today 10:00"])
        #expect(notVdir.status == 65 && notVdir.stderr.contains("not a vdir"), "\(notVdir.stderr)")
        #expect(try cli.run(["delete", "nosuch@uid"]).status == 65)
        #expect(FileManager.default.fileExists(atPath: vdir + "/lunch.ics"))
    }

    @Test func editWritesTheEditorsResultBackAndDeleteRemovesTheFile() throws {
        let (cli, vdir) = try Self.setUp()
        defer { cli.cleanUp() }
        let editor = cli.file("editor.sh", "#!/bin/sh\nsed -i 's/^SUMMARY:Lunch/SUMMARY:Brunch/' \"$1\"\n")
        chmod(editor, 0o755)
        let edit = try cli.run(["edit", "lunch@vdir"], extraEnvironment: ["EDITOR": editor, "VISUAL": ""])
        #expect(edit.status == 0 && edit.stdout.contains("saved " + vdir + "/lunch.ics"), "\(edit.stdout)\(edit.stderr)")
        #expect(try cli.run(["agenda", "--days", "3"]).stdout.contains("Brunch"))
        // An editor that breaks the file: nothing written, exit 65, the text kept.
        let breaking = cli.file("break.sh", "#!/bin/sh\necho garbage > \"$1\"\n")
        chmod(breaking, 0o755)
        let broken = try cli.run(["edit", "lunch@vdir"], extraEnvironment: ["EDITOR": breaking, "VISUAL": ""])
        #expect(broken.status == 65 && broken.stderr.contains("your text is in"), "\(broken.stderr)")
        #expect(try String(contentsOfFile: vdir + "/lunch.ics", encoding: .utf8).contains("SUMMARY:Brunch"))
        let delete = try cli.run(["delete", "lunch@vdir"])
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(!FileManager.default.fileExists(atPath: vdir + "/lunch.ics"))
        #expect(!(try cli.run(["agenda", "--days", "3"]).stdout.contains("Brunch")))
    }
}
