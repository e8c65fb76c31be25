import Foundation
import Testing
@testable import EventStore
import ICalendar

/// `Schema.migrate`: forward migrations recorded in `PRAGMA user_version`.
@Suite struct MigrationTests {
    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("eventd-migration-\(UUID().uuidString).db").path
    }

    func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// A new database file on which `sql` ran, its connection closed again.
    func temporaryDatabase(after sql: String) throws -> String {
        let path = temporaryPath()
        do {
            try Connection(path: path).execute(sql)
        } catch {
            remove(path)
            throw error
        }
        return path
    }

    func tables(_ db: Connection) throws -> Set<String> {
        Set(try db.statement("SELECT name FROM sqlite_master WHERE type = 'table'").map { $0.text(0) })
    }

    @Test func newFileIsMigratedToTheCurrentVersion() throws {
        let path = temporaryPath()
        defer { remove(path) }
        #expect(!FileManager.default.fileExists(atPath: path))
        let store = try EventStore(path: path)
        #expect(Schema.currentVersion >= 1)
        #expect(try store.db.scalarInt("PRAGMA user_version") == Int64(Schema.currentVersion))
        #expect(try tables(store.db).isSuperset(of: ["calendar", "source", "event", "timezone", "meta"]))
        #expect(try store.eventCount() == 0)
        #expect(try store.calendars().isEmpty)
    }

    @Test func zeroByteFileIsMigrated() throws {
        let path = temporaryPath()
        defer { remove(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try EventStore(path: path)
        #expect(try store.db.scalarInt("PRAGMA user_version") == Int64(Schema.currentVersion))
    }

    /// 7 -> 8: a calendar of an older database gets no colour until a file or a user
    /// gives it one; the user's wins over the file's, and "" gives the file's back.
    @Test func calendarsOfAnOlderDatabaseGetColours() throws {
        let path = temporaryPath()
        defer { remove(path) }
        do {
            let store = try EventStore(path: path)
            _ = try store.importCalendars([StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a@x")]))])
            try store.db.execute("ALTER TABLE calendar DROP COLUMN color; ALTER TABLE calendar DROP COLUMN chosen_color; "
                                 + "ALTER TABLE event DROP COLUMN description; ALTER TABLE event DROP COLUMN url; "
                                 + "ALTER TABLE source DROP COLUMN live_source; PRAGMA user_version = 7;")
        }
        let store = try EventStore(path: path)
        #expect(try store.db.scalarInt("PRAGMA user_version") == Int64(Schema.currentVersion))
        let name = try #require(try store.calendarNames().first)
        #expect(try store.calendarColors().isEmpty)
        let colored = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nX-APPLE-CALENDAR-COLOR:#0082C9FF\r\n"
            + "BEGIN:VEVENT\r\nUID:a@x\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260601T090000Z\r\nSUMMARY:a\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        _ = try store.importCalendars([StoreICS.input("a.ics", colored, calendar: name)])
        #expect(try store.calendarColors() == [name: "#0082c9"])
        try store.setCalendarColor(name, "#abc")
        #expect(try store.calendars().first?.color == "#aabbcc")
        #expect(throws: StoreError.invalidColor("teal")) { try store.setCalendarColor(name, "teal") }
        try store.setCalendarColor(name, nil)
        #expect(try store.calendarColors() == [name: "#0082c9"])
    }

    /// 8 -> 9: events stored before get their DESCRIPTION and URL from their stored
    /// text in the migration (an unchanged file is not parsed again); a VALARM's
    /// DESCRIPTION is not the event's, and an import fills both as well.
    @Test func eventsOfAnOlderDatabaseGetDescriptionsAndURLs() throws {
        let path = temporaryPath()
        defer { remove(path) }
        let events = [
            StoreICS.event("a@x", extra: ["DESCRIPTION;LANGUAGE=en:Agenda: plans\\, budget\\;", "  and more\\nline two",
                                          "URL;VALUE=URI:https://example.com/a", "BEGIN:VALARM", "ACTION:DISPLAY",
                                          "DESCRIPTION:Reminder", "TRIGGER:-PT10M", "END:VALARM"]),
            StoreICS.event("b@x", day: 2, extra: ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder",
                                                  "TRIGGER:-PT10M", "END:VALARM"]),
            StoreICS.event("c@x", day: 3, extra: ["url:javascript:alert(1)"]),
        ]
        func fields(_ db: Connection) throws -> [String: [String?]] {
            let rows = try db.statement("SELECT uid, description, url FROM event").map {
                ($0.text(0), [$0.optionalText(1), $0.optionalText(2)])
            }
            return Dictionary(uniqueKeysWithValues: rows)
        }
        let expected: [String: [String?]] = ["a@x": ["Agenda: plans, budget; and more\nline two", "https://example.com/a"],
                                             "b@x": [nil, nil], "c@x": [nil, "javascript:alert(1)"]]
        do {
            let store = try EventStore(path: path)
            _ = try store.importCalendars([StoreICS.input("a.ics", StoreICS.calendar(events))])
            #expect(try fields(store.db) == expected)
            try store.db.execute("ALTER TABLE event DROP COLUMN description; ALTER TABLE event DROP COLUMN url; "
                                 + "ALTER TABLE source DROP COLUMN live_source; PRAGMA user_version = 8;")
        }
        let store = try EventStore(path: path)
        #expect(try store.db.scalarInt("PRAGMA user_version") == Int64(Schema.currentVersion))
        #expect(try fields(store.db) == expected)
        // The store keeps the URL whatever its scheme: the feed chooses (SnapshotBuilder.linkable).
        let series = try store.series(fromMinute: 0, toMinute: EventRecord.openEndMinute)
        let a = try #require(series.first { $0.uid == "a@x" }?.series.master)
        #expect(a.description == "Agenda: plans, budget; and more\nline two" && a.url == "https://example.com/a")
        #expect(series.first { $0.uid == "c@x" }?.series.master?.url == "javascript:alert(1)")
    }

    @Test func reopeningAMigratedDatabaseChangesNothing() throws {
        let path = temporaryPath()
        defer { remove(path) }
        do {
            let store = try EventStore(path: path)
            _ = try store.importCalendars([StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a@x")]))])
        }
        let watcher = try Connection(path: path)
        let schemaBefore = try watcher.scalarInt("PRAGMA schema_version")
        let sqlBefore = try watcher.statement("SELECT type, name, sql FROM sqlite_master ORDER BY name").map { "\($0.text(0)) \($0.text(1)) \($0.optionalText(2) ?? "")" }
        let dataBefore = try watcher.dataVersion()
        for _ in 0..<3 {
            let store = try EventStore(path: path)
            #expect(try store.db.scalarInt("PRAGMA user_version") == Int64(Schema.currentVersion))
            #expect(try store.eventCount() == 1)
            try Schema.migrate(store.db) // explicitly, again
        }
        #expect(try watcher.scalarInt("PRAGMA schema_version") == schemaBefore)
        #expect(try watcher.statement("SELECT type, name, sql FROM sqlite_master ORDER BY name").map { "\($0.text(0)) \($0.text(1)) \($0.optionalText(2) ?? "")" } == sqlBefore)
        #expect(try watcher.dataVersion() == dataBefore, "re-opening wrote to the database")
    }

    @Test func handMadeVersionZeroDatabaseWithAnUnrelatedTableIsMigrated() throws {
        let path = temporaryPath()
        defer { remove(path) }
        do {
            let db = try Connection(path: path)
            try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES ('keep me')")
            #expect(try db.scalarInt("PRAGMA user_version") == 0)
        }
        let store = try EventStore(path: path)
        #expect(try store.db.scalarInt("PRAGMA user_version") == Int64(Schema.currentVersion))
        #expect(try store.db.scalarText("SELECT body FROM notes") == "keep me")
        #expect(try tables(store.db).isSuperset(of: ["calendar", "source", "event", "timezone", "meta", "notes"]))
        // And it works.
        let results = try store.importCalendars([StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a@x")]))])
        #expect(results.first?.added == 1)
    }

    @Test func failingMigrationLeavesNoPartialSchema() throws {
        // A table in the way of migration 1 (same name, other columns).
        let path = try temporaryDatabase(after: "CREATE TABLE event (x TEXT)")
        defer { remove(path) }
        #expect(throws: (any Error).self) { _ = try EventStore(path: path) }
        let db = try Connection(path: path)
        #expect(try db.scalarInt("PRAGMA user_version") == 0)
        #expect(try tables(db) == ["event"], "the failed migration's other tables were left behind")
    }

    @Test func newerVersionIsRefused() throws {
        let newer = Schema.currentVersion + 1
        let path = try temporaryDatabase(after: "PRAGMA user_version = \(newer)")
        defer { remove(path) }
        #expect(throws: StoreError.newerSchema(found: newer, supported: Schema.currentVersion)) {
            _ = try EventStore(path: path)
        }
        #expect(throws: StoreError.newerSchema(found: newer, supported: Schema.currentVersion)) {
            _ = try EventStore(path: path, readOnly: true)
        }
        let db = try Connection(path: path)
        #expect(try db.scalarInt("PRAGMA user_version") == Int64(newer))
        #expect(try tables(db).isEmpty, "a refused database must not be touched")
        #expect(StoreError.newerSchema(found: newer, supported: Schema.currentVersion).description.contains("newer"))
    }

    @Test func connectionSettings() throws {
        let path = temporaryPath()
        defer { remove(path) }
        let store = try EventStore(path: path)
        #expect(try store.db.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try store.db.scalarInt("PRAGMA foreign_keys") == 1)
        #expect((try store.db.scalarInt("PRAGMA busy_timeout") ?? 0) >= 1000)
        // A second connection gets the same settings.
        let other = try Connection(path: path)
        #expect(try other.scalarInt("PRAGMA foreign_keys") == 1)
        #expect((try other.scalarInt("PRAGMA busy_timeout") ?? 0) >= 1000)
    }

    @Test func readOnlyStoreDoesNotMigrate() throws {
        let path = try temporaryDatabase(after: "CREATE TABLE notes (x)")
        defer { remove(path) }
        _ = try? EventStore(path: path, readOnly: true)
        let db = try Connection(path: path)
        #expect(try db.scalarInt("PRAGMA user_version") == 0)
    }
}
