import Foundation
import Testing
@testable import Agenda
import EventStore
import ICalendar
import SectionedDiff
import Digests
import TestSupport

/// The incremental recompute (`SnapshotEngine` starting from a view's last build) must
/// give exactly the whole rebuild's snapshot, and its restricted diff exactly the whole
/// diff, on random edit sequences: adds, deletes, moves across dates, recurrence changes,
/// overrides, zone changes, and windows that move at midnight.
@Suite struct IncrementalRecomputeTests {
    /// Each window twice: with protocol 1's whole digest and protocol 2's section digests.
    static let views: [View] = [
        Fixture.view(from: "2026-11-28", days: 10),
        Fixture.view(Fixture.newYork, from: "2026-11-30", days: 5, emptyDays: .placeholder),
        Fixture.view("Asia/Tokyo", from: nil, pastDays: 1, days: 4),
        Fixture.view(from: nil, days: 3, emptyDays: .placeholder),
    ].flatMap { view in
        View.DigestVersion.allCases.map { version in
            var v = view
            v.digestVersion = version
            return v
        }
    }

    /// Builds every view incrementally and whole, compares them, and checks the change
    /// the engine reports against the previous snapshot of the view.
    func checkAll(_ engine: SnapshotEngine, _ s: ScratchStore, now: Int64, previous: inout [View: AgendaSnapshot],
                  round: Int, edits: [String], observe: (SnapshotEngine) -> Void = { _ in }) throws -> Int {
        var incremental = 0
        for view in Self.views {
            let built = try engine.build(view, store: s.store, now: now)
            let change = engine.lastChange
            observe(engine)
            let whole = try SnapshotBuilder.build(view, store: s.store, now: now)
            #expect(built == whole, "round \(round) \(edits) view \(view.json.canonicalString())\nincremental: \(built.sectionsText)\nwhole:       \(whole.sectionsText)")
            #expect(built.digest == whole.digest)
            // The kept counts and digests are those of the sections taken whole.
            #expect(built.itemCount == whole.sections.reduce(0) { $0 + $1.items.count })
            #expect(built.sectionsSize == AgendaSnapshot.encodedSize(of: whole.sections))
            switch view.digestVersion {
            case .whole: #expect(built.digest == SHA256.hexDigest(whole.sectionsJSON))
            case .sections:
                let parts = whole.sections.map { SHA256.hexDigest($0.json) }.joined()
                #expect(built.digest == SHA256.hexDigest(Array(parts.utf8)))
            }
            if let change, let old = previous[view] {
                incremental += 1
                try #require(change.baseDigest == old.digest)
                // Every section outside the change is the previous one, unchanged.
                let before = Dictionary(uniqueKeysWithValues: old.sections.map { ($0.id, $0) })
                let after = Dictionary(uniqueKeysWithValues: built.sections.map { ($0.id, $0) })
                for id in Set(before.keys).union(after.keys) where !change.sectionIDs.contains(id) {
                    #expect(before[id] == after[id], "round \(round): section \(id) changed outside the change")
                }
                let full = AgendaDiff(from: try diffable(old), to: try diffable(built))
                let restricted = try AgendaDiff.restricted(
                    old: old.sections.map(\.id), new: built.sections.map(\.id), changed: change.sectionIDs,
                    oldSection: { try! diffable(old).sections[$0] }, newSection: { try! diffable(built).sections[$0] })
                #expect(restricted == full, "round \(round) \(edits): restricted diff differs")
            }
            previous[view] = built
        }
        return incremental
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func incrementalEqualsWholeRebuild(seed: UInt64) throws {
        let s = try ScratchStore()
        let engine = SnapshotEngine()
        // With odd seeds every build here hashes on another thread while it sorts and
        // copies (`ViewMemo.finish`), with even seeds every build hashes inline. The
        // change log test below takes the default.
        engine.hashedElsewhereItems = seed % 2 == 1 ? 0 : .max
        var calendar = RandomAgendaEdits(seed: seed, base: (2026, 11, 25))
        var previous: [View: AgendaSnapshot] = [:]
        // From 20:00 UTC: the views' midnights (Tokyo, Berlin, New York) pass during the run.
        var now = utc(2026, 11, 28, 20)
        var incremental = 0
        for round in 0..<60 {
            let edits = calendar.edit(1 + Int(seed + UInt64(round)) % 3)
            try s.load(calendar.events)
            // Now and then the clock moves, across a midnight in some zone.
            if round % 7 == 6 { now += 3 * 3600 + 1234 }
            incremental += try checkAll(engine, s, now: now, previous: &previous, round: round, edits: edits)
        }
        // Most builds started from the last one (not a whole rebuild each time).
        #expect(incremental > 60 * Self.views.count / 2)
    }

    /// The same property through the change log (the engine asks the store which series
    /// changed since each view's last build), with two calendars, deletes, a calendar
    /// removed and added again (`eventctl remove`), a pruned log and a replaced database
    /// file: the last three make the engine fall back to comparing every fingerprint.
    @Test(arguments: [UInt64(5), 6, 7])
    func changeLogPathEqualsWholeRebuild(seed: UInt64) throws {
        var s = try ScratchStore()
        let engine = SnapshotEngine()
        var work = RandomAgendaEdits(seed: seed, base: (2026, 11, 25))
        var home = RandomAgendaEdits(seed: seed &+ 100, base: (2026, 11, 26))
        var homeRemoved = false
        var previous: [View: AgendaSnapshot] = [:]
        var now = utc(2026, 11, 28, 20)
        var throughLog = 0, fallbacks = 0
        for round in 0..<60 {
            var edits = work.edit(1 + Int(seed + UInt64(round)) % 3)
            edits += home.edit(round % 2)
            try s.load(work.events, calendar: "work")
            if round % 11 == 5 {
                try s.store.removeCalendar("home")
                homeRemoved = true
                edits.append("remove home")
            } else {
                try s.load(home.events, calendar: "home")
                homeRemoved = false
            }
            if round % 13 == 7 {
                try s.store.pruneChangeLog(keeping: 0)
                edits.append("prune")
            }
            if round == 30 {
                // Another file with the same events at the path (reopened, engine kept).
                let replacement = try ScratchStore()
                try replacement.load(work.events, calendar: "work")
                if !homeRemoved { try replacement.load(home.events, calendar: "home") }
                s = replacement
                edits.append("replaced file")
            }
            if round % 7 == 6 { now += 3 * 3600 + 1234 }
            _ = try checkAll(engine, s, now: now, previous: &previous, round: round, edits: edits) { engine in
                guard engine.lastChange != nil else { return }
                if engine.lastUsedChangeLog { throughLog += 1 } else { fallbacks += 1 }
            }
        }
        // Most builds went through the log; the removals, prunes and the replaced file
        // made some compare fingerprints instead.
        #expect(throughLog > 60 * Self.views.count / 3)
        #expect(fallbacks > 0)
    }

    @Test func unchangedStoreReusesTheSnapshot() throws {
        let s = try ScratchStore()
        var calendar = RandomAgendaEdits(seed: 9, base: (2026, 11, 26))
        calendar.edit(20)
        try s.load(calendar.events)
        let engine = SnapshotEngine()
        let view = Self.views[0]
        let first = try engine.build(view, store: s.store, now: Fixture.now)
        #expect(engine.lastChange == nil)
        let second = try engine.build(view, store: s.store, now: Fixture.now)
        #expect(second == first)
        #expect(engine.lastChange == SnapshotChange(baseDigest: first.digest, sectionIDs: []))
        #expect(engine.lastExpanded == 0)
    }

    @Test func oneMovedEventTouchesOnlyItsDates() throws {
        let s = try ScratchStore()
        let others = (0..<8).map { ICS.berlin("o\($0)", "2026112\($0 % 8 + 1)T100000", "2026112\($0 % 8 + 1)T110000") }
        try s.load(others + [ICS.berlin("moving", "20261129T090000", "20261129T100000")])
        let engine = SnapshotEngine()
        let view = Fixture.view(from: "2026-11-21", days: 14)
        let before = try engine.build(view, store: s.store, now: Fixture.now)
        try s.load(others + [ICS.berlin("moving", "20261202T090000", "20261202T100000")])
        let after = try engine.build(view, store: s.store, now: Fixture.now)
        #expect(engine.lastExpanded == 1)
        #expect(engine.lastChange == SnapshotChange(baseDigest: before.digest, sectionIDs: ["2026-11-29", "2026-12-02"]))
        #expect(after == (try s.build(view)))
    }

    /// An event moved from the 22nd to the 24th among eight dates with events: protocol
    /// 2's digest hashes those two sections, protocol 1's every one from the 22nd on.
    @Test(arguments: zip(View.DigestVersion.allCases, [7, 2]))
    func protocolTwoHashesOnlyTheSectionsMadeAgain(version: View.DigestVersion, hashed: Int) throws {
        let s = try ScratchStore()
        let others = (0..<8).map { ICS.berlin("o\($0)", "2026112\($0 % 8 + 1)T100000", "2026112\($0 % 8 + 1)T110000") }
        try s.load(others + [ICS.berlin("moving", "20261122T090000", "20261122T100000")])
        let engine = SnapshotEngine()
        var view = Fixture.view(from: "2026-11-21", days: 14)
        view.digestVersion = version
        _ = try engine.build(view, store: s.store, now: Fixture.now)
        #expect(engine.lastHashedSections == 8)
        try s.load(others + [ICS.berlin("moving", "20261124T090000", "20261124T100000")])
        let after = try engine.build(view, store: s.store, now: Fixture.now)
        #expect(engine.lastChange?.sectionIDs == ["2026-11-22", "2026-11-24"])
        #expect(engine.lastHashedSections == hashed)
        #expect(after == (try s.build(view)))
    }
}
