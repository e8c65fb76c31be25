import SectionedDiff
import CanonicalJSON
import Digests

/// A subscriber's local copy of a view: built from a `snapshot` message, advanced by
/// `diff` messages with the reference application (SectionedDiff), and checked
/// against each message's digest.
public struct FeedClientState: Sendable {
    public typealias Model = Snapshot<String, JSONValue, String, JSONValue>
    public typealias Changes = SnapshotDiff<String, JSONValue, String, JSONValue>

    public private(set) var model: Model
    public private(set) var seq: Int64
    public private(set) var epoch: String

    /// Why a message could not be applied.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
        public init(_ d: String) { description = d }
    }

    /// Starts from a `snapshot` message.
    public init(snapshot message: JSONValue) throws {
        guard message["type"]?.stringValue == "snapshot", let sections = message["sections"]?.arrayValue,
              let seq = message["seq"]?.intValue, let epoch = message["epoch"]?.stringValue else {
            throw Failure("not a snapshot message")
        }
        model = try Model(sections: sections.map(Self.section))
        self.seq = seq
        self.epoch = epoch
    }

    /// The digest of the current state (docs/data-model.md).
    public var digest: String { SHA256.hexDigest(sectionsJSON.canonicalBytes()) }

    /// The current state's `sections` as JSON.
    public var sectionsJSON: JSONValue {
        .array(model.sections.map { s in
            var object = s.content.objectValue ?? [:]
            object["items"] = .array(s.items.map(\.content))
            return .object(object)
        })
    }

    /// Applies a `diff` message. Throws when it does not follow on from this state
    /// (wrong epoch or seq) or does not fit it; returns false when the resulting
    /// digest differs from the message's (the caller should resubscribe).
    public mutating func apply(diff message: JSONValue) throws -> Bool {
        guard message["type"]?.stringValue == "diff", let seq = message["seq"]?.intValue,
              let base = message["base_seq"]?.intValue, let changes = message["changes"] else {
            throw Failure("not a diff message")
        }
        guard message["epoch"]?.stringValue == epoch else { throw Failure("diff from another epoch") }
        guard base == self.seq else { throw Failure("diff for seq \(base), local state is at \(self.seq)") }
        model = try Self.changes(changes).apply(to: model)
        self.seq = seq
        return digest == message["digest"]?.stringValue
    }

    // MARK: - Decoding

    static func section(_ json: JSONValue) throws -> Model.Section {
        guard var object = json.objectValue, let id = object["id"]?.stringValue else { throw Failure("section without id") }
        let items = try (object.removeValue(forKey: "items")?.arrayValue ?? []).map(item)
        return Model.Section(id: id, content: .object(object), items: items)
    }

    static func item(_ json: JSONValue) throws -> Model.Item {
        guard let id = json["id"]?.stringValue else { throw Failure("item without id") }
        return Model.Item(id: id, content: json)
    }

    static func string(_ v: JSONValue?, _ what: String) throws -> String {
        guard let s = v?.stringValue else { throw Failure("\(what) missing") }
        return s
    }

    static func int(_ v: JSONValue?, _ what: String) throws -> Int {
        guard let i = v?.intValue, let n = Int(exactly: i) else { throw Failure("\(what) missing") }
        return n
    }

    /// The `changes` object of a diff message as a SectionedDiff value.
    public static func changes(_ json: JSONValue) throws -> Changes {
        var d = Changes()
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
