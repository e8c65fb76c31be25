// MARK: - Counts

extension Snapshot {
    /// `true` when the snapshot has no sections (and therefore no items).
    @inlinable
    public var isEmpty: Bool { sections.isEmpty }

    /// The number of items in all sections.
    @inlinable
    public var itemCount: Int { itemLocationByID.count }

    /// The section identifiers, in order.
    @inlinable
    public var sectionIDs: [SectionID] { sections.map(\.id) }

    /// The item identifiers of all sections, section after section.
    @inlinable
    public var itemIDs: [ItemID] {
        var ids: [ItemID] = []
        ids.reserveCapacity(itemCount)
        for section in sections {
            for item in section.items { ids.append(item.id) }
        }
        return ids
    }
}

// MARK: - Sections

extension Snapshot {
    /// The offset of the section with identifier `id` in ``sections``, or `nil`.
    /// - Complexity: O(1) expected.
    @inlinable
    public func index(ofSection id: SectionID) -> Int? {
        sectionIndexByID[id]
    }

    /// The section with identifier `id`, or `nil`.
    /// - Complexity: O(1) expected.
    @inlinable
    public func section(withID id: SectionID) -> Section? {
        sectionIndexByID[id].map { sections[$0] }
    }

    /// `true` when a section has identifier `id`.
    @inlinable
    public func contains(section id: SectionID) -> Bool {
        sectionIndexByID[id] != nil
    }

    /// The items of the section with identifier `id`, or `nil` when there is no such
    /// section.
    @inlinable
    public func items(inSection id: SectionID) -> [Item]? {
        sectionIndexByID[id].map { sections[$0].items }
    }
}

// MARK: - Items

extension Snapshot {
    /// The position of the item with identifier `id`, or `nil`.
    /// - Complexity: O(1) expected.
    @inlinable
    public func location(ofItem id: ItemID) -> ItemLocation? {
        itemLocationByID[id]
    }

    /// The item with identifier `id`, or `nil`.
    /// - Complexity: O(1) expected.
    @inlinable
    public func item(withID id: ItemID) -> Item? {
        itemLocationByID[id].map { sections[$0.section].items[$0.item] }
    }

    /// The identifier of the section that holds the item with identifier `id`, or `nil`.
    /// - Complexity: O(1) expected.
    @inlinable
    public func sectionID(ofItem id: ItemID) -> SectionID? {
        itemLocationByID[id].map { sections[$0.section].id }
    }

    /// `true` when an item, in any section, has identifier `id`.
    @inlinable
    public func contains(item id: ItemID) -> Bool {
        itemLocationByID[id] != nil
    }

    /// The item at `location`, or `nil` when the location is out of range.
    @inlinable
    public subscript(location: ItemLocation) -> Item? {
        guard sections.indices.contains(location.section) else { return nil }
        let items = sections[location.section].items
        guard items.indices.contains(location.item) else { return nil }
        return items[location.item]
    }
}

// MARK: - Diffing

extension Snapshot {
    /// The changes that turn this snapshot into `other`; shorthand for
    /// ``SnapshotDiff/init(from:to:)``.
    @inlinable
    public func diff(to other: Snapshot) -> SnapshotDiff<SectionID, SectionContent, ItemID, ItemContent> {
        SnapshotDiff(from: self, to: other)
    }

    /// This snapshot with `diff` applied; shorthand for ``SnapshotDiff/apply(to:)``.
    /// - Throws: ``SnapshotDiffError`` when the diff does not fit this snapshot.
    @inlinable
    public func applying(_ diff: SnapshotDiff<SectionID, SectionContent, ItemID, ItemContent>) throws -> Snapshot {
        try diff.apply(to: self)
    }
}

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
