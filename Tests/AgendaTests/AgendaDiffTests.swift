import Foundation
import Testing
import Agenda
import EventStore
import ICalendar
import SectionedDiff
import TestSupport

/// docs/data-model.md and docs/protocol.md: item ids are stable and content-free, so that the diff
/// between two snapshots reports moves and updates rather than deletes and inserts.
@Suite struct StableIDTests {
    /// Anchors keep every date of the window populated, so that sections are not
    /// inserted or deleted by the changes under test.
    static func anchors(_ days: [Int] = Array(28...30) + Array(1...4)) -> [[String]] {
        days.map { d in
            let month = d >= 28 ? "11" : "12"
            let day = d < 10 ? "0\(d)" : "\(d)"
            return ICS.berlin("anchor-\(month)\(day)", "2026\(month)\(day)T070000", "2026\(month)\(day)T073000")
        }
    }

    /// The default view's snapshots of one store holding the anchors and `before`,
    /// then the anchors and `after` instead.
    func snapshots(_ before: [[String]], then after: [[String]]) throws -> (old: AgendaSnapshot, new: AgendaSnapshot) {
        let s = try ScratchStore()
        try s.load(Self.anchors() + before)
        let old = try s.build(Fixture.view())
        try s.load(Self.anchors() + after)
        return (old, try s.build(Fixture.view()))
    }

    /// The diff from `old` to `new`, checked to apply to `new`.
    func diff(_ old: AgendaSnapshot, _ new: AgendaSnapshot) throws -> AgendaDiff {
        let a = try diffable(old), b = try diffable(new)
        let d = AgendaDiff(from: a, to: b)
        #expect(try d.apply(to: a) == b)
        return d
    }

    @Test func idsDoNotDependOnContent() throws {
        let (old, new) = try snapshots(
            [ICS.berlin("e", "20261130T100000", "20261130T110000", summary: "Old", "LOCATION:A", "STATUS:TENTATIVE")],
            then: [ICS.berlin("e", "20261130T100000", "20261130T110000", summary: "New", "LOCATION:B", "STATUS:CONFIRMED")])
        let a = try #require(old.items(uid: "e").first), b = try #require(new.items(uid: "e").first)
        #expect(a.item.id == b.item.id)
        #expect(a.item.json != b.item.json)
        #expect(old.digest != new.digest)

        let d = try diff(old, new)
        #expect(d.sections.isEmpty)
        #expect(d.items.inserted.isEmpty && d.items.deleted.isEmpty && d.items.moved.isEmpty)
        #expect(d.items.updated.map(\.item.id) == [a.item.id])
        #expect(d.items.updated.first?.section == "2026-11-30")
        #expect(d.items.updated.first?.item.content == b.item.json)
    }

    @Test func movedSingleEventKeepsItsID() throws {
        // Same UID, new DTSTART two days later (and a new summary).
        let (old, new) = try snapshots([ICS.berlin("m", "20261130T100000", "20261130T110000", summary: "Meeting")],
                                       then: [ICS.berlin("m", "20261202T150000", "20261202T160000", summary: "Meeting (moved)")])
        let a = try #require(old.items(uid: "m").first), b = try #require(new.items(uid: "m").first)
        #expect(a.date == "2026-11-30")
        #expect(b.date == "2026-12-02")
        #expect(a.item.id == b.item.id)

        let d = try diff(old, new)
        #expect(d.sections.isEmpty)
        #expect(d.items.inserted.isEmpty, "a move must not be an insert")
        #expect(d.items.deleted.isEmpty, "a move must not be a delete")
        try #require(d.items.moved.count == 1)
        let move = d.items.moved[0]
        #expect(move.id == a.item.id)
        #expect(move.from == AgendaDiff.ItemPosition(section: "2026-11-30", index: 1))
        #expect(move.to == AgendaDiff.ItemPosition(section: "2026-12-02", index: 1))
        #expect(d.items.updated.map(\.item.id) == [a.item.id])
        #expect(d.items.updated.first?.section == "2026-12-02")
    }

