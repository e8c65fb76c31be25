import Testing
@testable import ICalendar

/// the order of docs/data-model.md for a TZID: system IANA name, the file's VTIMEZONE, Windows
/// name (CLDR), vendor prefix, Windows display name, `(GMT+01:00)` fixed offset, else
/// floating with a warning.
@Suite struct ZoneResolutionTests {
    static func start(_ tzid: String, zone: [String] = [], value: String = "20260701T090000") throws -> (TimeValue, ParsedCalendar) {
        let parsed = try ICS.parse(ICS.calendar(zone + ICS.event(["DTSTART;TZID=\(tzid):\(value)"])))
        return (try #require(parsed.events.first).start, parsed)
    }

    /// The UTC instant of the event's start.
    static func instant(_ value: TimeValue) -> Int64 {
        value.instant(zones: ZoneRegistry.shared, floatingZone: .utc)
    }

    @Test func windowsNamesGoThroughCLDR() throws {
        for (name, iana) in [("W. Europe Standard Time", "Europe/Berlin"), ("Eastern Standard Time", "America/New_York"),
                             ("Tokyo Standard Time", "Asia/Tokyo"), ("\"Pacific Standard Time\"", "America/Los_Angeles")] {
            let (start, parsed) = try Self.start(name)
            #expect(start == .zoned(civil(2026, 7, 1, 9), zoneKey: iana), "\(name)")
            #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
        }
        #expect(WindowsZones.iana.count > 100)
    }

    @Test func theFilesDefinitionComesBeforeTheWindowsTable() throws {
        let (start, parsed) = try Self.start("W. Europe Standard Time", zone: ICS.fixedZone("W. Europe Standard Time", offset: "+0300"))
        guard case .zoned(_, let key) = start else { Issue.record("\(start)"); return }
        #expect(key.hasPrefix("vtz:"))
        #expect(Self.instant(start) == utcSeconds(2026, 7, 1, 6))
        #expect(parsed.timezones[key]?.tzid == "W. Europe Standard Time")
    }

    @Test func vendorPrefixesByTheirIANATail() throws {
        for name in ["/softwarestudio.org/Olson_20011030_5/Pacific/Auckland", "/mozilla.org/20050126_1/Pacific/Auckland",
                     "/example.com/tz/2019c/Pacific/Auckland"] {
            let (start, _) = try Self.start(name)
            #expect(start == .zoned(civil(2026, 7, 1, 9), zoneKey: "Pacific/Auckland"), "\(name)")
        }
    }

    @Test func gmtOffsetNamesAreFixedOffsets() throws {
        for (name, offset) in [("(GMT+01:00) Atlantis", 3600), ("UTC+05:30", 19_800),
                               ("(UTC-03:30) Avalon", -12_600), ("GMT-0800", -28_800)] {
            let (start, parsed) = try Self.start(name)
            #expect(parsed.warnings.isEmpty, "\(name): \(parsed.warnings)")
            #expect(Self.instant(start) == utcSeconds(2026, 7, 1, 9) - Int64(offset), "\(name)")
            // In winter too: a fixed offset has no DST.
            let (winter, _) = try Self.start(name, value: "20260105T090000")
            #expect(Self.instant(winter) == utcSeconds(2026, 1, 5, 9) - Int64(offset), "\(name)")
        }
        let (greenwich, _) = try Self.start("(GMT) Greenwich Mean Time")
        #expect(greenwich == .utc(utcSeconds(2026, 7, 1, 9)))
        // The stored key names its rules, so a fresh registry (another process) reads it.
        #expect(ZoneRegistry().zone(forKey: "UTC+05:30")?.offset(atUTC: 0) == 19_800)
    }

    @Test func unknownNamesAreFloatingWithAWarning() throws {
        let (start, parsed) = try Self.start("Mars Standard Time")
        #expect(start == .floating(civil(2026, 7, 1, 9)))
        #expect(parsed.warnings.count == 1 && parsed.warnings[0].message.contains("\"Mars Standard Time\""), "\(parsed.warnings)")
    }

    @Test func aTZIDOnADateIsIgnored() throws {
        let parsed = try ICS.parse(ICS.calendar(ICS.event(["DTSTART;VALUE=DATE;TZID=Europe/Berlin:20260701",
                                                           "DTEND;VALUE=DATE;TZID=Europe/Berlin:20260702"])))
        let event = try #require(parsed.events.first)
        #expect(event.start == .date(day(2026, 7, 1)))
        #expect(event.isAllDay && event.durationDays == 1)
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
    }

    /// RFC 5545's group-scheduling example (section 4): "a group-scheduled meeting that
    /// begins at 8:30 AM EST on March 12, 1998", in a VTIMEZONE whose first onset is
    /// 25 October 1998 (STANDARD, from -04:00 to -05:00). Before the first onset the first
    /// STANDARD observance's offset applies (not the first onset's TZOFFSETFROM).
    @Test func beforeItsFirstOnsetAnInFileZoneIsOnStandardTime() throws {
        let zone = ["BEGIN:VTIMEZONE", "TZID:US-Eastern",
                    "BEGIN:STANDARD", "DTSTART:19981025T020000", "RDATE:19981025T020000",
                    "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "TZNAME:EST", "END:STANDARD",
                    "BEGIN:DAYLIGHT", "DTSTART:19990404T020000", "RDATE:19990404T020000",
                    "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400", "TZNAME:EDT", "END:DAYLIGHT", "END:VTIMEZONE"]
        var instants: [Int64] = []
        for value in ["19980312T083000", "19981101T083000", "19990410T083000"] {
            let parsed = try ICS.parse(ICS.calendar(zone + ICS.event(["DTSTART;TZID=US-Eastern:\(value)"])))
            let start = try #require(parsed.events.first).start
            instants.append(start.instant(zones: ZoneRegistry.shared, floatingZone: .utc))
        }
        #expect(instants == [utcSeconds(1998, 3, 12, 13, 30), utcSeconds(1998, 11, 1, 13, 30), utcSeconds(1999, 4, 10, 12, 30)])
    }

    /// Outlook's and Exchange's zones as they come: a quoted Windows name on a repeating
    /// event, a display name with text of the exporter's own after it, a Windows name whose
    /// VTIMEZONE says another zone (as khal's tests/ics/tz_windows_format.ics). RFC 5545
    /// 3.2.19: "This parameter MUST be specified on the "DTSTART", "DTEND", "DUE",
    /// "EXDATE", and "RDATE" properties when either a DATE-TIME or TIME value type is
    /// specified and when the value is neither a UTC or a "floating" time." and 3.6.5:
    /// "The "VTIMEZONE" calendar component MUST be present if the iCalendar object contains
    /// an RRULE that generates dates on both sides of a time zone shift". The file's
    /// complete VTIMEZONE is what the TZID names; the name is looked up only without one.
    @Test(arguments: [("\"W. Europe Standard Time\"", "W. Europe Standard Time", [7, 8]),
                      ("\"(UTC+01:00) Amsterdam, Berlin, Bern, Rom, Stockholm, Wien - Exchange\"",
                       "(UTC+01:00) Amsterdam, Berlin, Bern, Rom, Stockholm, Wien - Exchange", [7, 8]),
                      ("Eastern Standard Time", "Eastern Standard Time", [7, 8])])
    func theFilesCompleteVTimezoneWins(_ tzid: String, _ defined: String, _ hours: [Int]) throws {
        let zone = ["BEGIN:VTIMEZONE", "TZID:\(defined)", "BEGIN:STANDARD", "DTSTART:16011028T030000",
                    "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD",
                    "BEGIN:DAYLIGHT", "DTSTART:16010325T020000", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
                    "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:DAYLIGHT", "END:VTIMEZONE"]
        let text = ICS.calendar(zone + ICS.event(["DTSTART;TZID=\(tzid):20261020T090000", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=2"]))
        let parsed = try ICS.parse(text)
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
        let weekly = try ICS.expandOnly(text, from: utcSeconds(2026, 10, 1), to: utcSeconds(2026, 11, 1))
        // 09:00 CEST on 20 October, 09:00 CET on the 27th, after the change.
        #expect(weekly.map(\.start) == [utcSeconds(2026, 10, 20, hours[0]), utcSeconds(2026, 10, 27, hours[1])], "\(tzid)")
    }

    /// A VTIMEZONE without observances describes nothing: the name is looked up instead.
    @Test func anEmptyVTimezoneFallsBackToTheName() throws {
        let (start, parsed) = try Self.start("W. Europe Standard Time", zone: ["BEGIN:VTIMEZONE", "TZID:W. Europe Standard Time", "END:VTIMEZONE"])
        #expect(start == .zoned(civil(2026, 7, 1, 9), zoneKey: "Europe/Berlin"))
        #expect(parsed.warnings.map(\.message).contains { $0.contains("VTIMEZONE could not be read") }, "\(parsed.warnings)")
    }
}
