import Foundation
import Testing
import Agenda
import EventStore
import ICalendar
import Digests
import TestSupport

/// docs/data-model.md: the window and its date sections (zone, `from`, `past_days`,
/// `days`, labels, `empty_days`).
@Suite struct WindowAndSectionTests {
    @Test func datesAreLocalDatesOfTheViewZone() throws {
        let s = try ScratchStore(loading: [ICS.event("late@x", "DTSTART:20261130T233000Z", "DTEND:20261130T234500Z", "SUMMARY:Late")])

        let berlin = try s.build(Fixture.view(Fixture.berlin))
        #expect(berlin.dates == ["2026-12-01"])
        #expect(berlin.allItems.first?.string("start") == "2026-12-01T00:30:00+01:00")
        #expect(berlin.allItems.first?.string("end") == "2026-12-01T00:45:00+01:00")

        let newYork = try s.build(Fixture.view(Fixture.newYork))
        #expect(newYork.dates == ["2026-11-30"])
        #expect(newYork.allItems.first?.string("start") == "2026-11-30T18:30:00-05:00")

        let utc = try s.build(Fixture.view("UTC"))
        #expect(utc.dates == ["2026-11-30"])
        #expect(utc.allItems.first?.string("start") == "2026-11-30T23:30:00+00:00")
    }

    @Test func defaultFromIsTodayInTheViewZone() throws {
        let s = try ScratchStore()
        // 23:30 UTC on Nov 29: already Nov 30 in Berlin, still Nov 29 in New York.
        let now = utc(2026, 11, 29, 23, 30)
        let berlin = try s.build(Fixture.view(Fixture.berlin, from: nil, days: 3, emptyDays: .placeholder), now: now)
        #expect(berlin.dates == ["2026-11-30", "2026-12-01", "2026-12-02"])
        #expect(berlin.labels == ["today", "tomorrow", nil])
        #expect(berlin.today == date("2026-11-30"))

        let newYork = try s.build(Fixture.view(Fixture.newYork, from: nil, days: 3, emptyDays: .placeholder), now: now)
        #expect(newYork.dates == ["2026-11-29", "2026-11-30", "2026-12-01"])
        #expect(newYork.labels == ["today", "tomorrow", nil])
        #expect(newYork.today == date("2026-11-29"))
    }

    @Test func labelsInAZoneWhereItIsAlreadyTomorrow() throws {
        let s = try ScratchStore()
        // 12:00 UTC on Nov 29 is 01:00 on Nov 30 in Auckland (NZDT, +13:00).
        let fixed = Fixture.view("Pacific/Auckland", from: "2026-11-28", days: 4, emptyDays: .placeholder)
        let snapshot = try s.build(fixed)
        #expect(snapshot.today == date("2026-11-30"))
        #expect(snapshot.dates == ["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01"])
        #expect(snapshot.labels == [nil, "yesterday", "today", "tomorrow"])

        // The same instant in Berlin and Honolulu.
        let berlin = try s.build(Fixture.view(Fixture.berlin, from: "2026-11-28", days: 4, emptyDays: .placeholder))
        #expect(berlin.labels == ["yesterday", "today", "tomorrow", nil])
        let honolulu = try s.build(Fixture.view("Pacific/Honolulu", from: "2026-11-28", days: 4, emptyDays: .placeholder))
        #expect(honolulu.labels == ["yesterday", "today", "tomorrow", nil]) // 02:00 on Nov 29
        let sliding = try s.build(Fixture.view("Pacific/Auckland", from: nil, days: 2, emptyDays: .placeholder))
        #expect(sliding.dates == ["2026-11-30", "2026-12-01"])
        #expect(sliding.labels == ["today", "tomorrow"])
    }

    @Test func windowSlidesAtLocalMidnight() throws {
        let s = try ScratchStore()
        let view = Fixture.view(Fixture.berlin, from: nil, days: 2, emptyDays: .placeholder)
        // Berlin midnight of Nov 30 is 23:00 UTC on Nov 29.
        let before = try s.build(view, now: utc(2026, 11, 29, 22, 59, 59))
        #expect(before.dates == ["2026-11-29", "2026-11-30"])
        #expect(before.labels == ["today", "tomorrow"])
        let after = try s.build(view, now: utc(2026, 11, 29, 23))
        #expect(after.dates == ["2026-11-30", "2026-12-01"])
        #expect(after.labels == ["today", "tomorrow"])
        #expect(before.digest != after.digest)
    }

    @Test func labelsChangeAtMidnightWithAFixedFrom() throws {
        let s = try ScratchStore()
        let view = Fixture.view(Fixture.berlin, from: "2026-11-28", days: 4, emptyDays: .placeholder)
        let before = try s.build(view, now: utc(2026, 11, 29, 22, 59, 59))
        let after = try s.build(view, now: utc(2026, 11, 29, 23))
        #expect(before.dates == after.dates)
        #expect(before.labels == ["yesterday", "today", "tomorrow", nil])
        #expect(after.labels == [nil, "yesterday", "today", "tomorrow"])
    }

