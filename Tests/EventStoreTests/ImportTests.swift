import Foundation
import Testing
@testable import EventStore
import ICalendar
import TestSupport

/// docs/data-model.md: import counts, sync per source, conflicts, --replace,
/// --strict, one transaction per run, idempotence, export round trip, the window index.
@Suite struct ImportTests {
    typealias S = StoreICS

    // MARK: - Counts and idempotence

    @Test func countsAddedSkippedAndWarnings() throws {
        let s = try ScratchStore()
        let text = S.calendar([S.event("a@x", day: 1), S.event("b@x", day: 2), ["UID:nostart@x", "SUMMARY:No start"], S.event("c@x", day: 3)])
        let r = try s.run(S.input("a.ics", text))
        #expect((r.added, r.updated, r.removed, r.unchanged, r.skipped) == (3, 0, 0, 0, 1))
        try #require(r.warnings.count == 1)
        #expect(r.warnings[0].line == 18) // BEGIN:VEVENT of the third component
        #expect(r.warnings[0].message.contains("DTSTART"))
        #expect(r.calendar == "work")
        #expect(r.displayName == "a.ics")
        #expect(try s.store.eventCount() == 3)
        #expect(try s.store.calendars() == [CalendarInfo(name: "work", events: 3, sources: ["/tmp/eventd-store-tests/a.ics"])])

        let again = try s.run(S.input("a.ics", text))
        #expect((again.added, again.updated, again.removed, again.unchanged, again.skipped) == (0, 0, 0, 3, 1))
        #expect(!again.changedAnything)
    }

