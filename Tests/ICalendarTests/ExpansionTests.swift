import Foundation
import Testing
@testable import ICalendar

/// docs/data-model.md: RRULE, RDATE, EXDATE, RECURRENCE-ID (with RANGE=THISANDFUTURE),
/// STATUS:CANCELLED, and recurrences across DST changes in several zones.
@Suite struct ExpansionTests {
    let berlin = Zone.system("Europe/Berlin")!

    /// A daily 09:00-09:30 series in `tzid` starting on `start` (YYYYMMDD).
    func dailyNine(_ tzid: String, from start: String, extra: [String] = []) -> String {
        ICS.calendar(ICS.event([
            "DTSTART;TZID=\(tzid):\(start)T090000",
            "DTEND;TZID=\(tzid):\(start)T093000",
            "RRULE:FREQ=DAILY",
        ] + extra))
    }

    /// A Berlin 09:00-10:00 series from `start` (YYYYMMDD) by `rule`.
    func nineToTen(from start: String, _ rule: String) -> [String] {
        ["DTSTART;TZID=Europe/Berlin:\(start)T090000", "DTEND;TZID=Europe/Berlin:\(start)T100000", rule]
    }

    func starts(_ occurrences: [Occurrence]) -> [String] { occurrences.map { isoUTC($0.start) } }

    /// Expands `text` over `[from, to)` (by default 2026) and expects occurrences starting
    /// at `expected` (UTC, in order); returns them.
    @discardableResult
    func expectStarts(_ text: String, from: Int64 = utcSeconds(2026, 1, 1), to: Int64 = utcSeconds(2027, 1, 1),
                      _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [Occurrence] {
        let occurrences = try ICS.expandOnly(text, from: from, to: to, sourceLocation: sourceLocation)
        #expect(starts(occurrences) == expected, sourceLocation: sourceLocation)
        return occurrences
    }

    /// `expectStarts` for a calendar of one VEVENT of `lines`.
    @discardableResult
    func expectStarts(event lines: [String], from: Int64 = utcSeconds(2026, 1, 1), to: Int64 = utcSeconds(2027, 1, 1),
                      _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [Occurrence] {
        try expectStarts(ICS.calendar(ICS.event(lines)), from: from, to: to, expected, sourceLocation: sourceLocation)
    }

    // MARK: - DST in several zones

    @Test func berlinDailyStaysAtNineAcrossBothTransitions() throws {
        let text = dailyNine("Europe/Berlin", from: "20260301")
        let march = try expectStarts(text, from: utcSeconds(2026, 3, 27), to: utcSeconds(2026, 3, 31),
                                     ["2026-03-27T08:00:00Z", "2026-03-28T08:00:00Z", "2026-03-29T07:00:00Z", "2026-03-30T07:00:00Z"])
        let october = try expectStarts(text, from: utcSeconds(2026, 10, 23), to: utcSeconds(2026, 10, 27),
                                       ["2026-10-23T07:00:00Z", "2026-10-24T07:00:00Z", "2026-10-25T08:00:00Z", "2026-10-26T08:00:00Z"])
        #expect((march + october).allSatisfy { $0.end - $0.start == 1800 })
        #expect((march + october).allSatisfy { berlin.local(atUTC: $0.start).hour == 9 })
    }

    @Test func newYorkDailyStaysAtNineAcrossBothTransitions() throws {
        let text = dailyNine("America/New_York", from: "20260301")
        try expectStarts(text, from: utcSeconds(2026, 3, 7), to: utcSeconds(2026, 3, 9, 23),
                         ["2026-03-07T14:00:00Z", "2026-03-08T13:00:00Z", "2026-03-09T13:00:00Z"])
        try expectStarts(text, from: utcSeconds(2026, 10, 31), to: utcSeconds(2026, 11, 2, 23),
                         ["2026-10-31T13:00:00Z", "2026-11-01T14:00:00Z", "2026-11-02T14:00:00Z"])
    }

    @Test func sydneySouthernHemisphereDST() throws {
        let text = dailyNine("Australia/Sydney", from: "20260101")
        // DST ends on Sunday 5 April 2026 (AEDT +11 -> AEST +10).
        try expectStarts(text, from: utcSeconds(2026, 4, 3, 12), to: utcSeconds(2026, 4, 6, 12),
                         ["2026-04-03T22:00:00Z", "2026-04-04T23:00:00Z", "2026-04-05T23:00:00Z"])
        // DST starts on Sunday 4 October 2026 (AEST +10 -> AEDT +11).
        try expectStarts(text, from: utcSeconds(2026, 10, 2, 12), to: utcSeconds(2026, 10, 5, 12),
                         ["2026-10-02T23:00:00Z", "2026-10-03T22:00:00Z", "2026-10-04T22:00:00Z"])
    }

    @Test func seoulHasTheSameOffsetAllYear() throws {
        let text = dailyNine("Asia/Seoul", from: "20260101")
        for month in [1, 3, 4, 7, 10, 11] {
            let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, month, 10), to: utcSeconds(2026, month, 13))
            #expect(starts(occurrences) == [10, 11, 12].map { isoUTC(utcSeconds(2026, month, $0, 0)) }, "month \(month)")
        }
    }