    @Test func movedWithoutContentChangeIsAMoveOnly() throws {
        // Same time of day and the same fields: only the date changes... which changes
        // `start`/`end`, so the content changes too. Within one day, reordering without
        // a content change is a pure move: swap the order by changing a neighbour.
        let x = ICS.berlin("x", "20261130T100000", "20261130T110000")
        let (old, new) = try snapshots([x, ICS.berlin("y", "20261130T120000", "20261130T130000")],
                                       then: [x, ICS.berlin("y", "20261130T080000", "20261130T090000")])
        #expect(old.uids("2026-11-30") == ["anchor-1130", "x", "y"])
        #expect(new.uids("2026-11-30") == ["anchor-1130", "y", "x"])
        let d = try diff(old, new)
        #expect(d.items.inserted.isEmpty && d.items.deleted.isEmpty)
        #expect(d.items.moved.count == 1)
        #expect(d.items.updated.map { $0.item.id } == old.items(uid: "y").map(\.item.id))
    }

    @Test func overrideMovingAnInstanceKeepsItsID() throws {
        let s = try ScratchStore()
        let series = ICS.berlin("daily", "20261128T090000", "20261128T093000", summary: "Daily", "RRULE:FREQ=DAILY;COUNT=7")
        try s.load([series])
        let old = try s.build(Fixture.view())
        // The Dec 1 instance moves to Dec 3, 15:00.
        try s.load([series, ICS.event("daily", "RECURRENCE-ID;TZID=Europe/Berlin:20261201T090000",
                                      "DTSTART;TZID=Europe/Berlin:20261203T150000",
                                      "DTEND;TZID=Europe/Berlin:20261203T153000", "SUMMARY:Daily (moved)")])
        let new = try s.build(Fixture.view())
        let before = try #require(old.items(uid: "daily").first { $0.date == "2026-12-01" })
        let after = try #require(new.items(uid: "daily").first { $0.item.string("summary") == "Daily (moved)" })
        #expect(after.date == "2026-12-03")
        #expect(after.item.id == before.item.id)
        #expect(after.item.string("recurrence_id") == "20261201T080000Z")
        #expect(new.uids("2026-12-01").isEmpty)

        // Dec 1 becomes empty (a section delete), so keep placeholders to see the move.
        try s.load([series])
        let unmoved = try s.build(Fixture.view(emptyDays: .placeholder))
        try s.load([series, ICS.event("daily", "RECURRENCE-ID;TZID=Europe/Berlin:20261201T090000",
                                      "DTSTART;TZID=Europe/Berlin:20261203T150000",
                                      "DTEND;TZID=Europe/Berlin:20261203T153000", "SUMMARY:Daily (moved)")])
        let movedP = try s.build(Fixture.view(emptyDays: .placeholder))
        let d = try diff(unmoved, movedP)
        #expect(d.sections.isEmpty)
        #expect(d.items.moved.map(\.id) == [before.item.id])
        #expect(d.items.moved.first?.from.section == "2026-12-01")
        #expect(d.items.moved.first?.to == AgendaDiff.ItemPosition(section: "2026-12-03", index: 1))
        #expect(d.items.updated.map(\.item.id) == [before.item.id])
        // Only the placeholder of the emptied date is inserted.
        #expect(d.items.inserted.map(\.item.id) == ["placeholder:2026-12-01"])
        #expect(d.items.deleted.isEmpty)
    }

    @Test func overrideWithUTCRecurrenceIDKeepsTheInstanceID() throws {
        let series = ICS.berlin("daily", "20261128T090000", "20261128T093000", "RRULE:FREQ=DAILY;COUNT=7")
        // The same instance named in UTC (Berlin 09:00 = 08:00Z), content changed in place.
        let (old, new) = try snapshots([series], then: [series, ICS.event("daily", "RECURRENCE-ID:20261201T080000Z",
                                                                           "DTSTART;TZID=Europe/Berlin:20261201T090000",
                                                                           "DTEND;TZID=Europe/Berlin:20261201T093000", "SUMMARY:Renamed")])
        let a = try #require(old.items(uid: "daily").first { $0.date == "2026-12-01" })
        let b = try #require(new.items(uid: "daily").first { $0.date == "2026-12-01" })
        #expect(b.item.string("summary") == "Renamed")
        #expect(a.item.id == b.item.id)
        #expect(new.items(uid: "daily").count == 7)
        let d = try diff(old, new)
        #expect(d.items.inserted.isEmpty && d.items.deleted.isEmpty && d.items.moved.isEmpty)
        #expect(d.items.updated.map(\.item.id) == [a.item.id])
    }

