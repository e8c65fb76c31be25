import Testing
@testable import ICalendar

/// Where a series' instances end and stop: durations across a DST change, week-numbered
/// yearly rules, UNTIL with a zoned DTSTART. Every expected instant is worked out by hand
/// from the RFC 5545 text quoted at each test (Europe/Berlin leaves summer time on
/// 2026-10-25 at 03:00 CEST and enters it on 2026-03-29 at 02:00 CET). The calendars are
/// ours; ical.net's Calendars/Recurrence (HourlyUntil1, YearlyByWeekNo1-5) and
/// sabre/vobject's tests/VObject/Recur/RRuleIteratorTest.php (testYearlyByWeekNo*) show the
/// same shapes.
@Suite struct RuleBoundaryTests {
    static func expand(_ lines: [String], zone: [String] = [], from: Int64 = utcSeconds(2026, 1, 1),
                       to: Int64 = utcSeconds(2040, 1, 1)) throws -> [Occurrence] {
        try ICS.expandOnly(ICS.calendar(zone + ICS.event(lines)), from: from, to: to)
    }

    // MARK: - Ends across a DST change

    /// RFC 5545 3.8.5.3: "If the duration of the recurring component is specified with the
    /// "DTEND" or "DUE" property, then the same exact duration will apply to all the members
    /// of the generated recurrence set."
    @Test func anEndGivenByDTENDKeepsTheExactDurationAcrossFallBack() throws {
        let hourly = try Self.expand(["DTSTART;TZID=Europe/Berlin:20261024T233000", "DTEND;TZID=Europe/Berlin:20261025T003000",
                                      "RRULE:FREQ=HOURLY;COUNT=6"])
        // 23:30, 00:30, 01:30, 02:30 CEST (the repeated hour's first reading), 03:30, 04:30 CET.
        #expect(hourly.map { isoUTC($0.start) } == [(24, 21), (24, 22), (24, 23), (25, 0), (25, 2), (25, 3)]
            .map { isoUTC(utcSeconds(2026, 10, $0.0, $0.1, 30)) })
        #expect(hourly.allSatisfy { $0.end - $0.start == 3600 }, "\(hourly.map { $0.end - $0.start })")
        // A day-long first instance stays 24 h long on the day the clocks go forward.
        let daily = try Self.expand(["DTSTART;TZID=Europe/Berlin:20260327T120000", "DTEND;TZID=Europe/Berlin:20260328T120000",
                                     "RRULE:FREQ=DAILY;COUNT=4"])
        #expect(daily.allSatisfy { $0.end - $0.start == 86_400 })
        #expect(isoUTC(daily[1].end) == isoUTC(utcSeconds(2026, 3, 29, 11)), "13:00 CEST, not 12:00")
    }

    /// RFC 5545 3.3.6: "The format can represent nominal durations (weeks and days) and
    /// accurate durations (hours, minutes, and seconds)." and "When computing an exact
    /// duration, the greatest order time components MUST be added first, that is, the
    /// number of days MUST be added first, followed by the number of hours, number of
    /// minutes, and number of seconds."
    @Test func aDURATIONsDaysAreNominalAndItsHoursExact() throws {
        let hours = try Self.expand(["DTSTART;TZID=Europe/Berlin:20261024T233000", "DURATION:PT3H", "RRULE:FREQ=HOURLY;COUNT=6"])
        #expect(hours.allSatisfy { $0.end - $0.start == 3 * 3600 }, "\(hours.map { $0.end - $0.start })")
        // P1D from 12:00 on 24 October ends at 12:00 on the 25th: 25 hours that day.
        let day = try Self.expand(["DTSTART;TZID=Europe/Berlin:20261023T120000", "DURATION:P1D", "RRULE:FREQ=DAILY;COUNT=4"])
        #expect(day.map { $0.end - $0.start } == [86_400, 90_000, 86_400, 86_400])
        // P1DT2H from 12:00 CET on 28 March: 12:00 CEST on the 29th, then two exact hours.
        let mixed = try Self.expand(["DTSTART;TZID=Europe/Berlin:20260327T120000", "DURATION:P1DT2H", "RRULE:FREQ=DAILY;COUNT=4"])
        #expect(isoUTC(mixed[1].end) == isoUTC(utcSeconds(2026, 3, 29, 12)))
        #expect(mixed.map { $0.end - $0.start } == [93_600, 90_000, 93_600, 93_600])
    }

    // MARK: - Week-numbered yearly rules

    /// RFC 5545 3.8.5.3's example: "Monday of week number 20 (where the default start of the
    /// week is Monday), forever: DTSTART;TZID=America/New_York:19970512T090000
    /// RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO ==> (1997 9:00 AM EDT) May 12 (1998 9:00 AM
    /// EDT) May 11 (1999 9:00 AM EDT) May 17".
    @Test func theRFCsWeekTwentyExample() throws {
        let mondays = try Self.expand(["DTSTART;TZID=America/New_York:19970512T090000", "RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO"],
                                      from: utcSeconds(1997, 1, 1), to: utcSeconds(2000, 1, 1))
        #expect(mondays.map { isoUTC($0.start) } == [(1997, 12), (1998, 11), (1999, 17)].map { isoUTC(utcSeconds($0.0, 5, $0.1, 13)) })
    }

    /// RFC 5545 3.3.10: "Week number one of the calendar year is the first week that contains
    /// at least four (4) days in that calendar year." Week 1 of 2026 starts on Monday
    /// 2025-12-29, so calendar year 2026 holds no Monday of a week 1 (2027's starts on 4
    /// January); libical 3.0 gave a Tuesday and then lost the weeks of later years.
    @Test func weekOneMayStartInDecember() throws {
        let mondays = try Self.expand(["DTSTART:20251229T090000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO;COUNT=3"],
                                      from: utcSeconds(2025, 1, 1))
        #expect(mondays.map { isoUTC($0.start) } == [(2025, 12, 29), (2027, 1, 4), (2028, 1, 3)].map { isoUTC(utcSeconds($0.0, $0.1, $0.2, 9)) })
        // Weeks 1 and 52, Mondays and Fridays, every other year, COUNT=13: thirteen instances.
        let many = try Self.expand(["DTSTART:20260105T090000Z", "RRULE:FREQ=YEARLY;INTERVAL=2;BYWEEKNO=1,52;BYDAY=MO,FR;COUNT=13"])
        #expect(many.count == 14, "DTSTART (not in the rule) and 13 instances")
        #expect(many.dropFirst().allSatisfy { [1, 5].contains(CivilDateTime(secondsAsIfUTC: $0.start).date.weekday) })
        // WKST=SU: week 1 of 2026 starts on Sunday 2026-01-04 (1-3 January are 3 days).
        let sundays = try Self.expand(["DTSTART:20260104T090000Z", "RRULE:FREQ=YEARLY;WKST=SU;BYWEEKNO=1;BYDAY=SU;COUNT=3"])
        #expect(sundays.map { isoUTC($0.start) } == [(2026, 1, 4), (2027, 1, 3), (2028, 1, 2)].map { isoUTC(utcSeconds($0.0, $0.1, $0.2, 9)) })
    }

    // MARK: - UNTIL with a zoned DTSTART

    /// RFC 5545 3.3.10: "The UNTIL rule part defines a DATE or DATE-TIME value that bounds the
    /// recurrence rule in an inclusive manner. If the value specified by UNTIL is
    /// synchronized with the specified recurrence, this DATE or DATE-TIME becomes the last
    /// instance of the recurrence. [...] If the "DTSTART" property is specified as a date
    /// with UTC time or a date with local time and time zone reference, then the UNTIL rule
    /// part MUST be specified as a date with UTC time."
    @Test(arguments: [("20260105T140000Z", 5), ("20260105T135959Z", 4),
                      // A local UNTIL (invalid there) is read in DTSTART's zone: 09:00 New York.
                      ("20260105T090000", 5), ("20260105T085959", 4)])
    func untilBoundsAZonedSeriesInclusively(_ until: String, _ count: Int) throws {
        let daily = try Self.expand(["DTSTART;TZID=America/New_York:20260101T090000", "RRULE:FREQ=DAILY;UNTIL=\(until)"])
        #expect(daily.count == count, "\(until): \(daily.map { isoUTC($0.start) })")
    }

    /// The same in a zone of the file's own VTIMEZONE, across its change to standard time
    /// (first Sunday of November): 18:00 MST on 4 November is 01:00Z on the 5th.
    @Test(arguments: [("20261105T010000Z", 6), ("20261105T005959Z", 5)])
    func untilInAnInFileZoneAcrossItsDSTChange(_ until: String, _ count: Int) throws {
        let zone = ["BEGIN:VTIMEZONE", "TZID:Mountain Custom",
                    "BEGIN:STANDARD", "DTSTART:16011104T020000", "RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11",
                    "TZOFFSETFROM:-0600", "TZOFFSETTO:-0700", "END:STANDARD",
                    "BEGIN:DAYLIGHT", "DTSTART:16010311T020000", "RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3",
                    "TZOFFSETFROM:-0700", "TZOFFSETTO:-0600", "END:DAYLIGHT", "END:VTIMEZONE"]
        let daily = try Self.expand(["DTSTART;TZID=Mountain Custom:20261030T180000", "RRULE:FREQ=DAILY;UNTIL=\(until)"], zone: zone)
        #expect(daily.count == count, "\(until): \(daily.map { isoUTC($0.start) })")
        #expect(daily.last.map { isoUTC($0.start) } == isoUTC(utcSeconds(2026, 11, count == 6 ? 5 : 4, 1)))
    }
}
