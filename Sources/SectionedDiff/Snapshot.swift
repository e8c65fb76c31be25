// MARK: - Snapshot

/// An ordered list of uniquely identified sections, each holding an ordered list of
/// uniquely identified items: the state that a diffable list shows.
///
/// Invariants, checked by ``init(sections:)``:
/// - section identifiers are unique;
/// - item identifiers are unique across the **whole** snapshot, not only within their
///   section (an item id names exactly one place).
///
/// A snapshot keeps an index from every identifier to its position, built once when it is
/// created, so that lookups such as ``location(ofItem:)`` and the computation of a
/// ``SnapshotDiff`` never search linearly.
///
/// The four generic parameters are the identifier and content types of sections and
/// items. Contents only need to be `Equatable`: a change of content with the same
/// identifier is an *update*, never an insert or delete.
public struct Snapshot<
    SectionID: Hashable & Sendable,
    SectionContent: Equatable & Sendable,
    ItemID: Hashable & Sendable,
    ItemContent: Equatable & Sendable
>: Sendable {

    // MARK: - Stored state

    /// The sections, in order, each with its items in order.
    @inlinable
    public var sections: [Section] { storage }

    /// The sections; only the library mutates them, and never their identifiers.
    @usableFromInline
    internal var storage: [Section]

    /// Position of every section in ``sections``, keyed by section id.
    @usableFromInline
    internal let sectionIndexByID: [SectionID: Int]

    /// Position of every item, keyed by item id.
    @usableFromInline
    internal let itemLocationByID: [ItemID: ItemLocation]

    // MARK: - Creating snapshots

    /// Creates an empty snapshot: no sections, no items.
    @inlinable
    public init() {
        self.init(storage: [], sectionIndexByID: [:], itemLocationByID: [:])
    }

    /// Creates a snapshot from sections in display order.
    ///
    /// - Throws: ``SnapshotError/duplicateSectionID(_:)`` when two sections share an id,
    ///   ``SnapshotError/duplicateItemID(_:)`` when two items anywhere in the snapshot
    ///   share an id. The error names the first duplicate met in display order.
    /// - Complexity: O(*n*) expected, where *n* is the number of sections plus items.
    @inlinable
    public init(sections: [Section]) throws {
        switch Self.validating(sections) {
        case .success(let snapshot): self = snapshot
        case .failure(let error): throw error
        }
    }

    /// Stores already validated state.
    @inlinable
    internal init(storage: [Section], sectionIndexByID: [SectionID: Int],
                  itemLocationByID: [ItemID: ItemLocation]) {
        self.storage = storage
        self.sectionIndexByID = sectionIndexByID
        self.itemLocationByID = itemLocationByID
    }

    /// Validates `sections` and builds their indexes.
    @inlinable
    internal static func validating(_ sections: [Section]) -> Result<Snapshot, SnapshotError> {
        var sectionIndex = [SectionID: Int](minimumCapacity: sections.count)
        var total = 0
        for section in sections { total += section.items.count }
        var itemLocation = [ItemID: ItemLocation](minimumCapacity: total)
        for sectionOffset in sections.indices {
            let section = sections[sectionOffset]
            if sectionIndex.updateValue(sectionOffset, forKey: section.id) != nil {
                return .failure(.duplicateSectionID(String(describing: section.id)))
            }
            let items = section.items
            for itemOffset in items.indices {
                let location = ItemLocation(section: sectionOffset, item: itemOffset)
                if itemLocation.updateValue(location, forKey: items[itemOffset].id) != nil {
                    return .failure(.duplicateItemID(String(describing: items[itemOffset].id)))
                }
            }
        }
        return .success(Snapshot(storage: sections, sectionIndexByID: sectionIndex, itemLocationByID: itemLocation))
    }

    /// Creates a snapshot from `(header content, items)` pairs keyed by section id, a
    /// shorthand for ``init(sections:)``.
    ///
    /// - Throws: the errors of ``init(sections:)``.
    @inlinable
    public init(_ sections: [(id: SectionID, content: SectionContent, items: [Item])]) throws {
        try self.init(sections: sections.map { Section(id: $0.id, content: $0.content, items: $0.items) })
    }

    /// An empty snapshot.
    @inlinable
    public static var empty: Snapshot { Snapshot() }
}

// MARK: - Equatable

extension Snapshot: Equatable {
    /// Two snapshots are equal when they hold equal sections (ids, header contents and
    /// items, in the same order). The internal indexes are derived data and not compared.
    @inlinable
    public static func == (lhs: Snapshot, rhs: Snapshot) -> Bool {
        lhs.storage == rhs.storage
    }
}

// MARK: - CustomStringConvertible

extension Snapshot: CustomStringConvertible {
    /// A compact rendering, one section per line: `id: [item, item, …]`.
    public var description: String {
        if sections.isEmpty { return "Snapshot(empty)" }
        var lines = ["Snapshot("]
        for section in sections {
            let items = section.items.map { String(describing: $0.id) }.joined(separator: ", ")
            lines.append("  \(section.id) (\(section.content)): [\(items)]")
        }
        lines.append(")")
        return lines.joined(separator: "\n")
    }
}

// MARK: - SnapshotError

/// Why a list of sections is not a valid ``Snapshot``.
///
/// The offending identifier is carried as its `String(describing:)` rendering, so the
/// error type does not depend on the snapshot's generic parameters.
public enum SnapshotError: Error, Equatable, Hashable, Sendable {
    /// Two sections have this identifier.
    case duplicateSectionID(String)
    /// Two items (in the same section or in different ones) have this identifier.
    case duplicateItemID(String)
}

// MARK: - CustomStringConvertible

extension SnapshotError: CustomStringConvertible {
    /// A one-line English explanation naming the duplicate identifier.
    public var description: String {
        switch self {
        case .duplicateSectionID(let id):
            return "duplicate section id '\(id)': section ids must be unique"
        case .duplicateItemID(let id):
            return "duplicate item id '\(id)': item ids must be unique across the whole snapshot"
        }
    }
}
