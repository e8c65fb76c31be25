import Foundation
import Testing
import CalendarGenerator
@testable import ICalendar
import TestSupport

/// libical is not given the lines eventd never reads and libical cannot find fault with
/// (`ParserFeed`): that must change neither a record nor a warning.
@Suite struct ParserFeedTests {
    /// The lines `ParserFeed.append` keeps of `lines` (one VEVENT), joined with CRLF.
    static func kept(_ lines: [String]) -> [String] {
        let block = Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        var out: [UInt8] = []
        block.withUnsafeBufferPointer { ParserFeed.append($0, to: &out) }
        return String(decoding: out, as: UTF8.self).components(separatedBy: "\r\n").dropLast()
    }

    @Test func leavesOutOnlyUnreadPropertiesLibICalCannotFaultWith() {
        // The lines libical is still given.
        let kept = [
            "BEGIN:VEVENT", "UID:a", "DTSTART:20260101T100000Z",
            "ATTENDEE;VALUE=TEXT:libical reports the value type", "ATTENDEE;CN:no equals sign",
            "ATTENDEE;CN=\"a\"b:text after a quoted value", "ATTENDEE;CN=a\"b:a quote inside",
            "ATTENDEE;CN=\"open:quote", "ATTENDEE;;CN=x:empty name", "ATTENDEE;CN=x",
            "CREATED:2026-01-01", "GEO:1.5;2.5",
            "X-LIC-ERROR:kept: libical reports it", "X-:no name", "X_UNDERSCORE:odd name", "DESCRIPTIONS:other name",
            "DESCRIP", " TION:a name split by a fold",
            "SUMMARY:s",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:alarm text", "X-IN-ALARM:x", "TRIGGER:-PT5M", "END:VALARM",
        ]
        // The lines left out, put among them.
        let leftOut = [
            "DESCRIPTION:long text", " folded on", "\tand on",
            "description:lower case", "COMMENT:c", "X-MICROSOFT-CDO-BUSYSTATUS:BUSY", "x-vendor:v",
            "TRANSP:OPAQUE", "CLASS:PUBLIC", "PRIORITY:5", "ATTENDEE:mailto:a@example.com", "URL:https://example.com",
            "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=Jo",
            " hn Doe;X-NUM-GUESTS=0:mailto:john@example.com",
            "ORGANIZER;CN=\"Doe, Jane\";SENT-BY=\"mailto:b@example.com\":mailto:j@example.com",
            "DESCRIPTION;LANGUAGE=en:with a parameter", "X-ALT-DESC;FMTTYPE=text/html:<p>", " more",
            "ATTENDEE;DELEGATED-TO=\"mailto:c@example.com\",\"mailto:d@example.com\":mailto:a@example.com",
            "ATTENDEE;CN=:empty parameter value",
        ]
        let lines = kept[..<3] + leftOut + kept[3...] + ["COMMENT:after the alarm", "END:VEVENT"]
        #expect(Self.kept(Array(lines)) == kept + ["END:VEVENT"])
    }

    @Test func bareLineFeedsAndALastLineWithoutOne() {
        let block = Array("BEGIN:VEVENT\nDESCRIPTION:d\n more\nUID:a\nEND:VEVENT".utf8)
        var out: [UInt8] = []
        block.withUnsafeBufferPointer { ParserFeed.append($0, to: &out) }
        #expect(String(decoding: out, as: UTF8.self) == "BEGIN:VEVENT\nUID:a\nEND:VEVENT")
    }

    /// The parse of `bytes` as comparable values: the records, warnings and skip count,
    /// or the error.
    static func outcome(_ bytes: [UInt8], feedAllLines: Bool) -> String {
        var events: [EventRecord] = []
        do {
            let result = try CalendarParser.parse(bytes, batchSize: 64, parallel: false, feedAllLines: feedAllLines) { part in
                if case .events(let batch) = part { events.append(contentsOf: batch) }
            }
            return "\(events)\nwarnings \(result.warnings)\nskipped \(result.skipped)"
        } catch {
            return "error line \(error.line): \(error.message)"
        }
    }

