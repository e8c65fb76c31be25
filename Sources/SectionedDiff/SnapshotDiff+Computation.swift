// MARK: - Computing a diff

extension SnapshotDiff {
    /// Computes the changes that turn `old` into `new`.
    ///
    /// The algorithm is Heckel-style: elements are matched by identifier, never by
    /// comparing sequences. Sections are matched through the base snapshot's id → index
    /// table. Within each section present in both snapshots, a common prefix and suffix is
    /// matched by plain id comparison; in the middle, Heckel's neighbour rule guesses that
    /// the successor (or the one after it) of the previous match is the next match, and
    /// only when that fails is the base's id → position table consulted. A guess is
    /// checked by id equality, and ids are unique, so guessing changes speed, never the
    /// result. Unchanged sections therefore cost no hashing at all.
    ///
    /// Then, for the sections present in both snapshots, and for the items that stay in
    /// the same surviving section, a longest increasing subsequence of base positions
    /// (taken in new order, patience sorting) stays in place and every other element is a
    /// move: the fewest moves that restore the new order. Items that change section
    /// (between two surviving sections) are always moves.
    ///
    /// The result follows the index rules of ``SnapshotDiff`` and satisfies
    /// `SnapshotDiff(from: old, to: new).apply(to: old) == new`.
    ///
    /// - Complexity: O(*n* + *m* log *m*) expected, where *n* counts the sections and items
    ///   of both snapshots and *m* the reordered survivors of the largest section. No
    ///   quadratic path. The id → position tables are built once by
    ///   ``Snapshot/init(sections:)`` (which validates ids through them), not here.
    @inlinable
    public init(from old: Base, to new: Base) {
        self.init()
        let oldSections = old.sections
        let newSections = new.sections

        // MARK: Sections
        var newOffsetOfOld = [Int](repeating: -1, count: oldSections.count)
        var oldOffsetOfNew = [Int](repeating: -1, count: newSections.count)
        for j in newSections.indices {
            let id = newSections[j].id
            let match = j < oldSections.count && oldSections[j].id == id ? j : old.sectionIndexByID[id]
            if let i = match {
                oldOffsetOfNew[j] = i
                newOffsetOfOld[i] = j
            }
        }
        for i in oldSections.indices where newOffsetOfOld[i] < 0 {
            sections.deleted.append(oldSections[i].id)
        }
        var survivorBaseOffsets: [Int] = []
        var survivorNewOffsets: [Int] = []
        for j in newSections.indices {
            let i = oldOffsetOfNew[j]
            if i < 0 {
                sections.inserted.append(SectionInsertion(index: j, section: newSections[j]))
                continue
            }
            survivorBaseOffsets.append(i)
            survivorNewOffsets.append(j)
            if oldSections[i].content != newSections[j].content {
                sections.updated.append(newSections[j].header)
            }
        }
        var stays: [Bool] = []
        LongestIncreasingSubsequence.mark(survivorBaseOffsets, into: &stays)
        for k in survivorBaseOffsets.indices where !stays[k] {
            let i = survivorBaseOffsets[k]
            sections.moved.append(SectionMove(id: oldSections[i].id, from: i, to: survivorNewOffsets[k]))
        }

        // MARK: Items
        var baseStart = [Int](repeating: 0, count: oldSections.count + 1)
        for i in oldSections.indices { baseStart[i + 1] = baseStart[i] + oldSections[i].items.count }
        var survives = [Bool](repeating: false, count: baseStart[oldSections.count])
        var scratch = Scratch()
        for j in newSections.indices where oldOffsetOfNew[j] >= 0 {
            diffItems(of: newSections[j], baseOffset: oldOffsetOfNew[j], old: old,
                      newOffsetOfOld: newOffsetOfOld, baseStart: baseStart,
                      survives: &survives, scratch: &scratch)
        }
        for i in oldSections.indices {
            let start = baseStart[i]
            let section = oldSections[i]
            let baseItems = section.items
            for k in baseItems.indices where !survives[start + k] {
                items.deleted.append(ItemDeletion(id: baseItems[k].id, section: section.id))
            }
        }
    }

    // MARK: - Items of one surviving section

    /// Reusable buffers for ``diffItems(of:baseOffset:old:newOffsetOfOld:baseStart:survives:scratch:)``.
    @usableFromInline
    internal struct Scratch {
        /// Base section offset of each middle item's match, or -1 (an insertion).
        @usableFromInline var sourceSection: [Int] = []
        /// Base item offset of each middle item's match.
        @usableFromInline var sourceItem: [Int] = []
        /// Base item offsets of the middle items that stay in their section, new order.
        @usableFromInline var candidates: [Int] = []
        /// Longest-increasing-subsequence membership of `candidates`.
        @usableFromInline var stays: [Bool] = []

        @inlinable init() {}
    }

