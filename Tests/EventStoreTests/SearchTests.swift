import Testing
@testable import EventStore
import ICalendar
import TestSupport

/// `EventStore.search`: every event whose summary, location or description holds the
/// text, case ignored beyond ASCII, in order of start, through a read-only store.
struct SearchTests {
    @Test func findsByAnyTextIgnoringCaseInStartOrder() throws {
        let s = try ScratchStore()
        _ = try s.run(StoreICS.input("work.ics", StoreICS.calendar([
            StoreICS.event("late", day: 20, summary: "ÉTÉ planning"),
            StoreICS.event("early", day: 2, summary: "Standup", extra: ["LOCATION:Salle été"]),
            StoreICS.event("mid", day: 10, summary: "Review", extra: ["DESCRIPTION:notes for l'été\\nand more"]),
            StoreICS.event("other", day: 5, summary: "Lunch", extra: ["LOCATION:Canteen"]),
            StoreICS.event("weekly", day: 3, summary: "Été sync", extra: ["RRULE:FREQ=WEEKLY"]),
        ])))
        let store = try EventStore(path: s.path, readOnly: true)
        let hits = try store.search("été", floatingZone: .utc)
        #expect(hits.map(\.uid) == ["early", "weekly", "mid", "late"])
        #expect(hits.first?.location == "Salle été" && hits.first?.calendar == "work")
        #expect(hits.map(\.recurring) == [false, true, false, false])
        #expect(hits.first?.start == .utc(1_780_390_800), "2 June 2026 09:00 UTC")
        #expect(try store.search("ÉTÉ", floatingZone: .utc, limit: 2).map(\.uid) == ["early", "weekly"])
        #expect(try store.search("canteen", floatingZone: .utc).map(\.uid) == ["other"])
        #expect(try store.search("nowhere", floatingZone: .utc).isEmpty)
        #expect(try store.search("", floatingZone: .utc).isEmpty)
    }

    /// `details`: the master's whole description, its rule, organizer and attendees read
    /// from the stored VEVENT, and where it came from.
    @Test func detailsComeFromTheStoredEvent() throws {
        let s = try ScratchStore()
        let long = String(repeating: "word ", count: 400) + "END"
        _ = try s.run(StoreICS.input("work.ics", StoreICS.calendar([
            StoreICS.event("sync", day: 3, summary: "Sync", extra: [
                "RRULE:FREQ=WEEKLY;BYDAY=WE", "ORGANIZER;CN=\"Lopez, Ana\":mailto:ana@example.org",
                "ATTENDEE;CN=Kim;PARTSTAT=ACCEPTED:MAILTO:kim@example.org", "ATTENDEE:mailto:bob@example.org",
                "DESCRIPTION:" + long]),
            StoreICS.event("plain", day: 4, summary: "Plain"),
        ])))
        let store = try EventStore(path: s.path, readOnly: true)
        let details = try #require(try store.details(calendar: "work", uid: "sync"))
        #expect(details.description == long)
        #expect(details.rule == "FREQ=WEEKLY;BYDAY=WE")
        #expect(details.organizer == EventDetails.Person(name: "Lopez, Ana", address: "ana@example.org", participation: nil))
        #expect(details.attendees == [EventDetails.Person(name: "Kim", address: "kim@example.org", participation: "accepted"),
                                      EventDetails.Person(name: nil, address: "bob@example.org", participation: nil)])
        #expect(details.source.hasPrefix("imported from ") && details.source.hasSuffix("work.ics"), "\(details.source)")
        let plain = try #require(try store.details(calendar: "work", uid: "plain"))
        #expect(plain.rule == nil && plain.attendees.isEmpty && plain.organizer == nil)
        #expect(try store.details(calendar: "work", uid: "nosuch") == nil)
        #expect(try store.details(calendar: "other", uid: "sync") == nil)
    }

    /// A moved occurrence's details are its override's; the others' the master's.
    @Test func detailsOfAMovedOccurrenceAreItsOwn() throws {
        let s = try ScratchStore()
        _ = try s.run(StoreICS.input("work.ics", StoreICS.calendar([
            StoreICS.event("daily", day: 8, summary: "Daily", extra: ["RRULE:FREQ=DAILY;COUNT=5", "DESCRIPTION:master text"]),
            StoreICS.event("daily", day: 10, summary: "Daily (moved)",
                           extra: ["RECURRENCE-ID:20260610T090000Z", "DESCRIPTION:override text"]),
        ])))
        let store = try EventStore(path: s.path, readOnly: true)
        let stored = try #require(try store.db.scalarText("SELECT recurrence_id FROM event WHERE recurrence_id != ''"))
        #expect(try store.details(calendar: "work", uid: "daily", recurrenceID: stored)?.description == "override text")
        #expect(try store.details(calendar: "work", uid: "daily", recurrenceID: "20260609T090000Z")?.description == "master text")
        #expect(try store.details(calendar: "work", uid: "daily")?.description == "master text")
        #expect(try store.details(calendar: "work", uid: "daily")?.rule == "FREQ=DAILY;COUNT=5")
    }
}
