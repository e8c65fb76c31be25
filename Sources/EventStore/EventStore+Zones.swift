import ICalendar

/// In-file time zone definitions (the `timezone` table): a row is stored only while an
/// event uses it, read only when a query reads such an event, and bounded.
///
/// A row holds a VTIMEZONE's text under its key (`vtz:HASH`); an event refers to it in
/// its encoded times (`DTSTART`, `RDATE`, `EXDATE`: `...@vtz:HASH`). An import stores the
/// definitions its events used (the parser reads no other, `FileZoneBudget`), and every
/// change that can drop an event's last use (a re-sync, `--replace`, removing a source,
/// its files or a calendar) collects the rows no event uses any more, and drops them from
/// this process's `ZoneRegistry`.
extension EventStore {
    /// Most definitions one database stores.
    public static let maxStoredZones = 512
    /// Most bytes of definition text one database stores.
    public static let maxStoredZoneBytes = 2 << 20

    /// Makes sure the in-file zone definitions named by `keys` are registered.
    func ensureZones<S: Sequence>(_ keys: S) throws where S.Element == String {
        let registry = ZoneRegistry.shared
        for key in keys where !registry.isLoaded(key) {
            if let text = try db.scalarText("SELECT definition FROM timezone WHERE key = ?", [.text(key)]) {
                registry.register(text: text, key: key)
            }
        }
    }

    /// The number of stored zone definitions and their bytes.
    public func storedZones() throws -> (count: Int, bytes: Int) {
        try Self.storedZones(db)
    }

    /// Deletes the definitions no event uses (in a transaction of its own). Returns how
    /// many went.
    @discardableResult
    public func collectUnusedZones() throws -> Int {
        // No write transaction (and no wait for the write lock) when nothing is stored.
        guard try db.scalarInt("SELECT EXISTS (SELECT 1 FROM timezone)") == 1 else { return 0 }
        return try db.inTransaction { try Self.collectUnusedZones(db) }
    }

    static func storedZones(_ db: Connection) throws -> (count: Int, bytes: Int) {
        var result = (count: 0, bytes: 0)
        try db.statement("SELECT count(*), coalesce(sum(length(CAST(definition AS BLOB))), 0) FROM timezone").forEachRow { row in
            result = (Int(row.int(0)), Int(row.int(1)))
        }
        return result
    }

    /// Deletes the definitions no event uses, inside the caller's transaction, and drops
    /// them from the registry. Nothing is read when no definition is stored (the usual
    /// case: most calendars name IANA zones, which are never stored).
    @discardableResult
    static func collectUnusedZones(_ db: Connection) throws -> Int {
        guard try db.scalarInt("SELECT EXISTS (SELECT 1 FROM timezone)") == 1 else { return 0 }
        var used = Set<String>()
        try db.statement("""
            SELECT dtstart, rdates, exdates FROM event
            WHERE instr(dtstart, '@vtz:') > 0 OR instr(rdates, '@vtz:') > 0 OR instr(exdates, '@vtz:') > 0
            """).forEachRow { row in
            for column: Int32 in 0..<3 where !row.isNull(column) {
                for key in zoneKeys(in: row.text(column)) { used.insert(key) }
            }
        }
        let unused = try db.statement("SELECT key FROM timezone").map { $0.text(0) }.filter { !used.contains($0) }
        let delete = try db.statement("DELETE FROM timezone WHERE key = ?")
        for key in unused { try delete.run([.text(key)]) }
        // Dropped now even if the transaction is rolled back: a query loads them again.
        ZoneRegistry.shared.forget(unused)
        return unused.count
    }
}

extension ImportWriter {
    /// Stores the definitions the file's events used (`summary.timezones`), within the
    /// database's bound; throws `ImportError.zoneBound` when they would exceed it.
    func storeZones(of summary: ParsedCalendar, file: String) throws {
        let exists = try db.statement("SELECT 1 FROM timezone WHERE key = ?")
        var new: [(key: String, tzid: String, text: String)] = []
        // A definition of a name the system knows is never read (the system's zone wins,
        // docs/data-model.md): not stored, so re-importing an export writes nothing.
        for (key, zone) in summary.timezones.sorted(by: { $0.key < $1.key }) where !Zone.isSystemName(zone.tzid) {
            if try exists.map([.text(key)], { _ in true }).isEmpty { new.append((key, zone.tzid, zone.text)) }
        }
        guard !new.isEmpty else { return }
        let bytes = new.reduce(0) { $0 + $1.text.utf8.count }
        func fits() throws -> Bool {
            let stored = try EventStore.storedZones(db)
            return stored.count + new.count <= EventStore.maxStoredZones && stored.bytes + bytes <= EventStore.maxStoredZoneBytes
        }
        // Rows this run's changes left unused do not count.
        if try !fits() { try EventStore.collectUnusedZones(db) }
        guard try fits() else {
            throw ImportError.zoneBound(file: file, definitions: EventStore.maxStoredZones, bytes: EventStore.maxStoredZoneBytes)
        }
        let insert = try db.statement("INSERT INTO timezone(key, tzid, definition) VALUES (?, ?, ?)")
        for zone in new { try insert.run([.text(zone.key), .text(zone.tzid), .text(zone.text)]) }
    }
}
