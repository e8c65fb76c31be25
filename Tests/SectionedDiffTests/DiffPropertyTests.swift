import Testing
@testable import SectionedDiff
import TestSupport

// MARK: - DiffPropertyTests

/// Thousands of random snapshot pairs (deterministic seeds): the diff always turns the
/// base into the new snapshot, under the library's application and under a literal
/// transcription of the reference application of docs/protocol.md, and obeys the index rules with the
/// fewest moves.
@Suite("Diff properties")
struct DiffPropertyTests {

    /// Checks one pair and returns the diff. `literal` also runs the quadratic reference.
    @discardableResult
    func check(_ old: TestSnapshot, _ new: TestSnapshot, literal: Bool = true,
               sourceLocation: SourceLocation = #_sourceLocation) throws -> TestDiff {
        let diff = TestDiff(from: old, to: new)
        #expect(try diff.apply(to: old) == new, sourceLocation: sourceLocation)
        if literal { #expect(try referenceApply(diff, to: old) == new, sourceLocation: sourceLocation) }
        let problems = DiffRules.violations(of: diff, from: old, to: new)
        #expect(problems == [], "\(old)\n→\n\(new)", sourceLocation: sourceLocation)
        // The reverse direction must work too.
        #expect(try TestDiff(from: new, to: old).apply(to: new) == old, sourceLocation: sourceLocation)
        return diff
    }

    // MARK: - Random edits

    /// 24 batches × 150 pairs of a random snapshot and a randomly edited copy.
    @Test(arguments: 0..<24)
    func randomEdits(batch: Int) throws {
        var rng = SeededRandom(seed: 0x5EC7_10ED + UInt64(batch))
        for _ in 0..<150 {
            var model = SnapshotModel(&rng, sections: rng.below(9), itemsPerSection: 0...8)
            let old = try model.snapshot()
            for _ in 0..<rng.below(12) { model.randomEdit(&rng) }
            try check(old, try model.snapshot())
        }
    }

    /// Pairs whose edits are all of one kind.
    @Test(arguments: ["shuffledSections", "shuffledItems", "crossSection", "scatter", "contentOnly", "replaced"])
    func focusedEdits(kind: String) throws {
        var rng = SeededRandom(seed: UInt64(kind.utf8.count) &* 7919)
        for round in 0..<200 {
            var model = SnapshotModel(&rng, sections: 1 + rng.below(10), itemsPerSection: 0...12)
            let old = try model.snapshot()
            switch kind {
            case "shuffledSections": model.shuffleSections(&rng)
            case "shuffledItems": for _ in 0..<3 { model.shuffleItems(&rng) }
            case "crossSection": for _ in 0..<6 { model.moveItem(&rng, acrossSections: true) }
            case "scatter": model.scatterSection(&rng); model.moveSection(&rng); model.insertSection(&rng)
            case "contentOnly": model.changeAllContents()
            default: model = SnapshotModel(&rng, sections: rng.below(6), itemsPerSection: 0...5)
            }
            let new = try model.snapshot()
            let diff = try check(old, new)
            if kind == "contentOnly" {
                #expect(diff.sections.inserted.isEmpty && diff.sections.deleted.isEmpty && diff.sections.moved.isEmpty)
                #expect(diff.items.inserted.isEmpty && diff.items.deleted.isEmpty && diff.items.moved.isEmpty)
                #expect(diff.items.updated.count == new.itemCount, "round \(round)")
                #expect(diff.sections.updated.count == new.sections.count)
            }
        }
    }

    // MARK: - Edge pairs

    @Test func edgePairs() throws {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<100 {
            let full = try SnapshotModel(&rng, sections: 1 + rng.below(6), itemsPerSection: 0...6).snapshot()
            let empty = TestSnapshot()
            #expect(try check(empty, empty).isEmpty)
            try check(empty, full)
            try check(full, empty)
            #expect(try check(full, full).isEmpty)
            // Every section emptied, and every section still there but empty.
            let hollow = try TestSnapshot(sections: full.sections.map { TestSection(id: $0.id, content: $0.content) })
            try check(full, hollow)
            try check(hollow, full)
        }
    }

    // MARK: - Large cases

    /// About 5,000 items in 40 sections with many edits of every kind.
    @Test(arguments: 0..<4)
    func largeRandomEdits(seed: Int) throws {
        var rng = SeededRandom(seed: 0xB16_0000 + UInt64(seed))
        var model = SnapshotModel(&rng, sections: 40, itemsPerSection: 100...150)
        let old = try model.snapshot()
        for _ in 0..<600 { model.randomEdit(&rng) }
        let new = try model.snapshot()
        try check(old, new, literal: false)
    }

    /// One section of 5,000 items, shuffled: many moves within one section.
    @Test func largeShuffledSection() throws {
        var rng = SeededRandom(seed: 5000)
        var model = SnapshotModel(&rng, sections: 1, itemsPerSection: 5000...5000)
        let old = try model.snapshot()
        model.shuffleItems(&rng)
        let diff = try check(old, try model.snapshot(), literal: false)
        #expect(diff.items.moved.count > 4000)
    }

    /// 100,000 items in one section, reversed: the worst case for moves must stay fast
    /// (no quadratic path).
    @Test func hundredThousandItemsInOneSection() throws {
        let ids = Array(0..<100_000)
        let old = try makeSnapshot([("a", ids)])
        var shuffled = ids
        var rng = SeededRandom(seed: 1)
        shuffled.shuffle(using: &rng)
        let new = try makeSnapshot([("a", shuffled)])
        let diff = TestDiff(from: old, to: new)
        #expect(diff.items.moved.count == ids.count - lisLength(shuffled))
        #expect(try diff.apply(to: old) == new)
        let reversed = try makeSnapshot([("a", ids.reversed())])
        #expect(TestDiff(from: old, to: reversed).items.moved.count == ids.count - 1)
    }
}
