import Agenda
import CanonicalJSON
import FeedProtocol

/// The daemon's two large messages, written from an `AgendaSnapshot` straight into the
/// line by FeedProtocol's encoders (the other messages are `FeedMessage`'s own).
public enum Messages {
    /// The sections are written straight into the line (reserved once at about its
    /// size), so a year-long view's tens of megabytes exist once, not three times.
    public static func snapshot(epoch: String, seq: Int64, snapshot: AgendaSnapshot) -> [UInt8] {
        FeedMessage.snapshot(digest: snapshot.digest, epoch: epoch, seq: seq, view: snapshot.view.fields,
                             protocolVersion: snapshot.view.digestVersion.rawValue, reserving: snapshot.sectionsSize + 512) { snapshot.writeSections(into: &$0) }
    }

    /// A `diff` message turning the base snapshot into `new`.
    public static func diff(epoch: String, seq: Int64, new: AgendaSnapshot, changes: FeedDiff) -> [UInt8] {
        FeedMessage.diff(epoch: epoch, seq: seq, digest: new.digest, protocolVersion: new.view.digestVersion.rawValue) { w in
            // An inserted section travels with its items: its whole JSON, found once.
            var sectionJSON: [String: [UInt8]] = [:]
            for inserted in changes.sections.inserted {
                if let s = new.sections.first(where: { $0.id == inserted.section.id }) { sectionJSON[s.id] = s.json }
            }
            FeedChanges.write(changes, sectionJSON: { sectionJSON[$0] }, into: &w)
        }
    }
}

extension AgendaSnapshot {
    /// The snapshot in the diff engine's form (ids and canonical JSON contents; a copy
    /// of every item's JSON, for tests and tools).
    public var feedSnapshot: FeedSnapshot {
        get throws {
            try FeedSnapshot(sections: sections.map { s in
                FeedSnapshot.Section(id: s.id, content: s.headerJSON, items: s.items.map { .init(id: $0.id, content: $0.json) })
            })
        }
    }
}
