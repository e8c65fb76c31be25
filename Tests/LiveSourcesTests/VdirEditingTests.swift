import EventStore
import Foundation
import ICalendar
import LiveSources
import Testing
import TestSupport
import Threads

/// `VdirEventFile`: the event files `eventctl new`/`edit`/`delete` and watch's n/e/d
/// write into a vdir (issue 55, item 8): valid, folded iCalendar; atomic writes; an edit
/// never over a file that changed since it was read; read-only calendars refused; and
/// files khal lists and vdirsyncer carries to a CalDAV server.
@Suite struct VdirEditingTests {
    static let now = WallInstant(unixSeconds: 1_796_000_000)

    static func draft(_ summary: String, zone: String = "Europe/Berlin") -> VdirEventFile.Draft {
        let day = CivilDate(year: 2027, month: 1, day: 4)
        return VdirEventFile.Draft(summary: summary, start: CivilDateTime(date: day, hour: 12, minute: 30),
                                   end: CivilDateTime(date: day, hour: 13, minute: 15), location: "Café; upstairs, left", zone: zone)
    }

    /// An executable shell script in `directory` (an EDITOR for the tests).
    static func script(_ directory: String, _ body: String) throws -> String {
        let path = directory + "/editor-\(UInt32.random(in: 0...UInt32.max)).sh"
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    @Test func aNewEventIsValidFoldedICalendarInTheLocalZone() throws {
        let long = "Lunch with Kim " + String(repeating: "and a very long title ", count: 8) + "ünïcödé"
        let text = VdirEventFile.text(Self.draft(long), now: Self.now)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:"))
        #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"))
        #expect(text.contains("DTSTART;TZID=Europe/Berlin:20270104T123000\r\n") && text.contains("DTEND;TZID=Europe/Berlin:20270104T131500\r\n"))
        #expect(text.contains("DTSTAMP:20261130T005320Z\r\n") && text.contains("LOCATION:Café\\; upstairs\\, left\r\n"))
        // CRLF only, every line at most 75 octets, continuation lines start with a space.
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let lines = text.components(separatedBy: "\r\n").dropLast()
        #expect(lines.allSatisfy { $0.utf8.count <= 75 }, "\(lines.filter { $0.utf8.count > 75 })")
        #expect(lines.contains { $0.hasPrefix(" ") }, "the long SUMMARY is folded")
        // Read back by the project's own parser: one event, the same title and times.
        let parsed = try CalendarParser.parse(Array(text.utf8))
        #expect(parsed.events.count == 1 && parsed.warnings.isEmpty && parsed.skipped == 0, "\(parsed.warnings)")
        let event = try #require(parsed.events.first)
        #expect(event.summary == long && event.location == "Café; upstairs, left")
        let berlin = try #require(Zone.system("Europe/Berlin"))
        let start = berlin.instant(forLocal: CivilDateTime(date: CivilDate(year: 2027, month: 1, day: 4), hour: 12, minute: 30))
        #expect(event.start.instant(zones: ZoneRegistry.shared, floatingZone: .utc) == start)
        #expect(event.durationSeconds == 45 * 60)
        let checked = try VdirEventFile.check(Array(text.utf8)).get()
        #expect(checked.uid == event.uid && checked.summary == long)
        // UTC: times with Z, no VTIMEZONE.
        let utc = VdirEventFile.text(Self.draft("x", zone: "UTC"), now: Self.now)
        #expect(utc.contains("DTSTART:20270104T123000Z\r\n") && !utc.contains("VTIMEZONE"))
    }

    @Test func checkRefusesWhatIsNotOneEvent() {
        #expect(throws: (any Error).self) { try VdirEventFile.check(Array("hello".utf8)).get() }
        let two = icsCalendar([TestEvent("a@x", "20270104T090000Z", "20270104T100000Z", "A"),
                               TestEvent("b@x", "20270104T090000Z", "20270104T100000Z", "B")])
        #expect(throws: (any Error).self) { try VdirEventFile.check(Array(two.utf8)).get() }
        let none = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nEND:VCALENDAR\r\n"
        #expect(throws: (any Error).self) { try VdirEventFile.check(Array(none.utf8)).get() }
    }

    @Test func writesAreAtomicAndReplaceKeepsBothWhenTheFileChanged() throws {
        let vdir = try Fixture.directory("vdir-write")
        defer { try? FileManager.default.removeItem(atPath: vdir) }
        let path = VdirEventFile.path(forUID: "abc-1", in: vdir)
        #expect(path == vdir + "/abc-1.ics")
        try VdirEventFile.write(Array("one".utf8), to: path, exclusive: true)
        #expect(throws: VdirEventFile.Failure.self) { try VdirEventFile.write(Array("two".utf8), to: path, exclusive: true) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one")
        // No temporary file is left behind (they are dot-files, which vdir readers skip).
        #expect(try FileManager.default.contentsOfDirectory(atPath: vdir) == ["abc-1.ics"])
        #expect(try VdirEventFile.replace(path, expected: Array("one".utf8), with: Array("edited".utf8)) == .written)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "edited")
        // Read as "one", changed on disk meanwhile: the edit goes beside it; both kept.
        let outcome = try VdirEventFile.replace(path, expected: Array("one".utf8), with: Array("mine".utf8))
        #expect(outcome == .keptBoth(vdir + "/abc-1-edited-1.ics"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "edited")
        #expect(try String(contentsOfFile: vdir + "/abc-1-edited-1.ics", encoding: .utf8) == "mine")
        // A UID that is no safe file name gets one.
        #expect(!VdirEventFile.path(forUID: "../../etc/passwd", in: vdir).contains(".."))
    }

    @Test func theEditorsResultIsWrittenBackOnlyWhenValid() throws {
        let vdir = try Fixture.directory("vdir-edit")
        defer { try? FileManager.default.removeItem(atPath: vdir) }
        let draft = Self.draft("Lunch")
        let path = VdirEventFile.path(forUID: draft.uid, in: vdir)
        try VdirEventFile.write(Array(VdirEventFile.text(draft, now: Self.now).utf8), to: path)
        let rename = try Self.script(vdir, "sed -i 's/^SUMMARY:Lunch/SUMMARY:Lunch moved/' \"$1\"")
        #expect(try VdirEventFile.edit(path, environment: ["EDITOR": rename]) == .written(path: path))
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("SUMMARY:Lunch moved\r\n"))
        // Nothing changed: nothing written.
        #expect(try VdirEventFile.edit(path, environment: ["EDITOR": "true"]) == .unchanged)
        // Broken: nothing written, the text kept for the user.
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let breaking = try Self.script(vdir, "printf 'BEGIN:VCALENDAR\\r\\nno event\\r\\n' > \"$1\"")
        let broken = try VdirEventFile.edit(path, environment: ["EDITOR": breaking])
        guard case .invalid(_, let kept) = broken else { Issue.record("\(broken)"); return }
        #expect(broken.failed && broken.description.contains(kept))
        #expect(try String(contentsOfFile: kept, encoding: .utf8).contains("no event"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
        // The file changed while the editor ran: both kept.
        let racing = try Self.script(vdir, "sed -i 's/moved/again/' \"$1\"; sed -i 's/moved/by vdirsyncer/' '\(path)'")
        let raced = try VdirEventFile.edit(path, environment: ["EDITOR": racing])
        #expect(raced == .keptBoth(path: String(path.dropLast(4)) + "-edited-1.ics"), "\(raced)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("SUMMARY:Lunch by vdirsyncer"))
        // A new event: written as <UID>.ics only when the editor changed the template.
        let template = VdirEventFile.text(Self.draft("New event"), now: Self.now)
        #expect(try VdirEventFile.create(in: vdir, template: template, environment: ["EDITOR": "true"]) == .unchanged)
        let titled = try Self.script(vdir, "sed -i 's/^SUMMARY:New event/SUMMARY:Dentist/' \"$1\"")
        let created = try VdirEventFile.create(in: vdir, template: template, environment: ["EDITOR": titled])
        guard case .created(let newPath, let uid) = created else { Issue.record("\(created)"); return }
        #expect(newPath == vdir + "/\(uid).ics")
        #expect(try String(contentsOfFile: newPath, encoding: .utf8).contains("SUMMARY:Dentist\r\n"))
    }

