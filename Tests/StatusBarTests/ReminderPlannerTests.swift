import Testing
import Foundation
import ICalendar
import AgendaText
@testable import Reminders
@testable import StatusBar

/// `ReminderPlanner` and `SentLog`: which reminders are due, once, and what is kept.
@Suite struct ReminderPlannerTests {
    typealias R = BarRendererTests
    static var standup: BarEvent {
        var e = R.event("Standup", (10, 0), (10, 15), location: "Room 4")
        e.uid = "standup@x"
        return e
    }

    @Test func dueAtTheOffsetOnceAndNotAfterTheStart() {
        let planner = ReminderPlanner(befores: [600])
        let events = [Self.standup]
        #expect(planner.plan(events, now: R.t(9, 49), zone: R.berlin, sent: []).show.isEmpty)
        let plan = planner.plan(events, now: R.t(9, 50), zone: R.berlin, sent: [])
        #expect(plan.show.map(\.body) == ["in 10 min · 10:00–10:15 · Room 4"])
        #expect(plan.record.map(\.key) == ["standup@x||\(R.t(10, 0))|600"])
        let sent = Set(plan.record.map(\.key))
        #expect(planner.plan(events, now: R.t(9, 55), zone: R.berlin, sent: sent).show.isEmpty)
        // Missed and the event has begun: never.
        #expect(planner.plan(events, now: R.t(10, 0), zone: R.berlin, sent: []).show.isEmpty)
        #expect(planner.nextDue(events, after: R.t(9, 0)) == R.t(9, 50))
        #expect(planner.nextDue(events, after: R.t(9, 50)) == nil)
    }

    @Test func aMovedEventRemindsAgainAndAllDayEventsNever() {
        let planner = ReminderPlanner(befores: [600])
        let sent = Set(planner.plan([Self.standup], now: R.t(9, 50), zone: R.berlin, sent: []).record.map(\.key))
        var moved = Self.standup
        moved.start = R.t(10, 30)
        moved.end = R.t(10, 45)
        #expect(planner.plan([moved], now: R.t(10, 20), zone: R.berlin, sent: sent).show.count == 1)
        let holiday = BarEvent(summary: "H", calendar: "h", allDayFrom: CivilDate(year: 2026, month: 12, day: 2),
                               until: CivilDate(year: 2026, month: 12, day: 3))
        #expect(planner.plan([holiday], now: R.t(23, 55), zone: R.berlin, sent: []).show.isEmpty)
    }

    @Test func severalOffsetsDueAtOnceShowTheNearestAndRecordAll() {
        let planner = ReminderPlanner(befores: [3600, 600, 300])
        let plan = planner.plan([Self.standup], now: R.t(9, 50), zone: R.berlin, sent: [])
        #expect(plan.show.map(\.before) == [600])
        #expect(Set(plan.record.map { $0.key.split(separator: "|").last! }) == ["3600", "600"])
        #expect(planner.plan([Self.standup], now: R.t(9, 55), zone: R.berlin, sent: Set(plan.record.map(\.key))).show.map(\.before) == [300])
    }

    @Test func theEventsOwnAlarmsRemindBesidesTheOffsets() {
        let planner = ReminderPlanner(befores: [300])
        let alarms: [String: [Int64]] = ["standup@x": [1800, 300]]
        #expect(planner.nextDue([Self.standup], alarms: alarms, after: R.t(9, 0)) == R.t(9, 30))
        let first = planner.plan([Self.standup], alarms: alarms, now: R.t(9, 30), zone: R.berlin, sent: [])
        #expect(first.show.map(\.body) == ["in 30 min · 10:00–10:15 · Room 4"])
        let sent = Set(first.record.map(\.key))
        #expect(planner.plan([Self.standup], alarms: alarms, now: R.t(9, 40), zone: R.berlin, sent: sent).show.isEmpty)
        // The 5-minute one (both an offset and an alarm) comes once.
        let second = planner.plan([Self.standup], alarms: alarms, now: R.t(9, 55), zone: R.berlin, sent: sent)
        #expect(second.show.map(\.before) == [300])
        #expect(second.record.count == 1)
    }

    @Test func theSentLogSurvivesARestartAndForgetsOldEntries() throws {
        let dir = NSTemporaryDirectory() + "eventd-sent-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var log = SentLog(path: dir + "/state/reminders.json")
        try log.record([("a", 1_000_000), ("b", 2_000_000)], now: 1_000_000)
        #expect(SentLog(path: log.path).sent == ["a", "b"])
        // The file's form, which earlier versions wrote and read (canonical JSON).
        #expect(try String(contentsOfFile: log.path, encoding: .utf8)
                == #"{"sent":[{"key":"a","start":1000000},{"key":"b","start":2000000}]}"# + "\n")
        try log.record([("c", 2_000_000)], now: 1_000_000 + 2 * 86_400)
        #expect(SentLog(path: log.path).sent == ["b", "c"])
        // Garbage on disk reads as empty, not as a crash.
        try "not json".write(toFile: log.path, atomically: true, encoding: .utf8)
        #expect(SentLog(path: log.path).sent.isEmpty)
    }
}
