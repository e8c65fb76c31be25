import Testing
@testable import SectionedDiff

// MARK: - DiffApplicationTests

/// `apply(to:)` on hand-written diffs: the reference steps, and clear errors for diffs that
/// do not fit their base.
@Suite("Diff application")
struct DiffApplicationTests {
    let base: TestSnapshot

    init() throws {
        base = try makeSnapshot([("a", [1, 2, 3]), ("b", [4, 5]), ("c", [])])
    }

    // MARK: - Reference semantics

    @Test func emptyDiffIsIdentity() throws {
        #expect(try TestDiff().apply(to: base) == base)
        #expect(try base.applying(TestDiff()) == base)
    }

    @Test func insertionsHappenInAscendingIndexOrder() throws {
        // Inserting 10 at 0 then 11 at 2 (listed out of order) gives [10, 1, 11, 2, 3].
        let diff = TestDiff(items: .init(inserted: [.init(section: "a", index: 2, item: .init(id: 11, content: "x")),
                                                    .init(section: "a", index: 0, item: .init(id: 10, content: "y"))]))
        #expect(try diff.apply(to: base).items(inSection: "a")?.map(\.id) == [10, 1, 11, 2, 3])
        #expect(try referenceApply(diff, to: base) == (try diff.apply(to: base)))
    }

    @Test func appendAtTheEndIsInRange() throws {
        let diff = TestDiff(items: .init(inserted: [.init(section: "c", index: 0, item: .init(id: 9, content: "x")),
                                                    .init(section: "c", index: 1, item: .init(id: 8, content: "y"))]))
        #expect(try diff.apply(to: base).items(inSection: "c")?.map(\.id) == [9, 8])
    }

    @Test func movedSectionTravelsWithItsRemainingItems() throws {
        let diff = TestDiff(sections: .init(moved: [.init(id: "a", from: 0, to: 2)]),
                            items: .init(deleted: [.init(id: 2, section: "a")],
                                         moved: [.init(id: 4, from: .init(section: "b", index: 0),
                                                       to: .init(section: "a", index: 0))]))
        let result = try diff.apply(to: base)
        #expect(result == (try makeSnapshot([("b", [5]), ("c", []), ("a", [4, 1, 3])])))
        #expect(try referenceApply(diff, to: base) == result)
    }

    @Test func itemsOfADeletedSectionNeedNotBeListed() throws {
        // Listing them in items.deleted (as computed diffs do) and not listing them give
        // the same result: step 1 removes the section with whatever it still holds.
        let bare = TestDiff(sections: .init(deleted: ["b"]))
        let listed = TestDiff(sections: .init(deleted: ["b"]),
                              items: .init(deleted: [.init(id: 4, section: "b"), .init(id: 5, section: "b")]))
        let expected = try makeSnapshot([("a", [1, 2, 3]), ("c", [])])
        #expect(try bare.apply(to: base) == expected)
        #expect(try listed.apply(to: base) == expected)
    }

    @Test func updatesReplaceContentAndHeaders() throws {
        let diff = TestDiff(sections: .init(updated: [.init(id: "c", content: "C")]),
                            items: .init(updated: [.init(section: "b", item: .init(id: 5, content: "five"))]))
        let result = try diff.apply(to: base)
        #expect(result.section(withID: "c")?.content == "C")
        #expect(result.item(withID: 5)?.content == "five")
        #expect(result.location(ofItem: 5) == base.location(ofItem: 5))
    }

    // MARK: - Diffs that do not fit

    @Test func unknownItemDeletion() {
        let diff = TestDiff(items: .init(deleted: [.init(id: 99, section: "a")]))
        #expect(throws: SnapshotDiffError.unknownItem("99")) { try diff.apply(to: base) }
    }

    @Test func itemDeletedFromTheWrongSection() {
        let diff = TestDiff(items: .init(deleted: [.init(id: 4, section: "a")]))
        #expect(throws: SnapshotDiffError.itemNotInSection(item: "4", section: "a")) { try diff.apply(to: base) }
    }

    @Test func itemDeletedTwice() {
        let diff = TestDiff(items: .init(deleted: [.init(id: 1, section: "a"), .init(id: 1, section: "a")]))
        #expect(throws: SnapshotDiffError.conflictingChanges("1")) { try diff.apply(to: base) }
    }

    @Test func itemDeletedAndMoved() {
        let diff = TestDiff(items: .init(deleted: [.init(id: 1, section: "a")],
                                         moved: [.init(id: 1, from: .init(section: "a", index: 0), to: .init(section: "b", index: 0))]))
        #expect(throws: SnapshotDiffError.conflictingChanges("1")) { try diff.apply(to: base) }
    }

    @Test func itemMoveFromTheWrongPlace() {
        let diff = TestDiff(items: .init(moved: [.init(id: 1, from: .init(section: "a", index: 2), to: .init(section: "a", index: 0))]))
        #expect(throws: SnapshotDiffError.itemPositionMismatch(item: "1", from: "a[2]", actual: "a[0]")) { try diff.apply(to: base) }
    }

