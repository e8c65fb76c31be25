import Foundation
import Testing
import Agenda
import EventStore
import ICalendar
import TestSupport

/// docs/data-model.md: order inside a section — all-day first, then start, end, summary,
/// id (byte order) — as a pure function of the data.
@Suite struct OrderingTests {
    static let events: [[String]] = [
        // All-day: by start (a trip that began the day before first), then summary.
        ICS.allDay("allday-bravo", "20261130", nil, summary: "Bravo"),
        ICS.allDay("allday-alpha", "20261130", nil, summary: "Alpha"),
        ICS.allDay("allday-trip", "20261129", "20261202", summary: "Zulu trip"),
        ICS.allDay("allday-long", "20261130", "20261202", summary: "Alpha"),
        // Timed: a carry-over from the day before starts earliest.
        ICS.berlin("late", "20261130T110000", nil, summary: "A"),
        ICS.berlin("early", "20261130T080000", "20261130T090000", summary: "Zzz"),
        ICS.berlin("carry", "20261129T200000", "20261130T083000", summary: "Zzz"),
        // Same start: shorter first.
        ICS.berlin("long-a", "20261130T090000", "20261130T100000", summary: "Apple"),
        ICS.berlin("short", "20261130T090000", "20261130T093000", summary: "Zed"),
        // Same start and end: by summary, in UTF-8 byte order.
        ICS.berlin("long-b", "20261130T090000", "20261130T100000", summary: "Banana"),
        ICS.berlin("long-upper", "20261130T090000", "20261130T100000", summary: "BANANA"),
        // Same start, end and summary: by id.
        ICS.berlin("tie-1", "20261130T090000", "20261130T100000", summary: "Cherry"),
        ICS.berlin("tie-2", "20261130T090000", "20261130T100000", summary: "Cherry"),
        ICS.berlin("tie-3", "20261130T090000", "20261130T100000", summary: "Cherry"),
        ICS.berlin("tie-4", "20261130T090000", "20261130T100000", summary: "Cherry"),
    ]

