import Agenda
import LiveSources
import SectionedDiff
import CanonicalJSON
import Diagnostics

/// The snapshot form the diff engine works on: sections by date, items by id, both
/// with their canonical JSON as content.
public typealias FeedSnapshot = Snapshot<String, [UInt8], String, [UInt8]>
public typealias FeedDiff = SnapshotDiff<String, [UInt8], String, [UInt8]>

/// Encodes the daemon's NDJSON messages (docs/protocol.md). Every message is one
/// line: a JSON object with `type` first, ending in `\n`.
public enum Messages {
    public static let protocolVersion = 1
    public static let serverName = ProductVersion.token

    static func line(reserving capacity: Int = 256, _ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: capacity)
        w.beginObject()
        body(&w)
        w.endObject()
        var bytes = w.takeBytes()
        bytes.append(10)
        return bytes
    }

    public static func hello(epoch: String) -> [UInt8] {
        line { w in
            w.key("type"); w.string("hello")
            w.key("epoch"); w.string(epoch)
            w.key("protocol"); w.int(protocolVersion)
            w.key("server"); w.string(serverName)
        }
    }

    /// The sections are written straight into the line (reserved once at about its
    /// size), so a year-long view's tens of megabytes exist once, not three times.
    public static func snapshot(epoch: String, seq: Int64, snapshot: AgendaSnapshot) -> [UInt8] {
        line(reserving: snapshot.sectionsSize + 512) { w in
            w.key("type"); w.string("snapshot")
            w.key("digest"); w.string(snapshot.digest)
            w.key("epoch"); w.string(epoch)
            w.key("sections"); snapshot.writeSections(into: &w)
            w.key("seq"); w.int(seq)
            w.key("view"); w.value(snapshot.view.json)
        }
    }

    public static func heartbeat(epoch: String, seq: Int64, time: String) -> [UInt8] {
        line { w in
            w.key("type"); w.string("heartbeat")
            w.key("epoch"); w.string(epoch)
            w.key("seq"); w.int(seq)
            w.key("time"); w.string(time)
        }
    }

    public static func resync(_ reason: String) -> [UInt8] {
        line { w in
            w.key("type"); w.string("resync")
            w.key("reason"); w.string(reason)
        }
    }

    public static func error(_ code: ErrorCode, _ message: String) -> [UInt8] {
        line { w in
            w.key("type"); w.string("error")
            w.key("code"); w.string(code.rawValue)
            w.key("message"); w.string(message)
        }
    }

    public static let ok: [UInt8] = line { w in w.key("type"); w.string("ok") }
    public static let pong: [UInt8] = line { w in w.key("type"); w.string("pong") }

    /// The answer to `sync`: per source, whether it succeeded, whether events changed,
    /// one line of outcome, and its status (as in `status`).
    public static func synced(_ reports: [SyncReport]) -> [UInt8] {
        line { w in
            w.key("type"); w.string("synced")
            w.key("sources")
            w.value(.array(reports.map(\.json)))
        }
    }

    public static func status(_ fields: [String: JSONValue]) -> [UInt8] {
        line { w in
            w.key("type"); w.string("status")
            for key in fields.keys.sorted() {
                w.key(key)
                w.value(fields[key]!)
            }
        }
    }

    /// A `diff` message turning the base snapshot into `new`.
    public static func diff(epoch: String, seq: Int64, new: AgendaSnapshot, changes: FeedDiff) -> [UInt8] {
        line { w in
            w.key("type"); w.string("diff")
            w.key("base_seq"); w.int(seq - 1)
            w.key("changes"); writeChanges(&w, changes, new: new)
            w.key("digest"); w.string(new.digest)
            w.key("epoch"); w.string(epoch)
            w.key("seq"); w.int(seq)
        }
    }

    static func writeChanges(_ w: inout JSONWriter, _ d: FeedDiff, new: AgendaSnapshot) {
        var sectionJSON: [String: [UInt8]] = [:]
        for inserted in d.sections.inserted {
            if let s = new.sections.first(where: { $0.id == inserted.section.id }) { sectionJSON[s.id] = s.json }
        }
        w.beginObject()
        w.key("items")
        w.beginObject()
        w.key("deleted"); w.beginArray()
        for x in d.items.deleted { w.beginObject(); w.key("id"); w.string(x.id); w.key("section"); w.string(x.section); w.endObject() }
        w.endArray()
        w.key("inserted"); w.beginArray()
        for x in d.items.inserted {
            w.beginObject(); w.key("index"); w.int(x.index); w.key("item"); w.raw(x.item.content)
            w.key("section"); w.string(x.section); w.endObject()
        }
        w.endArray()
        w.key("moved"); w.beginArray()
        for x in d.items.moved {
            w.beginObject()
            w.key("from"); position(&w, x.from.section, x.from.index)
            w.key("id"); w.string(x.id)
            w.key("to"); position(&w, x.to.section, x.to.index)
            w.endObject()
        }
        w.endArray()
        w.key("updated"); w.beginArray()
        for x in d.items.updated {
            w.beginObject(); w.key("item"); w.raw(x.item.content); w.key("section"); w.string(x.section); w.endObject()
        }
        w.endArray()
        w.endObject()
        w.key("sections")
        w.beginObject()
        w.key("deleted"); w.beginArray()
        for id in d.sections.deleted { w.string(id) }
        w.endArray()
        w.key("inserted"); w.beginArray()
        for x in d.sections.inserted {
            w.beginObject(); w.key("index"); w.int(x.index)
            w.key("section"); w.raw(sectionJSON[x.section.id] ?? Array("null".utf8)); w.endObject()
        }
        w.endArray()
        w.key("moved"); w.beginArray()
        for x in d.sections.moved {
            w.beginObject(); w.key("from"); w.int(x.from); w.key("id"); w.string(x.id); w.key("to"); w.int(x.to); w.endObject()
        }
        w.endArray()
        w.key("updated"); w.beginArray()
        for x in d.sections.updated { w.beginObject(); w.key("section"); w.raw(x.content); w.endObject() }
        w.endArray()
        w.endObject()
        w.endObject()
    }

    static func position(_ w: inout JSONWriter, _ section: String, _ index: Int) {
        w.beginObject(); w.key("index"); w.int(index); w.key("section"); w.string(section); w.endObject()
    }
}

/// Error codes of docs/protocol.md.
public enum ErrorCode: String, Sendable {
    case badRequest = "bad_request"
    case unknownOp = "unknown_op"
    case invalidView = "invalid_view"
    case lineTooLong = "line_too_long"
    case overloaded
}

extension AgendaSnapshot {
    /// The snapshot in the diff engine's form (ids and canonical JSON contents).
    public var feedSnapshot: FeedSnapshot {
        get throws {
            try FeedSnapshot(sections: sections.map(\.feedSection))
        }
    }
}
