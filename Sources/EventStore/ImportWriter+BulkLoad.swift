/// Bulk loading: a file that brings at least as many events as the whole event table
/// holds is written without the window index and the change log's insert trigger,
/// which are created again, from their own stored SQL, before the run commits.
///
/// Maintaining the window index and one change-log row per insert was most of an
/// import's writer; in bulk it runs about 40% fewer instructions, the index's rebuild
/// included. `CREATE INDEX` sorts once
/// instead of placing 100,000 keys one by one in a B-tree; when the table already holds
/// more rows than the file adds, sorting them all would cost more than it saves.
///
/// Everything happens inside the run's transaction, so a crash or an error rolls the
/// indexes and the trigger back with the rows. Readers see the schema of the last commit
/// (WAL), and their prepared statements are prepared again after it (SQLite's schema
/// cookie). The change log gets one entry per calendar the run inserted into while the
/// trigger was absent, with a NULL UID: "any series of this calendar may have changed",
/// on which readers compare fingerprints (`changedSeries(since:upTo:)`) as they would
/// for a log that overflowed.
extension ImportWriter {
    /// What bulk loading took away, to be put back by `endBulkLoad`.
    struct BulkLoad {
        /// `CREATE` statements of the dropped indexes and trigger, as `sqlite_schema` had them.
        var dropped: [String] = []
        /// Calendars written to while the insert trigger was absent.
        var calendars: Set<Int64> = []
    }

    /// The insert trigger bulk loading drops (`ChangeLog.migration`).
    static let insertTriggerName = "series_change_on_insert"

    /// Starts bulk loading when a file of `blockCount` VEVENTs is at least
    /// `minimumBlocks` and at least as large as the event table; notes the calendar of
    /// a file written while loading in bulk.
    mutating func considerBulkLoad(blockCount: Int, calendarID: Int64, minimumBlocks: Int) throws {
        if bulkLoad == nil, blockCount >= minimumBlocks,
           Int64(blockCount) >= (try db.scalarInt("SELECT count(*) FROM event") ?? 0) {
            bulkLoad = try dropForBulkLoad()
        }
        bulkLoad?.calendars.insert(calendarID)
    }

    /// Drops the event table's secondary indexes of every row and the change log's
    /// insert trigger. Kept: the UNIQUE key's index (it checks every insert) and the
    /// partial indexes, which take a few percent of the rows each: for those, creating
    /// them again is mostly a scan of the whole table (about 50 ms each at 100,000
    /// events), which costs more than adding their few rows one by one.
    private func dropForBulkLoad() throws -> BulkLoad {
        var load = BulkLoad()
        var drops: [String] = []
        try db.statement("""
            SELECT s.type, s.name, s.sql FROM sqlite_schema AS s
            WHERE s.tbl_name = 'event' AND s.sql IS NOT NULL
              AND ((s.type = 'index' AND s.name IN (SELECT name FROM pragma_index_list('event') WHERE partial = 0))
                   OR (s.type = 'trigger' AND s.name = ?))
            ORDER BY s.type, s.name
            """).forEachRow([.text(Self.insertTriggerName)]) { row in
            load.dropped.append(row.text(2))
            drops.append("DROP \(row.text(0) == "index" ? "INDEX" : "TRIGGER") \"\(row.text(1))\"")
        }
        for drop in drops { try db.execute(drop) }
        return load
    }

    /// Creates again what bulk loading dropped and logs each calendar it wrote to.
    mutating func endBulkLoad() throws {
        guard let load = bulkLoad else { return }
        bulkLoad = nil
        // A small cache for the rebuild: it bounds the sorter's memory too (the run's
        // temporary storage is on file), at a cost lost in the noise.
        let cache = try db.scalarInt("PRAGMA cache_size") ?? -2000
        try db.execute("PRAGMA cache_size = -2048")
        defer { try? db.execute("PRAGMA cache_size = \(cache)") }
        for sql in load.dropped { try db.execute(sql) }
        for calendarID in load.calendars.sorted() {
            try db.statement("INSERT INTO series_change(calendar, uid) SELECT name, NULL FROM calendar WHERE id = ?")
                .run([.int(calendarID)])
        }
    }
}
