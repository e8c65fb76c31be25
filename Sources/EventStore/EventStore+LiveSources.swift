extension EventStore {
    // MARK: - The live-source table

    /// Adds a source (its state as given). Throws `LiveSourceError.duplicate` when
    /// the name is taken, `ImportError.invalidCalendarName` for a bad name.
    public func addLiveSource(_ source: LiveSource) throws {
        try addLiveSources([source])
    }

    /// Adds every source of `sources` or none, in one transaction: every name is checked
    /// (valid, not taken, not given twice) before anything is written. Throws
    /// `LiveSourceError.duplicate` naming every taken name, `ImportError.invalidCalendarName`.
    public func addLiveSources(_ sources: [LiveSource]) throws {
        for source in sources {
            for name in [source.name, source.calendar] where !isValidCalendarName(name) {
                throw ImportError.invalidCalendarName(name)
            }
        }
        try db.inTransaction {
            var seen = Set<String>()
            var taken: [String] = []
            for source in sources {
                let stored = try db.scalarInt("SELECT 1 FROM live_source WHERE name = ?", [.text(source.name)]) != nil
                if !seen.insert(source.name).inserted || stored { taken.append(source.name) }
            }
            if !taken.isEmpty { throw LiveSourceError.duplicate(taken.joined(separator: "\", \"")) }
            let columns = LiveSourceColumns.allCases
            let insert = try db.statement("INSERT INTO live_source(\(LiveSourceColumns.selectList)) VALUES ("
                                          + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")")
            for source in sources {
                try insert.run(columns.map { source.value(of: $0) })
            }
        }
    }

    /// Every source, by name.
    public func liveSources() throws -> [LiveSource] {
        try db.statement("SELECT \(LiveSourceColumns.selectList) FROM live_source ORDER BY name")
            .map { LiveSource(row: $0) }.compactMap { $0 }
    }

    /// The source called `name`, if any.
    public func liveSource(named name: String) throws -> LiveSource? {
        try db.statement("SELECT \(LiveSourceColumns.selectList) FROM live_source WHERE name = ?")
            .map([.text(name)]) { LiveSource(row: $0) }.first ?? nil
    }

    /// Records what an attempt left behind: the state columns, written only when a
    /// significant one changed, so that an unchanged poll commits nothing.
    public func saveLiveSourceState(_ source: LiveSource) throws {
        let columns = LiveSourceColumns.stateColumns
        let significant = LiveSourceColumns.significantColumns
        let changed = significant.map { "\($0.sql) IS NOT ?" }.joined(separator: " OR ")
        try db.statement("UPDATE live_source SET " + columns.map { "\($0.sql) = ?" }.joined(separator: ", ")
                         + " WHERE name = ? AND (\(changed))")
            .run(columns.map { source.value(of: $0) } + [.text(source.name)] + significant.map { source.value(of: $0) })
    }

    /// Removes the source, the events it brought and its calendar when that is left
    /// empty. Returns the number of events removed.
    @discardableResult
    public func removeLiveSource(named name: String) throws -> Int {
        try removeLiveSources(named: [name])
    }

    /// Removes every source of `names` as `removeLiveSource` does, in one transaction:
    /// all of them, or none when one is unknown. Returns the number of events removed.
    @discardableResult
    public func removeLiveSources(named names: [String]) throws -> Int {
        try db.inTransaction {
            var removed = 0
            for name in names {
                guard let source = try liveSource(named: name) else { throw LiveSourceError.unknown(name) }
                removed += try removeInTransaction(source)
            }
            return removed
        }
    }

    private func removeInTransaction(_ source: LiveSource) throws -> Int {
        let name = source.name
        let paths = try ownedInputPaths(of: source)
        var removed = 0
        if let calendarID = try db.scalarInt("SELECT id FROM calendar WHERE name = ?", [.text(source.calendar)]) {
            removed = try deleteInputs(paths, calendarID: calendarID, owner: name)
            let left = try db.scalarInt("SELECT count(*) FROM event WHERE calendar_id = ?", [.int(calendarID)]) ?? 0
            let sources = try db.scalarInt("SELECT count(*) FROM source WHERE calendar_id = ?", [.int(calendarID)]) ?? 0
            let others = try db.scalarInt("SELECT count(*) FROM live_source WHERE calendar = ? AND name <> ?",
                                          [.text(source.calendar), .text(name)]) ?? 0
            if left == 0, sources == 0, others == 0 {
                try db.statement("DELETE FROM calendar WHERE id = ?").run([.int(calendarID)])
            }
        }
        try db.statement("DELETE FROM live_source WHERE name = ?").run([.text(name)])
        return removed
    }

    /// The input paths (`source.path`) the source has written into its calendar and
    /// owns (`source.live_source`, docs/data-model.md "Ownership"): its `live:` name for a
    /// URL, the file, or the files in the directory. An input of the same path that
    /// `eventctl import` or another source stored is not among them.
    public func ownedInputPaths(of source: LiveSource) throws -> [String] {
        try db.statement("""
            SELECT s.path FROM source s JOIN calendar c ON c.id = s.calendar_id
            WHERE c.name = ? AND s.live_source = ? ORDER BY s.path
            """).map([.text(source.calendar), .text(source.name)]) { $0.text(0) }
    }

    /// Deletes the inputs `paths` that `source` owns in its calendar, with their events
    /// (a file gone from a vdir). Returns the number of events removed.
    @discardableResult
    public func removeInputs(_ paths: [String], of source: LiveSource) throws -> Int {
        guard !paths.isEmpty else { return 0 }
        return try db.inTransaction {
            guard let calendarID = try db.scalarInt("SELECT id FROM calendar WHERE name = ?", [.text(source.calendar)]) else { return 0 }
            return try deleteInputs(paths, calendarID: calendarID, owner: source.name)
        }
    }

    /// Where an event's text came from: the input (`source.path`) and the live source
    /// that owns it (nil: `eventctl import`).
    public struct EventOrigin: Sendable, Equatable {
        public var calendar: String
        public var path: String
        public var liveSource: LiveSource?
    }

    /// The inputs holding events of `uid` (in `calendar` when given), one per calendar
    /// and input, by calendar name.
    public func origins(ofUID uid: String, calendar: String? = nil) throws -> [EventOrigin] {
        let rows = try db.statement("""
            SELECT DISTINCT c.name, s.path, s.live_source FROM event e JOIN source s ON s.id = e.source_id
            JOIN calendar c ON c.id = e.calendar_id WHERE e.uid = ? AND (? IS NULL OR c.name = ?) ORDER BY c.name, s.path
            """).map([.text(uid), calendar.map { .text($0) } ?? .null, calendar.map { .text($0) } ?? .null]) {
                (calendar: $0.text(0), path: $0.text(1), owner: $0.optionalText(2))
            }
        return try rows.map { row in
            EventOrigin(calendar: row.calendar, path: row.path, liveSource: try row.owner.flatMap { try liveSource(named: $0) })
        }
    }

    /// The file of the event `uid` (in `calendar` when given) that may be edited: in a
    /// vdir source's directory. Else why not ("read-only: …").
    public func editableFile(uid: String, calendar: String?) throws -> String {
        let origins = try self.origins(ofUID: uid, calendar: calendar)
        guard let origin = origins.first else {
            throw LiveSourceError.notEditable("no event with UID \(uid)" + (calendar.map { " in calendar \($0)" } ?? ""))
        }
        guard Set(origins.map(\.calendar)).count == 1 else {
            throw LiveSourceError.notEditable("UID \(uid) is in several calendars (\(Set(origins.map(\.calendar)).sorted().joined(separator: ", ")))")
        }
        guard let source = origin.liveSource, source.kind == .vdir else {
            let why = origin.liveSource.map { "calendar \(origin.calendar) comes from a \($0.kind == .url ? "URL" : "watched file") source" }
                ?? "calendar \(origin.calendar) was imported"
            throw LiveSourceError.notEditable("read-only: \(why); only vdir calendars are edited")
        }
        guard origins.count == 1 else { throw LiveSourceError.notEditable("read-only: UID \(uid) is in \(origins.count) files") }
        return origin.path
    }

    /// The vdir source a new event goes to: the one filling `calendar`, else the only one.
    public func vdirForNewEvent(calendar: String?) throws -> LiveSource {
        let vdirs = try liveSources().filter { $0.kind == .vdir }
        if let calendar {
            if let source = vdirs.first(where: { $0.calendar == calendar }) { return source }
            throw LiveSourceError.notEditable("read-only: calendar \(calendar) is not a vdir"
                                    + (vdirs.isEmpty ? "" : " (vdir calendars: \(vdirs.map(\.calendar).joined(separator: ", ")))"))
        }
        switch vdirs.count {
        case 0: throw LiveSourceError.notEditable("no vdir calendar to write to (add one: eventctl source add DIR)")
        case 1: return vdirs[0]
        default: throw LiveSourceError.notEditable("which calendar? select an event of one of \(vdirs.map(\.calendar).joined(separator: ", "))")
        }
    }

    /// The number of events in `calendar` (0 when there is no such calendar).
    public func eventCount(calendar: String) throws -> Int {
        try eventCount(ofCalendar: calendar) ?? 0
    }

    /// Only inputs of `owner` (`source.live_source`): never an import's, whatever its path.
    private func deleteInputs(_ paths: [String], calendarID: Int64, owner: String) throws -> Int {
        var removed = 0
        for path in paths {
            guard let id = try db.scalarInt("SELECT id FROM source WHERE calendar_id = ? AND path = ? AND live_source = ?",
                                            [.int(calendarID), .text(path), .text(owner)]) else { continue }
            removed += Int(try db.scalarInt("SELECT count(*) FROM event WHERE source_id = ?", [.int(id)]) ?? 0)
            // Another source of the calendar may hold a key it lost to this one: it must be
            // parsed again to bring it back (see EventStore+UnchangedImport).
            try db.statement("UPDATE source SET synced_hash = NULL WHERE calendar_id = ? AND synced_hash IS NOT NULL")
                .run([.int(calendarID)])
            // The events go with their source (ON DELETE CASCADE).
            try db.statement("DELETE FROM source WHERE id = ?").run([.int(id)])
        }
        try Self.collectUnusedZones(db)
        return removed
    }
}
