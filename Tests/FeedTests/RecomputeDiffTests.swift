import Testing
import Agenda
import EventStore
import ICalendar
import TestSupport
@testable import Feed
import FeedProtocol

/// The recompute thread's diff after an incremental build (only the changed sections
/// diffed) must be the whole diff, byte for byte on the wire, on random edit sequences.
@Suite struct RecomputeDiffTests {
    @Test(arguments: [UInt64(11), 12, 13])
    func restrictedDiffMessagesEqualWholeDiffMessages(seed: UInt64) throws {
        let s = try ScratchStore()
        let engine = SnapshotEngine()
        var calendar = RandomAgendaEdits(seed: seed, base: (2026, 11, 26))
        let views = [View(timeZone: "Europe/Berlin", from: CivilDate(year: 2026, month: 11, day: 27), days: 9),
                     View(timeZone: "America/New_York", from: nil, pastDays: 1, days: 5, emptyDays: .placeholder)]
        let now = CivilDateTime(date: CivilDate(year: 2026, month: 11, day: 29), hour: 12).secondsAsIfUTC
        var previous: [View: AgendaSnapshot] = [:]
        var restricted = 0
        for round in 0..<40 {
            calendar.edit(1 + round % 3)
            _ = try s.store.importCalendars([ImportInput(path: "/t/random.ics", displayName: "random.ics",
                                                         bytes: Array(icsCalendar(events: calendar.events).utf8), calendar: "work")])
            for view in views {
                let new = try engine.build(view, store: s.store, now: now)
                if let old = previous[view], let change = engine.lastChange {
                    #expect(change.baseDigest == old.digest)
                    let diff = try RecomputeWorker.diff(from: old, to: new, change: change)
                    let whole = FeedDiff(from: try old.feedSnapshot, to: try new.feedSnapshot)
                    #expect(diff == whole, "round \(round)")
                    #expect(Messages.diff(epoch: "e", seq: 2, new: new, changes: diff)
                            == Messages.diff(epoch: "e", seq: 2, new: new, changes: whole))
                    if !change.sectionIDs.isEmpty { restricted += 1 }
                }
                previous[view] = new
            }
        }
        #expect(restricted > 20)
    }
}