    @Test func springForwardGapInstanceUsesOffsetBeforeTheGap() throws {
        // 28th CET 01:30Z; 29th 02:30 does not exist -> +01:00 -> 01:30Z; 30th CEST 00:30Z.
        let occurrences = try expectStarts(event: ["DTSTART;TZID=Europe/Berlin:20260325T023000", "DURATION:PT1H",
                                                   "RRULE:FREQ=DAILY;COUNT=10"],
                                           from: utcSeconds(2026, 3, 28), to: utcSeconds(2026, 3, 31),
                                           ["2026-03-28T01:30:00Z", "2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"])
        #expect(occurrences.allSatisfy { $0.end - $0.start == 3600 })
    }

    @Test func fallBackOverlapInstanceIsTheFirstOccurrence() throws {
        try expectStarts(event: ["DTSTART;TZID=Europe/Berlin:20261023T023000", "RRULE:FREQ=DAILY;COUNT=5"],
                         from: utcSeconds(2026, 10, 24), to: utcSeconds(2026, 10, 27),
                         ["2026-10-24T00:30:00Z", "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"])
        try expectStarts(event: ["DTSTART;TZID=America/New_York:20261030T013000", "RRULE:FREQ=DAILY;COUNT=5"],
                         from: utcSeconds(2026, 10, 31), to: utcSeconds(2026, 11, 3),
                         ["2026-10-31T05:30:00Z", "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"])
    }

    @Test func newYorkGapInstance() throws {
        // 8 March 02:30 does not exist: read with -05:00.
        try expectStarts(event: ["DTSTART;TZID=America/New_York:20260306T023000", "RRULE:FREQ=DAILY;COUNT=5"],
                         from: utcSeconds(2026, 3, 7), to: utcSeconds(2026, 3, 10),
                         ["2026-03-07T07:30:00Z", "2026-03-08T07:30:00Z", "2026-03-09T06:30:00Z"])
    }

