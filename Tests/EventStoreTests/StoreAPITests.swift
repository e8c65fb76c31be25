import Foundation
import Testing
@testable import EventStore
import TestSupport

/// The store's API for its users: column lists, read transactions, daemon options and
/// the database file identity.
struct StoreAPITests {
    @Test func columnListsAreTheTableColumns() {
        #expect(EventColumns.Record.selectList == "id, calendar_id, uid, recurrence_id, this_and_future, dtstart, "
            + "duration_days, duration_seconds, rrule, rdates, exdates, status, summary, location, sequence, modified, substr(description, 1, 1025), url")
        #expect(EventColumns.Written.selectList.hasSuffix("span_class, default_tz, content_hash, vevent, block_hash, alarms, description, url"))
        #expect(EventColumns.Export.selectList == "e.vevent, e.dtstart, e.rdates, e.exdates, e.default_tz, e.source_id")
        #expect(EventColumns.Fingerprint.selectList.hasPrefix("id, calendar_id, uid, content_hash, (recurrence_id"))
        #expect(ImportWriter.updateSQL.hasSuffix("vevent = ?, block_hash = ?, alarms = ?, description = ?, url = ? WHERE id = ?"))
    }

    @Test func readRollsBackOnThrowAndCanBeUsedAgain() throws {
        let s = try ScratchStore()
        struct Boom: Error {}
        #expect(throws: Boom.self) { try s.store.read { _ = try s.store.eventCount(); throw Boom() } }
        #expect(try s.store.read { try s.store.eventCount() } == 0)
    }

    @Test func daemonOptionsSetTheCacheAndNoMemoryMap() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("eventd-api-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("sub/events.db").path
        let store = try EventStore(path: path, options: .daemon)
        #expect(try store.db.scalarInt("PRAGMA cache_size") == -2048)
        #expect(try store.db.scalarInt("PRAGMA mmap_size") == 0)
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o077 == 0, "the new database is private")
    }

    @Test func replacedFileIsNoticedAndOurWALDetached() throws {
        let s = try ScratchStore()
        #expect(s.store.files.replacedOrRemoved() == nil)
        _ = try s.run([ImportInput(path: "/a.ics", displayName: "a", bytes: Array("""
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a@x\r\nDTSTART:20260101T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """.utf8), calendar: "a")])
        let moved = s.path + ".moved"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(moved + suffix) } }
        #expect(rename(s.path, moved) == 0)
        #expect(s.store.files.replacedOrRemoved() == .removed)
        #expect(FileManager.default.createFile(atPath: s.path, contents: Data()))
        #expect(s.store.files.replacedOrRemoved() == .replaced)
        #expect(FileManager.default.fileExists(atPath: s.path + "-wal"))
        try s.store.detachStaleFiles()
        #expect(!FileManager.default.fileExists(atPath: s.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: s.path + "-shm"))
        // The checkpoint put our events into our (moved) file.
        #expect(try EventStore(path: moved, readOnly: true).eventCount() == 1)
    }
}
