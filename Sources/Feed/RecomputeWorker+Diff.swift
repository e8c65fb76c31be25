import FeedProtocol
import Agenda
import SectionedDiff

extension RecomputeWorker {
    /// The changes from `old` to `new`. When the engine built `new` from `old` (`change`
    /// starts at `old`'s digest), only the sections it touched are diffed; the result is
    /// the same as the whole diff (`SnapshotDiff.restricted` says why), which stays the
    /// fallback. The ids' indexes are built for the diffed sections only, and dropped after.
    static func diff(from old: AgendaSnapshot, to new: AgendaSnapshot, change: SnapshotChange?) throws -> FeedDiff {
        if let change, change.baseDigest == old.digest, old.today == new.today,
           let restricted = try FeedDiff.restricted(
               old: old.sections.map(\.id), new: new.sections.map(\.id), changed: change.sectionIDs,
               oldSection: { old.sections[$0].feedSection }, newSection: { new.sections[$0].feedSection }) {
            return restricted
        }
        return FeedDiff(from: try old.feedSnapshot, to: try new.feedSnapshot)
    }
}

extension AgendaSection {
    /// The section in the diff engine's form: ids, and the items' JSON as they hold it
    /// (`ItemJSON`: equal exactly when the full JSON is, and shared, not copied; a
    /// whole diff of a year-long view would otherwise copy every item twice).
    /// `Messages.diff` writes the contents of the items it sends in full.
    var feedSection: FeedSnapshot.Section {
        FeedSnapshot.Section(id: id, content: headerJSON, items: items.map { FeedSnapshot.Item(id: $0.id, content: $0.compactJSON) })
    }
}
