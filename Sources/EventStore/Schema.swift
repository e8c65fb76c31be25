import ICalendar

/// The database schema as an ordered list of forward migrations; `PRAGMA user_version`
/// records how many have run.
public enum Schema {
    /// Migration `i` takes a database from version `i` to `i + 1`.
    static let migrations: [String] = [
        // 0 -> 1: calendars, sources, events, in-file zones, the window index.
        """
        CREATE TABLE calendar (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE
        );
        CREATE TABLE source (
            id INTEGER PRIMARY KEY,
            calendar_id INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            imported_at INTEGER NOT NULL,
            default_tz TEXT,
            UNIQUE (calendar_id, path)
        );
        CREATE TABLE timezone (
            key TEXT PRIMARY KEY,
            tzid TEXT NOT NULL,
            definition TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE event (
            id INTEGER PRIMARY KEY,
            calendar_id INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
            uid TEXT NOT NULL,
            recurrence_id TEXT NOT NULL DEFAULT '',
            this_and_future INTEGER NOT NULL DEFAULT 0,
            dtstart TEXT NOT NULL,
            all_day INTEGER NOT NULL,
            duration_days INTEGER NOT NULL DEFAULT 0,
            duration_seconds INTEGER NOT NULL DEFAULT 0,
            rrule TEXT,
            rdates TEXT,
            exdates TEXT,
            status TEXT,
            summary TEXT,
            location TEXT,
            sequence INTEGER NOT NULL DEFAULT 0,
            modified INTEGER,
            import_serial INTEGER NOT NULL,
            first_minute INTEGER NOT NULL,
            last_minute INTEGER NOT NULL,
            span_class INTEGER NOT NULL,
            default_tz TEXT,
            content_hash TEXT NOT NULL,
            vevent TEXT NOT NULL,
            UNIQUE (calendar_id, uid, recurrence_id)
        );
        -- No index on source_id: syncing works from the calendar's rows in memory, and
        -- deleting a source (rare) may scan.
        -- The window index: events grouped by the length class of their span, ordered by
        -- start, so "can occur in [a, b)" is one range scan per class (see EventStore+Query).
        CREATE INDEX event_window ON event(span_class, first_minute);
        CREATE TABLE meta (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        """,
        // 1 -> 2: live sources (URLs, vdirs, watched files) and the hash of the bytes
        // each file source last synchronised completely, so that an unchanged re-import
        // costs only reading and hashing (see EventStore+UnchangedImport).
        """
        ALTER TABLE source ADD COLUMN synced_hash TEXT;
        ALTER TABLE source ADD COLUMN synced_events INTEGER;
        CREATE TABLE live_source (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            location TEXT NOT NULL,
            calendar TEXT NOT NULL,
            every_seconds INTEGER NOT NULL,
            etag TEXT,
            last_modified TEXT,
            body_hash TEXT,
            ttl_seconds INTEGER,
            events INTEGER NOT NULL DEFAULT 0,
            last_attempt INTEGER,
            last_success INTEGER,
            last_error TEXT,
            failures INTEGER NOT NULL DEFAULT 0,
            next_attempt INTEGER
        );
        """,
        // 2 -> 3: each event row's `BlockDigest` (the VEVENT's bytes and its calendar's
        // zones), so that a re-import parses only the blocks that changed (see
        // ImportWriter+Blocks). NULL: unknown, or read with warnings; never skipped.
        """
        ALTER TABLE event ADD COLUMN block_hash TEXT;
        """,
        // 3 -> 4: each event's display alarms (`EventRecord.alarms`: seconds before the
        // start, comma-separated; NULL for none), for `eventctl remind`. Rows imported
        // before this migration have NULL until their file is imported again.
        """
        ALTER TABLE event ADD COLUMN alarms TEXT;
        """,
        // 4 -> 5: the series change log, `ChangeLog.migration` (EventStore+ChangeLog).
        ChangeLog.migration,
        // 5 -> 6: window indexes that cover the recompute's queries, so that finding the
        // series of a window reads only index pages (no table row per event): the window
        // index carries what a fingerprint needs (`EventColumns.WindowFingerprint`), and
        // a partial index of the recurring masters carries what the join to their
        // overrides tests (`forEachOverrideOfWindowMasters`; the WHERE must stay the
        // query's, word for word, for SQLite to use it).
        """
        DROP INDEX event_window;
        CREATE INDEX event_window ON event(span_class, first_minute, last_minute, calendar_id, uid, content_hash);
        CREATE INDEX event_recurring_window
            ON event(span_class, first_minute, last_minute, calendar_id, uid, recurrence_id, rrule, rdates)
            WHERE recurrence_id = '' AND (rrule IS NOT NULL OR rdates IS NOT NULL);
        """,
        // 6 -> 7: the overrides alone (a few percent of the rows), so that the join from
        // a window's recurring masters to their overrides seeks in a small index, not in
        // the UNIQUE key's index of every row, and reads no table row. That join was most
        // of a whole build's window scan; this index made it about three times faster.
        // The WHERE is the join's, word for word.
        """
        CREATE INDEX event_overrides ON event(calendar_id, uid, recurrence_id, content_hash)
            WHERE recurrence_id <> '';
        """,
        // 7 -> 8: each calendar's colour: its own, read at import (`color`), and the one
        // a user chose (`chosen_color`, `eventctl calendars --color`), which wins.
        """
        ALTER TABLE calendar ADD COLUMN color TEXT;
        ALTER TABLE calendar ADD COLUMN chosen_color TEXT;
        """,
        // 8 -> 9: each event's DESCRIPTION and URL (`EventRecord.description`, `.url`:
        // unfolded, the description unescaped; NULL for none), for the feed's items.
        // Rows stored before are filled by `backfills[8]` from their stored VEVENT text,
        // in the migration's transaction: an unchanged file is not parsed again, so
        // they would otherwise stay empty.
        """
        ALTER TABLE event ADD COLUMN description TEXT;
        ALTER TABLE event ADD COLUMN url TEXT;
        """,
        // 9 -> 10: which live source owns each input (`source.live_source`: its name;
        // NULL: `eventctl import`), docs/data-model.md "Ownership". A live source writes
        // and removes only its own inputs. Inputs stored before are given to the live
        // source whose location they match (its URL's `live:` name, its file, or a file
        // in its directory, in its calendar), as that source used them until now.
        """
        ALTER TABLE source ADD COLUMN live_source TEXT;
        UPDATE source SET live_source = (
            SELECT l.name FROM live_source l JOIN calendar c ON c.name = l.calendar
            WHERE c.id = source.calendar_id AND (
                (l.kind = 'url' AND source.path = 'live:' || l.name)
                OR (l.kind <> 'url' AND (source.path = l.location
                    OR substr(source.path, 1, length(rtrim(l.location, '/')) + 1) = rtrim(l.location, '/') || '/')))
            ORDER BY l.id LIMIT 1);
        """,
    ]

