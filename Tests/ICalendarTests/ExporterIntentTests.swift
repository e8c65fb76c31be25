import Foundation
import Testing
@testable import ICalendar

/// docs/data-model.md, "Time rules" and "Recurrence": invalid or ambiguous values read as
/// the exporters that write them mean them, each with the project or RFC text it follows.
@Suite struct ExporterIntentTests {
    static let berlin = Zone.system("Europe/Berlin")!
    static let newYork = Zone.system("America/New_York")!

    // MARK: - A TZID on a value ending in Z (RFC 5545 3.3.5: "MUST NOT be applied")

    /// Google writes `DTSTART;TZID=America/New_York:20211222T170000Z` and shows 5 PM in New
    /// York ("Google recognizes this as EST 5PM-6PM", its note in such files says).
    @Test func googlesZonedUTCTimeIsTheZonesWallTime() throws {
        let parsed = try ICS.parse(ICS.calendar(ICS.event([
            "DTSTART;TZID=America/New_York:20211222T170000Z", "DTEND;TZID=America/New_York:20211222T180000Z"])))
        let event = try #require(parsed.events.first)
        #expect(event.start == .zoned(civil(2021, 12, 22, 17), zoneKey: Self.newYork.key))
        #expect(event.durationSeconds == 3600)
        #expect(parsed.warnings.map(\.message) == [
            "DTSTART has TZID=America/New_York on a UTC time (ending in Z); read as the wall time in America/New_York, as Google means it",
            "DTEND has TZID=America/New_York on a UTC time (ending in Z); read as the wall time in America/New_York, as Google means it"])
    }

    /// khal's test of its `event_dt_mixed_awareness.ics` expects both events at 12:00–16:00
    /// Europe/Berlin (a floating time beside a zoned one takes its zone).
    @Test func khalsMixedAwarenessFileIsNoonToFourInBerlin() throws {
        let url = ICS.repositoryRoot.appendingPathComponent("Tests/ICalendarTests/RealWorld/khal/event_dt_mixed_awareness.ics")
        let parsed = try CalendarParser.parse(Array(try Data(contentsOf: url)))
        #expect(parsed.events.count == 2)
        for (event, date) in zip(parsed.events, [day(2015, 5, 30), day(2015, 6, 2)]) {
            let start = CivilDateTime(date: date, hour: 12, minute: 0)
            #expect(event.start == .zoned(start, zoneKey: Self.berlin.key), "\(event.uid)")
            #expect(event.durationSeconds == 4 * 3600, "\(event.uid)")
        }
    }

    /// An EXDATE written the same way still removes its instance, and an RDATE series of
    /// twelve two-hour instances stays twelve two-hour instances.
    @Test func zonedUTCExdatesAndRdatesMatchTheirInstances() throws {
        let exdated = ICS.calendar(ICS.event([
            "DTSTART;TZID=Europe/Berlin:20260105T120000Z", "DTEND;TZID=Europe/Berlin:20260105T140000Z",
            "RRULE:FREQ=DAILY;COUNT=5", "EXDATE;TZID=Europe/Berlin:20260107T120000Z"]))
        let days = try ICS.expandOnly(exdated, from: utcSeconds(2026, 1, 1), to: utcSeconds(2026, 2, 1))
        #expect(days.map(\.start) == [5, 6, 8, 9].map { utcSeconds(2026, 1, $0, 11) })
        let rdates = (2...12).map { "RDATE;TZID=Europe/Berlin:2026\($0 < 10 ? "0" : "")\($0)05T120000Z" }
        let series = ICS.calendar(ICS.event([
            "DTSTART;TZID=Europe/Berlin:20260105T120000Z", "DTEND;TZID=Europe/Berlin:20260105T140000Z"] + rdates))
        let instances = try ICS.expandOnly(series, from: utcSeconds(2026, 1, 1), to: utcSeconds(2027, 1, 1))
        #expect(instances.count == 12)
        #expect(instances.allSatisfy { $0.end - $0.start == 7200 })
        #expect(instances.allSatisfy { Self.berlin.local(atUTC: $0.start).hour == 12 })
    }

    /// An override whose RECURRENCE-ID is written so replaces the instance it names.
    @Test func aZonedUTCRecurrenceIDNamesItsInstance() throws {
        let master = ICS.event(["DTSTART;TZID=Europe/Berlin:20260105T120000Z", "DTEND;TZID=Europe/Berlin:20260105T140000Z",
                                "RRULE:FREQ=DAILY;COUNT=3"])
        let moved = ICS.event(["RECURRENCE-ID;TZID=Europe/Berlin:20260106T120000Z",
                               "DTSTART;TZID=Europe/Berlin:20260106T150000Z", "DTEND;TZID=Europe/Berlin:20260106T170000Z"])
        let starts = try ICS.expandOnly(ICS.calendar(master + moved), from: utcSeconds(2026, 1, 1), to: utcSeconds(2026, 2, 1))
            .map(\.start)
        #expect(starts == [utcSeconds(2026, 1, 5, 11), utcSeconds(2026, 1, 6, 14), utcSeconds(2026, 1, 7, 11)])
    }

    /// A zone that does not resolve leaves the value what its `Z` says: UTC.
    @Test func anUnknownZoneOnAUTCTimeKeepsUTC() throws {
        let parsed = try ICS.parse(ICS.calendar(ICS.event(["DTSTART;TZID=Mars/Olympus:20211222T170000Z"])))
        #expect(parsed.events.first?.start == .utc(utcSeconds(2021, 12, 22, 17)))
    }

    // MARK: - YEARLY with BYMONTHDAY and no BYMONTH (RFC 5545 3.3.10: BYMONTHDAY expands)

    /// ical.net's `YearlyByMonthDay` test: the 8th and 9th of every month from May 2006.
    @Test func yearlyByMonthDayRepeatsInEveryMonth() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20060508", "RRULE:FREQ=YEARLY;BYMONTHDAY=8,9"]))
        let dates = try ICS.expandOnly(text, from: utcSeconds(2006, 5, 1), to: utcSeconds(2007, 3, 1)).compactMap(\.startDate)
        #expect(dates.contains(day(2007, 1, 8)) && dates.contains(day(2007, 1, 9)))
        #expect(dates.count == 20, "\(dates.map(\.iso))")
        // With BYMONTH the month stays limited.
        let limited = ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20060508", "RRULE:FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=8,9"]))
        let few = try ICS.expandOnly(limited, from: utcSeconds(2006, 5, 1), to: utcSeconds(2008, 1, 1)).compactMap(\.startDate)
        #expect(few == [day(2006, 5, 8), day(2006, 5, 9), day(2007, 5, 8), day(2007, 5, 9)])
    }

    // MARK: - Smaller readings

    /// `UNTL=20191023`: dropped, it would leave an endless series; read as UNTIL, loudly.
    @Test func aMisspeltUntilIsReadAsUntil() throws {
        let text = ICS.calendar(ICS.event(["DTSTART:20191020T100000Z", "RRULE:FREQ=DAILY;UNTL=20191023T100000Z"]))
        let instances = try ICS.expandOnly(text, from: utcSeconds(2019, 10, 1), to: utcSeconds(2020, 1, 1))
        #expect(instances.map(\.start) == (20...23).map { utcSeconds(2019, 10, $0, 10) })
        let warnings = try ICS.parse(text).warnings.map(\.message)
        #expect(warnings.count == 1 && warnings[0].contains("\"UNTL=20191023T100000Z\" read as UNTIL=20191023T100000Z"),
                "\(warnings)")
        // Not a date: dropped with its warning; beside a COUNT: dropped.
        #expect(RuleSalvage.salvage("FREQ=DAILY;UNTL=soon")?.repairs == ["unknown part \"UNTL=soon\" dropped"])
        #expect(RuleSalvage.salvage("FREQ=DAILY;UNTL=20191023;COUNT=3")?.rule.contains("UNTIL") == false)
    }

    /// RFC 5545 3.6, RFC 7953: the VEVENTs of a VPOLL are its candidates, not events.
    @Test func eventsInsideAVPollAreNotEvents() throws {
        let parsed = try ICS.parse(ICS.calendar([
            "BEGIN:VPOLL", "UID:poll@example.com", "DTSTAMP:20260101T000000Z", "SUMMARY:When shall we meet?",
            "BEGIN:VEVENT", "UID:candidate@example.com", "DTSTAMP:20260101T000000Z", "DTSTART:20260301T090000Z",
            "POLL-ITEM-ID:1", "END:VEVENT", "END:VPOLL"] + ICS.event(["DTSTART:20260302T090000Z"])))
        #expect(parsed.events.map(\.uid) == ["event@tests.eventd.example"])
    }

    /// `DTEND;TZIDAsia/Tehran:` (a parameter without its `=`): the value is used, so the
    /// warning says how it was read, not that it was ignored.
    @Test func aMalformedTZIDParameterSaysWhatWasDone() throws {
        let parsed = try ICS.parse(ICS.calendar(ICS.event([
            "DTSTART;TZID=Asia/Tehran:20260301T090000", "DTEND;TZIDAsia/Tehran:20260301T100000"])))
        let event = try #require(parsed.events.first)
        #expect(event.durationSeconds == 3600)
        let messages = parsed.warnings.map(\.message)
        #expect(messages.count == 1 && !messages[0].contains("ignored"), "\(messages)")
    }
}
