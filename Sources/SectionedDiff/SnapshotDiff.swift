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

// MARK: - SnapshotDiffError

/// Why a ``SnapshotDiff`` does not fit the snapshot it is applied to.
///
/// Identifiers are carried as their `String(describing:)` rendering, so the error type
/// does not depend on the snapshot's generic parameters.
public enum SnapshotDiffError: Error, Equatable, Hashable, Sendable {
    /// A deletion, move or update names a section that the snapshot does not have at
    /// that step of the application.
    case unknownSection(String)
    /// A deletion, move or update names an item that the snapshot does not have.
    case unknownItem(String)
    /// An item deletion or update names the item under a section that does not hold it.
    case itemNotInSection(item: String, section: String)
    /// A section move's `from` is not the section's index in the base snapshot.
    case sectionPositionMismatch(section: String, from: Int, actual: Int)
    /// An item move's `from` is not the item's position in the base snapshot.
    case itemPositionMismatch(item: String, from: String, actual: String)
    /// A section, or an item, is named by more than one deletion or move.
    case conflictingChanges(String)
    /// Two insertions (or move targets) claim the same index; `section` is `nil` at
    /// section level.
    case duplicateIndex(section: String?, index: Int)
    /// An insertion (or move target) index is negative or past the end at the moment it
    /// is performed; `section` is `nil` at section level.
    case indexOutOfRange(section: String?, index: Int, count: Int)
    /// The result would not be a valid snapshot (for example, an inserted id already
    /// exists).
    case invalidResult(SnapshotError)
}

// MARK: - CustomStringConvertible

extension SnapshotDiffError: CustomStringConvertible {
    /// A one-line English explanation of the misfit.
    public var description: String { "diff does not fit: " + misfit }

    /// What does not fit, after the common prefix.
    private var misfit: String {
        switch self {
        case .unknownSection(let id): "no section '\(id)'"
        case .unknownItem(let id): "no item '\(id)'"
        case .itemNotInSection(let item, let section): "item '\(item)' is not in section '\(section)'"
        case .sectionPositionMismatch(let section, let from, let actual):
            "section '\(section)' moves from index \(from) but is at index \(actual)"
        case .itemPositionMismatch(let item, let from, let actual): "item '\(item)' moves from \(from) but is at \(actual)"
        case .conflictingChanges(let id): "'\(id)' is deleted or moved more than once"
        case .duplicateIndex(let section, let index): "two insertions at index \(index)" + Self.where(section)
        case .indexOutOfRange(let section, let index, let count): "index \(index) out of range 0...\(count)" + Self.where(section)
        case .invalidResult(let error): "the result is not a valid snapshot: \(error)"
        }
    }

    private static func `where`(_ section: String?) -> String {
        section.map { " in section '\($0)'" } ?? " among sections"
    }
}

extension SnapshotDiff {
    /// The same changes with every item's content passed through `transform`: a diff
    /// computed on contents cheap to compare (shared references, compact forms) and then
    /// given the contents its readers want, for the few items it carries.
    public func mapItemContents<NewContent: Equatable & Sendable>(
        _ transform: (ItemContent) throws -> NewContent
    ) rethrows -> SnapshotDiff<SectionID, SectionContent, ItemID, NewContent> {
        typealias Mapped = SnapshotDiff<SectionID, SectionContent, ItemID, NewContent>
        func item(_ x: Item) throws -> Mapped.Item { Mapped.Item(id: x.id, content: try transform(x.content)) }
        let sectionChanges = Mapped.SectionChanges(
            deleted: sections.deleted,
            inserted: try sections.inserted.map { x in
                Mapped.SectionInsertion(index: x.index, section: Mapped.Section(
                    id: x.section.id, content: x.section.content, items: try x.section.items.map(item)))
            },
            updated: sections.updated.map { Mapped.SectionHeader(id: $0.id, content: $0.content) },
            moved: sections.moved.map { Mapped.SectionMove(id: $0.id, from: $0.from, to: $0.to) })
        func position(_ p: ItemPosition) -> Mapped.ItemPosition { Mapped.ItemPosition(section: p.section, index: p.index) }
        let itemChanges = Mapped.ItemChanges(
            deleted: items.deleted.map { Mapped.ItemDeletion(id: $0.id, section: $0.section) },
            inserted: try items.inserted.map { Mapped.ItemInsertion(section: $0.section, index: $0.index, item: try item($0.item)) },
            moved: items.moved.map { Mapped.ItemMove(id: $0.id, from: position($0.from), to: position($0.to)) },
            updated: try items.updated.map { Mapped.ItemUpdate(section: $0.section, item: try item($0.item)) })
        return Mapped(sections: sectionChanges, items: itemChanges)
    }
}
