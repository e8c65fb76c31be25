import Testing
@testable import SectionedDiff

// MARK: - SnapshotTests

@Suite("Snapshot")
struct SnapshotTests {

    // MARK: - Validation

    @Test func emptySnapshot() throws {
        let empty = TestSnapshot()
        #expect(empty.isEmpty)
        #expect(empty.itemCount == 0)
        #expect(empty == TestSnapshot.empty)
        #expect(try TestSnapshot(sections: []) == empty)
    }

    @Test func duplicateSectionIDIsRejected() {
        #expect(throws: SnapshotError.duplicateSectionID("a")) {
            try makeSnapshot([("a", [1]), ("b", [2]), ("a", [3])])
        }
    }

    @Test func duplicateItemIDInOneSectionIsRejected() {
        #expect(throws: SnapshotError.duplicateItemID("2")) {
            try makeSnapshot([("a", [1, 2, 2])])
        }
    }

    @Test func duplicateItemIDAcrossSectionsIsRejected() {
        // Item ids are unique across the whole snapshot, not only within a section.
        #expect(throws: SnapshotError.duplicateItemID("7")) {
            try makeSnapshot([("a", [1, 7]), ("b", [2]), ("c", [7])])
        }
    }

    @Test func emptySectionsAreAllowed() throws {
        let snapshot = try makeSnapshot([("a", []), ("b", []), ("c", [1])])
        #expect(snapshot.sections.count == 3)
        #expect(snapshot.itemCount == 1)
    }

    @Test func errorsDescribeTheDuplicate() {
        #expect(SnapshotError.duplicateItemID("x").description.contains("'x'"))
        #expect(SnapshotError.duplicateSectionID("2026-11-29").description.contains("'2026-11-29'"))
    }

    // MARK: - Accessors

    @Test func accessors() throws {
        let snapshot = try makeSnapshot([("a", [1, 2]), ("b", []), ("c", [3, 4, 5])], contents: [4: "four"])
        #expect(snapshot.sectionIDs == ["a", "b", "c"])
        #expect(snapshot.itemIDs == [1, 2, 3, 4, 5])
        #expect(snapshot.itemCount == 5)
        #expect(snapshot.index(ofSection: "c") == 2)
        #expect(snapshot.index(ofSection: "z") == nil)
        #expect(snapshot.section(withID: "b")?.items.isEmpty == true)
        #expect(snapshot.items(inSection: "a")?.map(\.id) == [1, 2])
        #expect(snapshot.items(inSection: "z") == nil)
        #expect(snapshot.location(ofItem: 4) == TestSnapshot.ItemLocation(section: 2, item: 1))
        #expect(snapshot.location(ofItem: 9) == nil)
        #expect(snapshot.item(withID: 4)?.content == "four")
        #expect(snapshot.sectionID(ofItem: 2) == "a")
        #expect(snapshot.contains(item: 5))
        #expect(!snapshot.contains(item: 6))
        #expect(snapshot.contains(section: "b"))
        #expect(snapshot[TestSnapshot.ItemLocation(section: 0, item: 1)]?.id == 2)
        #expect(snapshot[TestSnapshot.ItemLocation(section: 1, item: 0)] == nil)
        #expect(snapshot[TestSnapshot.ItemLocation(section: 9, item: 0)] == nil)
    }

    @Test func tupleInitializer() throws {
        let snapshot = try TestSnapshot([(id: "a", content: "A", items: [TestItem(id: 1, content: "x")])])
        #expect(snapshot.sections == [TestSection(id: "a", content: "A", items: [TestItem(id: 1, content: "x")])])
        #expect(snapshot.sections[0].header == TestSnapshot.SectionHeader(id: "a", content: "A"))
    }

    @Test func equalityComparesContentAndOrder() throws {
        let a = try makeSnapshot([("a", [1, 2])])
        #expect(a == (try makeSnapshot([("a", [1, 2])])))
        #expect(a != (try makeSnapshot([("a", [2, 1])])))
        #expect(a != (try makeSnapshot([("a", [1, 2])], contents: [2: "other"])))
        #expect(a != (try makeSnapshot([("a", [1, 2])], headers: ["a": "other"])))
    }

    @Test func descriptionListsSections() throws {
        let text = try makeSnapshot([("a", [1, 2])]).description
        #expect(text.contains("a (h:a): [1, 2]"))
        #expect(TestSnapshot().description == "Snapshot(empty)")
    }
}