    @Test func unknownSections() {
        #expect(throws: SnapshotDiffError.unknownSection("z")) {
            try TestDiff(sections: .init(deleted: ["z"])).apply(to: base)
        }
        #expect(throws: SnapshotDiffError.unknownSection("z")) {
            try TestDiff(sections: .init(moved: [.init(id: "z", from: 0, to: 1)])).apply(to: base)
        }
        #expect(throws: SnapshotDiffError.unknownSection("z")) {
            try TestDiff(sections: .init(updated: [.init(id: "z", content: "")])).apply(to: base)
        }
        #expect(throws: SnapshotDiffError.unknownSection("z")) {
            try TestDiff(items: .init(inserted: [.init(section: "z", index: 0, item: .init(id: 9, content: ""))])).apply(to: base)
        }
        // A deleted section cannot receive items.
        #expect(throws: SnapshotDiffError.unknownSection("c")) {
            try TestDiff(sections: .init(deleted: ["c"]),
                         items: .init(inserted: [.init(section: "c", index: 0, item: .init(id: 9, content: ""))])).apply(to: base)
        }
    }

    @Test func sectionMoveFromTheWrongIndex() {
        let diff = TestDiff(sections: .init(moved: [.init(id: "b", from: 0, to: 2)]))
        #expect(throws: SnapshotDiffError.sectionPositionMismatch(section: "b", from: 0, actual: 1)) { try diff.apply(to: base) }
    }

    @Test func sectionDeletedAndMoved() {
        let diff = TestDiff(sections: .init(deleted: ["b"], moved: [.init(id: "b", from: 1, to: 0)]))
        #expect(throws: SnapshotDiffError.conflictingChanges("b")) { try diff.apply(to: base) }
    }

    @Test func indexesOutOfRange() {
        let item = TestItem(id: 9, content: "")
        #expect(throws: SnapshotDiffError.indexOutOfRange(section: "a", index: 4, count: 3)) {
            try TestDiff(items: .init(inserted: [.init(section: "a", index: 4, item: item)])).apply(to: base)
        }
        #expect(throws: SnapshotDiffError.indexOutOfRange(section: "a", index: -1, count: 3)) {
            try TestDiff(items: .init(inserted: [.init(section: "a", index: -1, item: item)])).apply(to: base)
        }
        let section = TestSection(id: "n", content: "")
        #expect(throws: SnapshotDiffError.indexOutOfRange(section: nil, index: 5, count: 3)) {
            try TestDiff(sections: .init(inserted: [.init(index: 5, section: section)])).apply(to: base)
        }
        #expect(throws: SnapshotDiffError.indexOutOfRange(section: nil, index: 3, count: 2)) {
            try TestDiff(sections: .init(moved: [.init(id: "a", from: 0, to: 3)])).apply(to: base)
        }
    }

    @Test func twoInsertionsAtOneIndex() {
        let diff = TestDiff(items: .init(inserted: [.init(section: "a", index: 1, item: .init(id: 8, content: "")),
                                                    .init(section: "a", index: 1, item: .init(id: 9, content: ""))]))
        #expect(throws: SnapshotDiffError.duplicateIndex(section: "a", index: 1)) { try diff.apply(to: base) }
    }

    @Test func resultWithDuplicateIDs() {
        #expect(throws: SnapshotDiffError.invalidResult(.duplicateItemID("1"))) {
            try TestDiff(items: .init(inserted: [.init(section: "c", index: 0, item: .init(id: 1, content: ""))])).apply(to: base)
        }
        #expect(throws: SnapshotDiffError.invalidResult(.duplicateSectionID("a"))) {
            try TestDiff(sections: .init(inserted: [.init(index: 0, section: TestSection(id: "a", content: ""))])).apply(to: base)
        }
    }

    @Test func updateOfAMissingItemOrInTheWrongSection() {
        #expect(throws: SnapshotDiffError.unknownItem("42")) {
            try TestDiff(items: .init(updated: [.init(section: "a", item: .init(id: 42, content: ""))])).apply(to: base)
        }
        #expect(throws: SnapshotDiffError.itemNotInSection(item: "4", section: "a")) {
            try TestDiff(items: .init(updated: [.init(section: "a", item: .init(id: 4, content: ""))])).apply(to: base)
        }
    }

    @Test func aDiffForAnotherBaseIsRejectedNotTrapped() throws {
        let other = try makeSnapshot([("x", [10, 11]), ("a", [1])])
        let diff = TestDiff(from: other, to: try makeSnapshot([("a", [11, 1])]))
        #expect(throws: SnapshotDiffError.self) { try diff.apply(to: base) }
    }

    @Test func errorDescriptionsAreReadable() {
        #expect(SnapshotDiffError.indexOutOfRange(section: "a", index: 4, count: 3).description
                == "diff does not fit: index 4 out of range 0...3 in section 'a'")
        #expect(SnapshotDiffError.duplicateIndex(section: nil, index: 1).description.hasSuffix("among sections"))
        #expect(SnapshotDiffError.invalidResult(.duplicateItemID("1")).description.contains("duplicate item id '1'"))
    }
}
