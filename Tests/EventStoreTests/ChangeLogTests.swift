import Foundation
import Testing
@testable import EventStore
import TestSupport

/// The series change log (`ChangeLog`): its triggers record every writer's changes in
/// the writer's transaction, readers get exactly the series changed since their
/// position, and the log stays bounded.
@Suite struct ChangeLogTests {
    func changed(_ s: ScratchStore, since old: ChangeLogPosition) throws -> Set<SeriesName>? {
        try s.store.read { try s.store.changedSeries(since: old, upTo: try #require(try s.store.changeLogPosition())) }
    }

    func position(_ s: ScratchStore) throws -> ChangeLogPosition { try #require(try s.store.changeLogPosition()) }

    @Test func importsLogTheSeriesTheyChangeAndNothingElse() throws {
        let s = try ScratchStore()
        let start = try position(s)
        try s.run(StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a"), StoreICS.event("b"), StoreICS.event("c")])))
        #expect(try changed(s, since: start) == [SeriesName(calendar: "work", uid: "a"), SeriesName(calendar: "work", uid: "b"),
                                                  SeriesName(calendar: "work", uid: "c")])
        // The same file again: nothing written, nothing logged.
        let afterFirst = try position(s)
        try s.run(StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a"), StoreICS.event("b"), StoreICS.event("c")])))
        #expect(try changed(s, since: afterFirst) == [])
        // One summary changed, one event gone: those two.
        try s.run(StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a", summary: "new"), StoreICS.event("b")])))
        #expect(try changed(s, since: afterFirst) == [SeriesName(calendar: "work", uid: "a"), SeriesName(calendar: "work", uid: "c")])
    }

    @Test func aRolledBackWriteLogsNothing() throws {
        let s = try ScratchStore()
        try s.run(StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a")])))
        let before = try position(s)
        let count = try s.store.changeLogCount()
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try s.db.inTransaction {
                try s.db.execute("DELETE FROM event")
                throw Abort()
            }
        }
        #expect(try position(s) == before)
        #expect(try s.store.changeLogCount() == count)
    }

    @Test func removingACalendarCannotBeToldSeriesBySeries() throws {
        let s = try ScratchStore()
        try s.run(StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a")])))
        try s.run(StoreICS.input("h.ics", StoreICS.calendar([StoreICS.event("h")]), calendar: "home"))
        let before = try position(s)
        try s.store.removeCalendar("home")
        #expect(try changed(s, since: before) == nil)
        // Later changes are told again from a position after the removal.
        let after = try position(s)
        try s.run(StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a", summary: "x")])))
        #expect(try changed(s, since: after) == [SeriesName(calendar: "work", uid: "a")])
    }

    @Test func anotherFilesLogOrAPositionAheadCannotBeTold() throws {
        let s = try ScratchStore(), t = try ScratchStore()
        try s.run(StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a")])))
        try t.run(StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a")])))
        let mine = try position(s), theirs = try position(t)
        #expect(mine.log != theirs.log)
        #expect(try t.store.changedSeries(since: mine, upTo: theirs) == nil)
        let ahead = ChangeLogPosition(log: mine.log, serial: mine.serial + 5)
        #expect(try s.store.changedSeries(since: ahead, upTo: mine) == nil)
    }

    @Test func prunedEntriesCannotBeToldAndTheLogStaysBounded() throws {
        let s = try ScratchStore()
        let start = try position(s)
        try s.run(StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a")])))
        let middle = try position(s)
        try s.run(StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a", summary: "b")])))
        try s.store.pruneChangeLog(keeping: 1)
        #expect(try changed(s, since: start) == nil)
        #expect(try changed(s, since: middle) == [SeriesName(calendar: "work", uid: "a")])
        // The triggers prune: one import of more events than the capacity leaves at most
        // capacity + pruneEvery entries, and a reader from before it falls back.
        let before = try position(s)
        let many = (0..<(ChangeLog.defaultCapacity + 2 * ChangeLog.pruneEvery)).map { StoreICS.event("m\($0)", day: 1 + $0 % 28) }
        try s.run(StoreICS.input("many.ics", StoreICS.calendar(many)))
        #expect(try s.store.changeLogCount() <= ChangeLog.defaultCapacity + ChangeLog.pruneEvery)
        #expect(try changed(s, since: before) == nil)
        let now = try position(s)
        try s.run(StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("a", summary: "c")])))
        #expect(try changed(s, since: now) == [SeriesName(calendar: "work", uid: "a")])
    }
}
