/// Reading and pruning the series change log (`ChangeLog`).
extension EventStore {
    /// Where the change log stands now; nil when the database has none (a read-only
    /// store of an older schema). Read inside the same read transaction as the data it
    /// positions.
    public func changeLogPosition() throws -> ChangeLogPosition? {
        try Self.changeLogPosition(db)
    }

    /// Where the change log stands on connection `db` (the store's, or its `WindowReader`'s).
    static func changeLogPosition(_ db: Connection) throws -> ChangeLogPosition? {
        guard let log = try db.scalarText("SELECT value FROM meta WHERE key = 'series_change_log'") else { return nil }
        let serial = try db.scalarInt("SELECT max(serial) FROM series_change") ?? 0
        return ChangeLogPosition(log: log, serial: serial)
    }

    /// The series changed after `old` up to `new` (this store's current position, read
    /// in the same read transaction), each once; nil when the log cannot tell: another
    /// log (the file was replaced), serials that went back, entries pruned that `old`
    /// had not seen, or a change to a whole calendar (removed, renamed). The caller then
    /// compares fingerprints (`seriesFingerprints(fromMinute:...)`).
    public func changedSeries(since old: ChangeLogPosition, upTo new: ChangeLogPosition) throws -> Set<SeriesName>? {
        guard old.log == new.log, old.serial <= new.serial else { return nil }
        if old.serial == new.serial { return [] }
        let floor = try db.scalarText("SELECT value FROM meta WHERE key = 'series_change_floor'").flatMap { Int64($0) } ?? 0
        guard old.serial >= floor else { return nil }
        var names = Set<SeriesName>()
        var wholeCalendar = false
        try db.statement("SELECT calendar, uid FROM series_change WHERE serial > ? AND serial <= ?")
            .forEachRow([.int(old.serial), .int(new.serial)]) { row in
                guard let calendar = row.optionalText(0), let uid = row.optionalText(1) else {
                    wholeCalendar = true
                    return
                }
                names.insert(SeriesName(calendar: calendar, uid: uid))
            }
        return wholeCalendar ? nil : names
    }

    /// Deletes the log's entries but the last `keeping` (at least one; the triggers do this once per
    /// `ChangeLog.pruneEvery` entries with `ChangeLog.defaultCapacity`); readers that had
    /// not seen them fall back to comparing fingerprints.
    public func pruneChangeLog(keeping: Int) throws {
        let keeping = max(1, keeping)
        try db.inTransaction {
            guard let position = try changeLogPosition() else { return }
            try db.execute("UPDATE meta SET value = '\(keeping)' WHERE key = 'series_change_capacity'")
            try db.execute(ChangeLog.pruneSQL(serial: String(position.serial)))
            try db.execute("UPDATE meta SET value = '\(ChangeLog.defaultCapacity)' WHERE key = 'series_change_capacity'")
        }
    }

    /// The number of entries the change log holds.
    public func changeLogCount() throws -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM series_change") ?? 0)
    }
}