    @Test func importingTheSameBytesTwiceChangesNoRow() throws {
        let s = try ScratchStore()
        let text = S.calendar([S.event("a@x", day: 1), S.event("b@x", day: 2, extra: ["RRULE:FREQ=DAILY"]),
                               ["UID:b@x", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID:20260605T090000Z", "DTSTART:20260605T120000Z"],
                               ["DTSTAMP:20260101T000000Z", "DTSTART;TZID=Europe/Berlin:20260610T090000", "SUMMARY:No UID"]])
        _ = try s.run(S.input("a.ics", text))
        let watcher = try s.watcher()
        let version = try watcher.dataVersion()
        let changes = try s.db.scalarInt("SELECT total_changes()")
        let rows = try s.snapshot()
        for i in 0..<3 {
            let r = try s.run(S.input("a.ics", text), now: 1_790_000_000 + Int64(i + 1) * 3600)
            #expect((r.added, r.updated, r.removed, r.unchanged) == (0, 0, 0, 4))
        }
        #expect(try watcher.dataVersion() == version, "an unchanged import committed a change")
        #expect(try s.db.scalarInt("SELECT total_changes()") == changes, "an unchanged import changed rows")
        #expect(try s.snapshot() == rows)
    }

    @Test func stdinIsASourceLikeAnyOther() throws {
        let s = try ScratchStore()
        let v1 = S.calendar([S.event("a@x"), S.event("b@x", day: 2)])
        let v2 = S.calendar([S.event("a@x")])
        let input = { (text: String) in ImportInput(path: "-", displayName: "<stdin>", bytes: Array(text.utf8), calendar: "work") }
        #expect(try s.run(input(v1)).added == 2)
        let r = try s.run(input(v2))
        #expect((r.added, r.removed, r.unchanged) == (0, 1, 1))
        #expect(try s.store.calendars().first?.sources == ["-"])
    }

    // MARK: - Sync per source

    @Test func reimportWithOneEventRemovedAndOneChanged() throws {
        let s = try ScratchStore()
        _ = try s.run(S.input("a.ics", S.calendar([S.event("a@x"), S.event("b@x", day: 2), S.event("c@x", day: 3)])))
        let r = try s.run(S.input("a.ics", S.calendar([S.event("a@x"), S.event("b@x", day: 2, summary: "B, moved to the big room")])))
        #expect((r.added, r.updated, r.removed, r.unchanged) == (0, 1, 1, 1))
        #expect(try s.uids() == ["a@x", "b@x"])
        #expect(try s.summary("b@x") == "B, moved to the big room")
    }

    @Test func syncRemovesOverridesTooButKeepsTheMaster() throws {
        let s = try ScratchStore()
        let master = S.event("m@x", extra: ["RRULE:FREQ=DAILY;COUNT=5"])
        let override = ["UID:m@x", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID:20260603T090000Z", "DTSTART:20260603T150000Z"]
        _ = try s.run(S.input("a.ics", S.calendar([master, override])))
        #expect(try s.store.eventCount() == 2)
        let r = try s.run(S.input("a.ics", S.calendar([master])))
        #expect((r.removed, r.unchanged) == (1, 1))
        #expect(try s.db.scalarText("SELECT recurrence_id FROM event") == "")
    }

    @Test func removingAnEventFromOneSourceKeepsTheOtherSourcesEvents() throws {
        let s = try ScratchStore()
        _ = try s.run([S.input("a.ics", S.calendar([S.event("a1@x"), S.event("a2@x", day: 2)])),
                       S.input("b.ics", S.calendar([S.event("b1@x", day: 3)]))])
        let r = try s.run(S.input("a.ics", S.calendar([S.event("a1@x")])))
        #expect((r.removed, r.unchanged) == (1, 1))
        #expect(try s.uids() == ["a1@x", "b1@x"])
        // Emptying source A entirely still leaves B alone.
        let empty = try s.run(S.input("a.ics", S.calendar([])))
        #expect(empty.removed == 1)
        #expect(try s.uids() == ["b1@x"])
    }

    @Test func sameFileIntoTwoCalendarsIsTwoSources() throws {
        let s = try ScratchStore()
        let text = S.calendar([S.event("a@x")])
        _ = try s.run([S.input("a.ics", text, calendar: "work"), S.input("a.ics", text, calendar: "home")])
        #expect(try s.store.eventCount() == 2)
        let r = try s.run(S.input("a.ics", S.calendar([]), calendar: "home"))
        #expect(r.removed == 1)
        #expect(try s.uids(calendar: "work") == ["a@x"])
    }

    // MARK: - --replace

    @Test func replaceLeavesExactlyTheNewFilesEvents() throws {
        let s = try ScratchStore()
        _ = try s.run([S.input("a.ics", S.calendar([S.event("a1@x"), S.event("a2@x", day: 2)])),
                       S.input("b.ics", S.calendar([S.event("b1@x", day: 3)])),
                       S.input("h.ics", S.calendar([S.event("h1@x")]), calendar: "home")])
        let r = try s.run(S.input("c.ics", S.calendar([S.event("c1@x"), S.event("a1@x")])), replace: true, now: 1_790_001_000)
        #expect(try s.uids() == ["a1@x", "c1@x"])
        #expect((r.added, r.removed) == (1, 2))
        // Other calendars are untouched.
        #expect(try s.uids(calendar: "home") == ["h1@x"])
        #expect(try s.store.calendars().first { $0.name == "home" }?.sources == ["/tmp/eventd-store-tests/h.ics"])
    }

    /// docs/data-model.md: `--replace` empties the calendar first. Afterwards the calendar's only
    /// source is the new file, and syncing that file again can remove any of its events,
    /// including one that an earlier source happened to contain with the same content.
    @Test func afterReplaceTheNewFileOwnsAllItsEvents() throws {
        let s = try ScratchStore()
        _ = try s.run([S.input("a.ics", S.calendar([S.event("a1@x"), S.event("a2@x", day: 2)]))])
        _ = try s.run(S.input("c.ics", S.calendar([S.event("c1@x"), S.event("a1@x")])), replace: true, now: 1_790_001_000)
        #expect(try s.store.calendars().first?.sources == ["/tmp/eventd-store-tests/c.ics"])
        let again = try s.run(S.input("c.ics", S.calendar([S.event("c1@x")])), now: 1_790_002_000)
        #expect(again.removed == 1)
        #expect(try s.uids() == ["c1@x"])
    }

    @Test func replaceWithTheSameFileChangesNothing() throws {
        let s = try ScratchStore()
        let text = S.calendar([S.event("a1@x"), S.event("a2@x", day: 2)])
        _ = try s.run(S.input("a.ics", text))
        let rows = try s.snapshot()
        let r = try s.run(S.input("a.ics", text), replace: true)
        #expect((r.added, r.updated, r.removed, r.unchanged) == (0, 0, 0, 2))
        #expect(try s.snapshot() == rows)
    }

    // MARK: - All or nothing

    /// Truncated (a download cut short): still rejected whole, unlike a broken line, which is repaired.
    let malformed = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x@x\r\nSUMMARY:oops\r\n"

    @Test(arguments: [false, true]) func aSyntaxErrorInOneFileWritesNothing(badFirst: Bool) throws {
        let s = try ScratchStore()
        _ = try s.run(S.input("old.ics", S.calendar([S.event("old@x")])))
        let rows = try s.snapshot()
        let watcher = try s.watcher()
        let version = try watcher.dataVersion()
        let good = S.input("good.ics", S.calendar([S.event("g1@x"), S.event("g2@x", day: 2)]), calendar: "other")
        let goodSameCalendar = S.input("old.ics", S.calendar([S.event("g3@x")])) // would remove old@x
        let bad = S.input("bad.ics", malformed)
        let inputs = badFirst ? [bad, good, goodSameCalendar] : [good, goodSameCalendar, bad]
        let error = #expect(throws: ImportError.self) { _ = try s.run(inputs) }
        guard case .syntax(let file, let line, let message)? = error else {
            Issue.record("expected .syntax, got \(String(describing: error))"); return
        }
        #expect(file == "bad.ics")
        #expect(line == 5)
        #expect(!message.isEmpty)
        #expect(error?.description.hasPrefix("bad.ics:5: ") == true)
        #expect(try s.store.eventCount() == 1)
        #expect(try s.store.calendarNames() == ["work"])
        #expect(try s.snapshot() == rows)
        #expect(try watcher.dataVersion() == version)
    }

    @Test func aFailureWhileWritingRollsBackTheWholeRun() throws {
        let s = try ScratchStore()
        _ = try s.run(S.input("old.ics", S.calendar([S.event("old@x")])))
        try s.db.execute("CREATE TRIGGER boom BEFORE INSERT ON event WHEN new.uid = 'boom@x' BEGIN SELECT RAISE(ABORT, 'boom'); END")
        let rows = try s.snapshot()
        let inputs = [S.input("good.ics", S.calendar((1...50).map { S.event("g\($0)@x", day: $0 % 28 + 1) }), calendar: "other"),
                      S.input("old.ics", S.calendar([S.event("new@x")])),
                      S.input("boom.ics", S.calendar([S.event("boom@x")]), calendar: "third")]
        #expect(throws: (any Error).self) { _ = try s.run(inputs) }
        #expect(try s.snapshot() == rows)
        #expect(try s.store.calendarNames() == ["work"])
        #expect(try s.db.scalarInt("SELECT count(*) FROM source") == 1)
        // The connection is usable afterwards (no transaction left open).
        try s.db.execute("DROP TRIGGER boom")
        #expect(try s.run(inputs).count == 3)
        #expect(try s.store.eventCount() == 52)
    }

    @Test func strictModeWithAWarningWritesNothing() throws {
        let s = try ScratchStore()
        let text = S.calendar([S.event("a@x"), ["UID:nostart@x", "SUMMARY:No start"]])
        let error = #expect(throws: ImportError.self) {
            _ = try s.run([S.input("fine.ics", S.calendar([S.event("f@x")])), S.input("warn.ics", text)], strict: true)
        }
        guard case .strict(let file, let issues)? = error else {
            Issue.record("expected .strict, got \(String(describing: error))"); return
        }
        #expect(file == "warn.ics")
        #expect(issues.count == 1)
        #expect(issues.first?.line == 11)
        #expect(error?.description.hasPrefix("warn.ics:11: ") == true)
        #expect(try s.store.eventCount() == 0)
        #expect(try s.store.calendarNames().isEmpty)
        // Without --strict the same run imports what it can.
        let results = try s.run([S.input("fine.ics", S.calendar([S.event("f@x")])), S.input("warn.ics", text)])
        #expect(results.map(\.added) == [1, 1])
        #expect(results.map(\.skipped) == [0, 1])
        // --strict without warnings is fine.
        #expect(try s.run(S.input("fine.ics", S.calendar([S.event("f@x")])), strict: true).unchanged == 1)
    }

    @Test func invalidCalendarNamesAreRejected() throws {
        let s = try ScratchStore()
        for name in ["", "bad name", "a/b", "über", "semi;colon", String(repeating: "a", count: 65), "tab\t"] {
            let error = #expect(throws: ImportError.self, "\(name.debugDescription)") {
                _ = try s.run([S.input("ok.ics", S.calendar([S.event("a@x")]), calendar: "fine"),
                               S.input("a.ics", S.calendar([S.event("a@x")]), calendar: name)])
            }
            guard case .invalidCalendarName(let reported)? = error else {
                Issue.record("\(name.debugDescription): expected .invalidCalendarName, got \(String(describing: error))"); continue
            }
            #expect(reported == name)
        }
        #expect(try s.store.eventCount() == 0)
        #expect(try s.store.calendarNames().isEmpty)
        for name in ["a", "Work.2026_team-A", String(repeating: "z", count: 64)] {
            #expect(try s.run(S.input("a.ics", S.calendar([S.event("a@x")]), calendar: name)).added == 1, "\(name)")
        }
    }

