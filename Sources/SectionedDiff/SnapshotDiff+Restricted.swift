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
