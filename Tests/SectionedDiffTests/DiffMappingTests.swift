import Testing
@testable import SectionedDiff

/// `mapItemContents`: the same changes with other item contents.
@Suite("Diff mapping")
struct DiffMappingTests {
    @Test func aMappedDiffIsTheDiffOfTheMappedSnapshots() throws {
        let old = try makeSnapshot([("a", [1, 2, 3]), ("b", [4, 5]), ("c", [6])], contents: [2: "two"])
        let new = try makeSnapshot([("b", [5, 1, 4]), ("a", [7, 2]), ("d", [8, 3])], headers: ["a": "new a"],
                                   contents: [2: "TWO", 4: "four"])
        let diff = TestDiff(from: old, to: new)
        #expect(!diff.items.updated.isEmpty && !diff.items.inserted.isEmpty && !diff.sections.inserted.isEmpty)
        let mapped = diff.mapItemContents { Array($0.utf8) }
        // Contents mapped one to one keep the same changes: the diff of the mapped
        // snapshots, and it turns the one into the other.
        typealias Bytes = Snapshot<String, String, Int, [UInt8]>
        func bytes(_ s: TestSnapshot) throws -> Bytes {
            try Bytes(sections: s.sections.map { x in
                Bytes.Section(id: x.id, content: x.content, items: x.items.map { .init(id: $0.id, content: Array($0.content.utf8)) })
            })
        }
        #expect(mapped == SnapshotDiff(from: try bytes(old), to: try bytes(new)))
        #expect(try mapped.apply(to: try bytes(old)) == (try bytes(new)))
    }
}
