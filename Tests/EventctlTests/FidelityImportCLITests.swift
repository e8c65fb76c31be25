import Foundation
import Testing

/// The liberal-input rules of docs/data-model.md that accept or repair with a warning:
/// each imports with its warning, and `--strict` refuses the file (65, nothing stored).
@Suite struct FidelityImportCLITests {
    static let event = "BEGIN:VEVENT\r\nUID:a@example.com\r\nDTSTAMP:20260101T000000Z\r\n"

    /// (file name, contents, the warning's line and text).
    static let cases: [(String, String, String)] = [
        ("bare.ics", event + "DTSTART:20261201T100000Z\r\nEND:VEVENT\r\n",
         ":1: warning: VEVENT with no VCALENDAR around it; read as if in one"),
        ("nul.ics", calendar("UID:a\nDTSTART;TZID=Europe/Stockholm:20261201T100000\nSUMMARY:Padded\u{0}\u{0}\u{0}"),
         ":7: warning: NUL bytes inside a property value; removed"),
        ("unknown.ics", calendar("UID:a\nDTSTART;TZID=Mars Standard Time:20261201T100000"),
         ":4: warning: unknown time zone \"Mars Standard Time\"; its times are read as floating times"),
        ("until.ics", calendar("UID:a\nDTSTART;VALUE=DATE:20210101\nRRULE:FREQ=DAILY;UNTIL=20210701T220000Z"),
         ":4: warning: UTC UNTIL on an all-day series; the series ends on its date in UTC, that date included"),
        ("exdate.ics", calendar("UID:a\nDTSTART:19960401T010000\nRRULE:FREQ=DAILY;COUNT=5\nEXDATE:19960402T010000Z"),
         ":4: warning: floating DTSTART with an EXDATE in UTC; the series is read in UTC"),
    ]

    @Test(arguments: 0..<cases.count) func warnsAndStrictRefuses(_ index: Int) throws {
        let (name, contents, warning) = Self.cases[index]
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        let path = cli.file(name, contents)
        let strict = try cli.run(["import", path, "--strict"])
        #expect(strict.status == 65, "\(name): \(strict.stderr)")
        #expect(strict.stderr.contains(warning.replacingOccurrences(of: "warning: ", with: "")), "\(name): \(strict.stderr)")
        #expect(try cli.run(["calendars", "--json"]).stdout.contains("\"calendars\":[]"))
        let lenient = try cli.run(["import", path])
        #expect(lenient.status == 0, "\(name): \(lenient.stderr)")
        #expect(lenient.stdout.contains("1 added"), "\(name): \(lenient.stdout)")
        #expect(lenient.stderr == "eventctl: \(path)\(warning)\n", "\(name): \(lenient.stderr)")
    }
}