    /// Appends the item changes of one section present in both snapshots: insertions,
    /// moves into it and within it, and updates; marks the base items that survive.
    @inlinable
    internal mutating func diffItems(
        of section: Section, baseOffset i: Int, old: Base,
        newOffsetOfOld: [Int], baseStart: [Int],
        survives: inout [Bool], scratch: inout Scratch
    ) {
        let oldSections = old.sections
        let oldItems = oldSections[i].items
        let newItems = section.items
        let sectionID = section.id
        let start = baseStart[i]

        // Common prefix and suffix: same ids at the same ends, so they stay in place.
        let limit = Swift.min(oldItems.count, newItems.count)
        var prefix = 0
        while prefix < limit && oldItems[prefix].id == newItems[prefix].id { prefix += 1 }
        var suffix = 0
        while suffix < limit - prefix
            && oldItems[oldItems.count - 1 - suffix].id == newItems[newItems.count - 1 - suffix].id {
            suffix += 1
        }
        for k in 0..<prefix {
            survives[start + k] = true
            if oldItems[k].content != newItems[k].content {
                items.updated.append(ItemUpdate(section: sectionID, item: newItems[k]))
            }
        }

        // Middle: match by id. Heckel's neighbour rule first: the item after a match in
        // the base is the likeliest match for the next new item (ids are unique, so equal
        // ids are the same item); the index is consulted only when that guess, and the
        // one after it (a single deletion), both fail.
        let middle = prefix..<(newItems.count - suffix)
        let oldMiddleEnd = oldItems.count - suffix
        scratch.sourceSection.removeAll(keepingCapacity: true)
        scratch.sourceItem.removeAll(keepingCapacity: true)
        scratch.candidates.removeAll(keepingCapacity: true)
        var guess = prefix
        for k in middle {
            let id = newItems[k].id
            var neighbour = -1
            if guess < oldMiddleEnd {
                if oldItems[guess].id == id {
                    neighbour = guess
                } else if guess + 1 < oldMiddleEnd && oldItems[guess + 1].id == id {
                    neighbour = guess + 1
                }
            }
            if neighbour >= 0 {
                survives[start + neighbour] = true
                scratch.sourceSection.append(i)
                scratch.sourceItem.append(neighbour)
                scratch.candidates.append(neighbour)
                guess = neighbour + 1
                continue
            }
            if let location = old.itemLocationByID[id], newOffsetOfOld[location.section] >= 0 {
                if location.section == i { guess = location.item + 1 }
                survives[baseStart[location.section] + location.item] = true
                scratch.sourceSection.append(location.section)
                scratch.sourceItem.append(location.item)
                if location.section == i { scratch.candidates.append(location.item) }
            } else {
                // New, or its base section is deleted: an insertion here.
                scratch.sourceSection.append(-1)
                scratch.sourceItem.append(-1)
            }
        }
        LongestIncreasingSubsequence.mark(scratch.candidates, into: &scratch.stays)
        var candidate = 0
        for k in middle {
            let m = k - prefix
            let s = scratch.sourceSection[m]
            let item = newItems[k]
            if s < 0 {
                items.inserted.append(ItemInsertion(section: sectionID, index: k, item: item))
                continue
            }
            let from = scratch.sourceItem[m]
            var moved = true
            if s == i {
                moved = !scratch.stays[candidate]
                candidate += 1
            }
            if moved {
                items.moved.append(ItemMove(id: item.id, from: ItemPosition(section: oldSections[s].id, index: from),
                                            to: ItemPosition(section: sectionID, index: k)))
            }
            if oldSections[s].items[from].content != item.content {
                items.updated.append(ItemUpdate(section: sectionID, item: item))
            }
        }

        // Suffix.
        let oldSuffixStart = oldItems.count - suffix
        for n in 0..<suffix {
            let k = newItems.count - suffix + n
            survives[start + oldSuffixStart + n] = true
            if oldItems[oldSuffixStart + n].content != newItems[k].content {
                items.updated.append(ItemUpdate(section: sectionID, item: newItems[k]))
            }
        }
    }
}

// MARK: - A diff of the changed sections only

extension SnapshotDiff {
    /// The diff from `old` to `new` computed from the sections named in `changed` only.
    ///
    /// For a caller that knows which sections a change touched (an incremental
    /// recompute): every section whose id is not in `changed` must be in both snapshots
    /// with the same header and the same items in the same order, and item ids must be
    /// unique across each whole snapshot. The unchanged sections then contribute nothing
    /// to ``init(from:to:)``'s result (their prefix matches end to end), every item of a
    /// changed section was and stays in changed sections, and the changes are emitted in
    /// section order; so the result equals the whole diff once each section insertion's
    /// index is taken in the whole new snapshot. Only that is rewritten here.
    ///
    /// - Parameters:
    ///   - oldIDs: the section ids of the base snapshot, in order.
    ///   - newIDs: the section ids of the new snapshot, in order.
    ///   - oldSection: the base's section at an offset of `oldIDs` (asked only for changed ones).
    ///   - newSection: the new snapshot's section at an offset of `newIDs` (likewise).
    /// - Returns: nil when a surviving section changes place (then section moves depend on
    ///   the unchanged sections too, and the caller diffs the whole snapshots).
    /// - Throws: ``SnapshotError`` when the changed sections repeat an id.
    /// - Complexity: O(*s* + *n* + *m* log *m*), *s* counting the section ids and *n* the
    ///   items of the changed sections only.
    public static func restricted(
        old oldIDs: [SectionID], new newIDs: [SectionID], changed: Set<SectionID>,
        oldSection: (Int) -> Section, newSection: (Int) -> Section
    ) throws -> SnapshotDiff? {
        var oldOffset = [SectionID: Int](minimumCapacity: oldIDs.count)
        for (i, id) in oldIDs.enumerated() { oldOffset[id] = i }
        var last = -1
        for id in newIDs {
            guard let i = oldOffset[id] else { continue }
            if i < last { return nil }
            last = i
        }
        let oldPart = try Base(sections: oldIDs.indices.filter { changed.contains(oldIDs[$0]) }.map(oldSection))
        let newOffsets = newIDs.indices.filter { changed.contains(newIDs[$0]) }
        let newPart = try Base(sections: newOffsets.map(newSection))
        var diff = SnapshotDiff(from: oldPart, to: newPart)
        // An insertion's index counts the sections before it in the whole new snapshot.
        diff.sections.inserted = diff.sections.inserted.map {
            SectionInsertion(index: newOffsets[$0.index], section: $0.section)
        }
        return diff
    }
}