    /// A floating RECURRENCE-ID on a zoned series names the instance by its wall clock in
    /// the series' zone (that is how the expander matches it); its id and `recurrence_id`
    /// must be those of the instance it replaces, in every view zone.
    @Test func overrideWithFloatingRecurrenceIDKeepsTheInstanceID() throws {
        let s = try ScratchStore()
        let series = ICS.berlin("daily", "20261128T090000", "20261128T093000", "RRULE:FREQ=DAILY;COUNT=7")
        try s.load(Self.anchors() + [series])
        for zone in [Fixture.berlin, Fixture.newYork] {
            let old = try s.build(Fixture.view(zone))
            try s.load(Self.anchors() + [series, ICS.event("daily", "RECURRENCE-ID:20261201T090000",
                                                           "DTSTART;TZID=Europe/Berlin:20261201T090000",
                                                           "DTEND;TZID=Europe/Berlin:20261201T093000",
                                                           "SUMMARY:Renamed")])
            let new = try s.build(Fixture.view(zone))
            #expect(new.items(uid: "daily").count == 7, "zone \(zone)")
            let a = try #require(old.items(uid: "daily").first { $0.item.string("recurrence_id") == "20261201T080000Z" })
            let b = try #require(new.items(uid: "daily").first { $0.item.string("summary") == "Renamed" })
            #expect(b.item.string("recurrence_id") == "20261201T080000Z", "zone \(zone)")
            #expect(a.item.id == b.item.id, "zone \(zone)")
            try s.load(Self.anchors() + [series])
        }
    }

    /// An all-day series whose override names the instance with a DATE-TIME (as Outlook
    /// writes them): the instance is still a date, `recurrence_id` is `YYYYMMDD`.
    @Test func allDayOverrideWithDateTimeRecurrenceID() throws {
        let s = try ScratchStore()
        let series = ICS.allDay("holiday", "20261128", nil, summary: "Day", "RRULE:FREQ=DAILY;COUNT=7")
        try s.load([series])
        let old = try s.build(Fixture.view())
        try s.load([series, ICS.event("holiday", "RECURRENCE-ID:20261201T000000", "DTSTART;VALUE=DATE:20261201",
                                      "SUMMARY:Renamed")])
        let new = try s.build(Fixture.view())
        #expect(new.items(uid: "holiday").count == 7)
        let a = try #require(old.items(uid: "holiday").first { $0.date == "2026-12-01" })
        let b = try #require(new.items(uid: "holiday").first { $0.date == "2026-12-01" })
        #expect(b.item.string("summary") == "Renamed")
        #expect(a.item.string("recurrence_id") == "20261201")
        #expect(b.item.string("recurrence_id") == "20261201")
        #expect(a.item.id == b.item.id)
    }