    @Test func allDayThenStartEndSummaryID() throws {
        let s = try ScratchStore()
        try s.load(Self.events)
        let snapshot = try s.build(Fixture.view(from: "2026-11-30", days: 1))
        let section = try #require(snapshot.section("2026-11-30"))
        let uids = section.items.map { $0.string("uid") ?? "" }
        let ties = section.items.filter { $0.string("summary") == "Cherry" }
        let tieOrder = ties.map(\.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(ties.map(\.id) == tieOrder)
        let tieUIDs = ties.map { $0.string("uid") ?? "" }
        #expect(Set(tieUIDs) == ["tie-1", "tie-2", "tie-3", "tie-4"])
        #expect(uids == ["allday-trip", "allday-alpha", "allday-bravo", "allday-long",
                         "carry", "early", "short", "long-a", "long-upper", "long-b"] + tieUIDs + ["late"])
    }

    @Test func allDayFirstEvenWhenTimedStartsEarlier() throws {
        let s = try ScratchStore()
        // In Tokyo the timed event runs 23:00 Nov 29 to 01:00 Nov 30: on Nov 30 it starts
        // before the all-day event (and its summary sorts first), yet comes second.
        try s.load([
            ICS.event("timed", "DTSTART:20261129T140000Z", "DTEND:20261129T160000Z", "SUMMARY:A"),
            ICS.allDay("allday", "20261130", nil, summary: "Z"),
        ])
        let tokyo = try s.build(Fixture.view("Asia/Tokyo", from: "2026-11-30", days: 1))
        #expect(tokyo.uids("2026-11-30") == ["allday", "timed"])
    }

    @Test func summaryComparesUTF8Bytes() throws {
        let s = try ScratchStore()
        // U+FF21 (EF BC A1) sorts before U+1F600 (F0 9F 98 80) in UTF-8 byte order,
        // though not in UTF-16 code unit order; a decomposed "e\u{301}" (65 CC 81) before
        // "z" (7A) before a precomposed "\u{E9}" (C3 A9), though Swift's String comparison
        // calls the two e-acutes equal (treating them as a tie broken by id made the order
        // intransitive, so it depended on the import order).
        try s.load([
            ICS.berlin("emoji", "20261130T090000", "20261130T100000", summary: "\u{1F600}"),
            ICS.berlin("fullwidth", "20261130T090000", "20261130T100000", summary: "\u{FF21}"),
            ICS.berlin("precomposed", "20261130T090000", "20261130T100000", summary: "\u{E9}"),
            ICS.berlin("decomposed", "20261130T090000", "20261130T100000", summary: "e\u{301}"),
            ICS.berlin("ascii", "20261130T090000", "20261130T100000", summary: "z"),
        ])
        let snapshot = try s.build(Fixture.view(from: "2026-11-30", days: 1))
        #expect(snapshot.uids("2026-11-30") == ["decomposed", "ascii", "precomposed", "fullwidth", "emoji"])
        // Summaries keep their exact code points.
        #expect(snapshot.items(uid: "decomposed").first?.item.string("summary")?.unicodeScalars.map(\.value) == [0x65, 0x301])
        #expect(snapshot.items(uid: "precomposed").first?.item.string("summary")?.unicodeScalars.map(\.value) == [0xE9])
    }

    @Test func canonicallyEquivalentSummariesOrderTheSameInAnyImportOrder() throws {
        let events = [
            ICS.berlin("precomposed", "20261130T090000", "20261130T100000", summary: "\u{E9}"),
            ICS.berlin("decomposed", "20261130T090000", "20261130T100000", summary: "e\u{301}"),
            ICS.berlin("ascii", "20261130T090000", "20261130T100000", summary: "z"),
            ICS.berlin("ascii-2", "20261130T090000", "20261130T100000", summary: "f"),
        ]
        var orders = Set<[String]>()
        for permutation in [[0, 1, 2, 3], [0, 2, 1, 3], [1, 0, 2, 3], [1, 2, 0, 3], [2, 0, 1, 3], [2, 1, 0, 3],
                            [3, 2, 1, 0], [3, 0, 2, 1]] {
            let s = try ScratchStore()
            try s.load(permutation.map { events[$0] })
            orders.insert(try s.build(Fixture.view(from: "2026-11-30", days: 1)).uids("2026-11-30"))
        }
        #expect(orders == [["decomposed", "ascii-2", "ascii", "precomposed"]])
    }

    @Test func orderIsAPureFunctionOfTheData() throws {
        let forward = try ScratchStore()
        try forward.load(Self.events)
        let reversed = try ScratchStore()
        // Other import order, split over two files of the same calendar.
        let half = Self.events.count / 2
        try reversed.load(Array(Self.events[half...].reversed()), file: "b.ics")
        try reversed.load(Array(Self.events[..<half].reversed()), file: "a.ics")
        for zone in [Fixture.berlin, Fixture.newYork, "Asia/Tokyo"] {
            let a = try forward.build(Fixture.view(zone))
            let b = try reversed.build(Fixture.view(zone))
            #expect(a.sectionsJSON == b.sectionsJSON, "zone \(zone)")
            #expect(a.digest == b.digest)
            // Rebuilding gives the same bytes.
            #expect(try forward.build(Fixture.view(zone)).sectionsJSON == a.sectionsJSON)
        }
    }

    @Test func everySectionIsSorted() throws {
        let s = try ScratchStore()
        try s.load(Self.events + [
            ICS.berlin("weekly", "20261128T090000", "20261128T100000", summary: "Cherry", "RRULE:FREQ=DAILY;COUNT=10"),
            ICS.event("float", "DTSTART:20261201T090000", "DTEND:20261201T100000", "SUMMARY:Cherry"),
            ICS.event("utc", "DTSTART:20261201T080000Z", "DTEND:20261201T090000Z", "SUMMARY:Cherry"),
        ])
        let snapshot = try s.build(Fixture.view())
        for section in snapshot.sections {
            let items = section.items
            for (a, b) in zip(items, items.dropFirst()) {
                #expect(precedes(a, b), "\(section.id): \(a.text) before \(b.text)")
            }
        }
    }

    /// An independent statement of the documented order, on the item JSON.
    func precedes(_ a: AgendaItem, _ b: AgendaItem) -> Bool {
        let allDayA = a.bool("all_day") ?? false, allDayB = b.bool("all_day") ?? false
        if allDayA != allDayB { return allDayA }
        func instant(_ item: AgendaItem, _ key: String) -> Int64 {
            let text = item.string(key) ?? ""
            if text.count == 10 { return Int64(date(text).daysSinceEpoch) * 86_400 }
            let f = ISO8601DateFormatter()
            return Int64(f.date(from: text)!.timeIntervalSince1970)
        }
        if instant(a, "start") != instant(b, "start") { return instant(a, "start") < instant(b, "start") }
        if instant(a, "end") != instant(b, "end") { return instant(a, "end") < instant(b, "end") }
        let sa = a.string("summary") ?? "", sb = b.string("summary") ?? ""
        if Array(sa.utf8) != Array(sb.utf8) { return sa.utf8.lexicographicallyPrecedes(sb.utf8) }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
}
