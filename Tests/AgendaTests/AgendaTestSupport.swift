import Foundation
import Testing
import Agenda
import EventStore
import ICalendar
import SectionedDiff
import CanonicalJSON
import TestSupport

// MARK: - Stores

/// What these tests do with TestSupport's `ScratchStore`.
extension ScratchStore {
    /// Imports `events` as the file `/t/<file>` into `calendar` (re-importing the same file
    /// synchronises it: events it no longer has are removed).
    @discardableResult
    func load(_ events: [[String]], calendar: String = "work", file: String? = nil,
              header: [String] = []) throws -> FileImportResult {
        let name = file ?? "\(calendar).ics"
        let text = ICS.calendar(events, header: header)
        let results = try store.importCalendars([ImportInput(path: "/t/\(name)", displayName: name,
                                                             bytes: Array(text.utf8), calendar: calendar)])
        try #require(results.count == 1)
        try #require(results[0].skipped == 0, "skipped components: \(results[0].warnings)")
        return results[0]
    }

    /// A new store holding `events`, imported into `calendar` as `load` does.
    convenience init(loading events: [[String]], calendar: String = "work") throws {
        try self.init()
        try load(events, calendar: calendar)
    }

    /// Builds `view` from scratch at `now`.
    func build(_ view: View, now: Int64 = Fixture.now) throws -> AgendaSnapshot {
        try SnapshotBuilder.build(view, store: store, now: now)
    }
}

// MARK: - iCalendar text

enum ICS {
    static func calendar(_ events: [[String]], header: [String] = []) -> String {
        icsCalendar(events: events, header: header, prodID: "-//eventd//agenda tests//EN")
    }

    /// A VEVENT body: UID and DTSTAMP, then `properties`.
    static func event(_ uid: String, _ properties: String...) -> [String] {
        ["UID:\(uid)", "DTSTAMP:20260101T000000Z"] + properties
    }

    /// A timed event in Europe/Berlin: `start`/`end` are `YYYYMMDDTHHMMSS`.
    static func berlin(_ uid: String, _ start: String, _ end: String?, summary: String? = nil,
                       _ extra: String...) -> [String] {
        withDates(uid, parameter: "TZID=Europe/Berlin", start, end, summary: summary, extra)
    }

    /// An all-day event from `start` (`YYYYMMDD`) to the exclusive `end`.
    static func allDay(_ uid: String, _ start: String, _ end: String?, summary: String? = nil,
                       _ extra: String...) -> [String] {
        withDates(uid, parameter: "VALUE=DATE", start, end, summary: summary, extra)
    }

    /// UID, DTSTAMP, DTSTART and DTEND with `parameter`, SUMMARY (the UID by default), `extra`.
    private static func withDates(_ uid: String, parameter: String, _ start: String, _ end: String?,
                                  summary: String?, _ extra: [String]) -> [String] {
        var lines = ["UID:\(uid)", "DTSTAMP:20260101T000000Z", "DTSTART;\(parameter):\(start)"]
        if let end { lines.append("DTEND;\(parameter):\(end)") }
        lines.append("SUMMARY:\(summary ?? uid)")
        return lines + extra
    }
}

// MARK: - Times and views

enum Fixture {
    /// 2026-11-29 12:00:00 UTC (a Sunday; 13:00 in Berlin, 07:00 in New York).
    static let now = utc(2026, 11, 29, 12)

    static let berlin = "Europe/Berlin"
    static let newYork = "America/New_York"

    /// A window of `days` dates from `from` (`YYYY-MM-DD`).
    static func view(_ zone: String = berlin, from: String? = "2026-11-28", pastDays: Int = 0, days: Int = 7,
                     calendars: [String]? = nil, emptyDays: View.EmptyDays = .omit) -> View {
        View(timeZone: zone, from: from.map { date($0) }, pastDays: pastDays, days: days, calendars: calendars,
             emptyDays: emptyDays)
    }
}

