import EventStore
import Foundation
import Testing
import TestSupport
@testable import LiveSources

/// vdir and file sources through `SourceSyncer`: changed files read, unchanged ones
/// not, a bad file keeps its events, deleted files and directories.
@Suite struct VdirSourceTests {
    let scratch: ScratchStore
    let syncer: SourceSyncer
    let directory: String

    init() throws {
        scratch = try ScratchStore()
        syncer = SourceSyncer(store: scratch.store)
        directory = try Fixture.directory("vdir")
    }

    func event(_ uid: String, _ summary: String, day: Int = 1) -> String {
        icsCalendar([TestEvent(uid, "202612\(String(format: "%02d", day))T090000Z", "202612\(String(format: "%02d", day))T100000Z", summary)])
    }

    func vdir() throws -> LiveSource {
        let planned = try SourcePlanner.plan(directory, calendar: nil, every: 900)
        #expect(planned.count == 1)
        try scratch.store.addLiveSource(planned[0])
        return planned[0]
    }

    func summaries() throws -> [String] {
        let export = try scratch.store.exportICalendar(calendars: [planned().calendar])
        return export.split(separator: "\r\n").filter { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) }.sorted()
    }

    func planned() throws -> LiveSource { try #require(try scratch.store.liveSources().first) }

    @Test func aVdirIsOneCalendarNamedByItsDisplayname() throws {
        try "Team Calendar\n".write(toFile: directory + "/displayname", atomically: true, encoding: .utf8)
        try event("a@x", "A").write(toFile: directory + "/a.ics", atomically: true, encoding: .utf8)
        try event("b@x", "B").write(toFile: directory + "/.b.ics", atomically: true, encoding: .utf8)
        try event("c@x", "C").write(toFile: directory + "/c.ics~", atomically: true, encoding: .utf8)
        let source = try vdir()
        #expect(source.name == "Team-Calendar")
        let report = syncer.syncFiles(source, now: 1_800_000_000)
        #expect(report.succeeded)
        #expect(try summaries() == ["A"])
    }

    /// Issue 52, point 11: a vdir's symbolic link to a file outside it is not followed;
    /// one to a file inside it is.
    @Test func linksOutOfTheVdirAreNotFollowed() throws {
        let outside = try Fixture.directory("outside")
        try event("o@x", "Outside").write(toFile: outside + "/secret.ics", atomically: true, encoding: .utf8)
        try event("a@x", "A").write(toFile: directory + "/a.ics", atomically: true, encoding: .utf8)
        try event("i@x", "Inner").write(toFile: directory + "/.inner", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/b.ics", withDestinationPath: outside + "/secret.ics")
        try FileManager.default.createSymbolicLink(atPath: directory + "/c.ics", withDestinationPath: ".inner")
        let source = try vdir()
        #expect(syncer.syncFiles(source, now: 1).succeeded)
        #expect(try summaries() == ["A", "Inner"])
    }

    @Test func changedFilesAreReadUnchangedOnesAreNot() throws {
        try event("a@x", "A").write(toFile: directory + "/a.ics", atomically: true, encoding: .utf8)
        try event("b@x", "B").write(toFile: directory + "/b.ics", atomically: true, encoding: .utf8)
        let source = try vdir()
        #expect(syncer.syncFiles(source, now: 1).summary == "2 added, 0 updated, 0 removed")
        // Same size, same mtime, same inode: not read, so this change is not seen.
        let path = directory + "/a.ics"
        var st = stat()
        #expect(stat(path, &st) == 0)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Array(event("a@x", "Z").utf8))
        try handle.close()
        var times = [st.st_atim, st.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(syncer.syncFiles(source, now: 2).summary == "unchanged")
        #expect(try summaries() == ["A", "B"])
        // A rename over it (a new inode): read.
        try Fixture.replace(directory + "/b.ics", with: event("b@x", "B2"))
        #expect(syncer.syncFiles(source, now: 3).summary == "0 added, 1 updated, 0 removed")
        #expect(try summaries() == ["A", "B2"])
    }

    @Test func aFileThatFailsToParseKeepsItsEventsAndIsReported() throws {
        try event("a@x", "A").write(toFile: directory + "/a.ics", atomically: true, encoding: .utf8)
        try event("b@x", "B").write(toFile: directory + "/b.ics", atomically: true, encoding: .utf8)
        let source = try vdir()
        _ = syncer.syncFiles(source, now: 1)
        try Fixture.replace(directory + "/a.ics", with: "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a@x\r\nDTSTART:garbage\r\n")
        try Fixture.replace(directory + "/b.ics", with: event("b@x", "B2"))
        let report = syncer.syncFiles(source, now: 2)
        #expect(!report.succeeded)
        #expect(report.failure?.message.contains("a.ics") == true)
        #expect(report.changedEvents)
        #expect(try summaries() == ["A", "B2"])
        #expect(try scratch.store.liveSource(named: source.name)?.state.lastError == report.failure?.message)
    }

    @Test func deletedFilesTakeTheirEventsAndADeletedVdirKeepsThem() throws {
        try event("a@x", "A").write(toFile: directory + "/a.ics", atomically: true, encoding: .utf8)
        try event("b@x", "B").write(toFile: directory + "/b.ics", atomically: true, encoding: .utf8)
        let source = try vdir()
        _ = syncer.syncFiles(source, now: 1)
        try FileManager.default.removeItem(atPath: directory + "/a.ics")
        let removed = syncer.syncFiles(source, now: 2)
        #expect(removed.changedEvents)
        #expect(try summaries() == ["B"])
        try FileManager.default.removeItem(atPath: directory)
        let gone = syncer.syncFiles(source, now: 3)
        #expect(gone.failure?.kind == .missing)
        #expect(try summaries() == ["B"])
        // Removing the source removes its events and its calendar.
        #expect(try scratch.store.removeLiveSource(named: source.name) == 1)
        #expect(try scratch.store.calendarNames().isEmpty)
    }

    @Test func aCollectionDirectoryIsOneSourcePerSubdirectory() throws {
        for (sub, name) in [("work", "Work"), ("home", "")] {
            try FileManager.default.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
            if !name.isEmpty { try name.write(toFile: directory + "/\(sub)/displayname", atomically: true, encoding: .utf8) }
            try event("\(sub)@x", sub).write(toFile: directory + "/\(sub)/e.ics", atomically: true, encoding: .utf8)
        }
        let planned = try SourcePlanner.plan(directory, calendar: nil, every: 900)
        #expect(planned.map(\.name) == ["home", "Work"])
        #expect(planned.allSatisfy { $0.kind == .vdir })
        #expect(throws: SourcePlanner.Problem.self) { try SourcePlanner.plan(directory + "/missing", calendar: nil, every: 900) }
    }

    @Test func aWatchedFileIsOneSourceAndKeepsItsEventsWhenItGoes() throws {
        let path = directory + "/club.ics"
        try event("club@x", "Club night").write(toFile: path, atomically: true, encoding: .utf8)
        try event("other@x", "Other").write(toFile: directory + "/other.ics", atomically: true, encoding: .utf8)
        let source = try #require(try SourcePlanner.plan(path, calendar: nil, every: 900).first)
        #expect(source.kind == .file && source.name == "club" && source.location == path)
        try scratch.store.addLiveSource(source)
        #expect(syncer.syncFiles(source, now: 1).summary == "1 added, 0 updated, 0 removed")
        try Fixture.replace(path, with: event("club@x", "Club night (moved)"))
        #expect(syncer.syncFiles(source, now: 2).summary == "0 added, 1 updated, 0 removed")
        try FileManager.default.removeItem(atPath: path)
        let gone = syncer.syncFiles(source, now: 3)
        #expect(gone.failure?.kind == .missing)
        #expect(try summaries() == ["Club night (moved)"])
    }
}