    // MARK: - Export round trip

    static let sampleNames = ["conference", "google", "holidays", "outlook", "team", "trip"]

    func sampleInputs() throws -> [ImportInput] {
        try Self.sampleNames.map { name in
            let url = S.repositoryRoot.appendingPathComponent("sample-calendars/\(name).ics")
            return ImportInput(path: url.path, displayName: "\(name).ics", bytes: [UInt8](try Data(contentsOf: url)), calendar: name)
        }
    }

    @Test func exportThenReimportIntoTheSameCalendarChangesNothing() throws {
        let s = try ScratchStore()
        _ = try s.run(try sampleInputs())
        let rows = try s.snapshot()
        let sources = try s.db.scalarInt("SELECT count(*) FROM source")
        let watcher = try s.watcher()
        let version = try watcher.dataVersion()
        for name in Self.sampleNames {
            let exported = try s.store.exportICalendar(calendars: [name])
            let count = try s.db.scalarInt("SELECT count(*) FROM event e JOIN calendar c ON c.id = e.calendar_id WHERE c.name = ?", [.text(name)])
            let r = try s.run(S.input("export-\(name).ics", exported, calendar: name))
            #expect((r.added, r.updated, r.removed) == (0, 0, 0), "\(name): \(r)")
            #expect(Int64(r.unchanged) == count, "\(name)")
        }
        #expect(try s.snapshot() == rows)
        #expect(try s.db.scalarInt("SELECT count(*) FROM source") == sources)
        #expect(try watcher.dataVersion() == version)
    }

