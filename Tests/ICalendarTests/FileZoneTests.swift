import Foundation
import Testing
@testable import ICalendar

/// A file's VTIMEZONEs are read only when an event names them, within a bound per file.
@Suite struct FileZoneTests {
    /// A fixed-offset definition under a TZID no system knows, unique to one test run.
    static func definition(_ tzid: String, offset: String = "+0300") -> [String] {
        ["BEGIN:VTIMEZONE", "TZID:\(tzid)", "BEGIN:STANDARD", "DTSTART:19700101T000000",
         "TZOFFSETFROM:\(offset)", "TZOFFSETTO:\(offset)", "END:STANDARD", "END:VTIMEZONE"]
    }

    static func key(_ lines: [String]) -> String {
        FileZone.key(of: lines.map { $0 + "\r\n" }.joined())
    }

    static func event(_ uid: String, tzid: String) -> [String] {
        ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=\(tzid):20260701T090000",
         "DURATION:PT1H", "END:VEVENT"]
    }

    /// Thousands of definitions, two used: only those two are read and returned.
    @Test func unusedDefinitionsAreNeverRead() throws {
        let run = UUID().uuidString.prefix(8)
        let zones = (0..<3000).map { Self.definition("Bomb/\(run)-\($0)") }
        let text = ICS.calendar(zones.flatMap { $0 } + Self.event("a@x", tzid: "Bomb/\(run)-7")
                                + Self.event("b@x", tzid: "Bomb/\(run)-2999"))
        let parsed = try ICS.parse(text)
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
        #expect(Set(parsed.timezones.keys) == [Self.key(zones[7]), Self.key(zones[2999])])
        #expect(parsed.events.map(\.start) == [.zoned(civil(2026, 7, 1, 9), zoneKey: Self.key(zones[7])),
                                               .zoned(civil(2026, 7, 1, 9), zoneKey: Self.key(zones[2999]))])
        for index in [0, 1, 8, 1500, 2998] { #expect(!ZoneRegistry.shared.isLoaded(Self.key(zones[index]))) }
        #expect(ZoneRegistry.shared.isLoaded(Self.key(zones[7])))
    }

    /// TZID is TEXT (RFC 5545 3.3.11): Exchange escapes the comma of its display name in
    /// the definition and quotes it in the events' parameter; both name one zone.
    @Test func anEscapedTZIDNamesTheQuotedParameter() throws {
        let run = UUID().uuidString.prefix(8)
        let name = "Pacific Time (US & Canada)\\, Tijuana \(run)"
        let zone = Self.definition(name, offset: "-0800")
        let parsed = try ICS.parse(ICS.calendar(zone + ["BEGIN:VEVENT", "UID:t@x", "DTSTAMP:20260101T000000Z",
                                                       "DTSTART;TZID=\"Pacific Time (US & Canada), Tijuana \(run)\":20041011T223000",
                                                       "DURATION:PT1H", "END:VEVENT"]))
        #expect(parsed.events.map(\.start) == [.zoned(civil(2004, 10, 11, 22, 30), zoneKey: Self.key(zone))], "\(parsed.warnings)")
        #expect(FileZone.tzid(of: zone.joined(separator: "\r\n")) == "Pacific Time (US & Canada), Tijuana \(run)")
    }

    /// Past the bound per file, a TZID naming one more definition is read as if the file
    /// had none (here: unknown, so floating), with one warning for the file.
    @Test func definitionsInUseAreBoundedPerFile() throws {
        let run = UUID().uuidString.prefix(8)
        let count = FileZoneBudget.maxDefinitions + 10
        let zones = (0..<count).map { Self.definition("Used/\(run)-\($0)") }
        let events = (0..<count).flatMap { Self.event("e\($0)@x", tzid: "Used/\(run)-\($0)") }
        let parsed = try ICS.parse(ICS.calendar(zones.flatMap { $0 } + events))
        #expect(parsed.timezones.count == FileZoneBudget.maxDefinitions)
        let bound = parsed.warnings.filter { $0.message.contains("more VTIMEZONE definitions than eventd keeps") }
        #expect(bound.count == 1 && bound[0].message.contains("10 more ignored"), "\(parsed.warnings)")
        let floating = parsed.events.filter { if case .floating = $0.start { return true } else { return false } }
        #expect(floating.count == 10)
    }

    /// The bound counts bytes too: a few large definitions reach it before the count does.
    @Test func definitionBytesAreBoundedPerFile() throws {
        let run = UUID().uuidString.prefix(8)
        let padding = (0..<200).map { "X-PAD-\($0):" + String(repeating: "p", count: 60) }
        let zones = (0..<12).map { i in
            var lines = Self.definition("Big/\(run)-\(i)")
            lines.insert(contentsOf: padding, at: 2)
            return lines
        }
        let perDefinition = zones[0].reduce(0) { $0 + $1.utf8.count + 2 }
        let events = (0..<12).flatMap { Self.event("e\($0)@x", tzid: "Big/\(run)-\($0)") }
        let parsed = try ICS.parse(ICS.calendar(zones.flatMap { $0 } + events))
        #expect(parsed.timezones.count == FileZoneBudget.maxBytes / perDefinition)
        #expect(parsed.warnings.contains { $0.message.contains("more VTIMEZONE definitions than eventd keeps") })
    }
}
