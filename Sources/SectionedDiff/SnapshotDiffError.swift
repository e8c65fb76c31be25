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