    @Test func aMidnightThatDoesNotExist() throws {
        let s = try ScratchStore()
        // America/Santiago springs forward at 00:00 on 2026-09-06, straight to 01:00 -03:00
        // (04:00 UTC): the date Sep 6 starts at 04:00 UTC.
        try s.load([
            ICS.event("before", "DTSTART:20260906T033000Z", "DTEND:20260906T034500Z"),
            ICS.event("at", "DTSTART:20260906T040000Z"),
            ICS.event("after", "DTSTART:20260906T043000Z", "DTEND:20260906T044500Z"),
            ICS.event("across", "DTSTART:20260906T033000Z", "DTEND:20260906T043000Z"),
        ])
        let sep5 = try s.build(Fixture.view("America/Santiago", from: "2026-09-05", days: 1))
        #expect(sep5.uids("2026-09-05") == ["before", "across"])
        #expect(sep5.items(uid: "before").first?.item.string("start") == "2026-09-05T23:30:00-04:00")
        let sep6 = try s.build(Fixture.view("America/Santiago", from: "2026-09-06", days: 1))
        #expect(sep6.uids("2026-09-06") == ["across", "at", "after"])
        #expect(sep6.items(uid: "at").first?.item.string("start") == "2026-09-06T01:00:00-03:00")
        #expect(sep6.items(uid: "across").first?.item.string("end") == "2026-09-06T01:30:00-03:00")
        #expect(sep6.items(uid: "across").first?.item.bool("continues_from_previous_day") == true)
        let both = try s.build(Fixture.view("America/Santiago", from: "2026-09-05", days: 2))
        #expect(both.items(uid: "across").map(\.date) == ["2026-09-05", "2026-09-06"])
    }

    @Test func pastDaysStartsTheWindowBeforeToday() throws {
        let s = try ScratchStore()
        let view = Fixture.view(Fixture.berlin, from: nil, pastDays: 2, days: 5, emptyDays: .placeholder)
        #expect(view.pastDays == 2)
        let snapshot = try s.build(view)
        #expect(snapshot.dates == ["2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01"])
        #expect(snapshot.labels == [nil, "yesterday", "today", "tomorrow", nil])

        let maximal = try s.build(Fixture.view(Fixture.berlin, from: nil, pastDays: 366, days: 367, emptyDays: .placeholder))
        #expect(maximal.sections.count == 367)
        #expect(maximal.sections.first?.date == date("2026-11-29").adding(days: -366))
        #expect(maximal.sections.last?.id == "2026-11-29")
        #expect(maximal.sections.last?.label == "today")
    }

    @Test func fromIgnoresPastDays() throws {
        let s = try ScratchStore()
        let view = Fixture.view(Fixture.berlin, from: "2026-12-24", pastDays: 5, days: 3, emptyDays: .placeholder)
        #expect(view.pastDays == 0)
        let snapshot = try s.build(view)
        #expect(snapshot.dates == ["2026-12-24", "2026-12-25", "2026-12-26"])
        #expect(snapshot.labels == [nil, nil, nil])
        #expect(snapshot.view == view)
    }

    @Test func daysCountsTheDatesOfTheWindow() throws {
        let s = try ScratchStore(loading: [
            ICS.berlin("before", "20261229T230000", "20261229T233000"),
            ICS.berlin("first", "20261230T000000", "20261230T003000"),
            ICS.berlin("newyear", "20270101T120000", "20270101T130000"),
            ICS.berlin("last", "20270102T233000", "20270102T235959"),
            ICS.berlin("after", "20270103T000000", "20270103T010000"),
        ])
        let snapshot = try s.build(Fixture.view(Fixture.berlin, from: "2026-12-30", days: 4, emptyDays: .placeholder))
        #expect(snapshot.dates == ["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"])
        #expect(snapshot.uids("2026-12-30") == ["first"])
        #expect(snapshot.uids("2027-01-01") == ["newyear"])
        #expect(snapshot.uids("2027-01-02") == ["last"])
        #expect(snapshot.items(uid: "before").isEmpty)
        #expect(snapshot.items(uid: "after").isEmpty)

        let one = try s.build(Fixture.view(Fixture.berlin, from: "2027-01-01", days: 1, emptyDays: .placeholder))
        #expect(one.dates == ["2027-01-01"])
        #expect(one.allItems.count == 1)

        let long = try s.build(Fixture.view(Fixture.berlin, from: "2026-01-01", days: 3660, emptyDays: .placeholder))
        #expect(long.sections.count == 3660)
        #expect(long.sections.last?.date == date("2026-01-01").adding(days: 3659))
        let consecutive = zip(long.sections, long.sections.dropFirst()).allSatisfy {
            $0.date.adding(days: 1) == $1.date
        }
        #expect(consecutive)
    }

