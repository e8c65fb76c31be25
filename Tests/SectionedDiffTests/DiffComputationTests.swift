import Testing
@testable import SectionedDiff

// MARK: - DiffComputationTests

/// Exact diffs for small, hand-made cases.
@Suite("Diff computation")
struct DiffComputationTests {

    /// Computes the diff, checks it round-trips (library and literal reference) and
    /// obeys the index rules, and returns it.
    func checkedDiff(_ old: TestSnapshot, _ new: TestSnapshot) throws -> TestDiff {
        let diff = TestDiff(from: old, to: new)
        #expect(try diff.apply(to: old) == new)
        #expect(try referenceApply(diff, to: old) == new)
        #expect(DiffRules.violations(of: diff, from: old, to: new) == [])
        return diff
    }

    // MARK: - Trivial cases

    @Test func emptyToEmpty() throws {
        #expect(try checkedDiff(TestSnapshot(), TestSnapshot()).isEmpty)
    }

    @Test func identicalSnapshotsGiveAnEmptyDiff() throws {
        let a = try makeSnapshot([("a", [1, 2, 3]), ("b", []), ("c", [4])])
        let diff = try checkedDiff(a, a)
        #expect(diff.isEmpty)
        #expect(diff.changeCount == 0)
        #expect(a.diff(to: a) == TestDiff())
    }

