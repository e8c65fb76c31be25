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
