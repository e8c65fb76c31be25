import Foundation
import Testing
@testable import Agenda
import EventStore
import ICalendar
import TestSupport

/// `SnapshotEngine` reuses expansions of unchanged series: whatever it caches, its
/// snapshots must equal a fresh `SnapshotBuilder.build` of the same store.
@Suite struct SnapshotEngineTests {
    static let version1: [[String]] = [
        ICS.berlin("keep", "20261129T100000", "20261129T110000", summary: "Keep"),
        ICS.berlin("modify", "20261130T100000", "20261130T110000", summary: "Before"),
        ICS.berlin("delete", "20261201T100000", "20261201T110000", summary: "Delete me"),
        ICS.berlin("series", "20261127T090000", "20261127T093000", summary: "Series", "RRULE:FREQ=DAILY;COUNT=12"),
        ICS.allDay("trip", "20261129", "20261203", summary: "Trip"),
        ICS.event("float", "DTSTART:20261130T230000", "DTEND:20261201T010000", "SUMMARY:Float"),
    ]

    static let version2: [[String]] = [
        ICS.berlin("keep", "20261129T100000", "20261129T110000", summary: "Keep"),
        ICS.berlin("modify", "20261202T140000", "20261202T150000", summary: "After", "LOCATION:Elsewhere"),
        ICS.berlin("series", "20261127T090000", "20261127T093000", summary: "Series", "RRULE:FREQ=DAILY;COUNT=12"),
        ICS.event("series", "RECURRENCE-ID;TZID=Europe/Berlin:20261201T090000", "DTSTART;TZID=Europe/Berlin:20261203T160000",
                  "DTEND;TZID=Europe/Berlin:20261203T170000", "SUMMARY:Series (moved)"),
        ICS.allDay("trip", "20261129", "20261203", summary: "Trip"),
        ICS.event("float", "DTSTART:20261130T230000", "DTEND:20261201T010000", "SUMMARY:Float"),
        ICS.berlin("added", "20261201T120000", "20261201T130000", summary: "Added"),
    ]

    static let views: [View] = [
        Fixture.view(),
        Fixture.view(Fixture.newYork, emptyDays: .placeholder),
        Fixture.view(from: nil, pastDays: 1, days: 5),
        Fixture.view("Asia/Tokyo", from: "2026-11-30", days: 2, calendars: ["work"]),
    ]

