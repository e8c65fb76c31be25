import CanonicalJSON
import FeedProtocol

/// Feed lines for tests: snapshots and diffs of small views of named items, encoded by
/// FeedProtocol as the daemon encodes them (the diff computed by SectionedDiff).
enum FeedScript {
    static let epoch = "e1"
    static let view: ViewFields = ["days": 3, "tz": "UTC"]

    /// A section `id` holding items with these ids (each item's summary is its id).
    static func section(_ id: String, _ items: [String]) -> JSONValue {
        ["date": .string(id), "id": .string(id), "items": .array(items.map { ["id": .string($0), "summary": .string($0)] }),
         "label": .string("day \(id)")]
    }

    static func digest(_ sections: [JSONValue]) throws -> String {
        try FeedClientState(snapshot: .init(digest: "", epoch: epoch, sectionObjects: sections, seq: 0, view: view)).digest
    }

    static func snapshot(_ sections: [JSONValue], seq: Int64, epoch: String = epoch) throws -> [UInt8] {
        FeedMessage.snapshot(try .init(digest: try digest(sections), epoch: epoch, sectionObjects: sections, seq: seq, view: view)).line.dropLast()
    }

    /// The diff from `old` to `new` at `seq`; `digest` overrides the right one.
    static func diff(from old: [JSONValue], to new: [JSONValue], seq: Int64, digest: String? = nil,
                     epoch: String = epoch) throws -> [UInt8] {
        let changes = FeedDiff(from: try feedSnapshot(old), to: try feedSnapshot(new))
        let right = try Self.digest(new)
        let line = FeedMessage.diff(epoch: epoch, seq: seq, digest: digest ?? right) { w in
            FeedChanges.write(changes, sectionJSON: { id in
                new.first { $0["id"]?.stringValue == id }.map { $0.canonicalBytes() }
            }, into: &w)
        }
        return Array(line.dropLast())
    }

    static func feedSnapshot(_ sections: [JSONValue]) throws -> FeedSnapshot {
        try FeedSnapshot(sections: sections.map { s in
            var header = s.objectValue!
            let items = header.removeValue(forKey: "items")!.arrayValue!
            return .init(id: s["id"]!.stringValue!, content: JSONValue.object(header).canonicalBytes(),
                         items: items.map { .init(id: $0["id"]!.stringValue!, content: $0.canonicalBytes()) })
        })
    }

    static func line(_ message: FeedMessage) -> [UInt8] { Array(message.line.dropLast()) }
}