    @Test func emptyDaysOmitOrPlaceholder() throws {
        let s = try ScratchStore(loading: [
            ICS.berlin("a", "20261129T100000", "20261129T110000"),
            ICS.berlin("b", "20261130T100000", "20261130T110000"),
            ICS.berlin("c", "20261202T100000", "20261202T110000"),
            ICS.berlin("gone", "20261203T100000", "20261203T110000", "STATUS:CANCELLED"),
        ])
        let omit = try s.build(Fixture.view(Fixture.berlin, from: "2026-11-29", days: 5))
        #expect(omit.dates == ["2026-11-29", "2026-11-30", "2026-12-02"])
        #expect(omit.labels == ["today", "tomorrow", nil])

        let placeholder = try s.build(Fixture.view(Fixture.berlin, from: "2026-11-29", days: 5, emptyDays: .placeholder))
        #expect(placeholder.dates == ["2026-11-29", "2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03"])
        let empty = try #require(placeholder.section("2026-12-01"))
        try #require(empty.items.count == 1)
        #expect(empty.items[0].text == #"{"id":"placeholder:2026-12-01","kind":"placeholder"}"#)
        #expect(empty.items[0].id == "placeholder:2026-12-01")
        #expect(empty.text == #"{"date":"2026-12-01","id":"2026-12-01","items":[{"id":"placeholder:2026-12-01","kind":"placeholder"}],"label":null}"#)
        #expect(String(decoding: empty.headerJSON, as: UTF8.self) == #"{"date":"2026-12-01","id":"2026-12-01","label":null}"#)
        // A date whose only event is cancelled is empty too.
        #expect(placeholder.section("2026-12-03")?.items.map(\.id) == ["placeholder:2026-12-03"])
        // Dates with events have no placeholder.
        for iso in ["2026-11-29", "2026-11-30", "2026-12-02"] {
            #expect(placeholder.section(iso)?.items.allSatisfy { $0.string("kind") == "event" } == true)
        }
        // Omitting and placeholding agree on the dates that have events.
        for section in omit.sections {
            #expect(placeholder.section(section.id) == section)
        }
    }

    @Test func emptyStore() throws {
        let s = try ScratchStore()
        let omit = try s.build(Fixture.view())
        #expect(omit.sections.isEmpty)
        #expect(omit.sectionsText == "[]")
        #expect(omit.digest == SHA256.hexDigest(Array("[]".utf8)))
        #expect(omit.digest == "4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945")
        let placeholder = try s.build(Fixture.view(days: 2, emptyDays: .placeholder))
        #expect(placeholder.sectionsText ==
            #"[{"date":"2026-11-28","id":"2026-11-28","items":[{"id":"placeholder:2026-11-28","kind":"placeholder"}],"label":"yesterday"},"#
            + #"{"date":"2026-11-29","id":"2026-11-29","items":[{"id":"placeholder:2026-11-29","kind":"placeholder"}],"label":"today"}]"#)
    }

    @Test func sectionHeaderJSON() throws {
        let s = try ScratchStore(loading: [ICS.berlin("a", "20261129T100000", "20261129T110000")])
        let snapshot = try s.build(Fixture.view(from: "2026-11-29", days: 1))
        let section = try #require(snapshot.sections.first)
        #expect(section.id == "2026-11-29")
        #expect(section.label == "today")
        #expect(String(decoding: section.headerJSON, as: UTF8.self) == #"{"date":"2026-11-29","id":"2026-11-29","label":"today"}"#)
        #expect(section.text == #"{"date":"2026-11-29","id":"2026-11-29","items":["# + section.items[0].text + #"],"label":"today"}"#)
    }

    @Test func calendarsFilter() throws {
        let s = try ScratchStore(loading: [ICS.berlin("w", "20261129T100000", "20261129T110000")], calendar: "work")
        try s.load([ICS.berlin("h", "20261129T120000", "20261129T130000")], calendar: "home")
        try s.load([ICS.berlin("o", "20261129T140000", "20261129T150000")], calendar: "other")
        #expect(try s.build(Fixture.view()).uids("2026-11-29") == ["w", "h", "o"])
        #expect(try s.build(Fixture.view(calendars: ["work"])).uids("2026-11-29") == ["w"])
        #expect(try s.build(Fixture.view(calendars: ["work", "home"])).uids("2026-11-29") == ["w", "h"])
        #expect(try s.build(Fixture.view(calendars: [])).sections.isEmpty)
        #expect(try s.build(Fixture.view(calendars: ["missing"])).sections.isEmpty)
    }
}
