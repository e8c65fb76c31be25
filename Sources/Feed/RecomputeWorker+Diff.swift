import FeedProtocol
import Agenda
import SectionedDiff

extension RecomputeWorker {
    /// The diff engine's form of a view with the items themselves as contents: equal
    /// items compare as one pointer (the engine shares unchanged items between builds)
    /// or by their compact JSON, and nothing is copied to diff a year-long view.
    typealias ItemsSnapshot = Snapshot<String, [UInt8], String, AgendaItem>
    typealias ItemsDiff = SnapshotDiff<String, [UInt8], String, AgendaItem>

    /// The changes from `old` to `new`. When the engine built `new` from `old` (`change`
    /// starts at `old`'s digest), only the sections it touched are diffed; the result is
    /// the same as the whole diff (`SnapshotDiff.restricted` says why), which stays the
    /// fallback. The ids' indexes are built for the diffed sections only, and dropped
    /// after. The items the diff carries get their JSON at the end.
    static func diff(from old: AgendaSnapshot, to new: AgendaSnapshot, change: SnapshotChange?) throws -> FeedDiff {
        if let change, change.baseDigest == old.digest, old.today == new.today,
           let restricted = try ItemsDiff.restricted(
               old: old.sections.map(\.id), new: new.sections.map(\.id), changed: change.sectionIDs,
               oldSection: { old.sections[$0].itemsSection }, newSection: { new.sections[$0].itemsSection }) {
            return restricted.mapItemContents(\.json)
        }
        let whole = ItemsDiff(from: try ItemsSnapshot(sections: old.sections.map(\.itemsSection)),
                              to: try ItemsSnapshot(sections: new.sections.map(\.itemsSection)))
        return whole.mapItemContents(\.json)
    }
}

extension AgendaSection {
    /// The section in the diff engine's form, its items as they are.
    var itemsSection: RecomputeWorker.ItemsSnapshot.Section {
        RecomputeWorker.ItemsSnapshot.Section(id: id, content: headerJSON, items: items.map { .init(id: $0.id, content: $0) })
    }
}
