/// Which sections of a view's previous snapshot a build may have changed: every other
/// section of the new snapshot is the previous one's, unchanged. The recompute thread
/// then diffs only these (`SnapshotDiff.restricted`).
public struct SnapshotChange: Sendable, Equatable {
    /// The digest of the snapshot the change starts from.
    public var baseDigest: String
    /// The section ids (ISO dates) that may differ, present in either snapshot or both.
    public var sectionIDs: Set<String>

    /// A change from the snapshot with `baseDigest`, touching `sectionIDs`.
    public init(baseDigest: String, sectionIDs: Set<String>) {
        self.baseDigest = baseDigest
        self.sectionIDs = sectionIDs
    }
}
