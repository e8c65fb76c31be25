import Foundation
import EventStore
import Digests

/// What a database holds, independent of import times: calendars, sources and events
/// as `(uid, recurrence_id, content_hash)`, plus the time-zone keys.
struct DatabaseContent: Equatable, CustomStringConvertible {
    /// calendar -> sorted "uid|rid|hash" lines.
    var events: [String: [String]] = [:]
    /// calendar -> sorted "path|hash" lines.
    var sources: [String: [String]] = [:]
    var timezones: [String] = []

    var eventCount: Int { events.values.reduce(0) { $0 + $1.count } }

    func count(_ calendar: String) -> Int { events[calendar]?.count ?? 0 }

    /// A short fingerprint of one calendar (events and sources).
    func fingerprint(_ calendar: String) -> String {
        SHA256.hexDigest(Array(((events[calendar] ?? []) + ["--"] + (sources[calendar] ?? [])).joined(separator: "\n").utf8)).prefix(16).description
    }

    var fingerprint: String {
        var text = ""
        for name in Set(events.keys).union(sources.keys).sorted() { text += name + ":" + fingerprint(name) + "\n" }
        text += timezones.joined(separator: ",")
        return String(SHA256.hexDigest(Array(text.utf8)).prefix(16))
    }

    var description: String {
        let names = Set(events.keys).union(sources.keys).sorted()
        return "{" + names.map { "\($0): \(count($0)) events, \(sources[$0]?.count ?? 0) sources" }.joined(separator: "; ") + "}"
    }

    /// Lists the calendars whose content differs, for failure messages.
    func differences(from other: DatabaseContent) -> String {
        var out: [String] = []
        for name in Set(events.keys).union(other.events.keys).union(sources.keys).union(other.sources.keys).sorted() {
            let a = Set(events[name] ?? []), b = Set(other.events[name] ?? [])
            let sa = sources[name] ?? [], sb = other.sources[name] ?? []
            if a != b || sa != sb {
                let extra = a.subtracting(b).sorted().prefix(3), missing = b.subtracting(a).sorted().prefix(3)
                out.append("\(name): \(a.count) vs \(b.count) events (only here: \(Array(extra)), only there: \(Array(missing))), sources \(sa) vs \(sb)")
            }
        }
        if timezones != other.timezones { out.append("timezones \(timezones.count) vs \(other.timezones.count)") }
        return out.isEmpty ? "no differences" : out.joined(separator: "; ")
    }
}

/// Opens databases the way any later user would (read-write: SQLite recovers a WAL
/// left by a killed writer), checks them and reads their content. The connection is
/// closed before returning.
enum DatabaseInspector {
    /// `PRAGMA integrity_check` (the whole answer; "ok" when sound) and
    /// `PRAGMA foreign_key_check` (empty when sound).
    static func integrity(_ path: String) throws -> String {
        let db = try Connection(path: path, mmapBytes: 0)
        let rows = try db.statement("PRAGMA integrity_check").map { $0.text(0) }
        let fk = try db.statement("PRAGMA foreign_key_check").map { "fk: \($0.text(0)) row \($0.int(1))" }
        return (rows + fk).joined(separator: "; ")
    }

    static func content(_ path: String) throws -> DatabaseContent {
        let db = try Connection(path: path, mmapBytes: 0)
        var c = DatabaseContent()
        let hasSchema = try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'event'") ?? 0
        guard hasSchema > 0 else { return c }
        try db.statement("""
            SELECT c.name, e.uid, e.recurrence_id, e.content_hash FROM event e JOIN calendar c ON c.id = e.calendar_id
            """).forEachRow { row in
            c.events[row.text(0), default: []].append(row.text(1) + "|" + row.text(2) + "|" + row.text(3))
        }
        try db.statement("SELECT name FROM calendar").forEachRow { row in
            if c.events[row.text(0)] == nil { c.events[row.text(0)] = [] }
        }
        try db.statement("SELECT c.name, s.path, s.content_hash FROM source s JOIN calendar c ON c.id = s.calendar_id").forEachRow { row in
            c.sources[row.text(0), default: []].append(row.text(1) + "|" + row.text(2))
        }
        c.timezones = try db.statement("SELECT key FROM timezone ORDER BY key").map { $0.text(0) }
        for k in c.events.keys { c.events[k]!.sort() }
        for k in c.sources.keys { c.sources[k]!.sort() }
        return c
    }

    /// Events of one calendar, counted with SQL.
    static func eventCount(_ path: String, calendar: String) throws -> Int {
        let db = try Connection(path: path, mmapBytes: 0)
        return Int(try db.scalarInt("SELECT count(*) FROM event e JOIN calendar c ON c.id = e.calendar_id WHERE c.name = ?",
                                    [.text(calendar)]) ?? 0)
    }
}