    /// Builds `view` with `engine` and fresh, and checks they agree.
    @discardableResult
    func check(_ engine: SnapshotEngine, _ view: View, _ s: ScratchStore, now: Int64 = Fixture.now,
               sourceLocation: SourceLocation = #_sourceLocation) throws -> AgendaSnapshot {
        let cached = try engine.build(view, store: s.store, now: now)
        let fresh = try SnapshotBuilder.build(view, store: s.store, now: now)
        let equal = cached == fresh
        #expect(equal, "engine and fresh build differ for \(view.json.canonicalString())\ncached: \(cached.sectionsText)\nfresh:  \(fresh.sectionsText)",
                sourceLocation: sourceLocation)
        #expect(cached.digest == fresh.digest, sourceLocation: sourceLocation)
        return cached
    }

    /// A view nobody watches any more leaves no memo behind, and builds afresh after.
    @Test func aForgottenViewKeepsNoMemoAndRebuildsTheSame() throws {
        let s = try ScratchStore()
        try s.load(Self.version1)
        let engine = SnapshotEngine()
        for view in Self.views { try check(engine, view, s) }
        #expect(engine.memos.count == Self.views.count)
        engine.forget(Self.views[1])
        #expect(engine.memos[Self.views[1]] == nil)
        #expect(engine.memos.count == Self.views.count - 1)
        try check(engine, Self.views[1], s)
        #expect(engine.memos[Self.views[1]] != nil)
        #expect(!engine.cache.isEmpty)
        for view in Self.views { engine.forget(view) }
        #expect(engine.memos.isEmpty)
        #expect(engine.cache.isEmpty)
    }

    @Test func modifyDeleteAddAgreesWithAFreshBuild() throws {
        let s = try ScratchStore()
        try s.load(Self.version1)
        let engine = SnapshotEngine()
        var before: [AgendaSnapshot] = []
        for view in Self.views { before.append(try check(engine, view, s)) }
        // Second build of unchanged data: everything reused.
        try check(engine, Self.views[0], s)
        #expect(engine.lastExpanded == 0)
        #expect(engine.lastReused > 0)

        let result = try s.load(Self.version2)
        #expect((result.added, result.updated, result.removed) == (2, 1, 1))
        for (i, view) in Self.views.enumerated() {
            let after = try check(engine, view, s)
            #expect(after.digest != before[i].digest)
        }
        let first = try check(engine, Self.views[0], s)
        #expect(first.items(uid: "modify").map(\.date) == ["2026-12-02"])
        #expect(first.items(uid: "modify").first?.item.string("summary") == "After")
        #expect(first.items(uid: "delete").isEmpty)
        #expect(first.items(uid: "added").map(\.date) == ["2026-12-01"])
        #expect(first.items(uid: "series").contains { $0.date == "2026-12-03" && $0.item.string("summary") == "Series (moved)" })
        #expect(!first.items(uid: "series").contains { $0.date == "2026-12-01" })

        // The whole history leads to the same snapshot as importing version 2 directly.
        let direct = try ScratchStore()
        try direct.load(Self.version2)
        for view in Self.views {
            let a = try engine.build(view, store: s.store, now: Fixture.now)
            let b = try SnapshotBuilder.build(view, store: direct.store, now: Fixture.now)
            #expect(a.sectionsJSON == b.sectionsJSON)
        }
    }

    @Test func onlyChangedSeriesAreExpandedAgain() throws {
        let s = try ScratchStore()
        try s.load(Self.version1)
        let engine = SnapshotEngine()
        let view = Fixture.view()
        try check(engine, view, s)
        let total = engine.lastExpanded
        #expect(total == Self.version1.count)
        try s.load(Self.version1.map { $0.first == "UID:keep" ? ICS.berlin("keep", "20261129T100000", "20261129T110000", summary: "Kept") : $0 })
        let after = try check(engine, view, s)
        #expect(engine.lastExpanded == 1)
        #expect(engine.lastReused == total - 1)
        #expect(after.items(uid: "keep").first?.item.string("summary") == "Kept")
    }

    @Test func clockAndViewChangesWithOneEngine() throws {
        let s = try ScratchStore()
        try s.load(Self.version1)
        let engine = SnapshotEngine()
        // The window slides at midnight in each zone; labels follow the clock.
        var now = utc(2026, 11, 28, 20)
        while now < utc(2026, 12, 3) {
            for view in Self.views + [Fixture.view(from: nil, days: 3, emptyDays: .placeholder),
                                      Fixture.view("Pacific/Auckland", from: nil, days: 2)] {
                try check(engine, view, s, now: now)
            }
            now += 5 * 3600 + 17 * 60
        }
    }

    @Test func manyGenerationsOfChanges() throws {
        let s = try ScratchStore()
        let engine = SnapshotEngine()
        var rng = SeededRandom(seed: 7)
        // 40 rounds (past the engine's eviction period), each changing a few events.
        var events: [String: [String]] = [:]
        for round in 0..<40 {
            for _ in 0..<3 {
                let uid = "e\(rng.below(12))"
                switch rng.below(4) {
                case 0: events[uid] = nil
                default:
                    let start = CivilDateTime(date: CivilDate(year: 2026, month: 11, day: 26).adding(days: rng.below(10)),
                                              hour: 6 + rng.below(18), minute: 15 * rng.below(4))
                    let end = CivilDateTime(secondsAsIfUTC: start.secondsAsIfUTC + Int64(rng.below(48 * 4)) * 900)
                    var lines = ["UID:\(uid)", "DTSTAMP:20260101T000000Z", "SUMMARY:\(uid) r\(round)"]
                    switch rng.below(4) {
                    case 0: lines += ["DTSTART:\(start.basic)", "DTEND:\(end.basic)"] // floating
                    case 1: lines += ["DTSTART;VALUE=DATE:\(start.date.basic)", "DTEND;VALUE=DATE:\(end.date.adding(days: 1).basic)"]
                    default: lines += ["DTSTART;TZID=Europe/Berlin:\(start.basic)", "DTEND;TZID=Europe/Berlin:\(end.basic)"]
                    }
                    if rng.below(3) == 0 { lines.append("RRULE:FREQ=DAILY;COUNT=\(1 + rng.below(5))") }
                    switch rng.below(8) {
                    case 0, 1: lines.append("STATUS:TENTATIVE")
                    case 2: lines.append("STATUS:CANCELLED")
                    default: break
                    }
                    events[uid] = lines
                }
            }
            try s.load(events.keys.sorted().map { events[$0]! })
            for view in Self.views { try check(engine, view, s) }
        }
    }

    @Test func tinyCapacityAndReset() throws {
        let s = try ScratchStore()
        try s.load(Self.version1)
        let engine = SnapshotEngine()
        engine.capacity = 1
        for view in Self.views { try check(engine, view, s) }
        try s.load(Self.version2)
        for view in Self.views { try check(engine, view, s) }
        engine.reset()
        for view in Self.views { try check(engine, view, s) }
        #expect(engine.lastReused == 0)
    }

    @Test func overrideOutsideTheWindowInvalidatesTheSeries() throws {
        let s = try ScratchStore()
        let series = ICS.berlin("s", "20261101T090000", "20261101T100000", "RRULE:FREQ=WEEKLY;COUNT=10")
        try s.load([series])
        let engine = SnapshotEngine()
        let view = Fixture.view() // Nov 28 ..< Dec 5: one instance, Sunday Nov 29
        let a = try check(engine, view, s)
        #expect(a.items(uid: "s").map(\.date) == ["2026-11-29"])
        // An override of the Nov 1 instance (outside the window) moves it into the window.
        try s.load([series, ICS.event("s", "RECURRENCE-ID;TZID=Europe/Berlin:20261101T090000",
                                      "DTSTART;TZID=Europe/Berlin:20261202T090000", "DTEND;TZID=Europe/Berlin:20261202T100000")])
        let b = try check(engine, view, s)
        #expect(b.items(uid: "s").map(\.date) == ["2026-11-29", "2026-12-02"])
        // A THISANDFUTURE override outside the window shifts the instance inside it.
        try s.load([series, ICS.event("s", "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20261122T090000",
                                      "DTSTART;TZID=Europe/Berlin:20261123T090000", "DTEND;TZID=Europe/Berlin:20261123T100000")])
        let c = try check(engine, view, s)
        #expect(c.items(uid: "s").map(\.date) == ["2026-11-30"])
    }

    @Test func removedCalendarAndOtherStores() throws {
        let s = try ScratchStore()
        try s.load(Self.version1, calendar: "work")
        try s.load(Self.version1, calendar: "home")
        let engine = SnapshotEngine()
        for view in Self.views { try check(engine, view, s) }
        #expect(try s.store.removeCalendar("home") == Self.version1.count)
        for view in Self.views { try check(engine, view, s) }
    }

    /// Row ids are reused by SQLite once the highest rows are deleted: the same text
    /// imported into another calendar can come back with the same row ids and content
    /// hashes. The engine must not serve the old calendar's items for it.
    @Test func sameRowsInAnotherCalendar() throws {
        let s = try ScratchStore()
        try s.load(Self.version1, calendar: "work")
        let engine = SnapshotEngine()
        let view = Fixture.view()
        let a = try check(engine, view, s)
        #expect(Set(a.allItems.compactMap { $0.string("calendar") }) == ["work"])
        try s.store.removeCalendar("work")
        try check(engine, view, s)
        try s.load(Self.version1, calendar: "home")
        let b = try check(engine, view, s)
        // The work calendar's expansions are still cached under the same keys (row ids
        // and hashes); their series' hash tells them apart.
        #expect(engine.lastReused == 0 && engine.lastExpanded > 0)
        #expect(MemoryLayout<SnapshotEngine.Key>.stride == 24)
        #expect(Set(b.allItems.compactMap { $0.string("calendar") }) == ["home"])
        // Different calendar: different ids.
        #expect(Set(a.allItems.map(\.id)).isDisjoint(with: b.allItems.map(\.id)))
    }

    @Test func storeReopenedByAnotherConnection() throws {
        let s = try ScratchStore()
        try s.load(Self.version1)
        let engine = SnapshotEngine()
        for view in Self.views { try check(engine, view, s) }
        // A second connection (another process, as `eventctl import` would be) changes the data.
        let other = try EventStore(path: s.path)
        _ = try other.importCalendars([ImportInput(path: "/t/work.ics", displayName: "work.ics",
                                                   bytes: Array(ICS.calendar(Self.version2).utf8), calendar: "work")])
        for view in Self.views { try check(engine, view, s) }
        let snapshot = try engine.build(Self.views[0], store: s.store, now: Fixture.now)
        #expect(snapshot.items(uid: "added").count == 1)
    }
}

