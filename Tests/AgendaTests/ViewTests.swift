import Foundation
import Testing
import Agenda
import EventStore
import ICalendar
import CanonicalJSON
import FeedProtocol
import TestSupport

/// docs/data-model.md: view fields, defaults, validation (`invalid_view`) and normalisation.
@Suite struct ViewTests {
    static let known: Set<String> = ["work", "home", "team.2026"]

    func parse(_ json: String, zone: String = "Europe/Berlin", known: Set<String>? = ViewTests.known) throws -> View {
        let value = try JSONValue.parse(json)
        return try View.parse(ViewFields(value), defaultZone: zone, knownCalendars: known)
    }

    func rejects(_ json: String, mentioning word: String? = nil, known: Set<String>? = ViewTests.known,
                 sourceLocation: SourceLocation = #_sourceLocation) {
        let value: JSONValue
        do { value = try JSONValue.parse(json) } catch {
            Issue.record("bad test JSON \(json)", sourceLocation: sourceLocation)
            return
        }
        let error = #expect(throws: ViewError.self, "\(json) should be refused", sourceLocation: sourceLocation) {
            try View.parse(ViewFields(value), defaultZone: "Europe/Berlin", knownCalendars: known)
        }
        if let word, let error {
            #expect(error.message.contains(word), "\(json): \(error.message)", sourceLocation: sourceLocation)
        }
    }

    @Test func defaults() throws {
        for view in [try View.parse(nil, defaultZone: "Asia/Tokyo", knownCalendars: nil),
                     try View.parse(ViewFields(.null), defaultZone: "Asia/Tokyo", knownCalendars: nil),
                     try parse("{}", zone: "Asia/Tokyo"),
                     try parse(#"{"tz":null,"from":null,"past_days":null,"days":null,"calendars":null,"empty_days":null}"#,
                               zone: "Asia/Tokyo")] {
            #expect(view.timeZone == "Asia/Tokyo")
            #expect(view.from == nil)
            #expect(view.pastDays == 0)
            #expect(view.days == 14)
            #expect(view.calendars == nil)
            #expect(view.emptyDays == .omit)
            #expect(view == View(timeZone: "Asia/Tokyo"))
            #expect(view.json.canonicalString() ==
                #"{"calendars":null,"days":14,"empty_days":"omit","from":null,"past_days":0,"tz":"Asia/Tokyo"}"#)
        }
    }

    @Test func everyField() throws {
        let view = try parse(#"{"tz":"America/New_York","from":"2026-11-30","days":7,"calendars":["work","home","work"],"empty_days":"placeholder"}"#)
        #expect(view.timeZone == "America/New_York")
        #expect(view.from == CivilDate(year: 2026, month: 11, day: 30))
        #expect(view.days == 7)
        #expect(view.calendars == ["home", "work"])
        #expect(view.emptyDays == .placeholder)
        #expect(view.json.canonicalString() ==
            #"{"calendars":["home","work"],"days":7,"empty_days":"placeholder","from":"2026-11-30","past_days":0,"tz":"America/New_York"}"#)
        let sliding = try parse(#"{"past_days":3,"days":10}"#)
        #expect(sliding.pastDays == 3)
        #expect(sliding.from == nil)
        #expect(sliding.json["past_days"] == .int(3))
    }

    @Test func fromForcesPastDaysToZero() throws {
        let view = try parse(#"{"from":"2026-11-30","past_days":5}"#)
        #expect(view.pastDays == 0)
        #expect(view == (try parse(#"{"from":"2026-11-30"}"#)))
        #expect(View(timeZone: "UTC", from: CivilDate(year: 2026, month: 1, day: 1), pastDays: 9).pastDays == 0)
        #expect(View(timeZone: "UTC", pastDays: 9).pastDays == 9)
    }

    @Test func calendarsAreSortedAndDeduplicated() throws {
        let a = try parse(#"{"calendars":["work","home","work","team.2026","home"]}"#)
        #expect(a.calendars == ["home", "team.2026", "work"])
        let b = try parse(#"{"calendars":["team.2026","work","home"]}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.json == b.json)
        #expect(View(timeZone: "UTC", calendars: ["b", "a", "b", "c"]).calendars == ["a", "b", "c"])
        #expect(View(timeZone: "UTC", calendars: ["Work", "work"]).calendars == ["Work", "work"])
        let empty = try parse(#"{"calendars":[]}"#)
        #expect(empty.calendars == [])
    }

    @Test func equalNormalisedViewsAreEqual() throws {
        let a = try parse(#"{"tz":"Europe/Berlin","days":14,"empty_days":"omit","calendars":["home","work"]}"#)
        let b = try parse(#"{"calendars":["work","home","home"]}"#)
        let c = try parse(#"{"calendars":["work","home"],"past_days":0,"from":null}"#)
        #expect(a == b && b == c)
        #expect(Set([a, b, c]).count == 1)
        let d = try parse(#"{"calendars":["work","home"],"days":13}"#)
        #expect(d != a)
    }

    @Test func unknownZone() {
        rejects(#"{"tz":"Mars/Olympus_Mons"}"#, mentioning: "Mars/Olympus_Mons")
        rejects(#"{"tz":""}"#)
        rejects(#"{"tz":"../../etc/passwd"}"#)
        rejects(#"{"tz":"Europe/Berlin "}"#)
        #expect(throws: ViewError.self) { try View.parse(nil, defaultZone: "No/Such_Zone", knownCalendars: nil) }
        #expect(throws: ViewError.self) { try View(timeZone: "No/Such_Zone").validated(knownCalendars: nil) }
    }

    @Test func knownZones() throws {
        for zone in ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns"] {
            #expect(try parse(#"{"tz":"\#(zone)"}"#).timeZone == zone)
        }
    }

    @Test func unknownCalendar() throws {
        rejects(#"{"calendars":["work","nope"]}"#, mentioning: "nope")
        rejects(#"{"calendars":["WORK"]}"#, mentioning: "WORK")
        // Without a list of known calendars any name passes.
        #expect(try parse(#"{"calendars":["nope"]}"#, known: nil).calendars == ["nope"])
        #expect(throws: ViewError.self) {
            try View(timeZone: "UTC", calendars: ["x"]).validated(knownCalendars: ["y"])
        }
    }

    @Test func daysRange() throws {
        #expect(try parse(#"{"days":1}"#).days == 1)
        #expect(try parse(#"{"days":3660}"#).days == 3660)
        for bad in ["0", "-1", "3661", "100000000000000000000", "9223372036854775807", "-9223372036854775808"] {
            rejects(#"{"days":\#(bad)}"#, mentioning: "days")
        }
        #expect(throws: ViewError.self) { try View(timeZone: "UTC", days: 0).validated(knownCalendars: nil) }
        #expect(throws: ViewError.self) { try View(timeZone: "UTC", days: 3661).validated(knownCalendars: nil) }
    }

    @Test func pastDaysRange() throws {
        #expect(try parse(#"{"past_days":0}"#).pastDays == 0)
        #expect(try parse(#"{"past_days":366}"#).pastDays == 366)
        for bad in ["-1", "367", "1e3"] {
            rejects(#"{"past_days":\#(bad)}"#, mentioning: "past_days")
        }
        #expect(throws: ViewError.self) { try View(timeZone: "UTC", pastDays: 367).validated(knownCalendars: nil) }
        #expect(throws: ViewError.self) { try View(timeZone: "UTC", pastDays: -1).validated(knownCalendars: nil) }
    }

    @Test func badTypes() {
        for json in [#"[]"#, #""view""#, #"14"#, #"true"#] {
            rejects(json, mentioning: "object")
        }
        rejects(#"{"tz":5}"#, mentioning: "tz")
        rejects(#"{"tz":["Europe/Berlin"]}"#, mentioning: "tz")
        rejects(#"{"days":"14"}"#, mentioning: "days")
        rejects(#"{"days":true}"#, mentioning: "days")
        rejects(#"{"days":1.5}"#, mentioning: "days")
        rejects(#"{"days":[14]}"#, mentioning: "days")
        rejects(#"{"past_days":"1"}"#, mentioning: "past_days")
        rejects(#"{"calendars":"work"}"#, mentioning: "calendars")
        rejects(#"{"calendars":[1]}"#, mentioning: "calendars")
        rejects(#"{"calendars":[null]}"#, mentioning: "calendars")
        rejects(#"{"calendars":{"work":true}}"#, mentioning: "calendars")
        rejects(#"{"empty_days":"none"}"#, mentioning: "empty_days")
        rejects(#"{"empty_days":"Omit"}"#, mentioning: "empty_days")
        rejects(#"{"empty_days":true}"#, mentioning: "empty_days")
        rejects(#"{"from":20261130}"#, mentioning: "from")
    }

    @Test func badDates() {
        for bad in ["2026-02-30", "2026-13-01", "2026-00-10", "2026-1-05", "26-11-30", "2026/11/30", "2026-11-30T00:00:00",
                    "", "today", "2026-11-3O", "0000-01-01"] {
            rejects(#"{"from":"\#(bad)"}"#, mentioning: "from")
        }
    }

    @Test func leapDay() throws {
        #expect(try parse(#"{"from":"2028-02-29"}"#).from == CivilDate(year: 2028, month: 2, day: 29))
        rejects(#"{"from":"2027-02-29"}"#)
        rejects(#"{"from":"2100-02-29"}"#)
        #expect(try parse(#"{"from":"2000-02-29"}"#).from == CivilDate(year: 2000, month: 2, day: 29))
    }

    @Test func unknownFields() {
        rejects(#"{"foo":1}"#, mentioning: "foo")
        rejects(#"{"tz":"UTC","Days":3}"#, mentioning: "Days")
        rejects(#"{"pastDays":3}"#, mentioning: "pastDays")
        rejects(#"{"calendar":["work"]}"#, mentioning: "calendar")
    }

    @Test func engineRefusesAnUnknownZone() throws {
        let s = try ScratchStore()
        #expect(throws: ViewError.self) { try s.build(View(timeZone: "Nowhere/Land")) }
        #expect(throws: ViewError.self) { try SnapshotEngine().build(View(timeZone: "Nowhere/Land"), store: s.store, now: Fixture.now) }
    }

    @Test func parsedViewBuildsTheSameSnapshotAsTheInitialiser() throws {
        let s = try ScratchStore()
        try s.load([ICS.berlin("a", "20261130T100000", "20261130T110000")], calendar: "work")
        try s.load([ICS.berlin("b", "20261130T120000", "20261130T130000")], calendar: "home")
        let parsed = try parse(#"{"tz":"America/New_York","from":"2026-11-29","days":3,"calendars":["work"],"empty_days":"placeholder"}"#)
        let direct = View(timeZone: "America/New_York", from: date("2026-11-29"), days: 3, calendars: ["work"], emptyDays: .placeholder)
        #expect(parsed == direct)
        let a = try s.build(parsed), b = try s.build(direct)
        #expect(a == b)
        #expect(a.view == parsed)
        #expect(a.dates == ["2026-11-29", "2026-11-30", "2026-12-01"])
        #expect(a.uids("2026-11-30") == ["a"])
    }
}
