// MARK: - SnapshotDiff

/// The changes that turn one ``Snapshot`` (the *base*) into another (the *new* one), in
/// the shape of batch updates of list UIs and of eventd's feed protocol (docs/protocol.md,
/// Diff `changes`).
///
/// Index rules:
/// - deletions and the `from` of moves refer to the **base** snapshot;
/// - the `index` of insertions and the `to` of moves refer to the **new** snapshot;
/// - the items of an inserted section travel inside it and are not listed again;
/// - an item whose base section is deleted is deleted (and listed in
///   ``ItemChanges/deleted``); if its id appears in a surviving section of the new
///   snapshot, it is inserted there, never moved;
/// - ``ItemChanges/moved`` only names sections present in both snapshots;
/// - items and sections that are not reported as moved keep their relative order;
/// - an item whose content changed is in ``ItemChanges/updated`` — also when it moved;
///   a section whose header changed is in ``SectionChanges/updated`` — also when it moved.
///
/// ``apply(to:)`` performs the reference application of docs/protocol.md; for every pair of
/// snapshots, `SnapshotDiff(from: a, to: b).apply(to: a) == b`.
public struct SnapshotDiff<
    SectionID: Hashable & Sendable,
    SectionContent: Equatable & Sendable,
    ItemID: Hashable & Sendable,
    ItemContent: Equatable & Sendable
>: Equatable, Sendable {

    // MARK: - Types

    /// The snapshot type this diff applies to.
    public typealias Base = Snapshot<SectionID, SectionContent, ItemID, ItemContent>
    /// A section with its items.
    public typealias Section = Base.Section
    /// A section without its items.
    public typealias SectionHeader = Base.SectionHeader
    /// An item.
    public typealias Item = Base.Item

    // MARK: - Stored changes

    /// The section-level changes.
    public var sections: SectionChanges
    /// The item-level changes.
    public var items: ItemChanges

    // MARK: - Creating diffs

    /// Creates a diff from explicit changes (for example, decoded from the feed).
    /// ``init(from:to:)`` computes one from two snapshots instead.
    @inlinable
    public init(sections: SectionChanges = SectionChanges(), items: ItemChanges = ItemChanges()) {
        self.sections = sections
        self.items = items
    }

    // MARK: - Inspecting

    /// `true` when the diff changes nothing.
    @inlinable
    public var isEmpty: Bool { sections.isEmpty && items.isEmpty }

    /// The number of listed changes (every entry of every list, an item that is both moved
    /// and updated counting twice).
    @inlinable
    public var changeCount: Int { sections.count + items.count }
}

// MARK: - SectionChanges

extension SnapshotDiff {
    /// Section-level changes, as in the feed's `changes.sections`.
    public struct SectionChanges: Equatable, Sendable {
        /// Identifiers of the base sections that are gone, in base order. Their items go
        /// with them.
        public var deleted: [SectionID]
        /// New sections, with their items, at their indexes in the new snapshot; ascending.
        public var inserted: [SectionInsertion]
        /// Headers of sections present in both snapshots whose header content changed.
        public var updated: [SectionHeader]
        /// Sections present in both snapshots that do not keep their relative order.
        public var moved: [SectionMove]

        /// Creates section changes; every list defaults to empty.
        @inlinable
        public init(deleted: [SectionID] = [], inserted: [SectionInsertion] = [],
                    updated: [SectionHeader] = [], moved: [SectionMove] = []) {
            self.deleted = deleted
            self.inserted = inserted
            self.updated = updated
            self.moved = moved
        }

        /// `true` when no list has an entry.
        @inlinable
        public var isEmpty: Bool { deleted.isEmpty && inserted.isEmpty && updated.isEmpty && moved.isEmpty }

        /// The total number of entries.
        @inlinable
        public var count: Int { deleted.count + inserted.count + updated.count + moved.count }
    }
}

// MARK: - ItemChanges

extension SnapshotDiff {
    /// Item-level changes, as in the feed's `changes.items`.
    public struct ItemChanges: Equatable, Sendable {
        /// Base items that are gone from where they were, in base order, each with its
        /// base section.
        public var deleted: [ItemDeletion]
        /// Items new to a section present in both snapshots, with their new index;
        /// ordered by section (new order), then index.
        public var inserted: [ItemInsertion]
        /// Items that changed place, within a section or between two sections present in
        /// both snapshots; ordered by target.
        public var moved: [ItemMove]
        /// Items present in both snapshots whose content changed, with their new section
        /// and content; ordered by new position.
        public var updated: [ItemUpdate]

        /// Creates item changes; every list defaults to empty.
        @inlinable
        public init(deleted: [ItemDeletion] = [], inserted: [ItemInsertion] = [],
                    moved: [ItemMove] = [], updated: [ItemUpdate] = []) {
            self.deleted = deleted
            self.inserted = inserted
            self.moved = moved
            self.updated = updated
        }

        /// `true` when no list has an entry.
        @inlinable
        public var isEmpty: Bool { deleted.isEmpty && inserted.isEmpty && moved.isEmpty && updated.isEmpty }

        /// The total number of entries.
        @inlinable
        public var count: Int { deleted.count + inserted.count + moved.count + updated.count }
    }
}
