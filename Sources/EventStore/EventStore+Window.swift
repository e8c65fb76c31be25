/// The window query, written once for `series(fromMinute:...)` and
/// `seriesFingerprints(fromMinute:...)`.
extension EventStore {
    /// Calendar names by id, restricted to `names` when given.
    func calendarIDs(restrictedTo names: [String]?) throws -> [Int64: String] {
        var ids: [Int64: String] = [:]
        try db.statement("SELECT id, name FROM calendar").forEachRow { row in ids[row.int(0)] = row.text(1) }
        if let names {
            let wanted = Set(names)
            ids = ids.filter { wanted.contains($0.value) }
        }
        return ids
    }

    /// Calls `body` with every row (as `columns`) that can occur in
    /// `[fromMinute, toMinute)`: one range scan of the window index per span class
    /// (`classes`, all of them unless given), in that order. A row may come more than once.
    func forEachRowInWindow<C: ResultColumns>(_ columns: C.Type, fromMinute: Int64, toMinute: Int64,
                                              classes: some Sequence<Int> = SpanClass.all,
                                              _ body: (Row) throws -> Void) throws {
        try Self.forEachRowInWindow(db, C.self, fromMinute: fromMinute, toMinute: toMinute, classes: classes, body)
    }

    /// `forEachRowInWindow` on `db` (the store's connection, or its `WindowReader`'s).
    static func forEachRowInWindow<C: ResultColumns>(_ db: Connection, _ columns: C.Type, fromMinute: Int64,
                                                     toMinute: Int64, classes: some Sequence<Int>,
                                                     _ body: (Row) throws -> Void) throws {
        let window = try db.statement(Self.windowQuery(C.self))
        for k in classes {
            let lower = k == SpanClass.open ? Int64.min : fromMinute - SpanClass.reach(k)
            try window.forEachRow([.int(Int64(k)), .int(lower), .int(toMinute), .int(fromMinute)], body)
        }
    }

    /// The query of one span class's range scan, reading `columns`.
    static func windowQuery<C: ResultColumns>(_ columns: C.Type) -> String {
        """
        SELECT \(C.selectList) FROM event
        WHERE span_class = ? AND first_minute >= ? AND first_minute < ? AND last_minute > ?
        """
    }

    /// Whether a row of span class `spanClass` spanning `[first, last]` minutes is one
    /// `forEachRowInWindow` gives for `[fromMinute, toMinute)`: the same bounds, per row.
    static func inWindow(spanClass k: Int64, first: Int64, last: Int64, fromMinute: Int64, toMinute: Int64) -> Bool {
        let lower = k == Int64(SpanClass.open) ? Int64.min : fromMinute - SpanClass.reach(Int(k))
        return first >= lower && first < toMinute && last > fromMinute
    }

    /// Calls `body` with every override (as `columns`) of the series `uid` in `calendarID`,
    /// wherever it lies.
    func forEachOverride<C: ResultColumns>(_ columns: C.Type, calendarID: Int64, uid: String,
                                           _ body: (Row) throws -> Void) throws {
        try db.statement("SELECT \(C.selectList) FROM event WHERE calendar_id = ? AND uid = ? AND recurrence_id <> ''")
            .forEachRow([.int(calendarID), .text(uid)], body)
    }
}
