@testable import SectionedDiff
import TestSupport

// MARK: - SnapshotModel

/// A mutable, always-valid description of a snapshot, for generating random pairs:
/// random edits keep section ids and item ids unique.
struct SnapshotModel {
    struct Section {
        var id: String
        var header: String
        var items: [(id: Int, content: String)]
    }

    var sections: [Section] = []
    private var nextSection = 0
    private var nextItem = 0
    private var nextVersion = 0

    // MARK: - Creating

    /// A random model with `sectionCount` sections of `itemsPerSection` items each.
    init(_ rng: inout SeededRandom, sections sectionCount: Int, itemsPerSection: ClosedRange<Int>) {
        for _ in 0..<sectionCount {
            let count = itemsPerSection.lowerBound + rng.below(itemsPerSection.count)
            sections.append(freshSection(items: count))
        }
    }

    /// The snapshot this model describes.
    func snapshot() throws -> TestSnapshot {
        try TestSnapshot(sections: sections.map { section in
            TestSection(id: section.id, content: section.header,
                        items: section.items.map { TestItem(id: $0.id, content: $0.content) })
        })
    }

    // MARK: - Fresh values

    mutating func freshItem() -> (id: Int, content: String) {
        nextItem += 1
        return (nextItem, "c\(nextItem)")
    }

    mutating func freshSection(items: Int) -> Section {
        nextSection += 1
        return Section(id: "s\(nextSection)", header: "h\(nextSection)", items: (0..<items).map { _ in freshItem() })
    }

    mutating func newVersion(of text: String) -> String {
        nextVersion += 1
        return "\(text.split(separator: "~").first ?? "")~\(nextVersion)"
    }

    // MARK: - Edits

    /// One random edit of any kind.
    mutating func randomEdit(_ rng: inout SeededRandom) {
        switch rng.below(14) {
        case 0: deleteSection(&rng)
        case 1: insertSection(&rng)
        case 2: moveSection(&rng)
        case 3: changeHeader(&rng)
        case 4: scatterSection(&rng)
        case 5, 6: deleteItem(&rng)
        case 7, 8: insertItem(&rng)
        case 9: moveItem(&rng, acrossSections: false)
        case 10: moveItem(&rng, acrossSections: true)
        case 11, 12: changeItem(&rng)
        default: shuffleItems(&rng)
        }
    }

    mutating func deleteSection(_ rng: inout SeededRandom) {
        guard !sections.isEmpty else { return }
        sections.remove(at: rng.below(sections.count))
    }

    /// Inserts a section with fresh items, sometimes with items taken from other sections.
    mutating func insertSection(_ rng: inout SeededRandom) {
        var section = freshSection(items: rng.below(6))
        if !sections.isEmpty && rng.percent(50) {
            for _ in 0..<rng.below(4) {
                if let item = takeItem(&rng) { section.items.insert(item, at: rng.below(section.items.count + 1)) }
            }
        }
        sections.insert(section, at: rng.below(sections.count + 1))
    }

    mutating func moveSection(_ rng: inout SeededRandom) {
        guard !sections.isEmpty else { return }
        let section = sections.remove(at: rng.below(sections.count))
        sections.insert(section, at: rng.below(sections.count + 1))
    }

    mutating func changeHeader(_ rng: inout SeededRandom) {
        guard !sections.isEmpty else { return }
        let s = rng.below(sections.count)
        sections[s].header = newVersion(of: sections[s].header)
    }

    /// Deletes a section and re-homes some of its items in other sections.
    mutating func scatterSection(_ rng: inout SeededRandom) {
        guard sections.count > 1 else { return }
        let victim = sections.remove(at: rng.below(sections.count))
        for item in victim.items where rng.percent(60) {
            let s = rng.below(sections.count)
            sections[s].items.insert(item, at: rng.below(sections[s].items.count + 1))
        }
    }

    mutating func deleteItem(_ rng: inout SeededRandom) {
        _ = takeItem(&rng)
    }

    mutating func insertItem(_ rng: inout SeededRandom) {
        guard !sections.isEmpty else { return }
        let s = rng.below(sections.count)
        sections[s].items.insert(freshItem(), at: rng.below(sections[s].items.count + 1))
    }

    mutating func moveItem(_ rng: inout SeededRandom, acrossSections: Bool) {
        guard !sections.isEmpty else { return }
        let from = rng.below(sections.count)
        guard !sections[from].items.isEmpty else { return }
        let item = sections[from].items.remove(at: rng.below(sections[from].items.count))
        let to = acrossSections ? rng.below(sections.count) : from
        sections[to].items.insert(item, at: rng.below(sections[to].items.count + 1))
        if rng.percent(30) { sections[to].items[sections[to].items.firstIndex { $0.id == item.id }!].content = newVersion(of: item.content) }
    }

    mutating func changeItem(_ rng: inout SeededRandom) {
        guard !sections.isEmpty else { return }
        let s = rng.below(sections.count)
        guard !sections[s].items.isEmpty else { return }
        let k = rng.below(sections[s].items.count)
        sections[s].items[k].content = newVersion(of: sections[s].items[k].content)
    }

    mutating func shuffleItems(_ rng: inout SeededRandom) {
        guard !sections.isEmpty else { return }
        let s = rng.below(sections.count)
        sections[s].items.shuffle(using: &rng)
    }

    mutating func shuffleSections(_ rng: inout SeededRandom) {
        sections.shuffle(using: &rng)
    }

    /// Changes every item's content and every header, keeping ids and order.
    mutating func changeAllContents() {
        for s in sections.indices {
            sections[s].header = newVersion(of: sections[s].header)
            for k in sections[s].items.indices {
                sections[s].items[k].content = newVersion(of: sections[s].items[k].content)
            }
        }
    }

    /// Removes and returns a random item, if any.
    private mutating func takeItem(_ rng: inout SeededRandom) -> (id: Int, content: String)? {
        let candidates = sections.indices.filter { !sections[$0].items.isEmpty }
        guard !candidates.isEmpty else { return nil }
        let s = candidates[rng.below(candidates.count)]
        return sections[s].items.remove(at: rng.below(sections[s].items.count))
    }
}
