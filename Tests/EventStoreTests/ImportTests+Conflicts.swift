import Foundation
import Testing
@testable import EventStore
import ICalendar
import TestSupport

/// docs/data-model.md: one UID from two sources (or twice in one file): the higher
/// SEQUENCE wins, then the later LAST-MODIFIED (or DTSTAMP), then the later import.
extension ImportTests {
    func conflict(_ first: [String], _ second: [String], oneRun: Bool) throws -> String? {
        let s = try ScratchStore()
        let a = S.input("first.ics", S.calendar([first]))
        let b = S.input("second.ics", S.calendar([second]))
        if oneRun {
            _ = try s.run([a, b])
        } else {
            _ = try s.run(a, now: 1_790_000_000)
            _ = try s.run(b, now: 1_790_000_100)
        }
        #expect(try s.store.eventCount() == 1)
        return try s.summary("shared@x")
    }

    /// The winner of `a` against `b`, then of `b` against `a`.
    func winners(_ a: [String], _ b: [String], oneRun: Bool) throws -> [String?] {
        [try conflict(a, b, oneRun: oneRun), try conflict(b, a, oneRun: oneRun)]
    }

    func shared(_ summary: String, _ extra: [String], stamp: String = "20260101T000000Z") -> [String] {
        ["UID:shared@x", "DTSTAMP:\(stamp)", "DTSTART:20260601T090000Z", "SUMMARY:\(summary)"] + extra
    }

    @Test(arguments: [false, true]) func higherSequenceWinsInEitherOrder(oneRun: Bool) throws {
        let high = shared("high", ["SEQUENCE:2", "LAST-MODIFIED:20260101T000000Z"])
        let low = shared("low", ["SEQUENCE:1", "LAST-MODIFIED:20260301T000000Z"]) // later, but lower SEQUENCE
        #expect(try winners(high, low, oneRun: oneRun) == ["high", "high"])
    }

    @Test(arguments: [false, true]) func laterLastModifiedWinsOnEqualSequence(oneRun: Bool) throws {
        let later = shared("later", ["SEQUENCE:1", "LAST-MODIFIED:20260301T000000Z"])
        let earlier = shared("earlier", ["SEQUENCE:1", "LAST-MODIFIED:20260201T000000Z"])
        #expect(try winners(later, earlier, oneRun: oneRun) == ["later", "later"])
    }

    @Test(arguments: [false, true]) func dtstampStandsInForLastModified(oneRun: Bool) throws {
        let later = shared("later", [], stamp: "20260301T000000Z")
        let earlier = shared("earlier", [], stamp: "20260201T000000Z")
        #expect(try winners(later, earlier, oneRun: oneRun) == ["later", "later"])
    }

    @Test(arguments: [false, true]) func laterImportWinsOnATie(oneRun: Bool) throws {
        let x = shared("x", ["SEQUENCE:3", "LAST-MODIFIED:20260301T000000Z"])
        let y = shared("y", ["SEQUENCE:3", "LAST-MODIFIED:20260301T000000Z"])
        #expect(try winners(x, y, oneRun: oneRun) == ["y", "x"])
    }

    @Test func conflictRuleAppliesToOverridesToo() throws {
        let s = try ScratchStore()
        let override = { (summary: String, seq: Int) in
            ["UID:m@x", "DTSTAMP:20260101T000000Z", "SEQUENCE:\(seq)", "RECURRENCE-ID:20260603T090000Z",
             "DTSTART:20260603T150000Z", "SUMMARY:\(summary)"]
        }
        _ = try s.run(S.input("a.ics", S.calendar([S.event("m@x", extra: ["RRULE:FREQ=DAILY;COUNT=5"]), override("new", 2)])))
        _ = try s.run(S.input("b.ics", S.calendar([override("old", 1)])))
        #expect(try s.db.scalarText("SELECT summary FROM event WHERE recurrence_id <> ''") == "new")
        #expect(try s.store.eventCount() == 2)
    }

    /// Revisions of one event (different SEQUENCE) in one file: the latest wins.
    @Test func duplicateWithinOneFileFollowsTheConflictRule() throws {
        let s = try ScratchStore()
        let r = try s.run(S.input("a.ics", S.calendar([shared("new", ["SEQUENCE:5"]), shared("old", ["SEQUENCE:4"])])))
        #expect(r.added == 1)
        #expect(try s.summary("shared@x") == "new")
    }

    /// Two VEVENTs of one UID and SEQUENCE in one file that differ are two events (each
    /// under a UID derived from its content, the same on the next import of the file and
    /// in either order); identical copies are one, under the UID as written.
    @Test func copiesWithinOneFileThatDifferAreEachKept() throws {
        let s = try ScratchStore()
        let new = shared("new", ["SEQUENCE:5"]), old = shared("old", ["SEQUENCE:5"])
        let r = try s.run(S.input("a.ics", S.calendar([new, old])))
        #expect(r.added == 2)
        let uids = try s.uids()
        #expect(uids.count == 2 && uids.allSatisfy { $0.hasPrefix("shared@x#") }, "\(uids)")
        let again = try s.run(S.input("a.ics", S.calendar([old, new])))
        #expect(again.added == 0 && again.removed == 0 && again.unchanged == 2, "\(again)")
        #expect(try s.uids() == uids)
        let twin = try ScratchStore()
        #expect(try twin.run(S.input("b.ics", S.calendar([new, new]))).added == 1)
        #expect(try twin.uids() == ["shared@x"])
    }
}
