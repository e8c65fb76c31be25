// MARK: - Section

extension Snapshot {
    /// One section of a snapshot: its identifier, its header content and its items.
    public struct Section: Equatable, Sendable {
        /// The section's identifier, unique within the snapshot.
        public var id: SectionID
        /// The section's header content (everything but the items).
        public var content: SectionContent
        /// The section's items, in display order.
        public var items: [Item]

        /// Creates a section.
        @inlinable
        public init(id: SectionID, content: SectionContent, items: [Item] = []) {
            self.id = id
            self.content = content
            self.items = items
        }

        /// The section without its items.
        @inlinable
        public var header: SectionHeader { SectionHeader(id: id, content: content) }
    }
}

// MARK: - SectionHeader

extension Snapshot {
    /// A section without its items: what ``SnapshotDiff`` reports when only the header of a
    /// section changed.
    public struct SectionHeader: Equatable, Sendable {
        /// The section's identifier.
        public var id: SectionID
        /// The section's header content.
        public var content: SectionContent

        /// Creates a section header.
        @inlinable
        public init(id: SectionID, content: SectionContent) { (self.id, self.content) = (id, content) }
    }
}

// MARK: - Item

extension Snapshot {
    /// One item of a section: its identifier and its content.
    public struct Item: Equatable, Sendable {
        /// The item's identifier, unique across the whole snapshot.
        public var id: ItemID
        /// The item's content. A change of content under the same id is an update.
        public var content: ItemContent

        /// Creates an item.
        @inlinable
        public init(id: ItemID, content: ItemContent) { (self.id, self.content) = (id, content) }
    }
}

// MARK: - ItemLocation

extension Snapshot {
    /// The position of an item: the offset of its section in ``Snapshot/sections`` and
    /// its offset within that section's items.
    public struct ItemLocation: Hashable, Sendable {
        /// Offset of the section in ``Snapshot/sections``.
        public var section: Int
        /// Offset of the item in the section's ``Snapshot/Section/items``.
        public var item: Int

        /// Creates a location.
        @inlinable
        public init(section: Int, item: Int) { (self.section, self.item) = (section, item) }
    }
}
