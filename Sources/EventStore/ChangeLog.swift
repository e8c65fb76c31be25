/// The series change log: which series (calendar name and UID) any writer changed, in
/// commit order, kept by SQLite triggers in the writer's own transaction, so that every
/// writer (eventctl import, live sources, `remove`, an older eventd) records its changes
/// and a crash loses none. Readers remember the serial they built from and ask only for
/// what came after it (`EventStore.changedSeries(since:)`).
public enum ChangeLog {
    /// Entries kept after pruning; a reader further behind falls back to the fingerprint
    /// scan (it would rebuild whole anyway: 8,192 changed series are past the
    /// incremental limit of all but the largest views).
    public static let defaultCapacity = 8192
    /// The triggers prune once per this many entries, so that pruning costs one delete
    /// per batch, not per row; the log holds at most `capacity + pruneEvery` entries.
    public static let pruneEvery = 256

    /// The schema migration that creates the log.
    ///
    /// `serial` is the rowid: the next entry takes the highest plus one, and pruning
    /// always keeps the newest entry, so serials only grow (not AUTOINCREMENT, whose
    /// `sqlite_sequence` update would be one more write per row an import writes). `calendar` or `uid` NULL means "more
    /// than one series may have changed" (a calendar removed or renamed; the event rows
    /// a calendar's removal cascades to, whose calendar is gone by then): readers rescan.
    /// `meta.series_change_log` names this log (a random id): a database file replaced
    /// by another has another log, whose serials say nothing about this one's.
    /// `meta.series_change_floor` is the highest serial pruned: a reader that saw less
    /// has missed entries. An update logs only when what a series fingerprint is made
    /// of (row id, calendar, UID, content hash) or the row's window can change, so that
    /// re-pointing rows at another source logs nothing.
    static let migration = """
        CREATE TABLE series_change (
            serial INTEGER PRIMARY KEY,
            calendar TEXT,
            uid TEXT
        );
        INSERT INTO meta(key, value) VALUES ('series_change_log', lower(hex(randomblob(16))));
        INSERT INTO meta(key, value) VALUES ('series_change_floor', '0');
        INSERT INTO meta(key, value) VALUES ('series_change_capacity', '\(defaultCapacity)');
        CREATE TRIGGER series_change_on_insert AFTER INSERT ON event BEGIN
            INSERT INTO series_change(calendar, uid)
            VALUES ((SELECT name FROM calendar WHERE id = NEW.calendar_id), NEW.uid);
        END;
        CREATE TRIGGER series_change_on_update AFTER UPDATE ON event
        WHEN OLD.id IS NOT NEW.id OR OLD.calendar_id IS NOT NEW.calendar_id OR OLD.uid IS NOT NEW.uid
            OR OLD.recurrence_id IS NOT NEW.recurrence_id OR OLD.content_hash IS NOT NEW.content_hash
            OR OLD.first_minute IS NOT NEW.first_minute OR OLD.last_minute IS NOT NEW.last_minute
            OR OLD.span_class IS NOT NEW.span_class OR OLD.default_tz IS NOT NEW.default_tz
        BEGIN
            INSERT INTO series_change(calendar, uid)
            VALUES ((SELECT name FROM calendar WHERE id = OLD.calendar_id), OLD.uid);
            INSERT INTO series_change(calendar, uid)
            SELECT (SELECT name FROM calendar WHERE id = NEW.calendar_id), NEW.uid
            WHERE OLD.calendar_id IS NOT NEW.calendar_id OR OLD.uid IS NOT NEW.uid;
        END;
        CREATE TRIGGER series_change_on_delete AFTER DELETE ON event BEGIN
            INSERT INTO series_change(calendar, uid)
            VALUES ((SELECT name FROM calendar WHERE id = OLD.calendar_id), OLD.uid);
        END;
        CREATE TRIGGER series_change_on_calendar_delete BEFORE DELETE ON calendar BEGIN
            INSERT INTO series_change(calendar, uid) VALUES (OLD.name, NULL);
        END;
        CREATE TRIGGER series_change_on_calendar_rename AFTER UPDATE OF name ON calendar
        WHEN OLD.name IS NOT NEW.name BEGIN
            INSERT INTO series_change(calendar, uid) VALUES (OLD.name, NULL);
            INSERT INTO series_change(calendar, uid) VALUES (NEW.name, NULL);
        END;
        CREATE TRIGGER series_change_prune AFTER INSERT ON series_change
        WHEN NEW.serial % \(pruneEvery) = 0 BEGIN
            \(pruneSQL(serial: "NEW.serial"))
        END;
        """

    /// Deletes the entries more than `meta.series_change_capacity` (at least 1, so the
    /// newest stays and serials keep growing) before `serial` and records the highest
    /// deleted serial as the floor (never lowering it).
    static func pruneSQL(serial: String) -> String {
        let cut = "(\(serial) - max(1, CAST((SELECT value FROM meta WHERE key = 'series_change_capacity') AS INTEGER)))"
        return """
            DELETE FROM series_change WHERE serial <= \(cut);
            UPDATE meta SET value = CAST(max(CAST(value AS INTEGER), \(cut)) AS TEXT)
            WHERE key = 'series_change_floor';
            """
    }
}

/// Where a reader stands in a database's change log.
public struct ChangeLogPosition: Sendable, Hashable {
    /// The log's id (`meta.series_change_log`).
    public var log: String
    /// The highest serial given when the reader read (0: none yet).
    public var serial: Int64
}

/// A series named by its calendar and UID.
public struct SeriesName: Sendable, Hashable {
    /// The calendar's name.
    public var calendar: String
    /// The series' UID.
    public var uid: String

    /// The series `uid` of `calendar`.
    public init(calendar: String, uid: String) { (self.calendar, self.uid) = (calendar, uid) }
}
