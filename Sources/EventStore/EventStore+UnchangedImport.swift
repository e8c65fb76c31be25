extension EventStore {
    /// The inputs whose bytes are exactly what their source last synchronised
    /// completely (`source.synced_hash`), with the result an import of them would have
    /// had: nothing to write. Such a re-import costs reading and hashing, no parse.
    ///
    /// Only for plain runs: `--strict` must see the warnings again, and `--replace`
    /// decides about the whole calendar; and only for files that had no warnings (they
    /// are parsed again so that their warnings are reported again). `hashes` gives the
    /// inputs' `ContentHash`es; only files whose source is known synced are hashed here.
    func unchangedInputs(_ inputs: [ImportInput], hashes: FileHashes) throws -> [Int: FileImportResult] {
        var found: [Int: FileImportResult] = [:]
        let lookup = try db.statement("""
            SELECT s.synced_events, s.synced_hash FROM source s JOIN calendar c ON c.id = s.calendar_id
            WHERE c.name = ? AND s.path = ?
            """)
        for (index, input) in inputs.enumerated() {
            var events: Int64?
            try lookup.forEachRow([.text(input.calendar), .text(input.path)]) { row in
                if let synced = row.optionalText(1), synced == hashes[index] { events = row.optionalInt(0) }
            }
            guard let events else { continue }
            var result = FileImportResult(path: input.path, displayName: input.displayName, calendar: input.calendar)
            result.unchanged = Int(events)
            result.sameBytes = true
            found[index] = result
        }
        return found
    }
}

extension ImportWriter {
    /// Records that the source now holds exactly what `file`'s bytes say, and how many
    /// of its events an import of them counts (a file with warnings is not recorded).
    func markSynced(_ file: FileState) throws {
        guard let sourceID = file.sourceID else { return }
        let r = file.result
        guard r.warnings.isEmpty, r.skipped == 0 else {
            try invalidateSynced(sourceID: sourceID)
            return
        }
        let events = Int64(r.added + r.updated + r.unchanged)
        try db.statement("UPDATE source SET synced_hash = ?, synced_events = ? WHERE id = ? AND (synced_hash IS NOT ? OR synced_events IS NOT ?)")
            .run([.text(file.fileHash), .int(events), .int(sourceID), .text(file.fileHash), .int(events)])
    }

    /// Another source's row was taken over or deleted: that source no longer holds
    /// what its bytes say, so its next import must parse them again.
    func invalidateSynced(sourceID: Int64) throws {
        try db.statement("UPDATE source SET synced_hash = NULL WHERE id = ? AND synced_hash IS NOT NULL").run([.int(sourceID)])
    }

    /// `--replace` deleted rows of the calendar: no source of it is known synced.
    func invalidateSynced(calendarID: Int64) throws {
        try db.statement("UPDATE source SET synced_hash = NULL WHERE calendar_id = ? AND synced_hash IS NOT NULL")
            .run([.int(calendarID)])
    }
}
