// MARK: - Applying a diff

extension SnapshotDiff {
    /// Applies the diff to `base` by the reference application of docs/protocol.md:
    ///
    /// 1. From the base, remove ``ItemChanges/deleted`` and the sources of
    ///    ``ItemChanges/moved``; remove ``SectionChanges/deleted``; detach the sections of
    ///    ``SectionChanges/moved`` (with their remaining items).
    /// 2. Insert ``SectionChanges/inserted`` and the detached sections at their new
    ///    indexes, in ascending index order.
    /// 3. In each section, insert ``ItemChanges/inserted`` and the moved items at their new
    ///    indexes, in ascending index order.
    /// 4. Replace the content of ``ItemChanges/updated`` and the headers of
    ///    ``SectionChanges/updated``.
    ///
    /// Ascending insertions are performed as one linear merge per list, which is the same
    /// as inserting one after the other.
    ///
    /// - Throws: ``SnapshotDiffError`` when the diff does not fit `base`: an unknown
    ///   section or item, a `from` that is not where the element is, an element deleted or
    ///   moved twice, two insertions at one index, an index out of range, or a result
    ///   with duplicate ids. The base is never trapped on.
    /// - Complexity: O(*n* + *k* log *k*) expected, *n* the size of `base` and of the
    ///   result, *k* the number of changes.
    @inlinable
    public func apply(to base: Base) throws -> Base {
        let baseSections = base.sections

        // MARK: Step 1 — removals and detachments
        var baseStart = [Int](repeating: 0, count: baseSections.count + 1)
        for i in baseSections.indices { baseStart[i + 1] = baseStart[i] + baseSections[i].items.count }
        var removed = [Bool](repeating: false, count: baseStart[baseSections.count])
        var touched = [Bool](repeating: false, count: baseSections.count)
        for deletion in items.deleted {
            guard let location = base.itemLocationByID[deletion.id] else {
                throw SnapshotDiffError.unknownItem(String(describing: deletion.id))
            }
            guard baseSections[location.section].id == deletion.section else {
                throw SnapshotDiffError.itemNotInSection(item: String(describing: deletion.id),
                                                         section: String(describing: deletion.section))
            }
            try Self.markRemoved(location, id: deletion.id, baseStart: baseStart, removed: &removed, touched: &touched)
        }
        var movedItems: [Item] = []
        movedItems.reserveCapacity(items.moved.count)
        for move in items.moved {
            guard let location = base.itemLocationByID[move.id] else {
                throw SnapshotDiffError.unknownItem(String(describing: move.id))
            }
            let actual = ItemPosition(section: baseSections[location.section].id, index: location.item)
            guard actual == move.from else {
                throw SnapshotDiffError.itemPositionMismatch(item: String(describing: move.id),
                                                             from: Self.describe(move.from),
                                                             actual: Self.describe(actual))
            }
            try Self.markRemoved(location, id: move.id, baseStart: baseStart, removed: &removed, touched: &touched)
            movedItems.append(baseSections[location.section].items[location.item])
        }

        // Section states: 0 stays, 1 deleted, 2 detached.
        var state = [UInt8](repeating: 0, count: baseSections.count)
        for id in sections.deleted {
            guard let i = base.sectionIndexByID[id] else { throw SnapshotDiffError.unknownSection(String(describing: id)) }
            guard state[i] == 0 else { throw SnapshotDiffError.conflictingChanges(String(describing: id)) }
            state[i] = 1
        }
        for move in sections.moved {
            guard let i = base.sectionIndexByID[move.id] else {
                throw SnapshotDiffError.unknownSection(String(describing: move.id))
            }
            guard i == move.from else {
                throw SnapshotDiffError.sectionPositionMismatch(section: String(describing: move.id),
                                                                from: move.from, actual: i)
            }
            guard state[i] == 0 else { throw SnapshotDiffError.conflictingChanges(String(describing: move.id)) }
            state[i] = 2
        }
        var remaining: [Section] = []
        remaining.reserveCapacity(baseSections.count)
        var detached = [Int: Section]()
        for i in baseSections.indices where state[i] != 1 {
            var section = baseSections[i]
            if touched[i] {
                let start = baseStart[i]
                var kept: [Item] = []
                kept.reserveCapacity(section.items.count)
                for k in section.items.indices where !removed[start + k] { kept.append(section.items[k]) }
                section.items = kept
            }
            if state[i] == 2 { detached[i] = section } else { remaining.append(section) }
        }

        // MARK: Step 2 — sections in ascending index order
        var sectionInsertions: [(index: Int, element: Section)] = sections.inserted.map { ($0.index, $0.section) }
        for move in sections.moved {
            // Every moved section was detached above (its base index is `from`).
            guard let section = detached[move.from] else { throw SnapshotDiffError.unknownSection(String(describing: move.id)) }
            sectionInsertions.append((move.to, section))
        }
        var result = try Self.insert(sectionInsertions, into: remaining, section: nil)

        // MARK: Step 3 — items in ascending index order, per section
        var resultIndex = [SectionID: Int](minimumCapacity: result.count)
        for offset in result.indices where resultIndex.updateValue(offset, forKey: result[offset].id) != nil {
            throw SnapshotDiffError.invalidResult(.duplicateSectionID(String(describing: result[offset].id)))
        }
        var pending = [[(index: Int, element: Item)]](repeating: [], count: result.count)
        for insertion in items.inserted {
            guard let offset = resultIndex[insertion.section] else {
                throw SnapshotDiffError.unknownSection(String(describing: insertion.section))
            }
            pending[offset].append((insertion.index, insertion.item))
        }
        for (n, move) in items.moved.enumerated() {
            guard let offset = resultIndex[move.to.section] else {
                throw SnapshotDiffError.unknownSection(String(describing: move.to.section))
            }
            pending[offset].append((move.to.index, movedItems[n]))
        }
        for offset in result.indices where !pending[offset].isEmpty {
            result[offset].items = try Self.insert(pending[offset], into: result[offset].items,
                                                   section: String(describing: result[offset].id))
        }

        // MARK: Step 4 — contents and headers
        var snapshot: Base
        switch Base.validating(result) {
        case .success(let valid): snapshot = valid
        case .failure(let error): throw SnapshotDiffError.invalidResult(error)
        }
        for update in items.updated {
            guard let location = snapshot.itemLocationByID[update.item.id] else {
                throw SnapshotDiffError.unknownItem(String(describing: update.item.id))
            }
            guard snapshot.storage[location.section].id == update.section else {
                throw SnapshotDiffError.itemNotInSection(item: String(describing: update.item.id),
                                                         section: String(describing: update.section))
            }
            snapshot.storage[location.section].items[location.item].content = update.item.content
        }
        for header in sections.updated {
            guard let offset = snapshot.sectionIndexByID[header.id] else {
                throw SnapshotDiffError.unknownSection(String(describing: header.id))
            }
            snapshot.storage[offset].content = header.content
        }
        return snapshot
    }

