import Foundation
import ICalendar
import TestSupport

/// The hostile calendars too big to keep in the repository, generated at test time
/// (scripts/make_hostile_corpus.py writes the small ones). Same naming as the corpus:
/// `reject-` must be refused with exit 65, `any-` may be imported or refused.
enum HugeInputs {
    static let head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//eventd//hostile huge//EN\r\n"
    static let tail = "END:VCALENDAR\r\n"

    static func event(_ lines: [String], uid: String = "huge@corpus.eventd.example",
                      start: String? = "DTSTART:20261130T090000Z") -> String {
        var out = "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261101T000000Z\r\n"
        if let start { out += start + "\r\n" }
        for l in lines { out += l + "\r\n" }
        return out + "END:VEVENT\r\n"
    }

    /// YYYYMMDD of 2026-01-01 plus `days`.
    static func day(_ days: Int) -> String {
        let date = GregorianCalendar.date(daysSinceEpoch: GregorianCalendar.daysSinceEpoch(year: 2026, month: 1, day: 1) + days)
        return String(format: "%04d%02d%02d", date.year, date.month, date.day)
    }

    /// Every generated input: file name and bytes.
    static func all() -> [(name: String, bytes: [UInt8])] {
        var out: [(String, String)] = []
        // A 1 MB line (one SUMMARY value on one physical line).
        out.append(("any-huge-1mb-single-line.ics",
                    head + event(["SUMMARY:" + String(repeating: "A", count: 1 << 20)]) + tail))
        // A 1 MB property folded every 74 octets.
        var folded = "DESCRIPTION:"
        folded.reserveCapacity(1 << 21)
        for i in 0..<(1 << 20) / 73 {
            folded += (i == 0 ? "" : "\r\n ") + String(repeating: "fold", count: 18) + "x"
        }
        out.append(("any-huge-1mb-folded-property.ics", head + event([folded]) + tail))
        // A 1 MB line of commas: an EXDATE list without values.
        out.append(("any-huge-1mb-empty-exdate-list.ics",
                    head + event(["RRULE:FREQ=DAILY", "EXDATE:" + String(repeating: ",", count: 1 << 20)]) + tail))
        // 10,000 overrides of one UID.
        var overrides = event(["RRULE:FREQ=HOURLY", "SUMMARY:master"], uid: "many-overrides", start: "DTSTART:20260101T000000Z")
        for i in 0..<10_000 {
            let rid = "\(day(i / 24))T\(String(format: "%02d", i % 24))0000Z"
            overrides += event(["RECURRENCE-ID:\(rid)", "DTSTART:\(day(i / 24 + 1))T\(String(format: "%02d", i % 24))3000Z",
                                "SUMMARY:override \(i)"], uid: "many-overrides", start: nil)
        }
        out.append(("any-huge-10000-overrides-one-uid.ics", head + overrides + tail))
        // A VTIMEZONE with 10,000 observances (an offset change every day).
        var zone = "BEGIN:VTIMEZONE\r\nTZID:Hostile/TenThousand\r\n"
        for i in 0..<10_000 {
            let kind = i % 2 == 0 ? "DAYLIGHT" : "STANDARD"
            zone += "BEGIN:\(kind)\r\nDTSTART:\(day(i - 5000))T020000\r\n"
            zone += "TZOFFSETFROM:\(i % 2 == 0 ? "+0100" : "+0200")\r\nTZOFFSETTO:\(i % 2 == 0 ? "+0200" : "+0100")\r\n"
            zone += "TZNAME:T\(i)\r\nEND:\(kind)\r\n"
        }
        zone += "END:VTIMEZONE\r\n"
        out.append(("any-huge-vtimezone-10000-observances.ics",
                    head + zone + event(["RRULE:FREQ=HOURLY;INTERVAL=7"], start: "DTSTART;TZID=Hostile/TenThousand:20261001T090000") + tail))
        // 10,000 EXDATE lines, RDATE lines, RDATE periods.
        out.append(("any-huge-10000-exdate-lines.ics",
                    head + event(["RRULE:FREQ=HOURLY"] + (0..<10_000).map { "EXDATE:\(day($0 / 24))T\(String(format: "%02d", $0 % 24))0000Z" },
                                 start: "DTSTART:20260101T000000Z") + tail))
        out.append(("any-huge-10000-rdate-lines.ics",
                    head + event((0..<10_000).map { "RDATE:\(day($0))T120000Z" }) + tail))
        out.append(("any-huge-10000-rdate-periods.ics",
                    head + event(["RDATE;VALUE=PERIOD:" + (0..<10_000).map { "\(day($0))T120000Z/P\($0 % 400 + 1)D" }.joined(separator: ",")]) + tail))
        out.append(("any-huge-10000-attendees.ics",
                    head + event((0..<10_000).map { "ATTENDEE;CN=Person \($0);ROLE=REQ-PARTICIPANT:mailto:p\($0)@example.com" }) + tail))
        // Recursion bait: components nested 10,000 deep, inside and outside a VEVENT.
        out.append(("reject-huge-nesting-10000-deep.ics",
                    head + String(repeating: "BEGIN:X-DEEP\r\n", count: 10_000) + String(repeating: "END:X-DEEP\r\n", count: 10_000) + tail))
        out.append(("reject-huge-valarm-10000-deep.ics",
                    head + event(Array(repeating: "BEGIN:VALARM", count: 10_000) + Array(repeating: "END:VALARM", count: 10_000)) + tail))
        // 10,000 events at once, each FREQ=MINUTELY (a legitimate but heavy file).
        var minutely = ""
        for i in 0..<2_000 {
            minutely += event(["RRULE:FREQ=MINUTELY;INTERVAL=\(60 + i)", "SUMMARY:m\(i)"], uid: "m\(i)")
        }
        out.append(("any-huge-2000-minutely-series.ics", head + minutely + tail))
        return out.map { ($0.0, Array($0.1.utf8)) }
    }
}
