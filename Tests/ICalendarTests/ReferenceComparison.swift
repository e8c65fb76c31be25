import Foundation
import ICalendar
import CanonicalJSON
import Synchronization
import TestSupport

/// Runs `scripts/reference_occurrences.py` (recurring-ical-events and ics-query in the
/// project's virtualenv) and expands the same files with eventd, in one comparable format:
/// `uid start end` lines with dates as `YYYYMMDD`, floating times as
/// `YYYYMMDDTHHMMSS` and everything else as UTC `YYYYMMDDTHHMMSSZ`.
enum ReferenceComparison {
    /// Window of the comparison: occurrences starting in [from, to) (read as UTC).
    static let from = CivilDate(year: 1990, month: 1, day: 1)
    static let to = CivilDate(year: 2040, month: 1, day: 1)

    static var python: String? { ProcessInfo.processInfo.environment["EVENTD_REFERENCE_PYTHON"] }
    static var calendarsDirectory: String? { ProcessInfo.processInfo.environment["EVENTD_REFERENCE_CALENDARS"] }
    static var repositoryRoot: URL { Products.repositoryRoot }

    /// What the two reference implementations make of one file: their occurrences, or
    /// nil when they cannot read it.
    struct Reference: Sendable {
        var recurringICalEvents: Set<String>?
        var icsQuery: Set<String>?
    }

    /// Both references' occurrences per file (`scripts/reference_occurrences.py --engine
    /// both --fork-per-file`): each file is read in a fresh child process, since icalendar
    /// keeps the first VTIMEZONE it sees for a TZID for the whole process, which would make
    /// false disagreements. Files are split between two reference processes.
    static func reference(_ files: [String]) -> [String: Reference] {
        guard let python else { return [:] }
        let script = repositoryRoot.appendingPathComponent("scripts/reference_occurrences.py").path
        // A TZID on a DATE value is given docs/data-model.md's reading (ignored) on both sides.
        let arguments = [script, "--from", from.adding(days: -2).iso, "--to", to.adding(days: 2).iso, "--extra",
                         "--engine", "both", "--fork-per-file", "--ignore-date-tzid"]
        let results = Mutex<[String: Reference]>([:])
        let shares = 2
        DispatchQueue.concurrentPerform(iterations: shares) { share in
            let mine = files.enumerated().filter { $0.offset % shares == share }.map(\.element)
            guard !mine.isEmpty, let run = try? ChildProcess.runBlocking(python, arguments + mine, timeout: 1800),
                  let json = try? JSONValue.parse(run.stdoutBytes, maxDepth: 16) else { return }
            for file in mine {
                guard let object = json["files"]?[file] else { continue }
                let entry = Reference(recurringICalEvents: occurrences(object), icsQuery: object["ics_query"].flatMap(occurrences))
                results.withLock { $0[file] = entry }
            }
        }
        return results.withLock { $0 }
    }

    /// `uid start end` of every occurrence in the window, without STATUS:CANCELLED ones
    /// (docs/data-model.md does not show them; the references return them).
    static func occurrences(_ entry: JSONValue) -> Set<String>? {
        guard entry["ok"]?.boolValue == true else { return nil }
        var set = Set<String>()
        for o in entry["occurrences"]?.arrayValue ?? [] {
            if o["status"]?.stringValue == "CANCELLED" { continue }
            guard let uid = o["uid"]?.stringValue, let s = o["start"]?.stringValue, let e = o["end"]?.stringValue,
                  inWindow(s) else { continue }
            set.insert("\(uid) \(s) \(e)")
        }
        return set
    }

    static func inWindow(_ stamp: String) -> Bool {
        let day = String(stamp.prefix(8))
        return day >= from.basic && day < to.basic
    }

    /// eventd's occurrences for one file, or the parse error.
    /// The UID as written, without the suffix eventd derives for VEVENTs that share one
    /// (`SharedUIDs`: `#` and 12 lower-case hex digits).
    static func writtenUID(_ uid: String) -> String {
        let tail = uid.suffix(13)
        guard tail.count == 13, tail.first == "#", tail.dropFirst().allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
            return uid
        }
        return String(uid.dropLast(13))
    }

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
                // It reports a shared UID as written; eventd derives one per copy.
                set.insert("\(uid.hasPrefix("synthesized-") ? "" : writtenUID(uid)) \(s) \(e)")
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
