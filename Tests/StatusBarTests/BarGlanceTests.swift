import Testing
import ICalendar
import AgendaText
import FeedProtocol
import CanonicalJSON
@testable import StatusBar

/// `BarGlance`: which event the bar shows, its class, all-day events, templates.
@Suite struct BarGlanceTests {
    typealias R = BarRendererTests
    static let holiday = BarEvent(summary: "First Advent", calendar: "h", allDayFrom: CivilDate(year: 2026, month: 12, day: 1),
                                  until: CivilDate(year: 2026, month: 12, day: 2))

    @Test func allDayEventsShowOnlyWhenNothingTimedIsLeftUnlessAlways() {
        let events = [Self.holiday, R.event("Standup", (10, 0), (10, 15))]
        let before = BarGlance.at(R.t(9, 0), events: events, zone: R.berlin, options: BarOptions())
        #expect(before.text == "10:00 Standup · in 1 h")
        let after = BarGlance.at(R.t(11, 0), events: events, zone: R.berlin, options: BarOptions())
        #expect(after.text == "First Advent · all day")
        #expect((after.kind, after.alt) == (.free, "all-day"))
        let always = BarGlance.at(R.t(9, 0), events: events, zone: R.berlin, options: BarOptions(allDay: .always))
        #expect(always.text == "First Advent · 10:00 Standup · in 1 h")
        #expect(always.today.map(\.time) == ["all day", "10:00–10:15"])
    }

    @Test func overlappingEventsShowTheOneBegunLast() {
        let events = [R.event("Workshop", (9, 0), (12, 0)), R.event("Call", (10, 0), (10, 30))]
        let g = BarGlance.at(R.t(10, 10), events: events, zone: R.berlin, options: BarOptions())
        #expect(g.text == "Call · now, 20 min left")
        #expect(g.percentage == 33)
    }

    @Test func tomorrowsEventsAreNotTheNextEventToday() {
        let g = BarGlance.at(R.t(20, 0), events: [R.event("Planning", (9, 30), (10, 30), day: 2)], zone: R.berlin, options: BarOptions())
        #expect((g.kind, g.text) == (.free, ""))
        #expect(g.tomorrow.map(\.summary) == ["Planning"])
    }

    @Test func soonIsInclusiveAndConfigurable() {
        let events = [R.event("Standup", (10, 0), (10, 15))]
        #expect(BarGlance.at(R.t(9, 45), events: events, zone: R.berlin, options: BarOptions()).kind == .soon)
        #expect(BarGlance.at(R.t(9, 44), events: events, zone: R.berlin, options: BarOptions()).kind == .later)
        #expect(BarGlance.at(R.t(9, 44), events: events, zone: R.berlin, options: BarOptions(soon: 3600)).kind == .soon)
    }

    @Test func templatesNameTheFields() throws {
        let template = try BarTemplate("{start}-{end} {summary} @{location} [{calendar}] {minutes_until}/{minutes_left} {{x}}")
        let events = [R.event("Review", (14, 0), (15, 0), location: "Room 4")]
        let g = BarGlance.at(R.t(13, 35) + 10, events: events, zone: R.berlin, options: BarOptions(template: template))
        #expect(g.text == "14:00-15:00 Review @Room 4 [work] 25/85 {x}")
    }

    @Test func eventsSpanningMidnightAreMarkedInTheTooltip() {
        let night = BarEvent(summary: "Deploy", calendar: "ops", start: R.t(22, 0), end: R.t(2, 0, day: 2))
        let g = BarGlance.at(R.t(21, 0), events: [night], zone: R.berlin, options: BarOptions())
        #expect(g.today.map(\.time) == ["22:00–…"])
        #expect(g.tomorrow.map(\.time) == ["…–02:00"])
    }
}

/// Templates, durations and reading the feed's items.
@Suite struct BarInputTests {
    @Test func badTemplatesSayWhy() {
        #expect(throws: BarTemplate.Invalid.self) { try BarTemplate("{nope}") }
        #expect(throws: BarTemplate.Invalid.self) { try BarTemplate("{summary") }
        #expect(throws: BarTemplate.Invalid.self) { try BarTemplate("a } b") }
        #expect(throws: Never.self) { try BarTemplate("{{}} {summary}") }
    }

