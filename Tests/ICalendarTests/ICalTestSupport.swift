import Foundation
import Testing
@testable import ICalendar
import TestSupport

/// Small builders shared by the time-rule, recurrence, parser-error and robustness suites.
enum ICS {
    /// A whole calendar: header lines, then `body`, joined with CRLF.
    static func calendar(_ body: [String], header: [String] = []) -> String {
        icsCalendar(lines: body, header: header, prodID: "-//eventd//tests//EN")
    }

    /// One VEVENT around `lines` (a UID and DTSTAMP are added unless `uid` is nil).
    static func event(_ lines: [String], uid: String? = "event@tests.eventd.example") -> [String] {
        var out = ["BEGIN:VEVENT"]
        if let uid { out.append("UID:\(uid)") }
        out.append("DTSTAMP:20260101T000000Z")
        return out + lines + ["END:VEVENT"]
    }

    /// A fixed-offset VTIMEZONE (offset like `+0300`).
    static func fixedZone(_ tzid: String, offset: String) -> [String] {
        ["BEGIN:VTIMEZONE", "TZID:\(tzid)", "BEGIN:STANDARD", "DTSTART:19700101T000000",
         "TZOFFSETFROM:\(offset)", "TZOFFSETTO:\(offset)", "TZNAME:FIX", "END:STANDARD", "END:VTIMEZONE"]
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func parse(_ text: String) throws -> ParsedCalendar {
        try CalendarParser.parse(bytes(text))
    }

    /// Parses one calendar and expands its only series over `[from, to)`.
    static func expandOnly(_ text: String, from: Int64, to: Int64, floating: Zone = .utc,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> [Occurrence] {
        let parsed = try parse(text)
        let all = parsed.series()
        #expect(all.count == 1, "expected one series, got \(all.count)", sourceLocation: sourceLocation)
        let series = try #require(all.first, sourceLocation: sourceLocation).series
        return Expander.expand(series, from: from, to: to, floatingZone: floating, zones: ZoneRegistry.shared)
    }

    /// The repository root (three levels above this file).
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}

/// Seconds since the epoch of a UTC wall-clock time.
func utcSeconds(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Int64 {
    CivilDateTime(date: CivilDate(year: y, month: m, day: d), hour: h, minute: mi, second: s).secondsAsIfUTC
}

func civil(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> CivilDateTime {
    CivilDateTime(date: CivilDate(year: y, month: m, day: d), hour: h, minute: mi)
}

func day(_ y: Int, _ m: Int, _ d: Int) -> CivilDate { CivilDate(year: y, month: m, day: d) }

/// `YYYY-MM-DDTHH:MM:SSZ` for readable failure messages.
func isoUTC(_ seconds: Int64) -> String {
    let t = CivilDateTime(secondsAsIfUTC: seconds)
    func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(t.date.iso)T\(pad(t.hour)):\(pad(t.minute)):\(pad(t.second))Z"
}

