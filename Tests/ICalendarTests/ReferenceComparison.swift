import Foundation
import ICalendar
import Support
import TestSupport

/// Runs `scripts/reference_occurrences.py` (recurring-ical-events in the project's
/// virtualenv) and expands the same files with eventd, in one comparable format:
/// `uid start end` lines with dates as `YYYYMMDD`, floating times as
/// `YYYYMMDDTHHMMSS` and everything else as UTC `YYYYMMDDTHHMMSSZ`.
enum ReferenceComparison {
    /// Window of the comparison: occurrences starting in [from, to) (read as UTC).
    static let from = CivilDate(year: 1990, month: 1, day: 1)
    static let to = CivilDate(year: 2040, month: 1, day: 1)

    static var python: String? { ProcessInfo.processInfo.environment["EVENTD_REFERENCE_PYTHON"] }
    static var calendarsDirectory: String? { ProcessInfo.processInfo.environment["EVENTD_REFERENCE_CALENDARS"] }
    static var repositoryRoot: URL { Products.repositoryRoot }

    /// The reference's occurrences per file; nil for files it cannot read.
    static func reference(_ files: [String]) throws -> [String: Set<String>?] {
        guard let python else { return [:] }
        let script = repositoryRoot.appendingPathComponent("scripts/reference_occurrences.py").path
        let run = try ChildProcess.runBlocking(python, [script, "--from", from.adding(days: -2).iso,
                                                        "--to", to.adding(days: 2).iso, "--extra"] + files,
                                               timeout: 3600)
        let data = run.stdoutBytes
        let json = try JSONValue.parse(data, maxDepth: 16)
        var result: [String: Set<String>?] = [:]
        for (file, entry) in json["files"]?.objectValue ?? [:] {
            guard entry["ok"]?.boolValue == true else { result[file] = .some(nil); continue }
            var set = Set<String>()
            for o in entry["occurrences"]?.arrayValue ?? [] {
                if o["status"]?.stringValue == "CANCELLED" { continue }
                guard let uid = o["uid"]?.stringValue, let s = o["start"]?.stringValue, let e = o["end"]?.stringValue,
                      inWindow(s) else { continue }
                set.insert("\(uid) \(s) \(e)")
            }
            result[file] = .some(set)
        }
        return result
    }

    static func inWindow(_ stamp: String) -> Bool {
        let day = String(stamp.prefix(8))
        return day >= from.basic && day < to.basic
    }

    /// eventd's occurrences for one file, or the parse error.
    static func eventd(_ path: String) -> Result<Set<String>, ICalendarSyntaxError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ICalendarSyntaxError(line: 0, message: "unreadable"))
        }
        let parsed: ParsedCalendar
        do { parsed = try CalendarParser.parse([UInt8](data)) } catch { return .failure(error) }
        let a = CivilDateTime(date: from.adding(days: -2)).secondsAsIfUTC
        let b = CivilDateTime(date: to.adding(days: 2)).secondsAsIfUTC
        var set = Set<String>()
        for (uid, series) in parsed.series() {
            for o in Expander.expand(series, from: a, to: b, floatingZone: .utc, zones: ZoneRegistry.shared) {
                let s = format(o.startDate, o.start, floating: o.isFloating)
                let e = format(o.endDate, o.end, floating: o.isFloating)
                guard inWindow(s) else { continue }
                // The reference has no UID for a VEVENT without one; eventd synthesizes one.
                set.insert("\(uid.hasPrefix("synthesized-") ? "" : uid) \(s) \(e)")
            }
        }
        return .success(set)
    }

    static func format(_ date: CivilDate?, _ instant: Int64, floating: Bool) -> String {
        if let date { return date.basic }
        let t = CivilDateTime(secondsAsIfUTC: instant).basic
        return floating ? t : t + "Z"
    }
}
