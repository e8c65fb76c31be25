import ICalendar

/// Summary of one calendar.
public struct CalendarInfo: Sendable, Equatable {
    public var name: String
    public var events: Int
    public var sources: [String]
}

/// The SQLite event store: calendars, sources, events and in-file time zones.
///
/// One `EventStore` owns one connection; use it from one thread (or actor) at a time.
public final class EventStore {
    public let db: Connection
    public var path: String { db.path }

    /// Opens the store at `path`, creating and migrating it unless `readOnly`.
    /// `mmapBytes` bounds how much of the file is memory-mapped (a long-running daemon
    /// keeps its resident size down with a small value; 0 reads through SQLite's cache).
    public init(path: String, readOnly: Bool = false, mmapBytes: Int = 256 << 20) throws {
        db = try Connection(path: path, readOnly: readOnly, mmapBytes: mmapBytes)
        if !readOnly {
            try Schema.migrate(db)
        } else {
            let version = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
            if version > Schema.currentVersion {
                throw StoreError.newerSchema(found: version, supported: Schema.currentVersion)
            }
        }
    }

    // MARK: - Calendars

    /// Every calendar, by name, with its event count and sources.
    public func calendars() throws -> [CalendarInfo] {
        var sources: [Int64: [String]] = [:]
        try db.statement("SELECT calendar_id, path FROM source ORDER BY path").forEachRow { row in
            sources[row.int(0), default: []].append(row.text(1))
        }
        return try db.statement("""
            SELECT c.id, c.name, (SELECT count(*) FROM event e WHERE e.calendar_id = c.id)
            FROM calendar c ORDER BY c.name
            """).map { row in
            CalendarInfo(name: row.text(1), events: Int(row.int(2)), sources: sources[row.int(0)] ?? [])
        }
    }

    /// The names of all calendars.
    public func calendarNames() throws -> [String] {
        try db.statement("SELECT name FROM calendar ORDER BY name").map { $0.text(0) }
    }

    /// Deletes a calendar with its sources and events. Returns the number of events removed.
    @discardableResult
    public func removeCalendar(_ name: String) throws -> Int {
        try db.inTransaction {
            guard let id = try db.scalarInt("SELECT id FROM calendar WHERE name = ?", [.text(name)]) else {
                throw StoreError.unknownCalendar(name)
            }
            let count = Int(try db.scalarInt("SELECT count(*) FROM event WHERE calendar_id = ?", [.int(id)]) ?? 0)
            try db.statement("DELETE FROM calendar WHERE id = ?").run([.int(id)])
            return count
        }
    }

    /// Total number of events (masters and overrides).
    public func eventCount() throws -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM event") ?? 0)
    }

    /// Changes whenever another connection commits (`PRAGMA data_version`).
    public func dataVersion() throws -> Int64 { try db.dataVersion() }

    // MARK: - Zones

    /// Makes sure the in-file zone definitions named by `keys` are registered.
    func ensureZones<S: Sequence>(_ keys: S) throws where S.Element == String {
        let registry = ZoneRegistry.shared
        for key in keys where !registry.isLoaded(key) {
            if let text = try db.scalarText("SELECT definition FROM timezone WHERE key = ?", [.text(key)]) {
                registry.register(text: text, key: key)
            }
        }
    }

    /// Registers every zone definition in the store.
    public func loadAllZones() throws {
        try db.statement("SELECT key, definition FROM timezone").forEachRow { row in
            let key = row.text(0)
            if !ZoneRegistry.shared.isLoaded(key) { ZoneRegistry.shared.register(text: row.text(1), key: key) }
        }
    }
}
