import Testing
@testable import SectionedDiff

// MARK: - Types

/// Sections keyed by strings with string headers; items keyed by integers with string
/// contents.
typealias TestSnapshot = Snapshot<String, String, Int, String>
typealias TestDiff = SnapshotDiff<String, String, Int, String>
typealias TestSection = TestSnapshot.Section
typealias TestItem = TestSnapshot.Item

// MARK: - Builders

/// A snapshot from `(section id, item ids)` pairs; headers are `"h:<id>"` unless given in
/// `headers`, item contents `"c<id>"` unless given in `contents`.
func makeSnapshot(_ spec: [(String, [Int])], headers: [String: String] = [:],
                  contents: [Int: String] = [:]) throws -> TestSnapshot {
    try TestSnapshot(sections: spec.map { id, items in
        TestSection(id: id, content: headers[id] ?? "h:\(id)",
                    items: items.map { TestItem(id: $0, content: contents[$0] ?? "c\($0)") })
    })
}


// MARK: - Literal reference application

/// The reference application of docs/protocol.md, written as literally as possible (searches by id,
/// `Array.insert`, one insertion at a time): an independent check of `apply(to:)`.
/// Quadratic; for small snapshots only.
func referenceApply(_ diff: TestDiff, to base: TestSnapshot) throws -> TestSnapshot {
    var sections = base.sections
    func sectionOffset(_ id: String) throws -> Int {
        try #require(sections.firstIndex { $0.id == id }, "no section \(id)")
    }
    // 1. Remove deleted items and move sources; remove deleted sections; detach moved ones.
    var moving: [Int: TestItem] = [:]
    for deletion in diff.items.deleted {
        let s = try sectionOffset(deletion.section)
        let k = try #require(sections[s].items.firstIndex { $0.id == deletion.id })
        sections[s].items.remove(at: k)
    }
    for move in diff.items.moved {
        let s = try sectionOffset(move.from.section)
        let k = try #require(sections[s].items.firstIndex { $0.id == move.id })
        moving[move.id] = sections[s].items.remove(at: k)
    }
    for id in diff.sections.deleted { sections.remove(at: try sectionOffset(id)) }
    var detached: [String: TestSection] = [:]
    for move in diff.sections.moved { detached[move.id] = sections.remove(at: try sectionOffset(move.id)) }
    // 2. Insert sections in ascending index order.
    var sectionInserts = diff.sections.inserted.map { ($0.index, $0.section) }
    for move in diff.sections.moved { sectionInserts.append((move.to, try #require(detached[move.id]))) }
    for (index, section) in sectionInserts.sorted(by: { $0.0 < $1.0 }) { sections.insert(section, at: index) }
    // 3. Insert items in ascending index order, per section.
    for s in sections.indices {
        let id = sections[s].id
        var inserts = diff.items.inserted.filter { $0.section == id }.map { ($0.index, $0.item) }
        for move in diff.items.moved where move.to.section == id {
            inserts.append((move.to.index, try #require(moving[move.id])))
        }
        for (index, item) in inserts.sorted(by: { $0.0 < $1.0 }) { sections[s].items.insert(item, at: index) }
    }
    // 4. Replace contents and headers.
    for update in diff.items.updated {
        let s = try sectionOffset(update.section)
        let k = try #require(sections[s].items.firstIndex { $0.id == update.item.id })
        sections[s].items[k].content = update.item.content
    }
    for header in diff.sections.updated { sections[try sectionOffset(header.id)].content = header.content }
    return try TestSnapshot(sections: sections)
}

// MARK: - LIS length (independent of the library)

/// Length of a longest strictly increasing subsequence (patience sorting, tails only).
func lisLength(_ values: [Int]) -> Int {
    var tails: [Int] = []
    for value in values {
        var low = 0, high = tails.count
        while low < high {
            let mid = (low + high) / 2
            if tails[mid] < value { low = mid + 1 } else { high = mid }
        }
        if low == tails.count { tails.append(value) } else { tails[low] = value }
    }
    return tails.count
}
