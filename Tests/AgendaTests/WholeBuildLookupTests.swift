import Testing
@testable import Agenda
import EventStore
import ICalendar
import TestSupport

/// A whole build of many series looks up their remembered items on another thread while
/// this one adds them (`SnapshotEngine+Lookup`): its snapshots must be those of a fresh
/// build, with remembered and changed series mixed, and its item limit must hold.
@Suite struct WholeBuildLookupTests {
    /// `count` events over the first days of December; every `every`th has `tag` in its summary.
    static func events(_ count: Int, prefix: String = "e", tag: String = "", every: Int = 1) -> [[String]] {
        (0..<count).map { n in
            let day = 1 + n % 6, hour = 8 + n % 10
            let summary = n % every == 0 ? "\(prefix)\(n)\(tag)" : "\(prefix)\(n)"
            var lines = ICS.berlin("\(prefix)\(n)", String(format: "202612%02dT%02d0000", day, hour),
                                   String(format: "202612%02dT%02d3000", day, hour), summary: summary)
            if n % 5 == 0 { lines.append("RRULE:FREQ=DAILY;COUNT=\(2 + n % 4)") }
            return lines
        }
    }

    @Test func lookupsOnAnotherThreadAgreeWithAFreshBuild() throws {
        let s = try ScratchStore()
        let engine = SnapshotEngine()
        engine.incremental = false
        engine.lookedUpElsewhereSeries = 0
        let views = [Fixture.view(from: "2026-11-30", days: 8), Fixture.view(Fixture.newYork, from: "2026-12-01", days: 3)]
        // Rounds of edits to every third, seventh, ... event: the builds find most
        // series remembered and some not, in chunks of the hand-over's size and across
        // them (an event untagged in two rounds in a row is the same both times).
        for (round, every) in [1000, 3, 7, 2, 1].enumerated() {
            try s.load(Self.events(700, tag: " r\(round)", every: every))
            for view in views {
                let built = try engine.build(view, store: s.store, now: Fixture.now)
                let fresh = try SnapshotBuilder.build(view, store: s.store, now: Fixture.now)
                #expect(built.digest == fresh.digest, "round \(round)")
                let same = built == fresh
                #expect(same, "round \(round)")
                if round > 0, every > 1 { #expect(engine.lastReused > 0 && engine.lastExpanded > 0, "round \(round)") }
            }
        }
    }

    @Test func rememberedItemsOverTheLimitAreRefused() throws {
        let s = try ScratchStore()
        try s.load(Self.events(300, prefix: "w"), calendar: "work")
        try s.load(Self.events(300, prefix: "h"), calendar: "home")
        let engine = SnapshotEngine()
        engine.lookedUpElsewhereSeries = 0
        // Each calendar alone fits; both, every series remembered from those builds, do not.
        let work = try engine.build(Fixture.view(from: "2026-11-30", days: 8, calendars: ["work"]), store: s.store, now: Fixture.now)
        _ = try engine.build(Fixture.view(from: "2026-11-30", days: 8, calendars: ["home"]), store: s.store, now: Fixture.now)
        let items = work.sections.reduce(0) { $0 + $1.items.count }
        engine.itemLimit = items + items / 2
        let both = Fixture.view(from: "2026-11-30", days: 8, calendars: ["home", "work"])
        #expect(throws: ViewError.self) { _ = try engine.build(both, store: s.store, now: Fixture.now) }
        #expect(engine.lastExpanded == 0, "refused from remembered items")
        // Nothing of the refused build is kept: the same build refuses again, expanding.
        #expect(throws: ViewError.self) { _ = try engine.build(both, store: s.store, now: Fixture.now) }
        #expect(engine.lastExpanded > 0)
    }
}