    /// Work a migration does in Swift after its SQL, in its transaction, by index.
    static let backfills: [Int: @Sendable (Connection) throws -> Void] = [8: backfillDescriptionsAndURLs]

    /// Reads the DESCRIPTION and URL of every stored event whose text may have one
    /// (`EventText`, as an import reads them). Only rows whose text names either are read
    /// (LIKE is case-insensitive for ASCII); the parse is a scan of the text's lines.
    static func backfillDescriptionsAndURLs(_ db: Connection) throws {
        var found: [(id: Int64, description: String?, url: String?)] = []
        try db.statement("SELECT id, vevent FROM event WHERE vevent LIKE '%DESCRIPTION%' OR vevent LIKE '%URL%'")
            .forEachRow([]) { row in
                let (description, url) = EventText.descriptionAndURL(row.text(1))
                if description != nil || url != nil { found.append((row.int(0), description, url)) }
            }
        let update = try db.statement("UPDATE event SET description = ?, url = ? WHERE id = ?")
        for row in found {
            try update.run([row.description.map { .text($0) } ?? .null, row.url.map { .text($0) } ?? .null, .int(row.id)])
        }
    }

    /// The version a fully migrated database has.
    public static var currentVersion: Int { migrations.count }

    /// Runs every migration the database has not had yet, each in its own transaction.
    public static func migrate(_ db: Connection) throws {
        let version = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
        guard version <= currentVersion else {
            throw StoreError.newerSchema(found: version, supported: currentVersion)
        }
        for index in version..<currentVersion {
            try db.inTransaction {
                // The version was read before taking the write lock: another process that
                // opened the same new database at the same moment may have migrated it
                // meanwhile ("table calendar already exists"). Look again under the lock.
                guard Int(try db.scalarInt("PRAGMA user_version") ?? 0) == index else { return }
                try db.execute(migrations[index])
                try backfills[index]?(db)
                try db.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }
}
