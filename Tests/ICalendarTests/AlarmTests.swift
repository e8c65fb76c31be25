import Foundation
import Testing
@testable import ICalendar

/// `EventRecord.alarms`: which VALARMs become reminders before the start (issue 14).
@Suite struct AlarmTests {
    static func alarm(_ lines: [String]) -> [String] { ["BEGIN:VALARM"] + lines + ["END:VALARM"] }

    static func alarms(_ extra: [String], start: String = "DTSTART:20260301T090000Z", end: String = "DTEND:20260301T100000Z") throws -> [Int64] {
        let parsed = try ICS.parse(ICS.calendar(ICS.event([start, end, "SUMMARY:Review"] + extra)))
        return try #require(parsed.events.first).alarms
    }

    @Test func displayTriggersBeforeTheStartAreKeptInOrder() throws {
        #expect(try Self.alarms(Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:R", "TRIGGER:-PT10M"])
                                + Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:R", "TRIGGER;RELATED=START:-P1DT2H"])
                                + Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:R", "TRIGGER:PT0S"])) == [600, 93_600, 0])
    }

    @Test func aTriggerRelatedToTheEndCountsFromTheEnd() throws {
        // One hour long; 90 minutes before the end is 30 minutes before the start.
        #expect(try Self.alarms(Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:R", "TRIGGER;RELATED=END:-PT90M"])) == [1800])
        // 15 minutes before the end is during the event: not kept.
        #expect(try Self.alarms(Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:R", "TRIGGER;RELATED=END:-PT15M"])) == [])
    }

    @Test func otherActionsAbsoluteTriggersAfterStartAndRepeatsAreNotKept() throws {
        #expect(try Self.alarms(Self.alarm(["ACTION:AUDIO", "TRIGGER:-PT5M"])
                                + Self.alarm(["ACTION:EMAIL", "DESCRIPTION:R", "SUMMARY:S", "ATTENDEE:mailto:a@example.com", "TRIGGER:-PT5M"])
                                + Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:R", "TRIGGER;VALUE=DATE-TIME:20260301T080000Z"])
                                + Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:R", "TRIGGER:PT5M"])
                                + Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:R", "TRIGGER:-PT10M"])
                                + Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:again", "TRIGGER:-PT10M"])) == [600])
        #expect(try Self.alarms([]) == [])
    }

    @Test func allDayEventsKeepTheirAlarmsToo() throws {
        #expect(try Self.alarms(Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:R", "TRIGGER:-PT15H"]),
                                start: "DTSTART;VALUE=DATE:20260301", end: "DTEND;VALUE=DATE:20260302") == [54_000])
    }
}