/// Seconds since the epoch of a UTC wall-clock time.
func utc(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0, _ s: Int = 0) -> Int64 {
    CivilDateTime(date: CivilDate(year: y, month: m, day: d), hour: h, minute: min, second: s).secondsAsIfUTC
}

func date(_ iso: String) -> CivilDate { CivilDate(iso: iso)! }

// MARK: - Reading snapshots

extension AgendaSnapshot {
    /// Section ids (ISO dates), in order.
    var dates: [String] { sections.map(\.id) }
    var labels: [String?] { sections.map(\.label) }
    var allItems: [AgendaItem] { sections.flatMap(\.items) }

    func section(_ iso: String) -> AgendaSection? { sections.first { $0.id == iso } }

    /// The items of `uid`, with their section date, in snapshot order.
    func items(uid: String) -> [(date: String, item: AgendaItem)] {
        sections.flatMap { s in s.items.filter { $0.string("uid") == uid }.map { (s.id, $0) } }
    }

    /// Expects `uid`'s items on `dates`, and those fields of the first that are given
    /// (`start`, `end`, `continues_from_previous_day`, `continues_to_next_day`).
    func expectItems(_ uid: String, on dates: [String], start: String? = nil, end: String? = nil,
                     fromPreviousDay: Bool? = nil, toNextDay: Bool? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        let items = self.items(uid: uid)
        #expect(items.map(\.date) == dates, "\(uid)", sourceLocation: sourceLocation)
        let first = items.first?.item
        if let start { #expect(first?.string("start") == start, "\(uid)", sourceLocation: sourceLocation) }
        if let end { #expect(first?.string("end") == end, "\(uid)", sourceLocation: sourceLocation) }
        if let fromPreviousDay {
            #expect(first?.bool("continues_from_previous_day") == fromPreviousDay, "\(uid)", sourceLocation: sourceLocation)
        }
        if let toNextDay {
            #expect(first?.bool("continues_to_next_day") == toNextDay, "\(uid)", sourceLocation: sourceLocation)
        }
    }

    /// `uid`s of a section, in order.
    func uids(_ iso: String) -> [String] {
        section(iso)?.items.map { $0.string("uid") ?? $0.id } ?? []
    }

    var sectionsText: String { String(decoding: sectionsJSON, as: UTF8.self) }
}

extension AgendaItem {
    var fields: [String: JSONValue] { value.objectValue ?? [:] }
    func string(_ key: String) -> String? { value[key]?.stringValue }
    func bool(_ key: String) -> Bool? { value[key]?.boolValue }
    /// True when `key` is present and `null`.
    func isNull(_ key: String) -> Bool { fields[key].map(\.isNull) ?? false }
    var text: String { String(decoding: json, as: UTF8.self) }
}

extension AgendaSection {
    var text: String { String(decoding: json, as: UTF8.self) }
}

// MARK: - SectionedDiff

typealias AgendaDiffSnapshot = Snapshot<String, [UInt8], String, [UInt8]>
typealias AgendaDiff = SnapshotDiff<String, [UInt8], String, [UInt8]>

/// The snapshot as a SectionedDiff snapshot: section id = date, section content = header
/// JSON, item id = item id, item content = item JSON. Throws on duplicate ids.
func diffable(_ s: AgendaSnapshot) throws -> AgendaDiffSnapshot {
    try AgendaDiffSnapshot(sections: s.sections.map { section in
        AgendaDiffSnapshot.Section(id: section.id, content: section.headerJSON,
                                   items: section.items.map { AgendaDiffSnapshot.Item(id: $0.id, content: $0.json) })
    })
}

// MARK: - External tools

enum Python {
    static let path: String? = Products.which("python3", preferring: ["/usr/bin", "/usr/local/bin"])

    /// Runs `python3 -c script` with `input` on standard input; returns standard output.
    static func run(_ script: String, input: [UInt8]) throws -> [UInt8] {
        let python = try #require(path, "python3 not found")
        let result = try ChildProcess.runBlocking(python, ["-c", script], stdin: input, timeout: 600)
        try #require(result.status == 0, "python3 failed")
        return result.stdoutBytes
    }
}
