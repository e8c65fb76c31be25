import Foundation
import ICalendar
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The limits that keep a small hostile file from costing minutes or gigabytes (each
/// found by the corpus or the fuzzer; see the report of HostileInputTests).
extension HostileInputTests {
    @Suite struct CostBounds {
        static func calendar(_ body: String) -> [UInt8] {
            Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//eventd//cost bounds//EN\r\n" + body + "END:VCALENDAR\r\n").utf8)
        }

        static func event(_ uid: String, _ lines: [String], start: String = "DTSTART:20261130T090000Z") -> String {
            "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261101T000000Z\r\n\(start)\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VEVENT\r\n"
        }

        static let window = (from: Int64(1_796_083_200), to: Int64(1_798_761_600)) // 2026-12-01 … 2027-01-01

        /// A rule that steps every second or minute and is limited by BYxxx parts makes
        /// libical test every step between instances (months of seconds for one
        /// instance). One whose instances can lie so far apart that a single gap costs too
        /// much is not kept, and the import says so.
        @Test(arguments: ["FREQ=SECONDLY;BYMONTH=2", "FREQ=SECONDLY;BYMONTHDAY=31", "FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30",
                          "FREQ=SECONDLY;BYSETPOS=1;BYHOUR=9"])
        func sparseHighFrequencyRulesAreNotExpanded(_ rule: String) throws {
            let t0 = monotonicNow()
            let parsed = try CalendarParser.parse(Self.calendar(Self.event("sparse", ["RRULE:" + rule])))
            #expect(parsed.events.count == 1)
            #expect(parsed.events.first?.rrule == nil, "the rule was kept: \(parsed.events.first?.rrule ?? "")")
            #expect(parsed.warnings.contains { $0.message.contains("too costly") }, "\(parsed.warnings)")
            // Stored rules from before are refused at expansion too.
            var master = try #require(parsed.events.first)
            master.rrule = rule
            let occurrences = Expander.expand(Series(master: master), from: Self.window.from, to: Self.window.to,
                                              floatingZone: .utc, zones: ZoneRegistry.shared)
            #expect(occurrences.isEmpty)
            #expect(monotonicNow() - t0 < 2)
        }

        /// Rules whose gaps are short are kept; what they cost depends on the window (its
        /// length, COUNT, UNTIL), so a month of seconds is refused where a day is walked.
        @Test(arguments: [("FREQ=SECONDLY;BYHOUR=2;BYMINUTE=30", 0, 60), ("FREQ=MINUTELY;BYMONTH=2;BYDAY=MO", 0, 0),
                          ("FREQ=SECONDLY;INTERVAL=60;BYHOUR=9", 60 * 31, 60), ("FREQ=MINUTELY;INTERVAL=10;BYDAY=MO,TU", 6 * 24 * 9, 6 * 24)])
        func fineRulesCostWhatTheWindowHolds(_ rule: String, _ inMonth: Int, _ onDecember1: Int) throws {
            let parsed = try CalendarParser.parse(Self.calendar(Self.event("fine", ["RRULE:" + rule])))
            let series = try #require(parsed.series().first?.series)
            #expect(parsed.events.first?.rrule != nil, "\(parsed.warnings)")
            let month = Expander.expand(series, from: Self.window.from, to: Self.window.to, floatingZone: .utc, zones: ZoneRegistry.shared)
            #expect(month.count == inMonth, "\(rule): \(month.count) in December")
            let day = Expander.expand(series, from: Self.window.from, to: Self.window.from + 86_400, floatingZone: .utc,
                                      zones: ZoneRegistry.shared)
            #expect(day.count == onDecember1, "\(rule): \(day.count) on December 1")
        }

        /// Dense fine rules and rules stepping 15 minutes or more are still expanded
        /// (counts include DTSTART, midnight, which is always an instance).
        @Test(arguments: [("FREQ=MINUTELY;INTERVAL=30", 48), ("FREQ=MINUTELY;INTERVAL=15;BYHOUR=9", 1 + 4),
                          ("FREQ=SECONDLY;INTERVAL=3600;BYHOUR=9,10", 1 + 2), ("FREQ=HOURLY;BYMONTH=12", 24),
                          ("FREQ=MINUTELY;INTERVAL=720;BYSECOND=0,30", 4)])
        func cheapRulesStillExpand(_ rule: String, _ perDay: Int) throws {
            let parsed = try CalendarParser.parse(Self.calendar(Self.event("fine", ["RRULE:" + rule], start: "DTSTART:20261201T000000Z")))
            let series = try #require(parsed.series().first?.series)
            let occurrences = Expander.expand(series, from: Self.window.from, to: Self.window.from + 86_400,
                                              floatingZone: .utc, zones: ZoneRegistry.shared)
            #expect(occurrences.count == perDay, "\(rule): \(occurrences.count) on 2026-12-01")
        }

        /// A hundred FREQ=SECONDLY RRULEs on one event share one step budget.
        @Test func manyRulesShareOneStepBudget() throws {
            let rules = (1...100).map { "RRULE:FREQ=SECONDLY;INTERVAL=\($0)" }
            let parsed = try CalendarParser.parse(Self.calendar(Self.event("many", rules)))
            let series = try #require(parsed.series().first?.series)
            let t0 = monotonicNow()
            let occurrences = Expander.expand(series, from: Self.window.from, to: Self.window.to, floatingZone: .utc,
                                              zones: ZoneRegistry.shared)
            let took = monotonicNow() - t0
            #expect(occurrences.count <= Expander.stepLimit + 1)
            #expect(took < 15, "expanding 100 SECONDLY rules took \(took) s")
            Hostile.report("manyRulesShareOneStepBudget", ["occurrences": occurrences.count, "seconds": Hostile.seconds(took)])
        }

        /// A VTIMEZONE whose observances recur more than yearly (or yearly on every day
        /// since year 1) is refused: libical would expand it change by change from its
        /// DTSTART on every conversion. The TZID is then read as if the file did not
        /// define it: here a Windows name, the system's Europe/Berlin. (A definition under a
        /// name the system knows is never read at all: the system's zone wins.)
        @Test(arguments: ["RRULE:FREQ=SECONDLY", "RRULE:FREQ=MINUTELY;INTERVAL=2", "RRULE:FREQ=DAILY", "RRULE:FREQ=MONTHLY",
                          "RRULE:FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31;BYHOUR=0,6,12,18"])
        func costlyTimeZoneDefinitionsAreRefused(_ rule: String) throws {
            let zone = "BEGIN:VTIMEZONE\r\nTZID:W. Europe Standard Time\r\nBEGIN:STANDARD\r\nDTSTART:00010101T000000\r\n"
                + "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n\(rule)\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
            let t0 = monotonicNow()
            let parsed = try CalendarParser.parse(Self.calendar(zone + Self.event("zoned", ["RRULE:FREQ=DAILY"],
                                                                                   start: "DTSTART;TZID=W. Europe Standard Time:20261201T090000")))
            #expect(parsed.warnings.contains { $0.message.contains("VTIMEZONE could not be read") }, "\(parsed.warnings)")
            let series = try #require(parsed.series().first?.series)
            let occurrences = Expander.expand(series, from: Self.window.from, to: Self.window.to, floatingZone: .utc,
                                              zones: ZoneRegistry.shared)
            // The system's Europe/Berlin: 09:00 CET is 08:00 UTC.
            let first = try #require(occurrences.first)
            #expect(first.start == Self.window.from + 8 * 3600, "\(isoSeconds(first.start))")
            #expect(monotonicNow() - t0 < 5)
        }

        /// Real-world definitions (yearly rules, Outlook's 1601 onsets) are still read.
        @Test func ordinaryTimeZoneDefinitionsAreRead() throws {
            let zone = """
                BEGIN:VTIMEZONE\r\nTZID:W. Europe Standard Time\r\nBEGIN:STANDARD\r\nDTSTART:16010101T030000\r\n\
                TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\nEND:STANDARD\r\n\
                BEGIN:DAYLIGHT\r\nDTSTART:16010101T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n\
                RRULE:FREQ=YEARLY;BYMONTHDAY=25,26,27,28,29,30,31;BYDAY=SU;BYMONTH=3\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n
                """
            let parsed = try CalendarParser.parse(Self.calendar(zone + Self.event("outlook", [],
                                                                                   start: "DTSTART;TZID=W. Europe Standard Time:20260701T090000")))
            #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
            let series = try #require(parsed.series().first?.series)
            let o = Expander.expand(series, from: 1_782_864_000, to: 1_782_950_400, floatingZone: .utc, zones: ZoneRegistry.shared)
            let first = try #require(o.first)
            #expect(first.start == Int64(1_782_889_200), "\(isoSeconds(first.start))") // 09:00 CEST = 07:00 UTC on 2026-07-01
        }

        /// One series whose instances each last a thousand years (found by the fuzzer): a
        /// ten-year view would be 200,000 instances times 3,660 days of items. The limit
        /// applies inside the series, before the items exist.
        @Test func longOverlappingInstancesAreBounded() async throws {
            let sandbox = try EventctlSandbox("hostile-long")
            defer { sandbox.cleanUp() }
            let path = sandbox.directory + "/long.ics"
            let body = Self.event("long", ["DTEND:20261005T091500Z", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"],
                                  start: "DTSTART:10130502T090000Z")
            _ = FileManager.default.createFile(atPath: path, contents: Data(Self.calendar(body)))
            let imported = try await sandbox.run(["import", path, "--calendar", "long"], timeout: 60)
            #expect(imported.exit == .exited(0), "\(imported.stderr)")
            let agenda = try await sandbox.run(["agenda", "--json", "--days", "3660", "--from", "2026-01-01", "--tz", "UTC"], timeout: 120)
            #expect(agenda.exit == .exited(65), "agenda: \(agenda.exit) \(agenda.stderr.prefix(300))")
            #expect(agenda.seconds < 60, "agenda took \(agenda.seconds) s")
            #expect(agenda.peakKiB < 1_500_000, "agenda peak RSS \(agenda.peakKiB) KiB")
            Hostile.report("longOverlappingInstancesAreBounded",
                           ["agenda_exit": "\(agenda.exit)", "agenda_seconds": Hostile.seconds(agenda.seconds),
                            "agenda_peak_kib": agenda.peakKiB])
        }

        /// A 10 KB file of a hundred FREQ=SECONDLY events took `eventctl agenda` three
        /// minutes and 10 GB; a snapshot now stops at SnapshotEngine.maxItems items.
        @Test func aSnapshotOfTooManyItemsIsRefusedQuickly() async throws {
            let sandbox = try EventctlSandbox("hostile-items")
            defer { sandbox.cleanUp() }
            let events = (0..<100).map { Self.event("s\($0)", ["RRULE:FREQ=SECONDLY;INTERVAL=\($0 + 1)"]) }.joined()
            let path = sandbox.directory + "/secondly.ics"
            _ = FileManager.default.createFile(atPath: path, contents: Data(Self.calendar(events)))
            let imported = try await sandbox.run(["import", path, "--calendar", "secondly"], timeout: 60)
            #expect(imported.exit == .exited(0), "\(imported.stderr)")
            let agenda = try await sandbox.run(["agenda", "--json", "--days", "30", "--tz", "UTC"], timeout: 120)
            #expect(agenda.exit == .exited(65), "agenda: \(agenda.exit) \(agenda.stderr.prefix(300))")
            #expect(agenda.stderr.hasPrefix("eventctl: ") && agenda.stderr.contains("items"), "\(agenda.stderr.prefix(300))")
            #expect(agenda.seconds < 60, "agenda took \(agenda.seconds) s")
            #expect(agenda.peakKiB < 1_500_000, "agenda peak RSS \(agenda.peakKiB) KiB")
            // A narrower view of the same data still works.
            let narrow = try await sandbox.run(["agenda", "--json", "--days", "1", "--from", "2026-11-29", "--tz", "UTC"], timeout: 60)
            #expect(narrow.exit == .exited(0), "\(narrow.stderr.prefix(300))")
            Hostile.report("aSnapshotOfTooManyItemsIsRefusedQuickly",
                           ["agenda_exit": "\(agenda.exit)", "agenda_seconds": Hostile.seconds(agenda.seconds),
                            "agenda_peak_kib": agenda.peakKiB, "message": agenda.stderr.trimmingCharacters(in: .newlines)])
        }
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` of a UTC instant, for messages.
func isoSeconds(_ t: Int64) -> String {
    let date = Date(timeIntervalSince1970: TimeInterval(t))
    let f = ISO8601DateFormatter()
    f.timeZone = TimeZone(identifier: "UTC")
    return f.string(from: date)
}

extension HostileInputTests.CostBounds {
    /// The daemon with a database whose window is too large (SnapshotEngine.maxItems):
    /// a subscriber gets an `invalid_view` error instead of waiting forever (a one-shot
    /// `snapshot` already did), and other views keep working.
    @Test func daemonAnswersAViewTooLargeToBuild() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.start()
            let events = (0..<3).map { Self.event("s\($0)", ["RRULE:FREQ=SECONDLY"], start: "DTSTART:20261201T000000Z") }.joined()
                + Self.event("plain", ["SUMMARY:plain"], start: "DTSTART:20261130T090000Z")
            try await daemon.importCalendar(String(decoding: Self.calendar(events), as: UTF8.self), file: "secondly.ics", calendar: "secondly")
            let t0 = monotonicNow()
            let subscriber = try await daemon.connect()
            try await subscriber.send(["op": "subscribe", "view": ["tz": "UTC", "days": 7]])
            let answer = try await subscriber.next(timeout: 60)
            let took = monotonicNow() - t0
            #expect(answer["type"]?.stringValue == "error" && answer["code"]?.stringValue == "invalid_view",
                    "subscribe to a too-large view: \(FeedClient.brief(answer))")
            // The connection stays usable, and a view before the flood of instances works.
            #expect(try await subscriber.request(["op": "ping"])["type"]?.stringValue == "pong")
            try await subscriber.send(["op": "subscribe", "view": ["tz": "UTC", "from": "2026-11-29", "days": 2]])
            let small = try await subscriber.next("snapshot", timeout: 30)
            #expect((small["sections"]?.arrayValue?.count ?? 0) >= 1)
            let pid = try #require(daemon.pid)
            #expect(ChildProcess.poll(pid) == nil)
            Hostile.report("daemonAnswersAViewTooLargeToBuild",
                           ["first_answer": answer["code"]?.stringValue ?? answer["type"]?.stringValue ?? "?",
                            "seconds": Hostile.seconds(took), "rss_kib": daemon.residentKiB() ?? 0])
        }
    }
}