    @Test func durations() {
        #expect(BarOptions.duration("15") == 900)
        #expect(BarOptions.duration("15m") == 900)
        #expect(BarOptions.duration("1h30m") == 5400)
        #expect(BarOptions.duration("90s") == 90)
        #expect(BarOptions.duration("") == nil)
        #expect(BarOptions.duration("m") == nil)
        #expect(BarOptions.duration("5x") == nil)
        #expect(BarOptions.duration("-5") == nil)
    }

    /// A follower's copy read again after each change: the memo's events equal a fresh
    /// conversion every time (a changed, an added and a removed item included), and an
    /// event spanning two sections counts once.
    @Test func theMemoGivesWhatAFreshConversionGivesAfterEveryChange() throws {
        func item(_ id: String, _ day: String, _ hour: Int, _ summary: String) -> JSONValue {
            ["id": .string(id), "kind": "event", "summary": .string(summary), "calendar": "work", "all_day": false,
             "start": .string("2026-12-\(day)T\(hour < 10 ? "0" : "")\(hour):00:00Z"),
             "end": .string("2026-12-\(day)T\(hour < 10 ? "0" : "")\(hour):30:00Z")]
        }
        let span: JSONValue = ["id": "span-1", "kind": "event", "summary": "Trip", "all_day": true, "start": "2026-12-01", "end": "2026-12-03"]
        var spanNext = span.objectValue!
        spanNext["id"] = "span-2"
        func model(_ items: [[JSONValue]]) throws -> FeedClientState.Model {
            let sections: [JSONValue] = items.enumerated().map { k, items in
                ["date": .string("2026-12-0\(k + 1)"), "id": .string("2026-12-0\(k + 1)"), "label": nil, "items": .array(items)]
            }
            return try FeedClientState(snapshot: FeedMessage.Snapshot(digest: "", epoch: "e", sectionObjects: sections, seq: 1,
                                                                       view: ["tz": "UTC", "days": 2])).model
        }
        let states = try [
            model([[span, item("a", "01", 10, "Standup"), item("b", "01", 12, "Lunch")], [.object(spanNext), item("c", "02", 9, "Review")]]),
            model([[span, item("a", "01", 10, "Standup moved"), item("b", "01", 12, "Lunch")], [.object(spanNext), item("c", "02", 9, "Review")]]),
            model([[span, item("b", "01", 12, "Lunch")], [.object(spanNext), item("c", "02", 9, "Review"), item("d", "02", 15, "Demo")]]),
            model([[item("b", "01", 12, "Lunch")], []]),
        ]
        var memo = BarEvent.Memo()
        for (k, state) in states.enumerated() {
            let fresh = BarEvent.events(in: state)
            #expect(memo.events(in: state) == fresh, "state \(k)")
            #expect(memo.events(in: state) == fresh, "state \(k), read twice")
        }
        #expect(BarEvent.events(in: states[0]).map(\.summary) == ["Trip", "Standup", "Lunch", "Review"])
        #expect(BarEvent.events(in: states[1]).map(\.summary).contains("Standup moved"))
    }

    @Test func feedItemsBecomeEvents() throws {
        let timed: JSONValue = ["kind": "event", "summary": "Standup", "calendar": "work", "location": nil, "status": nil,
                                "all_day": false, "start": "2026-12-01T10:00:00+01:00", "end": "2026-12-01T10:15:00+01:00"]
        let e = try #require(BarEvent(item: FeedItem(timed)))
        #expect(e.start == BarRendererTests.t(10, 0))
        #expect(e.end - e.start == 900)
        let utc: JSONValue = ["kind": "event", "all_day": false, "start": "2026-12-01T09:00:00Z", "end": "2026-12-01T09:15:00Z"]
        #expect(BarEvent(item: FeedItem(utc))?.start == BarRendererTests.t(10, 0))
        let allDay: JSONValue = ["kind": "event", "summary": "H", "all_day": true, "start": "2026-12-01", "end": "2026-12-02"]
        #expect(BarEvent(item: FeedItem(allDay))?.allDay == true)
        var cancelled = timed.objectValue!
        cancelled["status"] = "CANCELLED"
        #expect(BarEvent(item: FeedItem(.object(cancelled))) == nil)
        #expect(BarEvent(item: FeedItem(["kind": "placeholder"])) == nil)
        #expect(BarEvent(item: FeedItem(["kind": "event", "all_day": false, "start": "garbage", "end": "2026-12-01T09:15:00Z"])) == nil)
    }
}