    @Test func thisAndFutureOverrideKeepsEveryInstanceID() throws {
        let series = ICS.berlin("daily", "20261128T090000", "20261128T093000", summary: "Daily", "RRULE:FREQ=DAILY;COUNT=7")
        // From Dec 1 on, every instance moves to the next day at 08:00 and is renamed.
        let (old, new) = try snapshots([series], then: [series, ICS.event(
            "daily", "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20261201T090000",
            "DTSTART;TZID=Europe/Berlin:20261202T080000", "DTEND;TZID=Europe/Berlin:20261202T083000", "SUMMARY:Later")])
        let before = old.items(uid: "daily"), after = new.items(uid: "daily")
        #expect(before.map(\.date) == ["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01", "2026-12-02",
                                       "2026-12-03", "2026-12-04"])
        // The Dec 4 instance moves to Dec 5, out of the window.
        #expect(after.map(\.date) == ["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-02", "2026-12-03", "2026-12-04"])
        #expect(after.map { $0.item.string("recurrence_id") ?? "" } ==
            ["20261128T080000Z", "20261129T080000Z", "20261130T080000Z", "20261201T080000Z", "20261202T080000Z",
             "20261203T080000Z"])
        #expect(after.map(\.item.id) == Array(before.map(\.item.id).prefix(6)))
        #expect(after.suffix(3).allSatisfy { $0.item.string("summary") == "Later" })
        let d = try diff(old, new)
        #expect(d.items.inserted.isEmpty)
        #expect(d.items.deleted.map(\.id) == [before[6].item.id])
        #expect(Set(d.items.moved.map(\.id)) == Set(before[3...5].map(\.item.id)))
        #expect(Set(d.items.updated.map(\.item.id)) == Set(before[3...5].map(\.item.id)))
    }

    @Test func exdateDeletesOneItem() throws {
        let (old, new) = try snapshots(
            [ICS.berlin("daily", "20261128T090000", "20261128T093000", "RRULE:FREQ=DAILY;COUNT=7")],
            then: [ICS.berlin("daily", "20261128T090000", "20261128T093000", "RRULE:FREQ=DAILY;COUNT=7",
                              "EXDATE;TZID=Europe/Berlin:20261201T090000")])
        let removed = try #require(old.items(uid: "daily").first { $0.date == "2026-12-01" })
        let d = try diff(old, new)
        #expect(d.items.deleted == [AgendaDiff.ItemDeletion(id: removed.item.id, section: "2026-12-01")])
        #expect(d.items.inserted.isEmpty && d.items.moved.isEmpty && d.items.updated.isEmpty && d.sections.isEmpty)
    }

    @Test func multiDayOccurrenceMovedByADay() throws {
        let (old, new) = try snapshots([ICS.berlin("conf", "20261129T090000", "20261201T170000", summary: "Conference")],
                                       then: [ICS.berlin("conf", "20261130T090000", "20261202T170000", summary: "Conference")])
        let a = old.items(uid: "conf"), b = new.items(uid: "conf")
        #expect(a.map(\.date) == ["2026-11-29", "2026-11-30", "2026-12-01"])
        #expect(b.map(\.date) == ["2026-11-30", "2026-12-01", "2026-12-02"])
        // One id per date index: index i keeps its id.
        #expect(a.map(\.item.id) == b.map(\.item.id))
        let d = try diff(old, new)
        #expect(d.items.inserted.isEmpty && d.items.deleted.isEmpty)
        #expect(Set(d.items.moved.map(\.id)) == Set(a.map(\.item.id)))
        for move in d.items.moved {
            let i = try #require(a.firstIndex { $0.item.id == move.id })
            #expect(move.from.section == a[i].date)
            #expect(move.to.section == b[i].date)
        }
        #expect(Set(d.items.updated.map(\.item.id)) == Set(a.map(\.item.id)))
    }

    @Test func unchangedRebuildIsAnEmptyDiff() throws {
        let s = try ScratchStore()
        try s.load(Self.anchors() + [ICS.berlin("d", "20261129T090000", "20261129T093000", "RRULE:FREQ=DAILY;COUNT=9")])
        let a = try s.build(Fixture.view(emptyDays: .placeholder))
        // Re-importing the same bytes changes nothing.
        try s.load(Self.anchors() + [ICS.berlin("d", "20261129T090000", "20261129T093000", "RRULE:FREQ=DAILY;COUNT=9")])
        let b = try s.build(Fixture.view(emptyDays: .placeholder))
        #expect(a == b)
        #expect(try diff(a, b).isEmpty)
    }

    @Test func midnightUpdatesSectionHeadersOnly() throws {
        let s = try ScratchStore()
        try s.load(Self.anchors())
        let view = Fixture.view()
        let a = try s.build(view, now: utc(2026, 11, 29, 12))
        let b = try s.build(view, now: utc(2026, 11, 30, 12))
        let d = try diff(a, b)
        #expect(d.items.isEmpty)
        #expect(d.sections.inserted.isEmpty && d.sections.deleted.isEmpty && d.sections.moved.isEmpty)
        #expect(d.sections.updated.map(\.id) == ["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01"])
        #expect(d.sections.updated.map { String(decoding: $0.content, as: UTF8.self) } == [
            #"{"date":"2026-11-28","id":"2026-11-28","label":null}"#,
            #"{"date":"2026-11-29","id":"2026-11-29","label":"yesterday"}"#,
            #"{"date":"2026-11-30","id":"2026-11-30","label":"today"}"#,
            #"{"date":"2026-12-01","id":"2026-12-01","label":"tomorrow"}"#,
        ])
    }

    @Test func slidingWindowDiff() throws {
        let s = try ScratchStore()
        try s.load(Self.anchors() + [ICS.berlin("long", "20261129T200000", "20261202T080000")])
        let view = Fixture.view(from: nil, days: 3)
        let a = try s.build(view, now: utc(2026, 11, 29, 12))
        let b = try s.build(view, now: utc(2026, 11, 30, 12))
        let d = try diff(a, b)
        #expect(d.sections.deleted == ["2026-11-29"])
        #expect(d.sections.inserted.map(\.section.id) == ["2026-12-02"])
        // Items of the deleted section are deleted; items of the inserted one travel inside
        // it; the carried-over items of Nov 30 and Dec 1 are untouched.
        #expect(Set(d.items.deleted.map(\.id)) == Set(a.section("2026-11-29")?.items.map(\.id) ?? []))
        #expect(d.items.deleted.allSatisfy { $0.section == "2026-11-29" })
        #expect(d.items.inserted.isEmpty && d.items.moved.isEmpty && d.items.updated.isEmpty)
        #expect(d.sections.inserted.first?.section.items.map(\.id) == b.section("2026-12-02")?.items.map(\.id))
        #expect(Set(d.sections.updated.map(\.id)) == ["2026-11-30", "2026-12-01"])
    }

    @Test func idsAreUniqueAcrossTheSnapshot() throws {
        let s = try ScratchStore()
        var events = Self.anchors()
        for i in 0..<30 {
            let day = 28 + i % 7
            let d = day > 30 ? "120\(day - 30)" : "11\(day)"
            events.append(ICS.berlin("e\(i)", "2026\(d)T1\(i % 10)0000", "2026\(d)T2\(i % 4)0000", summary: "Same"))
        }
        events.append(ICS.berlin("series", "20261120T100000", "20261121T110000", "RRULE:FREQ=DAILY;COUNT=20"))
        events.append(ICS.allDay("trip", "20261127", "20261210", "RRULE:FREQ=WEEKLY;COUNT=2"))
        events.append(ICS.berlin("twice", "20261129T100000", "20261129T110000", "RDATE;TZID=Europe/Berlin:20261129T100000",
                                 "RDATE;TZID=Europe/Berlin:20261130T100000"))
        try s.load(events, calendar: "work")
        try s.load(events, calendar: "home")
        for zone in [Fixture.berlin, Fixture.newYork] {
            let snapshot = try s.build(Fixture.view(zone, emptyDays: .placeholder))
            let ids = snapshot.allItems.map(\.id)
            #expect(Set(ids).count == ids.count, "zone \(zone)")
            #expect(throws: Never.self) { try diffable(snapshot) }
            // The overlapping multi-day series: an instance per date, never twice.
            for section in snapshot.sections {
                let uids = section.items.filter { $0.string("calendar") == "work" }.compactMap { $0.string("uid") }
                    .filter { $0 == "twice" }
                #expect(uids.count <= 1)
            }
        }
    }

    @Test func idsDifferAcrossCalendarsForTheSameUID() throws {
        let s = try ScratchStore()
        let events = [ICS.berlin("shared@x", "20261129T100000", "20261130T110000"),
                      ICS.allDay("all@x", "20261129", nil)]
        try s.load(events, calendar: "work")
        try s.load(events, calendar: "home")
        let both = try s.build(Fixture.view())
        for uid in ["shared@x", "all@x"] {
            let items = both.items(uid: uid)
            let byCalendar = Dictionary(grouping: items) { $0.item.string("calendar") ?? "" }
            #expect(Set(byCalendar.keys) == ["work", "home"])
            #expect(Set(items.map(\.item.id)).count == items.count)
            // Each calendar's ids are the same whether or not the other one is in the view.
            for calendar in ["work", "home"] {
                let alone = try s.build(Fixture.view(calendars: [calendar])).items(uid: uid)
                #expect(alone.map(\.item.id) == byCalendar[calendar]?.map(\.item.id))
            }
        }
    }

    @Test func idsAreStableAcrossWindowsStoresAndRecomputes() throws {
        let events = Self.anchors() + [
            ICS.berlin("series", "20261125T100000", "20261126T110000", "RRULE:FREQ=DAILY;COUNT=20"),
            ICS.allDay("trip", "20261127", "20261203"),
        ]
        let s1 = try ScratchStore(), s2 = try ScratchStore()
        try s1.load(events)
        try s2.load(Array(events.reversed()), file: "other.ics")
        let wide = try s1.build(Fixture.view(from: "2026-11-20", days: 20))
        var idAt: [String: [String: String]] = [:] // date -> uid+rid+calendar -> id
        func key(_ item: AgendaItem) -> String {
            [item.string("calendar"), item.string("uid"), item.string("recurrence_id"), item.string("start")]
                .map { $0 ?? "-" }.joined(separator: "|")
        }
        for section in wide.sections { for item in section.items { idAt[section.id, default: [:]][key(item)] = item.id } }
        for (store, from, days) in [(s1, "2026-11-28", 7), (s2, "2026-11-30", 2), (s2, "2026-12-01", 1), (s1, "2026-11-20", 20)] {
            let narrow = try store.build(Fixture.view(from: from, days: days), now: utc(2026, 12, 1))
            for section in narrow.sections {
                for item in section.items {
                    #expect(idAt[section.id]?[key(item)] == item.id, "\(section.id) \(key(item))")
                }
            }
        }
    }
}
