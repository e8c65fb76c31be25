import Foundation
import Testing
@testable import EventStore
import ICalendar
import TestSupport

/// The stored span of each event (`first_minute`, `last_minute`) that window
/// queries use.
extension ImportTests {
    /// UIDs whose stored span can overlap [from, to) (minutes).
    func candidates(_ s: ScratchStore, _ from: Int64, _ to: Int64) throws -> Set<String> {
        Set(try s.db.statement("SELECT uid FROM event WHERE first_minute < ? AND last_minute > ?")
            .map([.int(to), .int(from)]) { $0.text(0) })
    }

    @Test func windowIndexFindsOpenEndedSeriesAndSkipsOldEvents() throws {
        let s = try ScratchStore()
        _ = try s.run(S.input("w.ics", S.calendar([
            ["UID:daily@x", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Europe/Berlin:20260105T090000", "DURATION:PT30M", "RRULE:FREQ=DAILY"],
            ["UID:old@x", "DTSTAMP:20200101T000000Z", "DTSTART:20200610T090000Z", "DTEND:20200610T100000Z"],
            ["UID:counted@x", "DTSTAMP:20260101T000000Z", "DTSTART:20260601T090000Z", "RRULE:FREQ=WEEKLY;COUNT=10"],
            ["UID:until@x", "DTSTAMP:20260101T000000Z", "DTSTART;VALUE=DATE:20260101", "RRULE:FREQ=YEARLY;UNTIL=20300101"],
            ["UID:floating@x", "DTSTAMP:20260101T000000Z", "DTSTART:20260615T233000"],
        ])))
        let y2035 = try candidates(s, minutes(2035, 6, 1), minutes(2035, 6, 2))
        #expect(y2035 == ["daily@x"])
        let y2026 = try candidates(s, minutes(2026, 6, 1), minutes(2026, 7, 1))
        #expect(y2026.contains("daily@x") && y2026.contains("counted@x") && y2026.contains("floating@x"))
        #expect(!y2026.contains("old@x"))
        #expect(try candidates(s, minutes(2020, 6, 10), minutes(2020, 6, 11)) == ["old@x"])
        #expect(try candidates(s, minutes(2029, 1, 1), minutes(2029, 1, 2)).isSuperset(of: ["daily@x", "until@x"]))
        #expect(!(try candidates(s, minutes(2031, 1, 1), minutes(2031, 1, 2))).contains("until@x"))
        // A floating time can fall on either side of UTC midnight, depending on the view.
        #expect(try candidates(s, minutes(2026, 6, 16), minutes(2026, 6, 17)).contains("floating@x"))

        // Where the store keeps an R*Tree over the spans, it answers the same.
        if try s.db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'event_span'") == 1 {
            let query = "SELECT count(*) FROM event_span WHERE lo < ? AND hi > ?"
            #expect(try s.db.scalarInt(query, [.int(minutes(2035, 6, 2)), .int(minutes(2035, 6, 1))]) == 1)
            let ids = Set(try s.db.statement("SELECT id FROM event_span WHERE lo < ? AND hi > ?")
                .map([.int(minutes(2026, 7, 1)), .int(minutes(2026, 6, 1))]) { $0.int(0) })
            let oldID = try #require(try s.db.scalarInt("SELECT id FROM event WHERE uid = 'old@x'"))
            #expect(!ids.contains(oldID))
        }
        // Where it keeps span classes, each event's class must hold its span.
        if try s.db.scalarInt("SELECT count(*) FROM pragma_table_info('event') WHERE name = 'span_class'") == 1 {
            try s.db.statement("SELECT uid, first_minute, last_minute, span_class FROM event").forEachRow { row in
                #expect(Int(row.int(3)) == SpanClass.of(first: row.int(1), last: row.int(2)), "\(row.text(0))")
            }
            #expect(try s.db.scalarInt("SELECT span_class FROM event WHERE uid = 'daily@x'") == Int64(SpanClass.open))
        }
    }

    @Test func updatingAnEventMovesItsSpan() throws {
        let s = try ScratchStore()
        _ = try s.run(S.input("a.ics", S.calendar([["UID:e@x", "DTSTAMP:20260101T000000Z", "DTSTART:20200101T090000Z"]])))
        #expect(try candidates(s, minutes(2020, 1, 1), minutes(2020, 1, 2)) == ["e@x"])
        _ = try s.run(S.input("a.ics", S.calendar([["UID:e@x", "DTSTAMP:20260101T000000Z", "DTSTART:20300101T090000Z"]])))
        #expect(try candidates(s, minutes(2020, 1, 1), minutes(2020, 1, 2)).isEmpty)
        #expect(try candidates(s, minutes(2030, 1, 1), minutes(2030, 1, 2)) == ["e@x"])
        if try s.db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'event_span'") == 1 {
            #expect(try s.db.scalarInt("SELECT count(*) FROM event_span WHERE lo < ? AND hi > ?",
                                       [.int(minutes(2020, 1, 2)), .int(minutes(2020, 1, 1))]) == 0)
        }
    }
}
