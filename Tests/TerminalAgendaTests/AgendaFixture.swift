import CanonicalJSON
import FeedProtocol
import ICalendar
@testable import TerminalAgenda

/// Feed items and local copies for the layout, animator and key tests: a fixed "now"
/// (Sunday 29 November 2026, 12:00 UTC), never the machine's clock.
enum AgendaFixture {
    static let now: Int64 = 1_795_953_600 // 2026-11-29T12:00:00Z

    static func event(_ id: String, _ date: String, _ from: String, _ to: String, _ summary: String,
                      calendar: String = "work", location: String? = nil) -> JSONValue {
        .object(["all_day": false, "calendar": .string(calendar), "continues_from_previous_day": false,
                 "continues_to_next_day": false, "end": .string("\(date)T\(to):00Z"), "id": .string(id), "kind": "event",
                 "location": location.map { .string($0) } ?? .null, "recurrence_id": .null,
                 "start": .string("\(date)T\(from):00Z"), "status": .null, "summary": .string(summary), "uid": .string(id + "@test")])
    }

    static func allDay(_ id: String, _ start: String, _ end: String, _ summary: String, calendar: String = "home",
                       from: Bool = false, to: Bool = false) -> JSONValue {
        .object(["all_day": true, "calendar": .string(calendar), "continues_from_previous_day": .bool(from),
                 "continues_to_next_day": .bool(to), "end": .string(end), "id": .string(id), "kind": "event",
                 "location": .null, "recurrence_id": .null, "start": .string(start), "status": .null,
                 "summary": .string(summary), "uid": .string(id + "@test")])
    }

    static func section(_ date: String, _ label: String?, _ items: [JSONValue]) -> JSONValue {
        .object(["date": .string(date), "id": .string(date), "label": label.map { .string($0) } ?? .null, "items": .array(items)])
    }

    static func model(_ sections: [JSONValue]) -> FeedClientState.Model {
        let snapshot = try! FeedMessage.Snapshot(digest: "", epoch: "e", sectionObjects: sections, seq: 1, view: ["tz": "UTC", "days": 14])
        return try! FeedClientState(snapshot: snapshot).model
    }

    /// Today with a past, a running and a coming event, tomorrow, a later weekday and a
    /// date past the week.
    static var week: FeedClientState.Model {
        model([
            section("2026-11-29", "today", [
                allDay("fest", "2026-11-28", "2026-12-01", "Festival", from: true, to: true),
                event("past", "2026-11-29", "09:00", "10:00", "Breakfast"),
                event("run", "2026-11-29", "11:30", "12:30", "Standup", location: "Room 4"),
                event("next", "2026-11-29", "15:00", "16:00", "Review"),
            ]),
            section("2026-11-30", "tomorrow", [event("tue", "2026-11-30", "10:00", "11:00", "Planning")]),
            section("2026-12-02", nil, [event("wed", "2026-12-02", "10:00", "11:00", "会議 with 😀 team")]),
            section("2026-12-08", nil, [event("later", "2026-12-08", "10:00", "11:00", "Dentist", calendar: "home")]),
        ])
    }

    static var layout: AgendaLayout { AgendaLayout(now: now, zone: .utc) }
}