    @Test func emptyToFullInsertsSectionsWithTheirItems() throws {
        let new = try makeSnapshot([("a", [1, 2]), ("b", [3])])
        let diff = try checkedDiff(TestSnapshot(), new)
        #expect(diff.sections.inserted == [.init(index: 0, section: new.sections[0]),
                                           .init(index: 1, section: new.sections[1])])
        #expect(diff.items.isEmpty) // items travel inside their sections
        #expect(diff.sections.deleted.isEmpty && diff.sections.moved.isEmpty)
    }

    @Test func fullToEmptyDeletesSectionsAndTheirItems() throws {
        let old = try makeSnapshot([("a", [1, 2]), ("b", [3])])
        let diff = try checkedDiff(old, TestSnapshot())
        #expect(diff.sections.deleted == ["a", "b"])
        // Items of a deleted section are deleted, and listed as such (base order).
        #expect(diff.items.deleted == [.init(id: 1, section: "a"), .init(id: 2, section: "a"), .init(id: 3, section: "b")])
        #expect(diff.items.inserted.isEmpty && diff.items.moved.isEmpty && diff.items.updated.isEmpty)
    }

    // MARK: - Updates only

    @Test func contentOnlyChangeGivesOnlyUpdates() throws {
        let old = try makeSnapshot([("a", [1, 2]), ("b", [3])])
        let new = try makeSnapshot([("a", [1, 2]), ("b", [3])], headers: ["b": "B!"], contents: [2: "two", 3: "three"])
        let diff = try checkedDiff(old, new)
        #expect(diff.sections.updated == [.init(id: "b", content: "B!")])
        #expect(diff.items.updated == [.init(section: "a", item: .init(id: 2, content: "two")),
                                       .init(section: "b", item: .init(id: 3, content: "three"))])
        #expect(diff.sections.deleted.isEmpty && diff.sections.inserted.isEmpty && diff.sections.moved.isEmpty)
        #expect(diff.items.deleted.isEmpty && diff.items.inserted.isEmpty && diff.items.moved.isEmpty)
    }

    // MARK: - Moves

    @Test func movingOneItemInAHundredIsOneMove() throws {
        let ids = Array(1...100)
        var moved = ids
        moved.insert(moved.remove(at: 10), at: 70)
        let diff = try checkedDiff(try makeSnapshot([("a", ids)]), try makeSnapshot([("a", moved)]))
        #expect(diff.items.moved == [.init(id: 11, from: .init(section: "a", index: 10), to: .init(section: "a", index: 70))])
        #expect(diff.changeCount == 1)
    }

    @Test func movingTheFirstItemToTheEndIsOneMove() throws {
        let diff = try checkedDiff(try makeSnapshot([("a", Array(1...100))]),
                                   try makeSnapshot([("a", Array(2...100) + [1])]))
        #expect(diff.items.moved.map(\.id) == [1])
        #expect(diff.changeCount == 1)
    }

    @Test func swappingTwoAdjacentSectionsIsOneMove() throws {
        let diff = try checkedDiff(try makeSnapshot([("a", [1]), ("b", [2]), ("c", [3])]),
                                   try makeSnapshot([("b", [2]), ("a", [1]), ("c", [3])]))
        #expect(diff.sections.moved.count == 1)
        #expect(diff.changeCount == 1)
    }

    @Test func reversedItemsKeepOneInPlace() throws {
        let diff = try checkedDiff(try makeSnapshot([("a", Array(1...10))]),
                                   try makeSnapshot([("a", Array((1...10).reversed()))]))
        #expect(diff.items.moved.count == 9)
    }

    @Test func crossSectionMoveWithContentChangeIsAMoveAndAnUpdate() throws {
        let old = try makeSnapshot([("a", [1, 2, 3]), ("b", [4])])
        let new = try makeSnapshot([("a", [1, 3]), ("b", [2, 4])], contents: [2: "moved"])
        let diff = try checkedDiff(old, new)
        #expect(diff.items.moved == [.init(id: 2, from: .init(section: "a", index: 1), to: .init(section: "b", index: 0))])
        #expect(diff.items.updated == [.init(section: "b", item: .init(id: 2, content: "moved"))])
        #expect(diff.changeCount == 2)
    }

    @Test func movedSectionWithItemsMovedInAndOut() throws {
        let old = try makeSnapshot([("a", [1, 2]), ("b", [3, 4]), ("c", [5])])
        let new = try makeSnapshot([("c", [5, 1]), ("a", [2]), ("b", [4, 3])], headers: ["c": "C"])
        let diff = try checkedDiff(old, new)
        #expect(diff.sections.moved == [.init(id: "c", from: 2, to: 0)])
        #expect(diff.sections.updated == [.init(id: "c", content: "C")])
        #expect(diff.items.moved.count == 2) // 1 into the moved section; 3 or 4 within b
    }

    // MARK: - Deleted and inserted sections

    @Test func itemOfADeletedSectionIsDeletedAndInsertedElsewhere() throws {
        let old = try makeSnapshot([("a", [1, 2]), ("b", [3])])
        let new = try makeSnapshot([("b", [2, 3])])
        let diff = try checkedDiff(old, new)
        #expect(diff.sections.deleted == ["a"])
        #expect(diff.items.deleted == [.init(id: 1, section: "a"), .init(id: 2, section: "a")])
        #expect(diff.items.inserted == [.init(section: "b", index: 0, item: .init(id: 2, content: "c2"))])
        #expect(diff.items.moved.isEmpty)
    }

    @Test func itemMovingIntoAnInsertedSectionTravelsInsideIt() throws {
        let old = try makeSnapshot([("a", [1, 2])])
        let new = try makeSnapshot([("a", [1]), ("n", [2, 9])])
        let diff = try checkedDiff(old, new)
        #expect(diff.sections.inserted == [.init(index: 1, section: new.sections[1])])
        #expect(diff.items.deleted == [.init(id: 2, section: "a")])
        #expect(diff.items.inserted.isEmpty && diff.items.moved.isEmpty)
    }

    @Test func fullyReplacedSnapshot() throws {
        let old = try makeSnapshot([("a", [1, 2]), ("b", [3])])
        let new = try makeSnapshot([("x", [4]), ("y", [5, 6])])
        let diff = try checkedDiff(old, new)
        #expect(diff.sections.deleted == ["a", "b"])
        #expect(diff.sections.inserted.map(\.index) == [0, 1])
        #expect(diff.items.deleted.count == 3)
        #expect(diff.items.inserted.isEmpty)
    }

    @Test func slidingWindowAtMidnight() throws {
        // The date window slides by one day: first section gone, one appended, labels shift.
        let old = try makeSnapshot([("d1", [1]), ("d2", [2, 3]), ("d3", [])], headers: ["d2": "today", "d3": "tomorrow"])
        let new = try makeSnapshot([("d2", [2, 3]), ("d3", []), ("d4", [4])], headers: ["d2": "yesterday", "d3": "today"])
        let diff = try checkedDiff(old, new)
        #expect(diff.sections.deleted == ["d1"])
        #expect(diff.sections.inserted.map(\.index) == [2])
        #expect(diff.sections.updated.map(\.id) == ["d2", "d3"])
        #expect(diff.sections.moved.isEmpty)
        #expect(diff.items.deleted == [.init(id: 1, section: "d1")])
    }

    @Test func deletionsInsertionsAndMovesInOneSection() throws {
        let old = try makeSnapshot([("a", [1, 2, 3, 4, 5, 6])])
        let new = try makeSnapshot([("a", [7, 5, 1, 3, 8, 6, 4])])
        let diff = try checkedDiff(old, new)
        #expect(diff.items.deleted == [.init(id: 2, section: "a")])
        #expect(diff.items.inserted.map(\.index) == [0, 4])
    }
}
