// MARK: - Section changes

extension SnapshotDiff {
    /// A section inserted at `index` of the new snapshot, carrying its items.
    public struct SectionInsertion: Equatable, Sendable {
        /// The section's index in the new snapshot.
        public var index: Int
        /// The section, with all its items.
        public var section: Section

        /// Creates a section insertion.
        @inlinable
        public init(index: Int, section: Section) { (self.index, self.section) = (index, section) }
    }

    /// A section present in both snapshots that moved from index `from` of the base to
    /// index `to` of the new snapshot. It travels with its items.
    public struct SectionMove: Equatable, Sendable {
        /// The section's identifier.
        public var id: SectionID
        /// The section's index in the base snapshot.
        public var from: Int
        /// The section's index in the new snapshot.
        public var to: Int

        /// Creates a section move.
        @inlinable
        public init(id: SectionID, from: Int, to: Int) { (self.id, self.from, self.to) = (id, from, to) }
    }
}

// MARK: - Item changes

extension SnapshotDiff {
    /// An item position: a section identifier and an index within that section.
    public struct ItemPosition: Hashable, Sendable {
        /// The section's identifier.
        public var section: SectionID
        /// The item's index within the section.
        public var index: Int

        /// Creates an item position.
        @inlinable
        public init(section: SectionID, index: Int) { (self.section, self.index) = (section, index) }
    }

    /// An item removed from `section` of the base snapshot.
    public struct ItemDeletion: Equatable, Sendable {
        /// The item's identifier.
        public var id: ItemID
        /// The identifier of the item's section in the base snapshot.
        public var section: SectionID

        /// Creates an item deletion.
        @inlinable
        public init(id: ItemID, section: SectionID) { (self.id, self.section) = (id, section) }
    }

    /// An item inserted at `index` of `section` in the new snapshot.
    public struct ItemInsertion: Equatable, Sendable {
        /// The identifier of the section that receives the item (present in both snapshots).
        public var section: SectionID
        /// The item's index within the section in the new snapshot.
        public var index: Int
        /// The item, with its content.
        public var item: Item

        /// Creates an item insertion.
        @inlinable
        public init(section: SectionID, index: Int, item: Item) { (self.section, self.index, self.item) = (section, index, item) }
    }

    /// An item that moved from a position in the base snapshot to a position in the new
    /// one; both sections are present in both snapshots. A move carries no content: a
    /// content change is listed separately in ``ItemChanges/updated``.
    public struct ItemMove: Equatable, Sendable {
        /// The item's identifier.
        public var id: ItemID
        /// Where the item was, in the base snapshot.
        public var from: ItemPosition
        /// Where the item is, in the new snapshot.
        public var to: ItemPosition

        /// Creates an item move.
        @inlinable
        public init(id: ItemID, from: ItemPosition, to: ItemPosition) { (self.id, self.from, self.to) = (id, from, to) }
    }

    /// An item whose content changed; `section` is its section in the new snapshot.
    public struct ItemUpdate: Equatable, Sendable {
        /// The identifier of the item's section in the new snapshot.
        public var section: SectionID
        /// The item with its new content.
        public var item: Item

        /// Creates an item update.
        @inlinable
        public init(section: SectionID, item: Item) { (self.section, self.item) = (section, item) }
    }
}
