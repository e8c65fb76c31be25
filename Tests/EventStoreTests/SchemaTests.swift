import Testing
import Foundation
@testable import EventStore

@Suite struct SchemaTests {
    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("eventd-test-\(UUID().uuidString).db").path
    }

    @Test func migratesEmptyFileToCurrentVersion() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try EventStore(path: path)
        #expect(try store.db.scalarInt("PRAGMA user_version") == Int64(Schema.currentVersion))
        #expect(try store.db.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try store.db.scalarInt("PRAGMA foreign_keys") == 1)
        #expect(try store.calendars().isEmpty)
    }

    @Test func refusesNewerSchema() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let db = try Connection(path: path)
            try db.execute("PRAGMA user_version = 999")
        }
        #expect(throws: StoreError.newerSchema(found: 999, supported: Schema.currentVersion)) {
            _ = try EventStore(path: path)
        }
    }

    @Test func transactionRollsBackOnThrow() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try EventStore(path: path)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try store.db.inTransaction {
                try store.db.statement("INSERT INTO calendar(name) VALUES ('x')").run()
                throw Boom()
            }
        }
        #expect(try store.calendars().isEmpty)
    }

    @Test func structuredErrorCarriesCodeAndSQL() throws {
        let path = temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try EventStore(path: path)
        let error = #expect(throws: SQLiteError.self) { try store.db.execute("SELEKT 1") }
        #expect(error?.primaryCode == 1)
        #expect(error?.sql == "SELEKT 1")
        #expect(error?.message.contains("syntax error") == true)
    }
}
