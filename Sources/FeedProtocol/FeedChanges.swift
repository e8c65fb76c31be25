import CanonicalJSON
import SectionedDiff

/// The daemon's form of a view: sections by date, items by id, both with their
/// canonical JSON as content.
public typealias FeedSnapshot = Snapshot<String, [UInt8], String, [UInt8]>
/// The changes between two `FeedSnapshot`s, as the daemon computes them.
public typealias FeedDiff = SnapshotDiff<String, [UInt8], String, [UInt8]>

/// A diff message's `changes` object (docs/protocol.md, "Diff changes"): written by
/// the daemon from a `FeedDiff`, read by clients into `FeedClientState.Changes`.
public enum FeedChanges {
    /// Writes `d` as a `changes` object. An inserted section travels with its items:
    /// `sectionJSON` gives its whole JSON by id.
    public static func write(_ d: FeedDiff, sectionJSON: (String) -> [UInt8]?, into w: inout JSONWriter) {
        write(d, item: { $0 }, header: { $0 }, insertedSection: { sectionJSON($0.id) }, into: &w)
    }

    /// Writes decoded changes as the `changes` object they came as (the same bytes).
    public static func write(_ d: FeedModelChanges, into w: inout JSONWriter) {
        write(d, item: \.bytes, header: \.bytes, insertedSection: FeedClientState.sectionBytes, into: &w)
    }

    static func write<SectionContent, ItemContent>(
        _ d: SnapshotDiff<String, SectionContent, String, ItemContent>, item: (ItemContent) -> [UInt8],
        header: (SectionContent) -> [UInt8],
        insertedSection: (SnapshotDiff<String, SectionContent, String, ItemContent>.Section) -> [UInt8]?,
        into w: inout JSONWriter
    ) {
        w.beginObject()
        w.key("items")
        w.beginObject()
        w.key("deleted"); w.beginArray()
        for x in d.items.deleted { w.beginObject(); w.key("id"); w.string(x.id); w.key("section"); w.string(x.section); w.endObject() }
        w.endArray()
        w.key("inserted"); w.beginArray()
        for x in d.items.inserted {
            w.beginObject(); w.key("index"); w.int(x.index); w.key("item"); w.raw(item(x.item.content))
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
            w.beginObject(); w.key("item"); w.raw(item(x.item.content)); w.key("section"); w.string(x.section); w.endObject()
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
            w.key("section"); w.raw(insertedSection(x.section) ?? Array("null".utf8)); w.endObject()
        }
        w.endArray()
        w.key("moved"); w.beginArray()
        for x in d.sections.moved {
            w.beginObject(); w.key("from"); w.int(x.from); w.key("id"); w.string(x.id); w.key("to"); w.int(x.to); w.endObject()
        }
        w.endArray()
        w.key("updated"); w.beginArray()
        for x in d.sections.updated { w.beginObject(); w.key("section"); w.raw(header(x.content)); w.endObject() }
        w.endArray()
        w.endObject()
        w.endObject()
    }

    static func position(_ w: inout JSONWriter, _ section: String, _ index: Int) {
        w.beginObject(); w.key("index"); w.int(index); w.key("section"); w.string(section); w.endObject()
    }

    /// Why a `changes` object (or a snapshot's sections) cannot be read.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
        /// A failure saying `d`.
        public init(_ d: String) { description = d }
    }

    /// A section's JSON (with its items) as the client model's section.
    public static func section(_ json: JSONValue) throws -> FeedClientState.Model.Section {
        guard let object = json.objectValue, let id = object["id"]?.stringValue else { throw Failure("section without id") }
        let items = try (object["items"]?.arrayValue ?? []).map(item)
        return FeedClientState.Model.Section(id: id, content: FeedDay(json), items: items)
    }

    static func item(_ json: JSONValue) throws -> FeedClientState.Model.Item {
        guard let id = json["id"]?.stringValue else { throw Failure("item without id") }
        return FeedClientState.Model.Item(id: id, content: FeedItem(json))
    }

    static func string(_ v: JSONValue?, _ what: String) throws -> String {
        guard let s = v?.stringValue else { throw Failure("\(what) missing") }
        return s
    }

    static func int(_ v: JSONValue?, _ what: String) throws -> Int {
        guard let i = v?.intValue, let n = Int(exactly: i) else { throw Failure("\(what) missing") }
        return n
    }

    /// A `changes` object as a SectionedDiff value.
    public static func read(_ json: JSONValue) throws -> FeedClientState.Changes {
        var d = FeedClientState.Changes()
        let s = json["sections"], i = json["items"]
        for id in s?["deleted"]?.arrayValue ?? [] { d.sections.deleted.append(try string(id, "section id")) }
        for x in s?["inserted"]?.arrayValue ?? [] {
            d.sections.inserted.append(.init(index: try int(x["index"], "index"), section: try section(x["section"] ?? .null)))
        }
        for x in s?["updated"]?.arrayValue ?? [] {
            let sec = try section(x["section"] ?? .null)
            d.sections.updated.append(.init(id: sec.id, content: sec.content))
        }
        for x in s?["moved"]?.arrayValue ?? [] {
            d.sections.moved.append(.init(id: try string(x["id"], "id"), from: try int(x["from"], "from"), to: try int(x["to"], "to")))
        }
        for x in i?["deleted"]?.arrayValue ?? [] {
            d.items.deleted.append(.init(id: try string(x["id"], "id"), section: try string(x["section"], "section")))
        }
        for x in i?["inserted"]?.arrayValue ?? [] {
            d.items.inserted.append(.init(section: try string(x["section"], "section"), index: try int(x["index"], "index"),
                                          item: try item(x["item"] ?? .null)))
        }
        for x in i?["moved"]?.arrayValue ?? [] {
            d.items.moved.append(.init(id: try string(x["id"], "id"),
                                       from: .init(section: try string(x["from"]?["section"], "from"), index: try int(x["from"]?["index"], "from")),
                                       to: .init(section: try string(x["to"]?["section"], "to"), index: try int(x["to"]?["index"], "to"))))
        }
        for x in i?["updated"]?.arrayValue ?? [] {
            d.items.updated.append(.init(section: try string(x["section"], "section"), item: try item(x["item"] ?? .null)))
        }
        return d
    }
}
