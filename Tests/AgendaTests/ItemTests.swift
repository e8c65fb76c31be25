import Foundation
import Testing
import Agenda
import EventStore
import ICalendar
import CanonicalJSON
import TestSupport

/// docs/data-model.md: the fields of an event item.
@Suite struct ItemTests {
    static let eventKeys: Set<String> = [
        "id", "kind", "calendar", "uid", "recurrence_id", "summary", "location", "status", "all_day",
        "start", "end", "continues_from_previous_day", "continues_to_next_day",
    ]

    @Test func everyFieldOfATimedEvent() throws {
        let s = try ScratchStore(loading: [ICS.event("abc@example.com", "DTSTART;TZID=Europe/Berlin:20261129T100000",
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

    /// Issue 43, point 7: every occurrence is an item, so a 1 MB SUMMARY on a daily
    /// event made a week's view megabytes per item. The feed carries the text's first
    /// `maxTextBytes` bytes (whole characters) and `…`; the database and `export` keep it all.
    @Test func hugeTextIsCappedInItemsAndKeptWhole() throws {
        let huge = String(repeating: "ü", count: 300_000) + "END"
        let s = try ScratchStore(loading: [ICS.event("huge@x", "DTSTART:20261128T090000Z", "DTEND:20261128T100000Z",
                                                     "RRULE:FREQ=DAILY", "SUMMARY:\(huge)", "LOCATION:\(huge)")])
        let snapshot = try s.build(Fixture.view())
        #expect(snapshot.allItems.count == 7)
        for item in snapshot.allItems {
            // (Two capped texts, each at most tripled by JSON escapes: ü is \\u00fc.)
            #expect(item.json.count < 7 * SnapshotBuilder.maxTextBytes, "\(item.json.count) bytes")
            let summary = try #require(item.string("summary"))
            #expect(summary.hasSuffix("…") && summary.hasPrefix("üü") && summary.utf8.count <= SnapshotBuilder.maxTextBytes)
            #expect(item.string("location") == summary)
        }
        let exported = try s.store.exportICalendar().replacingOccurrences(of: "\r\n ", with: "")
        #expect(exported.contains("SUMMARY:\(huge)\r\n") && exported.contains("LOCATION:\(huge)\r\n"))
    }

    /// docs/data-model.md: `description` and `url` are there only when the event has
    /// them (an item without keeps its bytes); the description is capped at 1,024 bytes
    /// at a character, and only an http, https or mailto URL is carried.
    @Test func descriptionAndURLOnlyWhenTheEventHasThem() throws {
        let long = String(repeating: "é", count: 3_000) + "END" // read back as its first 1,025 characters
        let s = try ScratchStore(loading: [
            ICS.berlin("full", "20261129T090000", "20261129T100000", "DESCRIPTION:Bring\\, please\\nthe notes",
                       "URL:https://example.com/meet?id=1"),
            ICS.berlin("long", "20261129T100000", "20261129T110000", "DESCRIPTION:\(long)", "URL:MAILTO:team@example.com"),
            ICS.berlin("plain", "20261129T110000", "20261129T120000",
                       "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT10M", "END:VALARM"),
            ICS.berlin("script", "20261129T120000", "20261129T130000", "URL:javascript:alert(1)"),
            ICS.berlin("huge-url", "20261129T130000", "20261129T140000",
                       "URL:https://example.com/" + String(repeating: "a", count: SnapshotBuilder.maxURLBytes)),
        ])
        let snapshot = try s.build(Fixture.view())
        func item(_ uid: String) throws -> AgendaItem { try #require(snapshot.items(uid: uid).first?.item) }

        let full = try item("full")
        #expect(full.string("description") == "Bring, please\nthe notes")
        #expect(full.string("url") == "https://example.com/meet?id=1")
        #expect(Set(full.fields.keys) == Self.eventKeys.union(["description", "url"]))
        #expect(full.text.contains(#""continues_to_next_day":false,"description":"Bring, please\nthe notes","end":"#))
        #expect(full.text.hasSuffix(#","uid":"full","url":"https://example.com/meet?id=1"}"#))

        let capped = try item("long")
        let description = try #require(capped.string("description"))
        #expect(description.utf8.count <= SnapshotBuilder.maxDescriptionBytes && description.utf8.count > 1_000)
        #expect(description.hasPrefix("éé") && description.hasSuffix("é…"))
        #expect(capped.string("url") == "MAILTO:team@example.com")
        // The whole text stays in the database (and so in `export`).
        #expect(try s.store.exportICalendar().replacingOccurrences(of: "\r\n ", with: "").contains("DESCRIPTION:\(long)\r\n"))

        // Neither key (a VALARM's DESCRIPTION is not the event's): the item's bytes as before.
        let plain = try item("plain")
        #expect(Set(plain.fields.keys) == Self.eventKeys)
        #expect(!plain.text.contains("description") && !plain.text.contains("url"))
        for uid in ["script", "huge-url"] {
            let item = try item(uid)
            #expect(Set(item.fields.keys) == Self.eventKeys, "\(uid): \(item.text)")
            #expect(!item.text.contains("javascript"))
        }
    }

    @Test func absentOptionalFieldsAreNull() throws {
        let s = try ScratchStore(loading: [ICS.event("bare@x", "DTSTART:20261129T150000Z")])
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
        let s = try ScratchStore(loading: [
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
        let s = try ScratchStore(loading: [
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
        let s = try ScratchStore(loading: [
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
        let s = try ScratchStore(loading: [ICS.berlin("long", "20261129T220000", "20261201T020000", summary: "Overnight")])
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
        let snapshot = try ScratchStore(loading: [
            ICS.berlin("to-midnight", "20261129T220000", "20261130T000000"),
            ICS.berlin("past-midnight", "20261129T220000", "20261130T000001"),
            ICS.berlin("whole-day", "20261201T000000", "20261202T000000"),
        ]).build(Fixture.view())
        snapshot.expectItems("to-midnight", on: ["2026-11-29"], end: "2026-11-30T00:00:00+01:00", toNextDay: false)
        snapshot.expectItems("past-midnight", on: ["2026-11-29", "2026-11-30"])
        snapshot.expectItems("whole-day", on: ["2026-12-01"], fromPreviousDay: false, toNextDay: false)
    }

    @Test func zeroDurationEventBelongsToItsStartDate() throws {
        let s = try ScratchStore(loading: [
            ICS.event("midnight", "DTSTART;TZID=Europe/Berlin:20261130T000000", "SUMMARY:Midnight"),
            ICS.event("explicit", "DTSTART;TZID=Europe/Berlin:20261130T120000", "DURATION:PT0S"),
            ICS.event("same-end", "DTSTART;TZID=Europe/Berlin:20261130T130000", "DTEND;TZID=Europe/Berlin:20261130T130000"),
        ])
        let snapshot = try s.build(Fixture.view())
        snapshot.expectItems("midnight", on: ["2026-11-30"], start: "2026-11-30T00:00:00+01:00", end: "2026-11-30T00:00:00+01:00",
                             fromPreviousDay: false, toNextDay: false)
        snapshot.expectItems("explicit", on: ["2026-11-30"])
        snapshot.expectItems("same-end", on: ["2026-11-30"])

        // At the first instant of the window: shown; at the first instant after it: not.
        #expect(try s.build(Fixture.view(from: "2026-11-30", days: 1)).uids("2026-11-30").contains("midnight"))
        #expect(try s.build(Fixture.view(from: "2026-11-29", days: 1)).items(uid: "midnight").isEmpty)
    }

    @Test func occurrencesReachingOutsideTheWindow() throws {
        let window = Fixture.view() // 2026-11-28 ..< 2026-12-05
        let snapshot = try ScratchStore(loading: [
            ICS.berlin("from-before", "20261120T100000", "20261128T100000"),
            ICS.berlin("to-after", "20261204T100000", "20261210T100000"),
            ICS.berlin("ends-at-window", "20261127T100000", "20261128T000000"),
            ICS.berlin("starts-at-end", "20261205T000000", "20261205T010000"),
        ]).build(window)
        snapshot.expectItems("from-before", on: ["2026-11-28"], start: "2026-11-20T10:00:00+01:00",
                             fromPreviousDay: true, toNextDay: false)
        snapshot.expectItems("to-after", on: ["2026-12-04"], fromPreviousDay: false, toNextDay: true)
        #expect(snapshot.items(uid: "ends-at-window").isEmpty)
        #expect(snapshot.items(uid: "starts-at-end").isEmpty)
    }

    @Test func floatingTimesAreReadInTheViewZone() throws {
        let s = try ScratchStore(loading: [
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
        let s = try ScratchStore(loading: [
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
        let s = try ScratchStore(loading: [
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
        let s = try ScratchStore(loading: [ICS.event("float-daily", "DTSTART:20261129T090000", "DTEND:20261129T100000",
                              "RRULE:FREQ=DAILY;COUNT=2")])
        let berlin = try s.build(Fixture.view(Fixture.berlin)).items(uid: "float-daily")
        #expect(berlin.map { $0.item.string("recurrence_id") } == ["20261129T080000Z", "20261130T080000Z"])
        let ny = try s.build(Fixture.view(Fixture.newYork)).items(uid: "float-daily")
        #expect(ny.map { $0.item.string("recurrence_id") } == ["20261129T140000Z", "20261130T140000Z"])
        #expect(ny.map { $0.item.string("start") } == ["2026-11-29T09:00:00-05:00", "2026-11-30T09:00:00-05:00"])
    }

    @Test func calendarAndUIDFields() throws {
        let s = try ScratchStore(loading: [ICS.berlin("shared@x", "20261129T100000", "20261129T110000")], calendar: "work")
        try s.load([ICS.berlin("shared@x", "20261129T100000", "20261129T110000")], calendar: "home.2026_x-y")
        let items = try s.build(Fixture.view()).items(uid: "shared@x")
        #expect(Set(items.map { $0.item.string("calendar") ?? "" }) == ["work", "home.2026_x-y"])
    }

    @Test func everyItemHasEveryKey() throws {
        let s = try ScratchStore(loading: [
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
