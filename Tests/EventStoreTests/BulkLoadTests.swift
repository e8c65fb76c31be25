import CalendarGenerator
import Foundation
import Testing
@testable import EventStore
import TestSupport

/// Bulk loading (`ImportWriter+BulkLoad`): a file at least as large as the event table
/// is written without the window indexes and the change log's insert trigger, which are
/// created again before the commit. What it stores, the schema it leaves and what the
/// change log tells readers must be those of a row-by-row import.
@Suite struct BulkLoadTests {
    /// A generated calendar of `events` events (recurring ones, overrides, zones).
    static func generated(_ events: Int, seed: UInt64 = 7) -> [UInt8] {
        let generator = CalendarGenerator(.init(events: events, seed: seed,
                                                firstDate: GeneratorDate(year: 2026, month: 1, day: 1), spanDays: 120))
        var bytes: [UInt8] = []
        _ = generator.write(into: &bytes)
        return bytes
    }

    static func input(_ bytes: [UInt8], name: String = "big.ics", calendar: String = "work") -> ImportInput {
        ImportInput(path: "/tmp/eventd-bulk-tests/\(name)", displayName: name, bytes: bytes, calendar: calendar)
    }

    /// Imports with bulk loading from `bulkFrom` VEVENTs on.
    @discardableResult
    static func importFile(_ s: ScratchStore, _ input: ImportInput, bulkFrom: Int, strict: Bool = false) throws -> [FileImportResult] {
        var options = ImportOptions(strict: strict)
        options.bulkLoadFromBlocks = bulkFrom
        return try s.store.importCalendars([input], options: options, now: 1_790_000_000)
    }

    /// Every row, every column but `import_serial`, each with its stored type ('' is
    /// not NULL, an integer is not its text).
    static func rows(_ s: ScratchStore) throws -> [String] {
        let columns = ["id", "calendar_id", "source_id", "uid", "recurrence_id", "this_and_future", "dtstart", "all_day",
                       "duration_days", "duration_seconds", "rrule", "rdates", "exdates", "status", "summary", "location",
                       "sequence", "modified", "first_minute", "last_minute", "span_class", "default_tz", "content_hash",
                       "vevent", "block_hash", "alarms"]
        let select = columns.map { "typeof(\($0)) || ':' || coalesce(\($0), '')" }.joined(separator: " || '|' || ")
        return try s.db.statement("SELECT \(select) FROM event ORDER BY id").map { $0.text(0) }
    }

    /// The event table's indexes and triggers as SQLite stores their SQL.
    static func schema(_ s: ScratchStore) throws -> [String] {
        try s.db.statement("SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_schema WHERE tbl_name = 'event' ORDER BY name")
            .map { $0.text(0) }
    }

    @Test func storesWhatARowByRowImportStoresAndLeavesTheSameSchema() throws {
        let bytes = Self.generated(600)
        let bulk = try ScratchStore(), rowByRow = try ScratchStore()
        let fresh = try Self.schema(bulk)
        let a = try Self.importFile(bulk, Self.input(bytes), bulkFrom: 1)
        let b = try Self.importFile(rowByRow, Self.input(bytes), bulkFrom: .max)
        #expect(a == b)
        #expect(a.first?.added ?? 0 > 600)
        #expect(try Self.rows(bulk) == Self.rows(rowByRow))
        #expect(try Self.schema(bulk) == fresh)
        #expect(try bulk.db.scalarText("PRAGMA integrity_check") == "ok")
        // The planner still finds the window through its covering index.
        let plan = try bulk.db.statement("EXPLAIN QUERY PLAN SELECT uid FROM event WHERE span_class = 0 AND first_minute >= 0")
            .map { $0.text(3) }.joined(separator: "\n")
        #expect(plan.contains("event_window"))
    }

    @Test func tellsReadersTheCalendarChangedWhole() throws {
        let s = try ScratchStore()
        try s.run(StoreICS.input("small.ics", StoreICS.calendar([StoreICS.event("a")]), calendar: "home"))
        let before = try #require(try s.store.changeLogPosition())
        try Self.importFile(s, Self.input(Self.generated(300)), bulkFrom: 1)
        let after = try #require(try s.store.changeLogPosition())
        #expect(after.serial > before.serial)
        // One entry for the whole calendar: readers compare fingerprints.
        #expect(try s.store.read { try s.store.changedSeries(since: before, upTo: after) } == nil)
        #expect(try s.db.scalarInt("SELECT count(*) FROM series_change WHERE serial > ?", [.int(before.serial)]) == 1)
        #expect(try s.db.scalarText("SELECT calendar FROM series_change WHERE uid IS NULL ORDER BY serial DESC") == "work")
        // The trigger is back: a later small import is logged series by series.
        let later = try #require(try s.store.changeLogPosition())
        try s.run(StoreICS.input("small.ics", StoreICS.calendar([StoreICS.event("a"), StoreICS.event("b")]), calendar: "home"))
        #expect(try s.store.read { try s.store.changedSeries(since: later, upTo: try #require(try s.store.changeLogPosition())) }
                == [SeriesName(calendar: "home", uid: "b")])
    }

    @Test func aFileSmallerThanTheTableIsWrittenRowByRow() throws {
        let s = try ScratchStore()
        try Self.importFile(s, Self.input(Self.generated(300)), bulkFrom: 1)
        let before = try #require(try s.store.changeLogPosition())
        // 200 events into a table of 300+: row by row, so every series is logged.
        try Self.importFile(s, Self.input(Self.generated(200, seed: 9), name: "other.ics", calendar: "other"), bulkFrom: 1)
        let changed = try s.store.read { try s.store.changedSeries(since: before, upTo: try #require(try s.store.changeLogPosition())) }
        let names = try #require(changed)
        #expect(names.count > 150)
        #expect(names.allSatisfy { $0.calendar == "other" })
    }

    @Test func aFailedBulkImportLeavesTheIndexesAndTriggerAsTheyWere() throws {
        let s = try ScratchStore()
        let fresh = try Self.schema(s)
        // --strict fails after every row was written (a warning), rolling all back.
        var bytes = Self.generated(200)
        let marker = Array("BEGIN:VEVENT\r\n".utf8)
        let broken = Array("BEGIN:VEVENT\r\nUID:broken\r\nDTSTART:20260301T090000Z\r\nRRULE:FREQ=SOMETIMES\r\nEND:VEVENT\r\n".utf8)
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: marker) })
        bytes.insert(contentsOf: broken, at: at)
        #expect(throws: ImportError.self) { try Self.importFile(s, Self.input(bytes), bulkFrom: 1, strict: true) }
        #expect(try Self.schema(s) == fresh)
        #expect(try s.db.scalarInt("SELECT count(*) FROM event") == 0)
        // The same file without --strict loads in bulk and leaves the same schema.
        try Self.importFile(s, Self.input(bytes), bulkFrom: 1)
        #expect(try Self.schema(s) == fresh)
        #expect(try s.db.scalarInt("SELECT count(*) FROM event") ?? 0 > 200)
    }
}
