import ICalendar

/// Ownership (docs/data-model.md): every event belongs to the input that brought it, and
/// every input (`source` row) to its owner: `eventctl import` (`live_source` NULL) or one
/// live source (its name). Imports follow the conflict rule among themselves and over a
/// live source's events. A live source writes only what it owns: it never takes over an
/// event another owner brought, whatever the calendar's name, and never writes into
/// another owner's input row. What it leaves alone is counted (`keptFromOthers`) and
/// said in a warning; `EventStore.removeLiveSource` deletes only its own inputs.
extension ImportWriter {
    /// The input row of `input` in its calendar, and whether it is another owner's
    /// (`foreign`: a live source's file that an import, or another source, stored under
    /// the same path). Throws `ImportError.ownedByLiveSource` for an `eventctl import` of
    /// a path a live source owns there: its events would go when the source is removed.
    mutating func ownedSource(calendarID: Int64, input: ImportInput) throws -> (id: Int64?, foreign: Bool) {
        try loadOwners(calendarID)
        guard let id = try db.scalarInt("SELECT id FROM source WHERE calendar_id = ? AND path = ?",
                                        [.int(calendarID), .text(input.path)]) else { return (nil, false) }
        let owner = owners[id] ?? nil
        if owner == input.liveSource { return (id, false) }
        if input.liveSource == nil, let owner {
            throw ImportError.ownedByLiveSource(file: input.displayName, source: owner, calendar: input.calendar)
        }
        return (nil, true)
    }

    /// Whether `file` may rewrite (or take over) a row of the input `sourceID`.
    func mayTakeOver(_ sourceID: Int64, for file: FileState) -> Bool {
        guard let liveSource = file.liveSource, sourceID != file.sourceID else { return true }
        return (owners[sourceID] ?? nil) == liveSource
    }

    /// The warning of a live source's file whose events were kept from other owners.
    func noteKept(_ file: inout FileState) {
        let kept = file.result.keptFromOthers
        guard kept > 0 else { return }
        let what = file.foreign ? "\(file.path) was imported into calendar \(file.result.calendar) by eventctl import or another source"
            : "calendar \(file.result.calendar) holds \(kept) of these events (same UID) from eventctl import or another source"
        file.result.warnings.append(ImportIssue(line: 0, message: what + "; kept those, this source does not take them over"))
    }

    private mutating func loadOwners(_ calendarID: Int64) throws {
        guard ownersLoaded.insert(calendarID).inserted else { return }
        try db.statement("SELECT id, live_source FROM source WHERE calendar_id = ?").forEachRow([.int(calendarID)]) { row in
            owners[row.int(0)] = .some(row.isNull(1) ? nil : row.text(1))
        }
    }
}