    static func expectSameReading(_ bytes: [UInt8], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let filtered = outcome(bytes, feedAllLines: false)
        let all = outcome(bytes, feedAllLines: true)
        #expect(filtered == all, "\(name) is read differently with ParserFeed", sourceLocation: sourceLocation)
    }

    @Test func realWorldFilesAreReadAsWithEveryLine() throws {
        let roots = [Products.repositoryRoot.appendingPathComponent("sample-calendars"),
                     Products.repositoryRoot.appendingPathComponent("Tests/ICalendarTests/RealWorld"),
                     Products.repositoryRoot.appendingPathComponent("Tests/ICalendarTests/Fixtures")]
        var files = 0
        for root in roots {
            let walker = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            for case let url as URL in walker where url.pathExtension == "ics" {
                Self.expectSameReading(Array(try Data(contentsOf: url)), url.lastPathComponent)
                files += 1
            }
        }
        #expect(files > 100)
    }

    @Test func generatedCalendarIsReadAsWithEveryLine() {
        var bytes: [UInt8] = []
        CalendarGenerator(.init(events: 3_000, seed: 5)).write(into: &bytes)
        Self.expectSameReading(bytes, "the generated calendar")
    }

    /// Values of the left-out properties that libical might object to, next to lines it
    /// does object to, in a VEVENT and in its VALARM.
    @Test(arguments: ["", "   ", ",", "a,,b", "\\", "a;b,c:d", "99999999999999999999", "-5", "\"open", "BEGIN:VEVENT", "\\n\\N\\,\\;\\x", "END:VEVENT", "é ü 漢字"])
    func awkwardValuesAreReadAsWithEveryLine(value: String) {
        let text = ICS.calendar(ICS.event([
            "DTSTART:20260301T090000Z", "DURATION:PT1H",
            "DESCRIPTION:\(value)", "COMMENT:\(value)", "X-VENDOR:\(value)", "x-lower:\(value)",
            "DESCRIPTION;LANGUAGE:\(value)", "X-P;A=\"b:\(value)", "X-LIC-ERROR:\(value)",
            "TRANSP:\(value)", "CREATED:\(value)", "CLASS:\(value)", "PRIORITY:\(value)", "ATTENDEE:\(value)",
            "ORGANIZER:\(value)", "URL:\(value)", "ATTACH:\(value)", "CATEGORIES:\(value)", "CONTACT:\(value)",
            "RESOURCES:\(value)", "GEO:\(value)", "SUMMARY:s",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(value)", "TRIGGER:-PT5M", "END:VALARM",
        ]))
        Self.expectSameReading(ICS.bytes(text), "value \(value.debugDescription)")
    }
}

extension ParserFeedTests {
    /// Random lines of the properties `ParserFeed` may leave out, with parameters made of
    /// the bytes that decide how libical reads them, folded at random places: the reading
    /// with and without the filter must be the same (seeded, so a failure repeats).
    @Test(arguments: [1, 2, 3, 4])
    func randomParameterListsAreReadAsWithEveryLine(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let names = ["ATTENDEE", "ORGANIZER", "DESCRIPTION", "X-ALT-DESC", "CATEGORIES", "TRANSP", "x-low", "X-LIC-ERROR"]
        let parameters = ["CN", "ROLE", "PARTSTAT", "VALUE", "X-N", "value", "", "C N", "RSVP"]
        let pieces = ["a", "\"", ";", ":", ",", "=", " ", "mailto:x@y", "\"q:;,\"", "TEXT", "DATE-TIME", "é"]
        var lines: [String] = []
        for _ in 0..<400 {
            var line = names.randomElement(using: &random)!
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                line += ";" + parameters.randomElement(using: &random)!
                if Int.random(in: 0..<5, using: &random) > 0 { line += "=" }
                for _ in 0..<Int.random(in: 0...3, using: &random) { line += pieces.randomElement(using: &random)! }
            }
            line += [":", ":", ";", ""].randomElement(using: &random)!
            for _ in 0..<Int.random(in: 0...3, using: &random) { line += pieces.randomElement(using: &random)! }
            // A fold at a random place (between characters).
            if line.count > 2, Bool.random(using: &random) {
                let at = line.index(line.startIndex, offsetBy: Int.random(in: 1..<line.count, using: &random))
                line = String(line[..<at]) + "\r\n " + String(line[at...])
            }
            lines.append(line)
        }
        // One event per line, so that a warning names its own line.
        let events = lines.enumerated().flatMap { index, line in
            ICS.event(["DTSTART:20260301T090000Z", line, "SUMMARY:s"], uid: "random-\(index)@tests.eventd.example")
        }
        Self.expectSameReading(ICS.bytes(ICS.calendar(events)), "random parameter lists, seed \(seed)")
    }
}

