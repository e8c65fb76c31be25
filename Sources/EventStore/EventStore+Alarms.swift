extension EventStore {
    /// The display alarms stored for the series `uids` (seconds before the start, see
    /// `EventRecord.alarms`): the master's, or for a single event its own. UIDs without
    /// alarms are absent. For `eventctl remind`, which learns the occurrences from the
    /// feed and their alarms here.
    public func alarms(uids: some Collection<String>) throws -> [String: [Int64]] {
        var result: [String: [Int64]] = [:]
        let all = Array(Set(uids))
        // SQLite's default limit on bound parameters is 32,766; stay well under it.
        for start in stride(from: 0, to: all.count, by: 500) {
            let chunk = all[start..<min(all.count, start + 500)]
            let sql = "SELECT \(Column.selectList) FROM event WHERE alarms IS NOT NULL AND uid IN ("
                + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")"
            try read {
                try db.statement(sql).forEachRow(chunk.map { .text($0) }) { row in
                    let uid = row.text(Column.uid)
                    // The master's alarms win over an override's.
                    guard result[uid] == nil || row.text(Column.recurrenceID).isEmpty else { return }
                    result[uid] = row.text(Column.alarms).split(separator: ",").compactMap { Int64($0) }
                }
            }
        }
        return result
    }

    private typealias Column = EventColumns.Alarm
}