    // MARK: - Helpers

    /// Marks the base item at `location` as removed; an item removed twice is a conflict.
    @inlinable
    internal static func markRemoved(_ location: Base.ItemLocation, id: ItemID, baseStart: [Int],
                                     removed: inout [Bool], touched: inout [Bool]) throws {
        let flat = baseStart[location.section] + location.item
        guard !removed[flat] else { throw SnapshotDiffError.conflictingChanges(String(describing: id)) }
        removed[flat] = true
        touched[location.section] = true
    }

    /// Inserts `insertions` into `list` one after the other in ascending index order —
    /// performed as a single merge. `section` names the list in errors (`nil`: the
    /// section list).
    @inlinable
    internal static func insert<Element>(_ insertions: [(index: Int, element: Element)], into list: [Element],
                                         section: String?) throws -> [Element] {
        if insertions.isEmpty { return list }
        let ordered = insertions.sorted { $0.index < $1.index }
        var merged: [Element] = []
        merged.reserveCapacity(list.count + ordered.count)
        var next = 0
        for (done, insertion) in ordered.enumerated() {
            // Length of the list at the moment of this insertion.
            let length = list.count + done
            guard insertion.index >= 0, insertion.index <= length else {
                throw SnapshotDiffError.indexOutOfRange(section: section, index: insertion.index, count: length)
            }
            if done > 0, ordered[done - 1].index == insertion.index {
                throw SnapshotDiffError.duplicateIndex(section: section, index: insertion.index)
            }
            while merged.count < insertion.index {
                merged.append(list[next])
                next += 1
            }
            merged.append(insertion.element)
        }
        merged.append(contentsOf: list[next...])
        return merged
    }

    /// `section[index]`, for error messages.
    @inlinable
    internal static func describe(_ position: ItemPosition) -> String {
        "\(position.section)[\(position.index)]"
    }
}