extension ParserFeedTests {
    @Test func timestampsLeftOutOnlyWhenPlainAndUnread() {
        let plain = ["BEGIN:VEVENT", "UID:a", "DTSTAMP:20260101T000000Z", "DTSTART:20260101T100000Z",
                     "CREATED:20251201T100000Z", "LAST-MODIFIED:20251202T100000Z", "END:VEVENT"]
        #expect(Self.kept(plain) == ["BEGIN:VEVENT", "UID:a", "DTSTART:20260101T100000Z",
                                     "LAST-MODIFIED:20251202T100000Z", "END:VEVENT"])
        // DTSTAMP is what gives the event its time of change when there is no LAST-MODIFIED.
        let alone = ["BEGIN:VEVENT", "UID:a", "DTSTAMP:20260101T000000Z", "DTSTART:20260101T100000Z", "END:VEVENT"]
        #expect(Self.kept(alone) == alone)
        let inAlarm = ["BEGIN:VEVENT", "UID:a", "DTSTAMP:20260101T000000Z", "DTSTART:20260101T100000Z",
                       "BEGIN:VALARM", "LAST-MODIFIED:20251202T100000Z", "END:VALARM", "END:VEVENT"]
        #expect(Self.kept(inAlarm) == inAlarm)
        let odd = ["BEGIN:VEVENT", "UID:a", "DTSTAMP:20260101T000000", "CREATED:2025-12-01", "CREATED;X=y:20251201T100000Z",
                   "CREATED:20251201T1", " 00000Z", "LAST-MODIFIED:20251202T100000Z", "END:VEVENT"]
        #expect(Self.kept(odd) == odd)
    }

    /// Every combination of a DTSTAMP, a CREATED and a LAST-MODIFIED, plain, odd or
    /// missing, and a LAST-MODIFIED in an alarm: read as with every line (the event's
    /// time of change included).
    @Test func timestampCombinationsAreReadAsWithEveryLine() {
        let stamps = [nil, "DTSTAMP:20260101T000000Z", "DTSTAMP:garbage", "DTSTAMP:20260101T000000", "DTSTAMP:20261399T999999Z"]
        let created = [nil, "CREATED:20251201T100000Z", "CREATED:garbage", "CREATED;VALUE=DATE:20251201"]
        let modified = [nil, "LAST-MODIFIED:20251202T100000Z", "LAST-MODIFIED:2025-12-02", "LAST-MODIFIED:20251302T000000Z",
                        "LAST-MODIFIED;VALUE=DATE:20251202", "LAST-MODIFIED:20251202T1\r\n 00000Z", "ALARM"]
        var events: [String] = []
        var index = 0
        for stamp in stamps {
            for made in created {
                for change in modified {
                    var lines = ["BEGIN:VEVENT", "UID:stamp-\(index)@tests.eventd.example", "DTSTART:20260301T090000Z"]
                    index += 1
                    if let stamp { lines.append(stamp) }
                    if let made { lines.append(made) }
                    if change == "ALARM" {
                        lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "LAST-MODIFIED:20251202T100000Z", "END:VALARM"]
                    } else if let change {
                        lines.append(change)
                    }
                    events += lines + ["SUMMARY:s", "END:VEVENT"]
                }
            }
        }
        Self.expectSameReading(ICS.bytes(ICS.calendar(events)), "timestamp combinations")
    }
}