    @Test func importedAndURLCalendarsAreReadOnly() throws {
        let scratch = try ScratchStore()
        let store = scratch.store!
        let vdir = try Fixture.directory("vdir-ro")
        defer { try? FileManager.default.removeItem(atPath: vdir) }
        _ = try store.importCalendars([ImportInput(path: "/x/team.ics", displayName: "team.ics",
                                                   bytes: Array(Fixture.calendar(1).utf8), calendar: "team")], now: 0)
        #expect(throws: LiveSourceError.self) { try store.editableFile(uid: "event-0@tests", calendar: nil) }
        do { _ = try store.editableFile(uid: "event-0@tests", calendar: nil) } catch {
            #expect("\(error)".hasPrefix("read-only: calendar team was imported"), "\(error)")
        }
        #expect(throws: LiveSourceError.self) { try store.vdirForNewEvent(calendar: nil) }
        // A vdir: its events are editable, and new events go there.
        try Fixture.replace(vdir + "/own.ics", with: icsCalendar([TestEvent("own@x", "20270104T090000Z", "20270104T100000Z", "Own")]))
        let source = LiveSource(name: "personal", kind: .vdir, location: vdir, calendar: "personal", everySeconds: 900)
        try store.addLiveSource(source)
        _ = SourceSyncer(store: store).syncInProcess([source])
        #expect(try store.editableFile(uid: "own@x", calendar: nil) == vdir + "/own.ics")
        #expect(try store.vdirForNewEvent(calendar: nil).name == "personal")
        #expect(throws: LiveSourceError.self) { try store.vdirForNewEvent(calendar: "team") }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: Self.venv + "/khal"), "khal is not installed in .venv (make venv)"))
    func khalListsTheWrittenFiles() async throws {
        let root = try Fixture.directory("vdir-khal")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/personal", withIntermediateDirectories: true)
        var draft = Self.draft("Lunch with Kim, a title long enough to be folded by the writer at 75 octets")
        try VdirEventFile.write(Array(VdirEventFile.text(draft, now: Self.now).utf8), to: VdirEventFile.path(forUID: draft.uid, in: root + "/personal"))
        draft = Self.draft("Standup in UTC", zone: "UTC")
        draft.start.hour = 9
        draft.start.minute = 0
        draft.end.hour = 9
        try VdirEventFile.write(Array(VdirEventFile.text(draft, now: Self.now).utf8), to: VdirEventFile.path(forUID: draft.uid, in: root + "/personal"))
        try """
        [calendars]
        [[personal]]
        path = \(root)/personal
        [locale]
        timeformat = %H:%M
        dateformat = %Y-%m-%d
        longdateformat = %Y-%m-%d
        datetimeformat = %Y-%m-%d %H:%M
        longdatetimeformat = %Y-%m-%d %H:%M
        default_timezone = Europe/Berlin
        local_timezone = Europe/Berlin
        """.write(toFile: root + "/khal.conf", atomically: true, encoding: .utf8)
        let result = try await ChildProcess.run(Self.venv + "/khal", ["-c", root + "/khal.conf", "list", "--format",
                                                                      "{start} {end} {title} [{location}]", "2027-01-04", "1d"],
                                                environment: ChildProcess.isolatedEnvironment(["XDG_DATA_HOME": root + "/data", "TZ": "Europe/Berlin"]))
        #expect(result.succeeded && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2027-01-04 12:30 2027-01-04 13:15 Lunch with Kim, a title long enough to be folded by the writer at 75 octets [Café; upstairs, left]"),
                "\(result.stdout)")
        // 09:00 UTC is 10:00 in Berlin.
        #expect(result.stdout.contains("2027-01-04 10:00 2027-01-04 10:15 Standup in UTC"), "\(result.stdout)")
    }

