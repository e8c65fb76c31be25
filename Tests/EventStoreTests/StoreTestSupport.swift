import Foundation
import Testing
@testable import EventStore
import ICalendar
import TestSupport

/// What these tests do with TestSupport's `ScratchStore`.
extension ScratchStore {
    var db: Connection { store.db }

    /// A second connection to the same file (sees other connections' commits in `data_version`).
    func watcher() throws -> Connection { try Connection(path: path) }

    func run(_ inputs: [ImportInput], replace: Bool = false, strict: Bool = false, now: Int64 = 1_790_000_000) throws -> [FileImportResult] {
        try store.importCalendars(inputs, options: ImportOptions(replace: replace, strict: strict), now: now)
    }

    func run(_ input: ImportInput, replace: Bool = false, strict: Bool = false, now: Int64 = 1_790_000_000) throws -> FileImportResult {
        let results = try run([input], replace: replace, strict: strict, now: now)
        try #require(results.count == 1)
        return results[0]
    }

    func summary(_ uid: String, calendar: String = "work") throws -> String? {
        try db.scalarText("SELECT e.summary FROM event e JOIN calendar c ON c.id = e.calendar_id WHERE c.name = ? AND e.uid = ? AND e.recurrence_id = ''",
                          [.text(calendar), .text(uid)])
    }

    func uids(calendar: String = "work") throws -> [String] {
        try db.statement("SELECT e.uid FROM event e JOIN calendar c ON c.id = e.calendar_id WHERE c.name = ? ORDER BY e.uid, e.recurrence_id")
            .map([.text(calendar)]) { $0.text(0) }
    }

    /// Every event row as text, for "nothing changed" comparisons.
    func snapshot() throws -> [String] {
        try db.statement("SELECT calendar_id, source_id, uid, recurrence_id, dtstart, summary, sequence, content_hash, vevent FROM event ORDER BY id")
            .map { row in (0..<9).map { row.isNull(Int32($0)) ? "NULL" : row.text(Int32($0)) }.joined(separator: "|") }
    }
}

enum StoreICS {
    static func calendar(_ events: [[String]], header: [String] = []) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//eventd//store tests//EN"] + header
            + events.flatMap { ["BEGIN:VEVENT"] + $0 + ["END:VEVENT"] } + ["END:VCALENDAR"])
            .map { $0 + "\r\n" }.joined()
    }

    /// A one-hour UTC event on `day` of June 2026.
    static func event(_ uid: String, day: Int = 1, summary: String? = nil, extra: [String] = []) -> [String] {
        let d = day < 10 ? "0\(day)" : "\(day)"
        return ["UID:\(uid)", "DTSTAMP:20260101T000000Z", "DTSTART:202606\(d)T090000Z", "DTEND:202606\(d)T100000Z",
                "SUMMARY:\(summary ?? uid)"] + extra
    }

    static func input(_ name: String, _ text: String, calendar: String = "work", liveSource: String? = nil) -> ImportInput {
        ImportInput(path: "/tmp/eventd-store-tests/\(name)", displayName: name, bytes: Array(text.utf8), calendar: calendar,
                    liveSource: liveSource)
    }

    /// The vdir source `name` of these tests' directory, filling `calendar`.
    static func vdir(_ name: String = "vdir", calendar: String = "work") -> LiveSource {
        LiveSource(name: name, kind: .vdir, location: "/tmp/eventd-store-tests", calendar: calendar, everySeconds: 60)
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}

func minutes(_ y: Int, _ m: Int, _ d: Int) -> Int64 {
    CivilDateTime(date: CivilDate(year: y, month: m, day: d)).secondsAsIfUTC / 60
}
