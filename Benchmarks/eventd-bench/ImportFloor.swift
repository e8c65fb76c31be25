import CLibical
import CSQLite
import Foundation

/// The floor an import is held to (issue 51: at most 0.85 of it): what a plain C program
/// does for the same file, here as direct calls of the same C libraries. libical's parse
/// of the whole file, then one prepared INSERT per VEVENT (its key, start, summary,
/// location, description, URL, rule and text) in one transaction, in WAL with
/// `synchronous = FULL` as eventd writes. No recurrence expansion, no normalisation, no
/// change detection: less than eventd does, so the ratio is conservative.
final class ImportFloor {
    private let db: OpaquePointer
    private let insert: OpaquePointer

    /// A fresh database at `path` with the floor's one table.
    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else { throw BenchError("cannot open \(path)") }
        db = handle
        try Self.check(sqlite3_exec(db, """
            PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
            CREATE TABLE event(id INTEGER PRIMARY KEY, uid TEXT NOT NULL, recurrence_id TEXT NOT NULL, dtstart TEXT,
                summary TEXT, location TEXT, description TEXT, url TEXT, rrule TEXT, vevent TEXT, UNIQUE (uid, recurrence_id));
            """, nil, nil, nil), db)
        var statement: OpaquePointer?
        try Self.check(sqlite3_prepare_v2(db, """
            INSERT OR REPLACE INTO event(uid, recurrence_id, dtstart, summary, location, description, url, rrule, vevent)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, -1, &statement, nil), db)
        insert = statement!
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close_v2(db)
    }

    /// Parses `text` (NUL-terminated) and stores its VEVENTs; returns how many.
    func run(_ text: [CChar]) throws -> Int {
        guard let calendar = text.withUnsafeBufferPointer({ icalparser_parse_string($0.baseAddress) }) else {
            throw BenchError("libical could not parse the file")
        }
        defer { icalcomponent_free(calendar) }
        try Self.check(sqlite3_exec(db, "BEGIN", nil, nil, nil), db)
        var count = 0
        var component = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT)
        while let event = component {
            let rid = icalcomponent_get_recurrenceid(event)
            let rule = icalcomponent_get_first_property(event, ICAL_RRULE_PROPERTY)
            let url = icalcomponent_get_first_property(event, ICAL_URL_PROPERTY)
            // Bound one by one (no array per event, as C would). The key columns are NOT
            // NULL: an absent UID or RECURRENCE-ID is "".
            bind(1, icalcomponent_get_uid(event), orEmpty: true)
            bind(2, icaltime_is_null_time(rid) == 1 ? nil : icaltime_as_ical_string(rid), orEmpty: true)
            bind(3, icaltime_as_ical_string(icalcomponent_get_dtstart(event)))
            bind(4, icalcomponent_get_summary(event))
            bind(5, icalcomponent_get_location(event))
            bind(6, icalcomponent_get_description(event))
            bind(7, url.flatMap { icalproperty_get_url($0) })
            bind(8, rule.flatMap { icalproperty_as_ical_string($0) })
            bind(9, icalcomponent_as_ical_string(event))
            try Self.check(sqlite3_step(insert), db)
            sqlite3_reset(insert)
            count += 1
            component = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)
        }
        try Self.check(sqlite3_exec(db, "COMMIT", nil, nil, nil), db)
        return count
    }

    /// Binds `text` (NULL when nil, or "" with `orEmpty`).
    private func bind(_ index: Int32, _ text: UnsafePointer<CChar>?, orEmpty: Bool = false) {
        if text == nil, orEmpty {
            sqlite3_bind_text(insert, index, "", 0, Self.transient)
        } else {
            sqlite3_bind_text(insert, index, text, -1, Self.transient)
        }
    }

    /// SQLITE_TRANSIENT: SQLite copies the text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func check(_ code: Int32, _ db: OpaquePointer) throws {
        guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
            throw BenchError("SQLite \(code): \(String(cString: sqlite3_errmsg(db)))")
        }
    }
}