    @Test func exportedTextRoundTrips() throws {
        let s = try ScratchStore()
        _ = try s.run(try sampleInputs())
        let columns = "uid, recurrence_id, dtstart, all_day, duration_days, duration_seconds, coalesce(rrule, ''), coalesce(rdates, ''), coalesce(exdates, ''), vevent"
        for name in Self.sampleNames {
            let exported = try s.store.exportICalendar(calendars: [name])
            // Every stored VEVENT appears verbatim (with CRLF) in the export.
            let stored = try s.db.statement("SELECT e.vevent FROM event e JOIN calendar c ON c.id = e.calendar_id WHERE c.name = ?")
                .map([.text(name)]) { $0.text(0) }
            for text in stored {
                let crlf = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
                #expect(exported.contains(crlf), "\(name)")
            }
            // Into a fresh store: the same events, with the same text and the same reading.
            let fresh = try ScratchStore()
            let r = try fresh.run(S.input("\(name).ics", exported, calendar: name))
            #expect(r.skipped == 0)
            let query = "SELECT \(columns) FROM event e JOIN calendar c ON c.id = e.calendar_id WHERE c.name = ? ORDER BY uid, recurrence_id"
            let before = try s.db.statement(query).map([.text(name)]) { row in (0..<10).map { row.text(Int32($0)) }.joined(separator: "|") }
            let after = try fresh.db.statement(query).map([.text(name)]) { row in (0..<10).map { row.text(Int32($0)) }.joined(separator: "|") }
            let onlyBefore = before.filter { !after.contains($0) }.map { String($0.prefix(160)) }
            let onlyAfter = after.filter { !before.contains($0) }.map { String($0.prefix(160)) }
            #expect(before.count == after.count, "\(name)")
            #expect(onlyBefore.isEmpty && onlyAfter.isEmpty, "\(name): stored \(onlyBefore)\nre-imported \(onlyAfter)")
        }
    }

