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
}
