import Foundation
import Testing
import Agenda
import EventStore
import ICalendar
import CanonicalJSON
import Digests
import TestSupport

/// docs/data-model.md: the window and its date sections (zone, `from`, `past_days`,
/// `days`, labels, `empty_days`).
@Suite struct WindowAndSectionTests {
    @Test func datesAreLocalDatesOfTheViewZone() throws {
        let s = try ScratchStore()
        try s.load([ICS.event("late@x", "DTSTART:20261130T233000Z", "DTEND:20261130T234500Z", "SUMMARY:Late")])

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
        let s = try ScratchStore()
        try s.load([
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
        let s = try ScratchStore()
        try s.load([
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
        let s = try ScratchStore()
        try s.load([ICS.berlin("a", "20261129T100000", "20261129T110000")])
        let snapshot = try s.build(Fixture.view(from: "2026-11-29", days: 1))
        let section = try #require(snapshot.sections.first)
        #expect(section.id == "2026-11-29")
        #expect(section.label == "today")
        #expect(String(decoding: section.headerJSON, as: UTF8.self) == #"{"date":"2026-11-29","id":"2026-11-29","label":"today"}"#)
        #expect(section.text == #"{"date":"2026-11-29","id":"2026-11-29","items":["# + section.items[0].text + #"],"label":"today"}"#)
    }

    @Test func calendarsFilter() throws {
        let s = try ScratchStore()
        try s.load([ICS.berlin("w", "20261129T100000", "20261129T110000")], calendar: "work")
        try s.load([ICS.berlin("h", "20261129T120000", "20261129T130000")], calendar: "home")
        try s.load([ICS.berlin("o", "20261129T140000", "20261129T150000")], calendar: "other")
        #expect(try s.build(Fixture.view()).uids("2026-11-29") == ["w", "h", "o"])
        #expect(try s.build(Fixture.view(calendars: ["work"])).uids("2026-11-29") == ["w"])
        #expect(try s.build(Fixture.view(calendars: ["work", "home"])).uids("2026-11-29") == ["w", "h"])
        #expect(try s.build(Fixture.view(calendars: [])).sections.isEmpty)
        #expect(try s.build(Fixture.view(calendars: ["missing"])).sections.isEmpty)
    }
}

/// docs/data-model.md: the fields of an event item.
@Suite struct ItemTests {
    static let eventKeys: Set<String> = [
        "id", "kind", "calendar", "uid", "recurrence_id", "summary", "location", "status", "all_day",
        "start", "end", "continues_from_previous_day", "continues_to_next_day",
    ]

    @Test func everyFieldOfATimedEvent() throws {
        let s = try ScratchStore()
        try s.load([ICS.event("abc@example.com", "DTSTART;TZID=Europe/Berlin:20261129T100000",
                              "DTEND;TZID=Europe/Berlin:20261129T101500", "SUMMARY:Standup",
                              "LOCATION:Room 4", "STATUS:CONFIRMED")])
        let snapshot = try s.build(Fixture.view())
        let item = try #require(snapshot.allItems.first)
        #expect(snapshot.allItems.count == 1)
        #expect(Set(item.fields.keys) == Self.eventKeys)
        let expected = #"{"all_day":false,"calendar":"work","continues_from_previous_day":false,"continues_to_next_day":false,"#
            + #""end":"2026-11-29T10:15:00+01:00","id":""# + item.id + #"","kind":"event","location":"Room 4","#
            + #""recurrence_id":null,"start":"2026-11-29T10:00:00+01:00","status":"confirmed","summary":"Standup","#
            + #""uid":"abc@example.com"}"#
        #expect(item.text == expected)
        #expect(!item.id.isEmpty)
        #expect(item.value["id"]?.stringValue == item.id)
    }

    @Test func absentOptionalFieldsAreNull() throws {
        let s = try ScratchStore()
        try s.load([ICS.event("bare@x", "DTSTART:20261129T150000Z")])
        let item = try #require(try s.build(Fixture.view()).allItems.first)
        #expect(Set(item.fields.keys) == Self.eventKeys)
        for key in ["location", "status", "summary", "recurrence_id"] {
            #expect(item.isNull(key), "\(key) should be null in \(item.text)")
        }
        #expect(item.string("kind") == "event")
        #expect(item.string("uid") == "bare@x")
        #expect(item.bool("all_day") == false)
        // No DTEND and no DURATION: zero duration.
        #expect(item.string("start") == "2026-11-29T16:00:00+01:00")
        #expect(item.string("end") == "2026-11-29T16:00:00+01:00")
    }

    @Test func status() throws {
        let s = try ScratchStore()
        try s.load([
            ICS.berlin("confirmed", "20261129T090000", "20261129T100000", "STATUS:CONFIRMED"),
            ICS.berlin("tentative", "20261129T100000", "20261129T110000", "STATUS:TENTATIVE"),
            ICS.berlin("none", "20261129T110000", "20261129T120000"),
            ICS.berlin("cancelled", "20261129T120000", "20261129T130000", "STATUS:CANCELLED"),
            // A series with one cancelled instance, and a cancelled series.
            ICS.berlin("daily", "20261129T140000", "20261129T150000", "RRULE:FREQ=DAILY;COUNT=3"),
            ICS.event("daily", "RECURRENCE-ID;TZID=Europe/Berlin:20261130T140000",
                      "DTSTART;TZID=Europe/Berlin:20261130T140000", "DTEND;TZID=Europe/Berlin:20261130T150000",
                      "STATUS:CANCELLED"),
            ICS.berlin("dead-series", "20261129T160000", "20261129T170000", "RRULE:FREQ=DAILY;COUNT=3",
                       "STATUS:CANCELLED"),
        ])
        let snapshot = try s.build(Fixture.view())
        func status(_ uid: String) -> JSONValue? { snapshot.items(uid: uid).first?.item.fields["status"] }
        #expect(status("confirmed") == .string("confirmed"))
        #expect(status("tentative") == .string("tentative"))
        #expect(status("none") == .some(.null))
        #expect(snapshot.items(uid: "cancelled").isEmpty)
        #expect(snapshot.items(uid: "daily").map(\.date) == ["2026-11-29", "2026-12-01"])
        #expect(snapshot.items(uid: "dead-series").isEmpty)
        for item in snapshot.allItems {
            #expect(item.string("status") != "cancelled")
        }
    }

    @Test func allDayItemsUseDatesWithExclusiveEnd() throws {
        let s = try ScratchStore()
        try s.load([
            ICS.allDay("trip", "20261130", "20261202"),
            ICS.allDay("single", "20261203", nil),
            ICS.allDay("explicit", "20261204", "20261205"),
        ])
        for zone in [Fixture.berlin, Fixture.newYork, "Asia/Tokyo", "Pacific/Kiritimati"] {
            let snapshot = try s.build(Fixture.view(zone, days: 10))
            let trip = snapshot.items(uid: "trip")
            #expect(trip.map(\.date) == ["2026-11-30", "2026-12-01"], "zone \(zone)")
            for (_, item) in trip {
                #expect(item.bool("all_day") == true)
                #expect(item.string("start") == "2026-11-30")
                #expect(item.string("end") == "2026-12-02")
            }
            #expect(trip.map { $0.item.bool("continues_from_previous_day") } == [false, true])
            #expect(trip.map { $0.item.bool("continues_to_next_day") } == [true, false])
            #expect(Set(trip.map(\.item.id)).count == 2)

            let single = snapshot.items(uid: "single")
            #expect(single.map(\.date) == ["2026-12-03"], "zone \(zone)")
            #expect(single.first?.item.string("start") == "2026-12-03")
            #expect(single.first?.item.string("end") == "2026-12-04")
            #expect(single.first?.item.bool("continues_to_next_day") == false)
            #expect(snapshot.items(uid: "explicit").map(\.date) == ["2026-12-04"])
        }
    }

    @Test func timedItemsUseTheViewZoneOffset() throws {
        let s = try ScratchStore()
        try s.load([
            ICS.berlin("winter", "20261129T100000", "20261129T111500"),
            ICS.berlin("summer", "20260705T100000", "20260705T111500"),
        ])
        let cases: [(String, String, String)] = [
            (Fixture.berlin, "2026-11-29T10:00:00+01:00", "2026-11-29T11:15:00+01:00"),
            (Fixture.newYork, "2026-11-29T04:00:00-05:00", "2026-11-29T05:15:00-05:00"),
            ("UTC", "2026-11-29T09:00:00+00:00", "2026-11-29T10:15:00+00:00"),
            ("Asia/Kolkata", "2026-11-29T14:30:00+05:30", "2026-11-29T15:45:00+05:30"),
            ("America/St_Johns", "2026-11-29T05:30:00-03:30", "2026-11-29T06:45:00-03:30"),
            ("Asia/Kathmandu", "2026-11-29T14:45:00+05:45", "2026-11-29T16:00:00+05:45"),
        ]
        for (zone, start, end) in cases {
            let item = try #require(try s.build(Fixture.view(zone)).items(uid: "winter").first?.item, "zone \(zone)")
            #expect(item.string("start") == start, "zone \(zone)")
            #expect(item.string("end") == end, "zone \(zone)")
        }
        let summer = try #require(try s.build(Fixture.view(Fixture.berlin, from: "2026-07-05", days: 1)).allItems.first)
        #expect(summer.string("start") == "2026-07-05T10:00:00+02:00")
        #expect(summer.string("end") == "2026-07-05T11:15:00+02:00")
        let summerNY = try #require(try s.build(Fixture.view(Fixture.newYork, from: "2026-07-05", days: 1)).allItems.first)
        #expect(summerNY.string("start") == "2026-07-05T04:00:00-04:00")
    }

    @Test func offsetFollowsEachInstantAcrossADSTChange() throws {
        let s = try ScratchStore()
        // Europe/Berlin leaves summer time on 2026-10-25 at 03:00 local.
        try s.load([ICS.berlin("night", "20261024T220000", "20261025T120000")])
        let snapshot = try s.build(Fixture.view(Fixture.berlin, from: "2026-10-24", days: 2))
        let items = snapshot.items(uid: "night")
        #expect(items.map(\.date) == ["2026-10-24", "2026-10-25"])
        for (_, item) in items {
            #expect(item.string("start") == "2026-10-24T22:00:00+02:00")
            #expect(item.string("end") == "2026-10-25T12:00:00+01:00")
        }
    }

    @Test func multiDayOccurrenceAppearsOnEveryDateItOverlaps() throws {
        let s = try ScratchStore()
        try s.load([ICS.berlin("long", "20261129T220000", "20261201T020000", summary: "Overnight")])
        let snapshot = try s.build(Fixture.view())
        let items = snapshot.items(uid: "long")
        #expect(items.map(\.date) == ["2026-11-29", "2026-11-30", "2026-12-01"])
        #expect(Set(items.map(\.item.id)).count == 3)
        #expect(items.map { $0.item.bool("continues_from_previous_day") } == [false, true, true])
        #expect(items.map { $0.item.bool("continues_to_next_day") } == [true, true, false])
        for (_, item) in items {
            // The whole occurrence, never clipped to the date.
            #expect(item.string("start") == "2026-11-29T22:00:00+01:00")
            #expect(item.string("end") == "2026-12-01T02:00:00+01:00")
            #expect(item.string("summary") == "Overnight")
        }

        // A window that starts in the middle: the same ids per date, and the first shown
        // date still continues from the (unshown) previous day.
        let late = try s.build(Fixture.view(from: "2026-11-30", days: 1))
        let part = late.items(uid: "long")
        #expect(part.map(\.date) == ["2026-11-30"])
        #expect(part.first?.item.id == items[1].item.id)
        #expect(part.first?.item.bool("continues_from_previous_day") == true)
        #expect(part.first?.item.bool("continues_to_next_day") == true)

        // In New York the same occurrence covers Nov 29 16:00 to Nov 30 20:00.
        let ny = try s.build(Fixture.view(Fixture.newYork)).items(uid: "long")
        #expect(ny.map(\.date) == ["2026-11-29", "2026-11-30"])
        #expect(ny.first?.item.string("start") == "2026-11-29T16:00:00-05:00")
        #expect(ny.first?.item.string("end") == "2026-11-30T20:00:00-05:00")
    }

    @Test func eventEndingAtMidnightIsNotOnTheNextDate() throws {
        let s = try ScratchStore()
        try s.load([
            ICS.berlin("to-midnight", "20261129T220000", "20261130T000000"),
            ICS.berlin("past-midnight", "20261129T220000", "20261130T000001"),
            ICS.berlin("whole-day", "20261201T000000", "20261202T000000"),
        ])
        let snapshot = try s.build(Fixture.view())
        let a = snapshot.items(uid: "to-midnight")
        #expect(a.map(\.date) == ["2026-11-29"])
        #expect(a.first?.item.bool("continues_to_next_day") == false)
        #expect(a.first?.item.string("end") == "2026-11-30T00:00:00+01:00")
        #expect(snapshot.items(uid: "past-midnight").map(\.date) == ["2026-11-29", "2026-11-30"])
        let whole = snapshot.items(uid: "whole-day")
        #expect(whole.map(\.date) == ["2026-12-01"])
        #expect(whole.first?.item.bool("continues_from_previous_day") == false)
        #expect(whole.first?.item.bool("continues_to_next_day") == false)
    }

    @Test func zeroDurationEventBelongsToItsStartDate() throws {
        let s = try ScratchStore()
        try s.load([
            ICS.event("midnight", "DTSTART;TZID=Europe/Berlin:20261130T000000", "SUMMARY:Midnight"),
            ICS.event("explicit", "DTSTART;TZID=Europe/Berlin:20261130T120000", "DURATION:PT0S"),
            ICS.event("same-end", "DTSTART;TZID=Europe/Berlin:20261130T130000", "DTEND;TZID=Europe/Berlin:20261130T130000"),
        ])
        let snapshot = try s.build(Fixture.view())
        let item = snapshot.items(uid: "midnight")
        #expect(item.map(\.date) == ["2026-11-30"])
        #expect(item.first?.item.string("start") == "2026-11-30T00:00:00+01:00")
        #expect(item.first?.item.string("end") == "2026-11-30T00:00:00+01:00")
        #expect(item.first?.item.bool("continues_from_previous_day") == false)
        #expect(item.first?.item.bool("continues_to_next_day") == false)
        #expect(snapshot.items(uid: "explicit").map(\.date) == ["2026-11-30"])
        #expect(snapshot.items(uid: "same-end").map(\.date) == ["2026-11-30"])

        // At the first instant of the window: shown; at the first instant after it: not.
        #expect(try s.build(Fixture.view(from: "2026-11-30", days: 1)).uids("2026-11-30").contains("midnight"))
        #expect(try s.build(Fixture.view(from: "2026-11-29", days: 1)).items(uid: "midnight").isEmpty)
    }

    @Test func occurrencesReachingOutsideTheWindow() throws {
        let s = try ScratchStore()
        try s.load([
            ICS.berlin("from-before", "20261120T100000", "20261128T100000"),
            ICS.berlin("to-after", "20261204T100000", "20261210T100000"),
            ICS.berlin("ends-at-window", "20261127T100000", "20261128T000000"),
            ICS.berlin("starts-at-end", "20261205T000000", "20261205T010000"),
        ])
        let snapshot = try s.build(Fixture.view()) // 2026-11-28 ..< 2026-12-05
        let before = snapshot.items(uid: "from-before")
        #expect(before.map(\.date) == ["2026-11-28"])
        #expect(before.first?.item.bool("continues_from_previous_day") == true)
        #expect(before.first?.item.bool("continues_to_next_day") == false)
        #expect(before.first?.item.string("start") == "2026-11-20T10:00:00+01:00")
        let after = snapshot.items(uid: "to-after")
        #expect(after.map(\.date) == ["2026-12-04"])
        #expect(after.first?.item.bool("continues_from_previous_day") == false)
        #expect(after.first?.item.bool("continues_to_next_day") == true)
        #expect(snapshot.items(uid: "ends-at-window").isEmpty)
        #expect(snapshot.items(uid: "starts-at-end").isEmpty)
    }

    @Test func floatingTimesAreReadInTheViewZone() throws {
        let s = try ScratchStore()
        try s.load([
            ICS.event("float", "DTSTART:20261130T090000", "DTEND:20261130T100000", "SUMMARY:Float"),
            ICS.event("float-night", "DTSTART:20261130T233000", "DTEND:20261201T003000"),
        ])
        let berlin = try s.build(Fixture.view(Fixture.berlin))
        let ny = try s.build(Fixture.view(Fixture.newYork))
        #expect(berlin.items(uid: "float").map(\.date) == ["2026-11-30"])
        #expect(ny.items(uid: "float").map(\.date) == ["2026-11-30"])
        #expect(berlin.items(uid: "float").first?.item.string("start") == "2026-11-30T09:00:00+01:00")
        #expect(berlin.items(uid: "float").first?.item.string("end") == "2026-11-30T10:00:00+01:00")
        #expect(ny.items(uid: "float").first?.item.string("start") == "2026-11-30T09:00:00-05:00")
        #expect(ny.items(uid: "float").first?.item.string("end") == "2026-11-30T10:00:00-05:00")
        #expect(berlin.items(uid: "float").first?.item.isNull("recurrence_id") == true)
        for snapshot in [berlin, ny] {
            #expect(snapshot.items(uid: "float-night").map(\.date) == ["2026-11-30", "2026-12-01"])
        }
        #expect(ny.items(uid: "float-night").first?.item.string("start") == "2026-11-30T23:30:00-05:00")
    }

    /// Floating times and dates are stored without a zone; views in the zones furthest
    /// from UTC (+14:00, -12:00/-11:00) must still find them on their local date.
    @Test func floatingTimesAndDatesInExtremeZones() throws {
        let s = try ScratchStore()
        try s.load([
            ICS.event("late", "DTSTART:20261201T230000", "DTEND:20261201T233000"),
            ICS.event("early", "DTSTART:20261201T003000", "DTEND:20261201T010000"),
            ICS.event("late-series", "DTSTART:20261120T233000", "DTEND:20261120T234500", "RRULE:FREQ=DAILY;COUNT=30"),
            ICS.allDay("day", "20261201", nil),
        ])
        for zone in ["Pacific/Kiritimati", "Etc/GMT+12", "Pacific/Pago_Pago", "UTC", "Asia/Tokyo"] {
            let snapshot = try s.build(Fixture.view(zone, from: "2026-12-01", days: 1))
            #expect(snapshot.dates == ["2026-12-01"], "zone \(zone)")
            #expect(Set(snapshot.uids("2026-12-01")) == ["late", "early", "late-series", "day"], "zone \(zone)")
            #expect(snapshot.items(uid: "late").first?.item.string("start")?.hasPrefix("2026-12-01T23:00:00") == true)
            let rid = snapshot.items(uid: "late-series").first?.item.string("recurrence_id")
            let zoneValue = try #require(Zone.system(zone))
            let expected = CivilDateTime(secondsAsIfUTC: zoneValue.instant(forLocal: CivilDateTime(
                date: date("2026-12-01"), hour: 23, minute: 30))).basic + "Z"
            #expect(rid == expected, "zone \(zone)")
        }
    }

    @Test func recurrenceIDIsTheOriginalStartInUTC() throws {
        let s = try ScratchStore()
        try s.load([
            ICS.berlin("daily", "20261129T090000", "20261129T093000", "RRULE:FREQ=DAILY;COUNT=4"),
            // The Nov 30 instance moved to 11:30, with new content.
            ICS.event("daily", "RECURRENCE-ID;TZID=Europe/Berlin:20261130T090000",
                      "DTSTART;TZID=Europe/Berlin:20261130T113000", "DTEND;TZID=Europe/Berlin:20261130T120000",
                      "SUMMARY:Moved"),
            ICS.event("utc", "DTSTART:20261129T150000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;COUNT=2"),
            ICS.allDay("weekly", "20261130", nil, "RRULE:FREQ=WEEKLY;COUNT=3"),
            ICS.berlin("rdate", "20261201T180000", "20261201T190000", "RDATE;TZID=Europe/Berlin:20261203T180000"),
            ICS.berlin("single", "20261202T080000", "20261202T090000"),
        ])
        for zone in [Fixture.berlin, Fixture.newYork, "Asia/Tokyo"] {
            let snapshot = try s.build(Fixture.view(zone, from: "2026-11-27", days: 14))
            func rids(_ uid: String) -> [String?] { snapshot.items(uid: uid).map { $0.item.string("recurrence_id") } }
            #expect(rids("daily") == ["20261129T080000Z", "20261130T080000Z", "20261201T080000Z", "20261202T080000Z"],
                    "zone \(zone)")
            #expect(rids("utc") == ["20261129T150000Z", "20261130T150000Z"], "zone \(zone)")
            #expect(rids("weekly") == ["20261130", "20261207"], "zone \(zone)")
            #expect(rids("rdate") == ["20261201T170000Z", "20261203T170000Z"], "zone \(zone)")
            #expect(snapshot.items(uid: "single").first?.item.isNull("recurrence_id") == true, "zone \(zone)")
        }
        let berlin = try s.build(Fixture.view())
        let moved = try #require(berlin.items(uid: "daily").first { $0.item.string("summary") == "Moved" })
        #expect(moved.date == "2026-11-30")
        #expect(moved.item.string("start") == "2026-11-30T11:30:00+01:00")
        #expect(moved.item.string("recurrence_id") == "20261130T080000Z")
    }

    @Test func floatingRecurrenceIDIsReadInTheViewZone() throws {
        let s = try ScratchStore()
        try s.load([ICS.event("float-daily", "DTSTART:20261129T090000", "DTEND:20261129T100000",
                              "RRULE:FREQ=DAILY;COUNT=2")])
        let berlin = try s.build(Fixture.view(Fixture.berlin)).items(uid: "float-daily")
        #expect(berlin.map { $0.item.string("recurrence_id") } == ["20261129T080000Z", "20261130T080000Z"])
        let ny = try s.build(Fixture.view(Fixture.newYork)).items(uid: "float-daily")
        #expect(ny.map { $0.item.string("recurrence_id") } == ["20261129T140000Z", "20261130T140000Z"])
        #expect(ny.map { $0.item.string("start") } == ["2026-11-29T09:00:00-05:00", "2026-11-30T09:00:00-05:00"])
    }

    @Test func calendarAndUIDFields() throws {
        let s = try ScratchStore()
        try s.load([ICS.berlin("shared@x", "20261129T100000", "20261129T110000")], calendar: "work")
        try s.load([ICS.berlin("shared@x", "20261129T100000", "20261129T110000")], calendar: "home.2026_x-y")
        let items = try s.build(Fixture.view()).items(uid: "shared@x")
        #expect(Set(items.map { $0.item.string("calendar") ?? "" }) == ["work", "home.2026_x-y"])
    }

    @Test func everyItemHasEveryKey() throws {
        let s = try ScratchStore()
        try s.load([
            ICS.berlin("a", "20261129T100000", "20261201T110000", "LOCATION:L", "STATUS:TENTATIVE"),
            ICS.allDay("b", "20261130", "20261203", "RRULE:FREQ=DAILY;COUNT=2"),
            ICS.event("c", "DTSTART:20261130T120000"),
        ])
        let snapshot = try s.build(Fixture.view(emptyDays: .placeholder))
        for item in snapshot.allItems {
            if item.string("kind") == "placeholder" {
                #expect(Set(item.fields.keys) == ["id", "kind"])
            } else {
                #expect(Set(item.fields.keys) == Self.eventKeys, "\(item.text)")
                // The item bytes are canonical JSON.
                #expect(item.value.canonicalBytes() == item.json)
            }
        }
    }
}
