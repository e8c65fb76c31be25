import Foundation
import Testing
import TestSupport

/// `eventctl export` is one standard document (RFC 5545): one VCALENDAR, a VTIMEZONE for
/// every TZID it uses, and the same agenda when imported elsewhere; a second parser
/// (python icalendar, in `.venv`) agrees.
@Suite struct ExportCLITests {
    static let samples = ["team", "outlook", "google", "holidays", "conference", "trip"]
    static let venvPython = Products.repositoryRoot.appendingPathComponent(".venv/bin/python").path
    static var hasICalendar: Bool {
        FileManager.default.isExecutableFile(atPath: venvPython)
            && ((try? ChildProcess.runBlocking(venvPython, ["-c", "import icalendar"]))?.succeeded ?? false)
    }

    /// The TZID parameters of a document's content lines (unfolded).
    static func usedTZIDs(_ text: String) -> Set<String> {
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n\t", with: "")
        var used = Set<String>()
        for line in unfolded.components(separatedBy: "\r\n") where !line.hasPrefix("TZID:") {
            guard let range = line.range(of: ";TZID=") else { continue }
            var value = line[range.upperBound...]
            if value.first == "\"" {
                value = value.dropFirst().prefix { $0 != "\"" }
            } else {
                value = value.prefix { $0 != ";" && $0 != ":" }
            }
            used.insert(String(value))
        }
        return used
    }

    static func definedTZIDs(_ text: String) -> Set<String> {
        Set(text.components(separatedBy: "\r\n").filter { $0.hasPrefix("TZID:") }.map { String($0.dropFirst(5)) })
    }

    /// The agenda's items as (start, end, summary, all-day), in order, over ten weeks.
    static func agenda(_ cli: CLIRunner, _ extra: [String] = []) throws -> [String] {
        let r = try cli.run(["agenda", "--json", "--from", "2026-11-23", "--days", "70", "--tz", "Europe/Berlin"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        var items: [String] = []
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        for section in json?["sections"] as? [[String: Any]] ?? [] {
            for item in section["items"] as? [[String: Any]] ?? [] {
                items.append(["start", "end", "summary", "all_day"].map { "\(item[$0] ?? "-")" }.joined(separator: " | "))
            }
        }
        return items
    }

    @Test func oneCalendarWithEveryZoneGivesTheSameAgendaElsewhere() throws {
        let here = CLIRunner(), there = CLIRunner()
        defer { here.cleanUp(); there.cleanUp() }
        for name in Self.samples { #expect(try here.run(["import", here.sample("\(name).ics")]).status == 0) }

        let all = try here.run(["export"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.components(separatedBy: "BEGIN:VCALENDAR").count == 2, "one VCALENDAR")
        #expect(all.stdout.hasSuffix("END:VCALENDAR\r\n"))
        let missing = Self.usedTZIDs(all.stdout).subtracting(Self.definedTZIDs(all.stdout))
        #expect(missing.isEmpty, "TZIDs without a VTIMEZONE: \(missing.sorted())")
        #expect(Self.usedTZIDs(all.stdout).contains("W. Europe Standard Time"))

        // team.ics names Europe/Berlin 39 times: its VTIMEZONE is there, once.
        let team = try here.run(["export", "--calendar", "team"])
        #expect(team.stdout.components(separatedBy: "BEGIN:VCALENDAR").count == 2)
        #expect(team.stdout.components(separatedBy: "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n").count == 2)
        #expect(Self.usedTZIDs(team.stdout).subtracting(Self.definedTZIDs(team.stdout)).isEmpty)

        // Elsewhere: the whole export as one calendar, and team's as team.
        let path = there.file("all.ics", all.stdout)
        let imported = try there.run(["import", path, "--calendar", "all"])
        #expect(imported.status == 0 && !imported.stdout.contains(" 0 added"), "\(imported.stdout)\(imported.stderr)")
        #expect(try Self.agenda(there) == Self.agenda(here))
        #expect(try there.run(["import", there.file("team.ics", team.stdout)]).status == 0)
        #expect(try Self.agenda(there, ["--calendar", "team"]) == Self.agenda(here, ["--calendar", "team"]))

        // Into the same calendars: nothing changes.
        for name in Self.samples {
            let exported = try here.run(["export", "--calendar", name])
            let again = try here.run(["import", here.file("\(name)-export.ics", exported.stdout), "--calendar", name])
            #expect(again.stdout.contains(": 0 added, 0 updated, 0 removed"), "\(name): \(again.stdout)")
        }
    }

    @Test(.enabled(if: ExportCLITests.hasICalendar, "needs python icalendar in .venv (make venv)"))
    func pythonICalendarReadsOneCalendarWithEveryZoneDefined() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        for name in Self.samples { #expect(try cli.run(["import", cli.sample("\(name).ics")]).status == 0) }
        let all = try cli.run(["export"])
        let path = cli.file("all.ics", all.stdout)
        let r = try ChildProcess.runBlocking(Self.venvPython, ["-c", """
            import sys, icalendar
            calendars = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read(), multiple=True)
            assert len(calendars) == 1, f"{len(calendars)} VCALENDARs"
            calendar = calendars[0]
            defined = {str(z["TZID"]) for z in calendar.walk("VTIMEZONE")}
            used, aware = set(), 0
            for event in calendar.walk("VEVENT"):
                for key in ("DTSTART", "DTEND", "RECURRENCE-ID", "RDATE", "EXDATE"):
                    values = event.get(key)
                    for value in values if isinstance(values, list) else [values]:
                        if value is not None and "TZID" in value.params:
                            used.add(str(value.params["TZID"]))
                if "TZID" in event["DTSTART"].params:
                    start = event.decoded("DTSTART")
                    assert start.tzinfo is not None and start.utcoffset() is not None, event["UID"]
                    aware += 1
            assert used <= defined, f"no VTIMEZONE for {sorted(used - defined)}"
            print(len(calendar.walk("VEVENT")), len(used), aware)
            """, path])
        #expect(r.succeeded, "\(r.stdout)\(r.stderr)")
        let counts = r.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(counts.count == 3 && counts[0] > 50 && counts[1] >= 4 && counts[2] > 10, "\(r.stdout)")
    }
}
