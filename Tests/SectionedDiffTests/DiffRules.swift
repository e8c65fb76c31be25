@testable import SectionedDiff

// MARK: - DiffRules

/// Checks a computed diff against the index rules of docs/protocol.md and against minimality, from
/// first principles (no use of the library's matching). Returns the violations found.
enum DiffRules {
    static func violations(of diff: TestDiff, from old: TestSnapshot, to new: TestSnapshot) -> [String] {
        var problems: [String] = []
        let oldIDs = old.sectionIDs, newIDs = new.sectionIDs
        let oldSet = Set(oldIDs), newSet = Set(newIDs)
        let both = oldSet.intersection(newSet)

        // MARK: Sections
        let expectedDeleted = oldIDs.filter { !newSet.contains($0) }
        if diff.sections.deleted != expectedDeleted { problems.append("sections.deleted \(diff.sections.deleted) != \(expectedDeleted)") }
        let expectedInserted = newIDs.indices.filter { !oldSet.contains(newIDs[$0]) }
            .map { TestDiff.SectionInsertion(index: $0, section: new.sections[$0]) }
        if diff.sections.inserted != expectedInserted { problems.append("sections.inserted mismatch") }
        let expectedUpdated = new.sections.filter { both.contains($0.id) && old.section(withID: $0.id)?.content != $0.content }
            .map(\.header)
        if diff.sections.updated != expectedUpdated { problems.append("sections.updated mismatch") }
        let survivors = newIDs.filter { both.contains($0) }
        let movedSections = Set(diff.sections.moved.map(\.id))
        for move in diff.sections.moved {
            if !both.contains(move.id) || old.index(ofSection: move.id) != move.from || new.index(ofSection: move.id) != move.to {
                problems.append("bad section move \(move.id) \(move.from)→\(move.to)")
            }
        }
        let stayingSections = survivors.filter { !movedSections.contains($0) }.map { old.index(ofSection: $0)! }
        if stayingSections != stayingSections.sorted() { problems.append("unmoved sections change order") }
        let minimalSectionMoves = survivors.count - lisLength(survivors.map { old.index(ofSection: $0)! })
        if diff.sections.moved.count != minimalSectionMoves {
            problems.append("\(diff.sections.moved.count) section moves, minimum is \(minimalSectionMoves)")
        }

        // MARK: Items
        // An item "survives" when it is in a surviving section in both snapshots.
        func survives(_ id: Int) -> Bool {
            guard let from = old.sectionID(ofItem: id), let to = new.sectionID(ofItem: id) else { return false }
            return both.contains(from) && both.contains(to)
        }
        var expectedItemDeletions: [TestDiff.ItemDeletion] = []
        for section in old.sections {
            for item in section.items where !survives(item.id) {
                expectedItemDeletions.append(.init(id: item.id, section: section.id))
            }
        }
        if diff.items.deleted != expectedItemDeletions { problems.append("items.deleted mismatch") }
        var expectedInsertions: [TestDiff.ItemInsertion] = []
        var expectedUpdates: [TestDiff.ItemUpdate] = []
        var minimalItemMoves = 0
        for section in new.sections where both.contains(section.id) {
            var sameSection: [Int] = []
            for (k, item) in section.items.enumerated() {
                guard survives(item.id) else {
                    expectedInsertions.append(.init(section: section.id, index: k, item: item))
                    continue
                }
                if old.sectionID(ofItem: item.id) == section.id {
                    sameSection.append(old.location(ofItem: item.id)!.item)
                } else {
                    minimalItemMoves += 1
                }
                if old.item(withID: item.id)!.content != item.content {
                    expectedUpdates.append(.init(section: section.id, item: item))
                }
            }
            minimalItemMoves += sameSection.count - lisLength(sameSection)
            // Items not reported as moved keep their relative order.
            let movedHere = Set(diff.items.moved.filter { $0.to.section == section.id }.map(\.id))
            let staying = section.items.filter { survives($0.id) && !movedHere.contains($0.id) }
                .map { old.location(ofItem: $0.id)! }
            if staying.contains(where: { old.sections[$0.section].id != section.id }) {
                problems.append("item changes section without a move in \(section.id)")
            }
            if staying.map(\.item) != staying.map(\.item).sorted() { problems.append("unmoved items change order in \(section.id)") }
        }
        if diff.items.inserted != expectedInsertions { problems.append("items.inserted mismatch") }
        if diff.items.updated != expectedUpdates { problems.append("items.updated mismatch") }
        for move in diff.items.moved {
            if !both.contains(move.from.section) || !both.contains(move.to.section) {
                problems.append("item move names a section not in both snapshots: \(describe(move))")
            }
            let from = old.location(ofItem: move.id), to = new.location(ofItem: move.id)
            if from.map({ TestDiff.ItemPosition(section: old.sections[$0.section].id, index: $0.item) }) != move.from
                || to.map({ TestDiff.ItemPosition(section: new.sections[$0.section].id, index: $0.item) }) != move.to {
                problems.append("item move with wrong positions: \(describe(move))")
            }
        }
        if diff.items.moved.count != minimalItemMoves {
            problems.append("\(diff.items.moved.count) item moves, minimum is \(minimalItemMoves)")
        }
        return problems
    }

    static func describe(_ move: TestDiff.ItemMove) -> String {
        "\(move.id) \(move.from.section)[\(move.from.index)]→\(move.to.section)[\(move.to.index)]"
    }
}