    /// One calendar fed by two files that define the same TZID differently. The export
    /// must not make one definition stand for both: the later file's is renamed.
    @Test func exportOfACalendarWithTwoDefinitionsOfOneTZID() throws {
        let s = try ScratchStore()
        func file(_ offset: String, _ uid: String) -> String {
            (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VTIMEZONE", "TZID:Custom/Zone", "BEGIN:STANDARD",
              "DTSTART:19700101T000000", "TZOFFSETFROM:\(offset)", "TZOFFSETTO:\(offset)", "END:STANDARD", "END:VTIMEZONE",
              "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Custom/Zone:20260601T120000", "END:VEVENT",
              "END:VCALENDAR"]).map { $0 + "\r\n" }.joined()
        }
        _ = try s.run([S.input("three.ics", file("+0300", "three@x")), S.input("four.ics", file("+0400", "four@x"))])
        let instants = try s.db.statement("SELECT uid, first_minute FROM event ORDER BY uid").map { "\($0.text(0)) \($0.int(1))" }
        let exported = try s.store.exportICalendar(calendars: ["work"])
        #expect(exported.components(separatedBy: "BEGIN:VCALENDAR").count == 2)
        #expect(exported.contains("TZID:Custom/Zone\r\n") && exported.contains("TZID:Custom/Zone-2\r\n"))
        let r = try s.run(S.input("export.ics", exported))
        #expect((r.added, r.removed) == (0, 0), "\(r)")
        #expect(try s.db.statement("SELECT uid, first_minute FROM event ORDER BY uid").map { "\($0.text(0)) \($0.int(1))" } == instants)
        // Now one file's: its own export changes nothing.
        let again = try s.run(S.input("export.ics", try s.store.exportICalendar(calendars: ["work"])))
        #expect((again.added, again.updated, again.removed) == (0, 0, 0), "\(again)")
    }

    /// One calendar fed by a Google export (X-WR-TIMEZONE) and a file without it, both
    /// with floating times. The export must keep each event's reading: one document has
    /// one X-WR-TIMEZONE, so the Google file's floating times get it as their TZID.
    @Test func exportOfACalendarWithAndWithoutXWRTimezone() throws {
        let s = try ScratchStore()
        let google = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "X-WR-TIMEZONE:America/New_York",
                       "BEGIN:VEVENT", "UID:g@x", "DTSTAMP:20260101T000000Z", "DTSTART:20260601T090000", "END:VEVENT",
                       "END:VCALENDAR"]).map { $0 + "\r\n" }.joined()
        let plain = S.calendar([["UID:p@x", "DTSTAMP:20260101T000000Z", "DTSTART:20260601T090000"]])
        _ = try s.run([S.input("google.ics", google), S.input("plain.ics", plain)])
        let rows = try s.snapshot()
        let instants = try s.db.statement("SELECT uid, first_minute FROM event ORDER BY uid").map { "\($0.text(0)) \($0.int(1))" }
        let exported = try s.store.exportICalendar(calendars: ["work"])
        #expect(!exported.contains("X-WR-TIMEZONE") && exported.contains("DTSTART;TZID=America/New_York:20260601T090000"))
        #expect(exported.contains("BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\n"))
        #expect(try s.snapshot() == rows, "exporting writes nothing")
        let r = try s.run(S.input("export.ics", exported))
        #expect((r.added, r.removed) == (0, 0), "\(r)")
        #expect(try s.db.statement("SELECT uid, first_minute FROM event ORDER BY uid").map { "\($0.text(0)) \($0.int(1))" } == instants)
        #expect(try s.db.scalarText("SELECT dtstart FROM event WHERE uid = 'p@x'") == "20260601T090000", "the floating event became zoned")
    }

    @Test func exportOfAnInFileZoneKeepsItsDefinition() throws {
        let s = try ScratchStore()
        let zone = ["BEGIN:VTIMEZONE", "TZID:Custom/Zone", "BEGIN:STANDARD", "DTSTART:19700101T000000",
                    "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300", "END:STANDARD", "END:VTIMEZONE"]
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x"] + zone
                    + ["BEGIN:VEVENT"] + ["UID:z@x", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Custom/Zone:20260601T120000"] + ["END:VEVENT", "END:VCALENDAR"])
            .map { $0 + "\r\n" }.joined()
        _ = try s.run(S.input("z.ics", text))
        let exported = try s.store.exportICalendar(calendars: ["work"])
        #expect(exported.contains("TZID:Custom/Zone"))
        let r = try s.run(S.input("z-export.ics", exported))
        #expect((r.added, r.updated, r.removed, r.unchanged) == (0, 0, 0, 1))
    }

    // MARK: - removeCalendar

    @Test func removeCalendarDeletesItsEventsAndSources() throws {
        let s = try ScratchStore()
        _ = try s.run([S.input("a.ics", S.calendar([S.event("a1@x"), S.event("a2@x", day: 2)])),
                       S.input("b.ics", S.calendar([S.event("b1@x")])),
                       S.input("h.ics", S.calendar([S.event("h1@x")]), calendar: "home")])
        #expect(try s.store.removeCalendar("work") == 3)
        #expect(try s.store.calendarNames() == ["home"])
        #expect(try s.store.eventCount() == 1)
        #expect(try s.db.scalarInt("SELECT count(*) FROM source") == 1)
        #expect(try s.db.scalarInt("SELECT count(*) FROM event WHERE calendar_id NOT IN (SELECT id FROM calendar)") == 0)
        if try s.db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'event_span'") == 1 {
            #expect(try s.db.scalarInt("SELECT count(*) FROM event_span") == 1, "window index rows left behind")
        }
        #expect(throws: StoreError.unknownCalendar("work")) { try s.store.removeCalendar("work") }
        // Importing into the removed name starts afresh.
        #expect(try s.run(S.input("a.ics", S.calendar([S.event("a1@x")]))).added == 1)
    }
}
