import Foundation
import Testing
@testable import ICalendar

/// docs/data-model.md, "Events": several VEVENTs with one UID and no RECURRENCE-ID
/// (invalid, RFC 5545 3.8.4.7) are each an event where they differ, as every project that
/// writes or reads such files shows them (nylas' tests assert 2 events, ics-golang's
/// fixture says "3 events", ics-query expects 4 occurrences); identical copies are one.
@Suite struct SharedUIDTests {
    static func event(_ uid: String, _ lines: [String]) -> [String] { ICS.event(lines, uid: uid) }

    static let monday = event("team@x", ["DTSTART:20260601T090000Z", "SUMMARY:Monday", "RRULE:FREQ=WEEKLY;COUNT=3"])
    static let friday = event("team@x", ["DTSTART:20260605T150000Z", "SUMMARY:Friday"])

    @Test func copiesThatDifferAreEachAnEventWithAStableDerivedUID() throws {
        let parsed = try ICS.parse(ICS.calendar(Self.monday + Self.friday))
        let uids = parsed.events.map(\.uid)
        #expect(uids.count == 2 && Set(uids).count == 2 && uids.allSatisfy { $0.hasPrefix("team@x#") }, "\(uids)")
        #expect(parsed.series().count == 2)
        #expect(parsed.warnings.count == 2 && parsed.warnings.allSatisfy { $0.message.contains("RFC 5545 3.8.4.7") })
        // The same ids in the other order, and with another DTSTAMP (rewritten on every export).
        let swapped = try ICS.parse(ICS.calendar(Self.friday + Self.monday))
        #expect(Set(swapped.events.map(\.uid)) == Set(uids))
        let restamped = Self.monday.map { $0.hasPrefix("DTSTAMP") ? "DTSTAMP:20270101T000000Z" : $0 }
        #expect(Set(try ICS.parse(ICS.calendar(restamped + Self.friday)).events.map(\.uid)) == Set(uids))
    }

    @Test func identicalCopiesStayOneEventUnderTheirUID() throws {
        let parsed = try ICS.parse(ICS.calendar(Self.friday + Self.friday))
        #expect(parsed.events.map(\.uid) == ["team@x", "team@x"])
        #expect(parsed.series().count == 1)
        #expect(parsed.warnings.isEmpty)
        // Beside a copy that differs, the identical ones still give one event.
        let three = try ICS.parse(ICS.calendar(Self.friday + Self.monday + Self.friday))
        #expect(three.series().count == 2)
    }

    /// Copies of different SEQUENCE are revisions (RFC 5545 3.8.7.4): node-ical's
    /// `duplicate-uid-sequence` fixture ignores the older; the latest copies still split.
    @Test func anEarlierRevisionIsNotAnEvent() throws {
        func revision(_ lines: [String], _ n: Int) -> [String] { lines.dropLast() + ["SEQUENCE:\(n)", "END:VEVENT"] }
        let old = Self.event("team@x", ["DTSTART:20260604T150000Z", "SUMMARY:Old", "SEQUENCE:1"])
        let revised = try ICS.parse(ICS.calendar(old + revision(Self.friday, 2)))
        #expect(revised.series().map(\.series.master?.summary) == ["Friday"])
        #expect(revised.events.map(\.uid) == ["team@x", "team@x"])
        let three = try ICS.parse(ICS.calendar(old + revision(Self.monday, 2) + revision(Self.friday, 2)))
        let summaries = three.series().compactMap(\.series.master?.summary)
        #expect(summaries.sorted() == ["Friday", "Monday"])
        #expect(three.warnings.filter { $0.message.contains("earlier revision") }.count == 1)
    }

    /// An override of a shared UID belongs to the copy its RECURRENCE-ID names: the
    /// recurring one whose DTSTART is the latest before it (or the one it moves).
    @Test func anOverrideAttachesToTheCopyItBelongsTo() throws {
        let moved = Self.event("team@x", ["RECURRENCE-ID:20260608T090000Z", "DTSTART:20260608T110000Z", "SUMMARY:Moved"])
        let movedFriday = Self.event("team@x", ["RECURRENCE-ID:20260605T150000Z", "DTSTART:20260605T160000Z",
                                                "SUMMARY:Friday later"])
        let parsed = try ICS.parse(ICS.calendar(moved + Self.monday + movedFriday + Self.friday))
        let all = parsed.series()
        #expect(all.count == 2)
        for (_, series) in all {
            let master = try #require(series.master)
            #expect(series.overrides.map(\.summary) == [master.summary == "Monday" ? "Moved" : "Friday later"])
        }
        let mondays = try #require(all.first { $0.series.master?.summary == "Monday" }).series
        let starts = Expander.expand(mondays, from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 7, 1), floatingZone: .utc,
                                     zones: ZoneRegistry.shared).map(\.start)
        #expect(starts == [utcSeconds(2026, 6, 1, 9), utcSeconds(2026, 6, 8, 11), utcSeconds(2026, 6, 15, 9)])
    }

    /// A UID inside a VALARM (RFC 9074) is the alarm's, not the event's.
    @Test func theUIDOfAnAlarmIsNotTheEvents() throws {
        let block = "BEGIN:VEVENT\r\nBEGIN:VALARM\r\nUID:alarm@x\r\nEND:VALARM\r\nUID:ev\r\n ent@x\r\n"
            + "RECURRENCE-ID;TZID=Europe/Berlin:20260601T090000\r\nEND:VEVENT\r\n"
        let read = Array(block.utf8).withUnsafeBufferPointer { SharedUIDs.read($0) }
        #expect(read?.uid == "event@x")
        #expect(read?.recurrenceID == "20260601T090000")
    }
}
