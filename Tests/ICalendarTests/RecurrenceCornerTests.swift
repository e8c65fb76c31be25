import Testing
@testable import ICalendar

/// Recurrence shapes real exporters write that libical or the cost guard got wrong.
@Suite struct RecurrenceCornerTests {
    static func starts(_ lines: [String], _ extra: [[String]] = [], from: Int64 = utcSeconds(2026, 1, 1),
                       to: Int64 = utcSeconds(2031, 1, 1), floating: Zone = .utc) throws -> [Int64] {
        let text = ICS.calendar(ICS.event(lines) + extra.flatMap { ICS.event($0) })
        return try ICS.expandOnly(text, from: from, to: to, floating: floating).map(\.start)
    }

    /// libical 3.0 issue 794. Week 20 by hand (ISO 8601: week 1 holds the year's first
    /// Thursday): its Monday is 2026-05-11, 2027-05-17, 2028-05-15, 2029-05-14, 2030-05-13.
    @Test func yearlyByWeekNumberWithoutByDayKeepsDTSTARTsWeekday() throws {
        let mondays = try Self.starts(["DTSTART:20260511T090000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=20;COUNT=5"])
        #expect(mondays.map(isoUTC) == [(2026, 5, 11), (2027, 5, 17), (2028, 5, 15), (2029, 5, 14), (2030, 5, 13)]
            .map { isoUTC(utcSeconds($0.0, $0.1, $0.2, 9)) })
        let thursdays = try Self.starts(["DTSTART:20260514T090000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=20"])
        #expect(thursdays.map(isoUTC) == [(2026, 5, 14), (2027, 5, 20), (2028, 5, 18), (2029, 5, 17), (2030, 5, 16)]
            .map { isoUTC(utcSeconds($0.0, $0.1, $0.2, 9)) })
    }

    @Test func fineRulesBoundedByCountOrUntilAreExpanded() throws {
        let minutely = try Self.starts(["DTSTART:20260301T110000Z", "RRULE:FREQ=MINUTELY;COUNT=10;BYHOUR=11,12"])
        #expect(minutely == (0..<10).map { utcSeconds(2026, 3, 1, 11, $0) })
        let secondly = try Self.starts(["DTSTART:20260301T103000Z", "RRULE:FREQ=SECONDLY;COUNT=5;BYMINUTE=30"])
        #expect(secondly == (0..<5).map { utcSeconds(2026, 3, 1, 10, 30, $0) })
        let until = try Self.starts(["DTSTART:20260301T110000Z", "RRULE:FREQ=MINUTELY;UNTIL=20260302T110500Z;BYHOUR=11"])
        #expect(until.count == 60 + 6)
    }

    /// An unbounded fine rule costs what the window holds: a day is walked, fifty years not.
    @Test func unboundedFineRulesAreBoundedByTheWindow() throws {
        let lines = ["DTSTART:20260301T110000Z", "RRULE:FREQ=SECONDLY;BYHOUR=11;BYMINUTE=0"]
        let day = try Self.starts(lines, from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 6, 2))
        #expect(day == (0..<60).map { utcSeconds(2026, 6, 1, 11, 0, $0) })
        let decades = try Self.starts(lines, from: utcSeconds(2026, 1, 1), to: utcSeconds(2076, 1, 1))
        #expect(decades == [utcSeconds(2026, 3, 1, 11)], "only DTSTART: \(decades.count)")
    }

    /// Exchange and Apple write the RECURRENCE-ID of a whole-day instance with a time.
    @Test(arguments: ["RECURRENCE-ID:20260225T000000Z", "RECURRENCE-ID;TZID=W. Europe Standard Time:20260225T000000",
                      "RECURRENCE-ID:20260224T230000Z", "RECURRENCE-ID:20260225"])
    func allDaySeriesWithATimedRecurrenceID(_ rid: String) throws {
        let text = ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20260223", "RRULE:FREQ=DAILY;COUNT=5", "SUMMARY:daily"])
            + ICS.event([rid, "DTSTART;VALUE=DATE:20260225", "SUMMARY:changed"]))
        let berlin = try #require(Zone.system("Europe/Berlin"))
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 2, 1), to: utcSeconds(2026, 3, 1), floating: berlin)
        #expect(occurrences.compactMap(\.startDate) == (23...27).map { day(2026, 2, $0) }, "\(rid)")
        #expect(occurrences.filter { $0.contentIndex >= 0 }.compactMap(\.startDate) == [day(2026, 2, 25)], "\(rid)")
    }

    /// Google: 8-digit dates typed DATE-TIME, overrides with UTC RECURRENCE-IDs.
    @Test func googleDateTimeTypedDatesDoNotDuplicate() throws {
        let text = ICS.calendar(
            ICS.event(["DTSTART;VALUE=DATE-TIME:20260223", "DTEND;VALUE=DATE-TIME:20260224", "RRULE:FREQ=WEEKLY;COUNT=3"], uid: "g@google.com")
                + ICS.event(["RECURRENCE-ID:20260302T000000Z", "DTSTART;VALUE=DATE-TIME:20260303", "DTEND;VALUE=DATE-TIME:20260304"],
                            uid: "g@google.com"))
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 2, 1), to: utcSeconds(2026, 4, 1))
        #expect(occurrences.compactMap(\.startDate) == [day(2026, 2, 23), day(2026, 3, 3), day(2026, 3, 9)])
    }

    /// recurring-ical-events' issue 253: the organizer cut the series short (SEQUENCE 2,
    /// UNTIL before 2024-07-29); the override of 2024-07-29 was written for revision 1.
    /// The instance it modified no longer exists, so it is not shown; an override as new as
    /// the master, or one of an instance the master still generates, is.
    @Test(arguments: [("SEQUENCE:1", "RECURRENCE-ID;VALUE=DATE:20240729", [1, 15]),
                      ("SEQUENCE:2", "RECURRENCE-ID;VALUE=DATE:20240729", [1, 15, 29]),
                      ("SEQUENCE:1", "RECURRENCE-ID;VALUE=DATE:20240715", [1, 29])])
    func overrideOfAnInstanceARevisedMasterNoLongerHas(_ sequence: String, _ rid: String, _ days: [Int]) throws {
        let text = ICS.calendar(
            ICS.event(["DTSTART;VALUE=DATE:20240701", "RRULE:FREQ=WEEKLY;UNTIL=20240720;INTERVAL=2;BYDAY=MO", "SEQUENCE:2"])
                + ICS.event([rid, "DTSTART;VALUE=DATE:20240729", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", sequence]))
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2024, 6, 1), to: utcSeconds(2024, 9, 1))
        #expect(occurrences.compactMap(\.startDate) == days.map { day(2024, 7, $0) }, "\(sequence) \(rid)")
    }

    /// A timed series moved from 09:00 to 10:00 (SEQUENCE 1): the old override of the
    /// 09:00 instance (SEQUENCE 0) names no instance any more and is not shown.
    @Test func overrideOfATimeTheMasterMovedAwayFrom() throws {
        let master = ["DTSTART:20260302T100000Z", "RRULE:FREQ=DAILY;COUNT=3", "SEQUENCE:1"]
        let stale = try Self.starts(master, [["RECURRENCE-ID:20260303T090000Z", "DTSTART:20260303T150000Z"]],
                                    from: utcSeconds(2026, 3, 1), to: utcSeconds(2026, 4, 1))
        #expect(stale == [utcSeconds(2026, 3, 2, 10), utcSeconds(2026, 3, 3, 10), utcSeconds(2026, 3, 4, 10)])
        let current = try Self.starts(master, [["RECURRENCE-ID:20260303T100000Z", "DTSTART:20260303T150000Z"]],
                                      from: utcSeconds(2026, 3, 1), to: utcSeconds(2026, 4, 1))
        #expect(current == [utcSeconds(2026, 3, 2, 10), utcSeconds(2026, 3, 3, 15), utcSeconds(2026, 3, 4, 10)])
    }

    /// Exchange overrides whose RECURRENCE-ID names no instance (node-ical's
    /// test/fixtures/exchange_whole_day_moved_recurrence_offset_tz.ics shows the whole-day
    /// form): a local time written with the zone's offset applied twice, a local time
    /// written as UTC, the UTC instant of a local midnight on a date series. RFC 5545
    /// 3.8.4.4: "The full range of calendar components specified by a recurrence set is
    /// referenced by referring to just the "UID" property value corresponding to the
    /// calendar component. The "RECURRENCE-ID" property allows the reference to an
    /// individual instance within the recurrence set." Each replaces the instance of its
    /// local date within the zone's offset, so the moved meeting is not shown twice.
    @Test func exchangeOverridesReplaceTheInstanceOfTheirLocalDate() throws {
        let zone = ["BEGIN:VTIMEZONE", "TZID:W. Europe Standard Time", "BEGIN:STANDARD", "DTSTART:16011028T030000",
                    "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD",
                    "BEGIN:DAYLIGHT", "DTSTART:16010325T020000", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
                    "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:DAYLIGHT", "END:VTIMEZONE"]
        let w = "TZID=W. Europe Standard Time"
        let timed = ICS.calendar(zone + ICS.event(["DTSTART;\(w):20260105T090000", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=4"])
            + ICS.event(["RECURRENCE-ID;\(w):20260112T080000", "DTSTART;\(w):20260112T110000", "DURATION:PT1H"])
            + ICS.event(["RECURRENCE-ID:20260119T090000Z", "DTSTART;\(w):20260119T130000", "DURATION:PT1H"]))
        let warnings = try ICS.parse(timed).warnings.map(\.message)
        #expect(warnings.count == 2 && warnings.allSatisfy { $0.contains("names no instance") }, "\(warnings)")
        let meetings = try ICS.expandOnly(timed, from: utcSeconds(2026, 1, 1), to: utcSeconds(2026, 2, 1))
        #expect(meetings.map { isoUTC($0.start) } == [(5, 8), (12, 10), (19, 12), (26, 8)].map { isoUTC(utcSeconds(2026, 1, $0.0, $0.1)) })
        // The override stands for the instance it replaces: its item keeps that instance's id.
        #expect(meetings[1].recurrenceID?.wallClock == civil(2026, 1, 12, 9))
        let allDay = ICS.calendar(zone + ICS.event(["DTSTART;VALUE=DATE:20260105", "RRULE:FREQ=WEEKLY;COUNT=4"])
            + ICS.event(["RECURRENCE-ID:20260118T230000Z", "DTSTART;VALUE=DATE:20260120"]))
        #expect(try ICS.parse(allDay).warnings.map(\.message).contains { $0.contains("20260118T230000 names no instance") })
        let days = try ICS.expandOnly(allDay, from: utcSeconds(2026, 1, 1), to: utcSeconds(2026, 2, 1))
        #expect(days.compactMap(\.startDate) == [5, 12, 20, 26].map { day(2026, 1, $0) })
        // Two hours off is more than Berlin's offset in January: both stay, as written.
        let far = ICS.calendar(zone + ICS.event(["DTSTART;\(w):20260105T090000", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=2"])
            + ICS.event(["RECURRENCE-ID;\(w):20260112T070000", "DTSTART;\(w):20260112T110000", "DURATION:PT1H"]))
        #expect(try ICS.expandOnly(far, from: utcSeconds(2026, 1, 1), to: utcSeconds(2026, 2, 1)).count == 3)
        #expect(try ICS.parse(far).warnings.isEmpty)
    }
}