    @Test(.enabled(if: CalDAVServer.isAvailable, "needs Radicale and vdirsyncer in .venv (make venv)"))
    func vdirsyncerCarriesTheWrittenFilesToRadicale() async throws {
        let caldav = try CalDAVServer()
        defer { caldav.stop() }
        try await caldav.makeCalendar()
        try await caldav.put("keeper.ics", icsCalendar([TestEvent("keeper@caldav", "20270601T090000Z", "20270601T100000Z", "Keeper")]))
        try await caldav.sync()
        let draft = Self.draft("Written by eventd")
        try VdirEventFile.write(Array(VdirEventFile.text(draft, now: Self.now).utf8), to: VdirEventFile.path(forUID: draft.uid, in: caldav.vdir))
        try await caldav.sync()
        let collection = caldav.directory + "/collections/collection-root/test/cal"
        let stored = try FileManager.default.contentsOfDirectory(atPath: collection).filter { $0.hasSuffix(".ics") }
            .map { try String(contentsOfFile: collection + "/" + $0, encoding: .utf8) }
        #expect(stored.contains { $0.contains("UID:\(draft.uid)") && $0.contains("SUMMARY:Written by eventd") }, "\(stored)")
    }

    static var venv: String { Products.repositoryRoot.appendingPathComponent(".venv/bin").path }
}
