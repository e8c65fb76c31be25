import Testing
@testable import EventStore
import TestSupport

/// Migrations 5 -> 6 and 6 -> 7: the window scans of a recompute read only index pages
/// (the overrides of the window's masters from their own small index), and a database
/// migrated from version 5 finds the same series as before.
@Suite struct WindowIndexTests {
    func plan(_ db: Connection, _ sql: String) throws -> String {
        try db.statement("EXPLAIN QUERY PLAN " + sql).map { $0.text(3) }.joined(separator: "; ")
    }

    @Test func windowScansAreCovered() throws {
        let scratch = try ScratchStore()
        let fingerprints = try plan(scratch.db, EventStore.windowQuery(EventColumns.WindowFingerprint.self))
        #expect(fingerprints.contains("COVERING INDEX event_window "), "\(fingerprints)")
        let masters = try plan(scratch.db, EventStore.windowMastersOverridesQuery)
        #expect(masters.contains("SEARCH m USING COVERING INDEX event_recurring_window "), "\(masters)")
        #expect(masters.contains("SEARCH o USING COVERING INDEX event_overrides "), "\(masters)")
        // The records' scan (whole rows) still ranges over the window index.
        let records = try plan(scratch.db, EventStore.windowQuery(EventColumns.Record.self))
        #expect(records.contains("INDEX event_window "), "\(records)")
    }

    @Test func versionFiveDatabaseFindsTheSameSeries() throws {
        let scratch = try ScratchStore()
        let weekly = ["RRULE:FREQ=WEEKLY;COUNT=10"]
        let moved = ["UID:w@x", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID:20260615T090000Z",
                     "DTSTART:20260616T120000Z", "DTEND:20260616T130000Z", "SUMMARY:moved"]
        let text = StoreICS.calendar([StoreICS.event("a@x", day: 3), StoreICS.event("w@x", day: 1, extra: weekly), moved,
                                      StoreICS.event("late@x", day: 28)])
        _ = try scratch.run(StoreICS.input("a.ics", text))
        let (from, to) = (minutes(2026, 6, 10), minutes(2026, 6, 20))
        func found() throws -> [String] {
            try scratch.store.seriesFingerprints(fromMinute: from, toMinute: to)
                .map { "\($0.uid) \($0.rowIDs) \($0.fingerprint)" }.sorted()
        }
        let now = try found()
        #expect(now.count == 1 && now[0].hasPrefix("w@x [") && now[0].contains(", "), "the master and its override: \(now)")
        // Back to version 5's indexes and columns, then reopened: migrated again, same answers.
        try scratch.db.execute("""
            DROP INDEX event_overrides; DROP INDEX event_recurring_window; DROP INDEX event_window;
            CREATE INDEX event_window ON event(span_class, first_minute);
            ALTER TABLE calendar DROP COLUMN color; ALTER TABLE calendar DROP COLUMN chosen_color;
            ALTER TABLE event DROP COLUMN description; ALTER TABLE event DROP COLUMN url;
            ALTER TABLE source DROP COLUMN live_source;
            PRAGMA user_version = 5;
            """)
        #expect(try found() == now)
        try scratch.reopen()
        #expect(try scratch.db.scalarInt("PRAGMA user_version") == Int64(Schema.currentVersion))
        #expect(try plan(scratch.db, EventStore.windowQuery(EventColumns.WindowFingerprint.self)).contains("COVERING"))
        #expect(try plan(scratch.db, EventStore.windowMastersOverridesQuery).contains("COVERING INDEX event_overrides"))
        #expect(try found() == now)
    }
}