    @Test func allDayWeeklySeriesKeepsItsDatesAcrossDST() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20260316", "RRULE:FREQ=WEEKLY;COUNT=34"]))
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 1, 1), to: utcSeconds(2027, 1, 1), floating: berlin)
        #expect(occurrences.count == 34)
        var expected = day(2026, 3, 16)
        for o in occurrences {
            #expect(o.startDate == expected)
            #expect(o.endDate == expected.adding(days: 1))
            #expect(o.startDate?.weekday == 1)
            // Each starts at local midnight, whatever the offset that day.
            #expect(berlin.local(atUTC: o.start) == CivilDateTime(date: expected))
            #expect(berlin.local(atUTC: o.end) == CivilDateTime(date: expected.adding(days: 1)))
            expected = expected.adding(days: 7)
        }
        // The Monday after each change: midnight moves from 23:00Z to 22:00Z and back.
        let spring = try #require(occurrences.first { $0.startDate == day(2026, 3, 30) })
        #expect(spring.start == utcSeconds(2026, 3, 29, 22))
        let autumn = try #require(occurrences.first { $0.startDate == day(2026, 10, 26) })
        #expect(autumn.start == utcSeconds(2026, 10, 25, 23))
    }

    @Test func allDayOccurrenceOnTheTransitionDayIsShorter() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20260329"]))
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 3, 1), to: utcSeconds(2026, 4, 1), floating: berlin)
        try #require(occurrences.count == 1)
        #expect(occurrences[0].end - occurrences[0].start == 23 * 3600)
        #expect(occurrences[0].endDate == day(2026, 3, 30))
    }

    // MARK: - Shapes

    @Test func eventCrossingMidnight() throws {
        let text = ICS.calendar(ICS.event([
            "DTSTART;TZID=Europe/Berlin:20260615T230000",
            "DTEND;TZID=Europe/Berlin:20260616T013000",
            "RRULE:FREQ=DAILY;COUNT=3",
        ]))
        let all = try expectStarts(text, from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 7, 1),
                                   ["2026-06-15T21:00:00Z", "2026-06-16T21:00:00Z", "2026-06-17T21:00:00Z"])
        #expect(all.allSatisfy { $0.end - $0.start == 9000 })
        // Berlin's 16 June is [15th 22:00Z, 16th 22:00Z): the first instance reaches into it
        // from the evening before, the second starts in it.
        try expectStarts(text, from: utcSeconds(2026, 6, 15, 22), to: utcSeconds(2026, 6, 16, 22),
                         ["2026-06-15T21:00:00Z", "2026-06-16T21:00:00Z"])
        // A window that ends when the first instance starts does not see it.
        #expect(try ICS.expandOnly(text, from: utcSeconds(2026, 6, 15), to: utcSeconds(2026, 6, 15, 21)).isEmpty)
    }

    @Test func multiDayTimedEventAcrossDST() throws {
        let text = ICS.calendar(ICS.event([
            "DTSTART;TZID=Europe/Berlin:20260326T140000",
            "DTEND;TZID=Europe/Berlin:20260330T100000",
        ]))
        let event = try #require(try ICS.parse(text).events.first)
        #expect(event.durationSeconds == 4 * 86_400 - 4 * 3600 - 3600) // exact: 91 h, one lost at the change
        let middle = try ICS.expandOnly(text, from: utcSeconds(2026, 3, 28), to: utcSeconds(2026, 3, 28, 1))
        try #require(middle.count == 1)
        #expect(middle[0].start == utcSeconds(2026, 3, 26, 13))
        #expect(middle[0].end == utcSeconds(2026, 3, 30, 8))
        #expect(try ICS.expandOnly(text, from: utcSeconds(2026, 3, 30, 8), to: utcSeconds(2026, 3, 31)).isEmpty)
    }

    // MARK: - RRULE parts

    @Test func countLimitsTheSeries() throws {
        let occurrences = try expectStarts(event: ["DTSTART:20260601T090000Z", "RRULE:FREQ=DAILY;COUNT=3"], to: utcSeconds(2030, 1, 1),
                                           ["2026-06-01T09:00:00Z", "2026-06-02T09:00:00Z", "2026-06-03T09:00:00Z"])
        #expect(occurrences.map(\.recurrenceID) == [1, 2, 3].map { .utc(utcSeconds(2026, 6, $0, 9)) })
    }

    @Test func untilIsInclusive() throws {
        try expectStarts(event: ["DTSTART;TZID=Europe/Berlin:20260601T090000", "RRULE:FREQ=DAILY;UNTIL=20260605T070000Z"],
                         to: utcSeconds(2030, 1, 1), (1...5).map { isoUTC(utcSeconds(2026, 6, $0, 7)) })
    }

    @Test func utcUntilAcrossAnOffsetChangeIsInclusive() throws {
        // 09:00 CET on 26 October is 08:00Z; the series started in CEST (07:00Z).
        for (until, last) in [("20261026T080000Z", 26), ("20261026T075959Z", 25)] {
            let text = ICS.calendar(ICS.event([
                "DTSTART;TZID=Europe/Berlin:20261020T090000",
                "RRULE:FREQ=DAILY;UNTIL=\(until)",
            ]))
            let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 10, 1), to: utcSeconds(2026, 11, 1))
            #expect(occurrences.last.map { berlin.local(atUTC: $0.start) } == civil(2026, 10, last, 9), "UNTIL=\(until)")
            #expect(occurrences.count == last - 19, "UNTIL=\(until)")
        }
    }

    @Test func untilAsDateIsInclusiveForAllDay() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20260601", "RRULE:FREQ=DAILY;UNTIL=20260603"]))
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 1, 1), to: utcSeconds(2030, 1, 1))
        #expect(occurrences.map(\.startDate) == [day(2026, 6, 1), day(2026, 6, 2), day(2026, 6, 3)])
    }

    @Test func interval() throws {
        try expectStarts(event: ["DTSTART:20260601T090000Z", "RRULE:FREQ=DAILY;INTERVAL=3;COUNT=4"],
                         to: utcSeconds(2030, 1, 1), [1, 4, 7, 10].map { isoUTC(utcSeconds(2026, 6, $0, 9)) })
    }

    @Test func byDay() throws {
        // Monday 1 June 2026; Mondays, Wednesdays and Fridays.
        try expectStarts(event: ["DTSTART;TZID=Europe/Berlin:20260601T090000", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR"],
                         from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 6, 15),
                         [1, 3, 5, 8, 10, 12].map { isoUTC(utcSeconds(2026, 6, $0, 7)) })
    }

    @Test func openEndedRuleFarInTheFutureIsQuickAndRight() throws {
        let text = dailyNine("Europe/Berlin", from: "20260105", extra: []).replacingOccurrences(of: "RRULE:FREQ=DAILY", with: "RRULE:FREQ=WEEKLY;BYDAY=MO")
        let clock = ContinuousClock()
        var occurrences: [Occurrence] = []
        let elapsed = try clock.measure {
            occurrences = try ICS.expandOnly(text, from: utcSeconds(2090, 1, 1), to: utcSeconds(2090, 8, 1))
        }
        // Mondays of January-July 2090 (1 Jan 2090 is a Sunday): 2 Jan ... 31 Jul.
        #expect(occurrences.count == 31)
        #expect(occurrences.first.map { isoUTC($0.start) } == "2090-01-02T08:00:00Z")
        #expect(occurrences.last.map { isoUTC($0.start) } == "2090-07-31T07:00:00Z")
        #expect(occurrences.allSatisfy { berlin.local(atUTC: $0.start).hour == 9 && berlin.local(atUTC: $0.start).date.weekday == 1 })
        #expect(elapsed < .seconds(2), "expanding 2090 took \(elapsed)")
    }

    @Test func dtstartNotMatchingTheRuleIsStillTheFirstInstance() throws {
        // Tuesday 2 June 2026, rule on Mondays.
        try expectStarts(event: ["DTSTART;TZID=Europe/Berlin:20260602T090000", "RRULE:FREQ=WEEKLY;BYDAY=MO"],
                         from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 6, 23),
                         ["2026-06-02T07:00:00Z", "2026-06-08T07:00:00Z", "2026-06-15T07:00:00Z", "2026-06-22T07:00:00Z"])
    }

    // MARK: - EXDATE and RDATE

    @Test func exdateInTheSeriesZoneUTCAndDateForms() throws {
        try expectStarts(event: nineToTen(from: "20260601", "RRULE:FREQ=DAILY;COUNT=6")
                             + ["EXDATE;TZID=Europe/Berlin:20260602T090000", "EXDATE:20260603T070000Z", "EXDATE;VALUE=DATE:20260604"],
                         [1, 5, 6].map { isoUTC(utcSeconds(2026, 6, $0, 7)) })
    }

    @Test func exdateThatMatchesNoInstanceRemovesNothing() throws {
        let text = ICS.calendar(ICS.event([
            "DTSTART;TZID=Europe/Berlin:20260601T090000",
            "RRULE:FREQ=DAILY;COUNT=3",
            "EXDATE;TZID=Europe/Berlin:20260602T100000", // an hour off
        ]))
        #expect(try ICS.expandOnly(text, from: utcSeconds(2026, 1, 1), to: utcSeconds(2027, 1, 1)).count == 3)
    }

    @Test func exdateOnDtstartRemovesTheFirstInstance() throws {
        try expectStarts(event: ["DTSTART;TZID=Europe/Berlin:20260601T090000", "RRULE:FREQ=DAILY;COUNT=3",
                                 "EXDATE;TZID=Europe/Berlin:20260601T090000"],
                         [2, 3].map { isoUTC(utcSeconds(2026, 6, $0, 7)) })
    }

    @Test func rdateDateTimeAndPeriod() throws {
        let text = ICS.calendar(ICS.event([
            "DTSTART;TZID=Europe/Berlin:20260601T090000",
            "DTEND;TZID=Europe/Berlin:20260601T093000",
            "RRULE:FREQ=DAILY;COUNT=2",
            "RDATE;TZID=Europe/Berlin:20260610T150000",
            "RDATE;VALUE=PERIOD:20260612T100000Z/20260612T140000Z",
            "RDATE;VALUE=PERIOD:20260614T100000Z/PT2H",
        ]))
        let parsed = try ICS.parse(text)
        #expect(parsed.events.first?.rdates.count == 3)
        let occurrences = try expectStarts(text, ["2026-06-01T07:00:00Z", "2026-06-02T07:00:00Z", "2026-06-10T13:00:00Z",
                                                  "2026-06-12T10:00:00Z", "2026-06-14T10:00:00Z"])
        #expect(occurrences.map { $0.end - $0.start } == [1800, 1800, 1800, 4 * 3600, 2 * 3600])
        #expect(occurrences[2].recurrenceID == .zoned(civil(2026, 6, 10, 15), zoneKey: "Europe/Berlin"))
    }

    @Test func rdatePeriodReachingIntoTheWindowIsFound() throws {
        try expectStarts(event: ["DTSTART:20260601T090000Z", "DURATION:PT30M", "RDATE;VALUE=PERIOD:20260701T000000Z/20260710T000000Z"],
                         from: utcSeconds(2026, 7, 5), to: utcSeconds(2026, 7, 6), ["2026-07-01T00:00:00Z"])
    }

    @Test func rdateWithoutRrule() throws {
        let occurrences = try expectStarts(event: ["DTSTART:20260601T090000Z", "DURATION:PT1H", "RDATE:20260603T090000Z,20260605T090000Z"],
                                           [1, 3, 5].map { isoUTC(utcSeconds(2026, 6, $0, 9)) })
        #expect(occurrences.allSatisfy { $0.recurrenceID != nil })
    }

    // MARK: - Overrides

    /// Master: daily 09:00-10:00 Berlin, 1-6 June 2026, then `more` VEVENTs with the same UID.
    func series(_ masterExtra: [String] = [], _ more: [[String]]) -> String {
        var body = ICS.event(nineToTen(from: "20260601", "RRULE:FREQ=DAILY;COUNT=6") + ["SUMMARY:Master"] + masterExtra)
        for lines in more { body += ICS.event(lines) }
        return ICS.calendar(body)
    }

    /// An override: `RECURRENCE-ID` followed by `recurrenceID` (parameters and value), its
    /// Berlin `start` and `end` (YYYYMMDDTHHMMSS), then `extra`.
    func override(_ recurrenceID: String, _ start: String, _ end: String, _ extra: [String] = []) -> [String] {
        ["RECURRENCE-ID\(recurrenceID)", "DTSTART;TZID=Europe/Berlin:\(start)", "DTEND;TZID=Europe/Berlin:\(end)"] + extra
    }

    @Test func overrideMovesAnInstanceToAnotherDay() throws {
        let text = series([], [override(";TZID=Europe/Berlin:20260603T090000", "20260610T140000", "20260610T143000", ["SUMMARY:Moved"])])
        let occurrences = try expectStarts(text, ["2026-06-01T07:00:00Z", "2026-06-02T07:00:00Z", "2026-06-04T07:00:00Z",
                                                  "2026-06-05T07:00:00Z", "2026-06-06T07:00:00Z", "2026-06-10T12:00:00Z"])
        let moved = try #require(occurrences.last)
        #expect(moved.contentIndex == 0)
        #expect(moved.end - moved.start == 1800)
        #expect(moved.recurrenceID == .zoned(civil(2026, 6, 3, 9), zoneKey: "Europe/Berlin"))
        // In a window around the original day only, nothing is left.
        #expect(try ICS.expandOnly(text, from: utcSeconds(2026, 6, 3), to: utcSeconds(2026, 6, 4)).isEmpty)
        // In a window around the new day only, the moved instance is there.
        try expectStarts(text, from: utcSeconds(2026, 6, 10), to: utcSeconds(2026, 6, 11), ["2026-06-10T12:00:00Z"])
        #expect(occurrences.filter { $0.contentIndex == -1 }.count == 5)
    }

    @Test func overrideWithRecurrenceIdInUTCMatches() throws {
        try expectStarts(series([], [override(":20260603T070000Z", "20260603T120000", "20260603T130000")]),
                         from: utcSeconds(2026, 6, 3), to: utcSeconds(2026, 6, 4), ["2026-06-03T10:00:00Z"])
    }

    @Test func cancelledOverrideHidesItsInstance() throws {
        try expectStarts(series([], [override(";TZID=Europe/Berlin:20260602T090000", "20260602T090000", "20260602T100000",
                                              ["STATUS:CANCELLED"])]),
                         [1, 3, 4, 5, 6].map { isoUTC(utcSeconds(2026, 6, $0, 7)) })
    }

    @Test func cancelledMasterHidesEverything() throws {
        let text = series(["STATUS:CANCELLED"], [override(";TZID=Europe/Berlin:20260602T090000", "20260602T110000", "20260602T120000")])
        #expect(try ICS.expandOnly(text, from: utcSeconds(2026, 1, 1), to: utcSeconds(2027, 1, 1)).isEmpty)
        let single = ICS.calendar(ICS.event(["DTSTART:20260601T090000Z", "STATUS:CANCELLED"]))
        #expect(try ICS.expandOnly(single, from: utcSeconds(2026, 1, 1), to: utcSeconds(2027, 1, 1)).isEmpty)
    }

    @Test func thisAndFutureShiftsLaterInstancesAndChangesTheirDuration() throws {
        let text = series([], [override(";RANGE=THISANDFUTURE;TZID=Europe/Berlin:20260603T090000", "20260603T110000", "20260603T113000",
                                        ["SUMMARY:Later and shorter"])])
        let parsed = try ICS.parse(text)
        #expect(parsed.events.last?.thisAndFuture == true)
        let occurrences = try expectStarts(text, ["2026-06-01T07:00:00Z", "2026-06-02T07:00:00Z", "2026-06-03T09:00:00Z",
                                                  "2026-06-04T09:00:00Z", "2026-06-05T09:00:00Z", "2026-06-06T09:00:00Z"])
        #expect(occurrences.map { $0.end - $0.start } == [3600, 3600, 1800, 1800, 1800, 1800])
        #expect(occurrences.map(\.contentIndex) == [-1, -1, 0, 0, 0, 0])
        // Each shifted instance keeps its own original start as its recurrence ID.
        #expect(occurrences[3].recurrenceID.map { $0.instant(zones: ZoneRegistry.shared, floatingZone: .utc) } == utcSeconds(2026, 6, 4, 7))
        #expect(occurrences[2].recurrenceID == .zoned(civil(2026, 6, 3, 9), zoneKey: "Europe/Berlin"))
        // Nothing is left at the original times of the shifted instances.
        #expect(!occurrences.contains { $0.start == utcSeconds(2026, 6, 4, 7) })
    }

    @Test func thisAndFutureAcrossDSTKeepsLocalTime() throws {
        // Daily 09:00 Berlin from 25 March; from the 27th on, moved to 10:00.
        let text = ICS.calendar(ICS.event(nineToTen(from: "20260325", "RRULE:FREQ=DAILY;COUNT=7"))
                                    + ICS.event(override(";RANGE=THISANDFUTURE;TZID=Europe/Berlin:20260327T090000",
                                                         "20260327T100000", "20260327T110000")))
        let local = try ICS.expandOnly(text, from: utcSeconds(2026, 3, 1), to: utcSeconds(2026, 4, 1)).map { berlin.local(atUTC: $0.start) }
        #expect(local.map(\.hour) == [9, 9, 10, 10, 10, 10, 10], "\(local)")
    }

    /// RFC 5545 applies the override's time shift to later instances; for a zoned series
    /// a shift of one day is one calendar day (as for DTSTART + P1D), so 09:00 stays 09:00.
    @Test func thisAndFutureDayShiftAcrossDSTKeepsLocalTime() throws {
        // Saturday 28 March 09:00 CET moved to Sunday 29 March 09:00 CEST, and every later one a day later.
        let text = ICS.calendar(ICS.event(nineToTen(from: "20260325", "RRULE:FREQ=WEEKLY;BYDAY=WE,SA;COUNT=6"))
                                    + ICS.event(override(";RANGE=THISANDFUTURE;TZID=Europe/Berlin:20260328T090000",
                                                         "20260329T090000", "20260329T100000")))
        let local = try ICS.expandOnly(text, from: utcSeconds(2026, 3, 1), to: utcSeconds(2026, 5, 1)).map { berlin.local(atUTC: $0.start) }
        #expect(local == [civil(2026, 3, 25, 9), civil(2026, 3, 29, 9), civil(2026, 4, 2, 9), civil(2026, 4, 5, 9),
                          civil(2026, 4, 9, 9), civil(2026, 4, 12, 9)], "\(local)")
    }

    @Test func overrideOfAnExcludedInstanceIsNotShown() throws {
        try expectStarts(series(["EXDATE;TZID=Europe/Berlin:20260602T090000"],
                                [override(";TZID=Europe/Berlin:20260602T090000", "20260602T150000", "20260602T160000")]),
                         [1, 3, 4, 5, 6].map { isoUTC(utcSeconds(2026, 6, $0, 7)) })
    }

    @Test func overrideWithoutMasterIsShownAlone() throws {
        try expectStarts(event: ["RECURRENCE-ID;TZID=Europe/Berlin:20260602T090000", "DTSTART;TZID=Europe/Berlin:20260602T150000"],
                         ["2026-06-02T13:00:00Z"])
    }

    @Test func seriesGroupsByUIDAndPicksTheHigherSequence() throws {
        let text = ICS.calendar(
            ICS.event(["DTSTART:20260601T090000Z", "SEQUENCE:2", "SUMMARY:New"], uid: "dup@x")
                + ICS.event(["DTSTART:20260601T090000Z", "SEQUENCE:1", "SUMMARY:Old"], uid: "dup@x")
                + ICS.event(["DTSTART:20260601T090000Z"], uid: "other@x"))
        let all = try ICS.parse(text).series()
        #expect(all.map(\.uid) == ["dup@x", "other@x"])
        #expect(all[0].series.master?.summary == "New")
    }
}

