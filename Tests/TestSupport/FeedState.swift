import Foundation
import CanonicalJSON
import Digests

/// Why a diff did not fit the client's state.
public struct ApplyError: Error, CustomStringConvertible {
    /// What did not fit.
    public var description: String
    /// True when the steps applied but the result does not hash to the message's digest
    /// (a client then resubscribes); false when the message itself does not fit.
    public var isDigestMismatch: Bool
    /// An error with this message.
    public init(_ description: String, digestMismatch: Bool = false) {
        self.description = description
        self.isDigestMismatch = digestMismatch
    }
}

/// A client's local copy of one view, kept current by applying diffs at the JSON level
/// with the four reference steps of docs/protocol.md, exactly as a client would.
public struct FeedState: Sendable {
    /// The view's sections, as the daemon sent them (JSON objects with `items`).
    public private(set) var sections: [JSONValue]
    /// The sequence number of the last snapshot or diff applied.
    public private(set) var seq: Int64
    /// The digest of `sections`, checked after every step.
    public private(set) var digest: String
    /// The daemon run the state belongs to.
    public private(set) var epoch: String
    /// The normalised view the snapshot carried.
    public private(set) var view: JSONValue

    /// The protocol whose digest the messages carry (their `protocol`, absent: 1).
    public private(set) var protocolVersion: Int64

    /// Digest of a `sections` array: protocol 1's SHA-256 of its canonical JSON, or
    /// protocol 2's SHA-256 of its sections' digests (computed here from scratch, the
    /// oracle for the clients that keep them).
    public static func digest(of sections: [JSONValue], protocolVersion: Int64 = 1) -> String {
        guard protocolVersion == 2 else { return SHA256.hexDigest(JSONValue.array(sections).canonicalBytes()) }
        return SHA256.hexDigest(sections.map { SHA256.hexDigest($0.canonicalBytes()) }.joined())
    }

    /// Starts from a `snapshot` message; checks its digest.
    public init(snapshot message: JSONValue) throws {
        guard message["type"]?.stringValue == "snapshot" else {
            throw ApplyError("expected a snapshot, got \(FeedClient.brief(message))")
        }
        guard let sections = message["sections"]?.arrayValue, let seq = message["seq"]?.intValue,
              let digest = message["digest"]?.stringValue, let epoch = message["epoch"]?.stringValue else {
            throw ApplyError("snapshot without sections/seq/digest/epoch: \(FeedClient.brief(message))")
        }
        protocolVersion = message["protocol"]?.intValue ?? 1
        let computed = Self.digest(of: sections, protocolVersion: protocolVersion)
        guard computed == digest else {
            throw ApplyError("snapshot seq \(seq): digest \(digest) but its sections hash to \(computed)", digestMismatch: true)
        }
        self.sections = sections
        self.seq = seq
        self.digest = digest
        self.epoch = epoch
        self.view = message["view"] ?? .null
    }

    /// Protocol 2's digest of the state: what the dashboard, which asks for protocol 2,
    /// verifies (`window.eventdDashboard.verified`).
    public var protocol2Digest: String { Self.digest(of: sections, protocolVersion: 2) }

    // MARK: - Queries

    /// The ids of the sections, in order.
    public var sectionIDs: [String] { sections.compactMap { $0["id"]?.stringValue } }

    /// The section with `id`.
    public func section(_ id: String) -> JSONValue? { sections.first { $0["id"]?.stringValue == id } }

    /// Every placement of the event with `uid` (one per date it covers).
    public func items(uid: String) -> [(section: String, index: Int, item: JSONValue)] {
        var found: [(String, Int, JSONValue)] = []
        for s in sections {
            for (i, item) in (s["items"]?.arrayValue ?? []).enumerated() where item["uid"]?.stringValue == uid {
                found.append((s["id"]?.stringValue ?? "?", i, item))
            }
        }
        return found
    }

    /// The first placement of the event with `uid`.
    public func item(uid: String) -> (section: String, index: Int, item: JSONValue)? { items(uid: uid).first }

    /// Items over all sections.
    public var itemCount: Int { sections.reduce(0) { $0 + ($1["items"]?.arrayValue?.count ?? 0) } }

    // MARK: - Applying a diff

    private struct Section {
        var id: String
        var header: [String: JSONValue]
        var items: [JSONValue]

        init(_ json: JSONValue) throws {
            guard var object = json.objectValue, let id = object["id"]?.stringValue else {
                throw ApplyError("a section must be an object with an id: \(FeedClient.brief(json))")
            }
            guard let items = object.removeValue(forKey: "items")?.arrayValue else {
                throw ApplyError("section \(id) has no items array")
            }
            self.id = id
            self.header = object
            self.items = items
        }

        var json: JSONValue {
            var object = header
            object["items"] = .array(items)
            return .object(object)
        }
    }

    private static func itemID(_ item: JSONValue) throws -> String {
        guard let id = item["id"]?.stringValue else { throw ApplyError("an item without id: \(FeedClient.brief(item))") }
        return id
    }

    private static func list(_ value: JSONValue?, _ name: String) throws -> [JSONValue] {
        guard let value else { throw ApplyError("diff changes lack \(name)") }
        guard let array = value.arrayValue else { throw ApplyError("\(name) is not an array") }
        return array
    }

    private static func int(_ value: JSONValue?, _ what: String) throws -> Int {
        guard let v = value?.intValue else { throw ApplyError("\(what) is not an integer") }
        return Int(v)
    }

    private static func string(_ value: JSONValue?, _ what: String) throws -> String {
        guard let v = value?.stringValue else { throw ApplyError("\(what) is not a string") }
        return v
    }

    /// Inserts in ascending index order; two insertions at one index, or an index past
    /// the end, do not fit.
    private static func insertAscending<T>(_ insertions: [(index: Int, element: T)], into list: inout [T], _ what: String) throws {
        let sorted = insertions.sorted { $0.index < $1.index }
        for (n, insertion) in sorted.enumerated() {
            if n > 0, sorted[n - 1].index == insertion.index {
                throw ApplyError("two insertions at index \(insertion.index) in \(what)")
            }
            guard insertion.index >= 0, insertion.index <= list.count else {
                throw ApplyError("insertion index \(insertion.index) out of range 0...\(list.count) in \(what)")
            }
            list.insert(insertion.element, at: insertion.index)
        }
    }

    /// Applies one `diff` message: `base_seq` must be our seq, and the result must hash
    /// to the diff's digest. On error the state is unchanged.
    public mutating func apply(_ diff: JSONValue) throws {
        guard diff["type"]?.stringValue == "diff" else {
            throw ApplyError("expected a diff, got \(FeedClient.brief(diff))")
        }
        let seq = Int64(try Self.int(diff["seq"], "seq"))
        let baseSeq = Int64(try Self.int(diff["base_seq"], "base_seq"))
        guard baseSeq == seq - 1 else { throw ApplyError("diff seq \(seq) has base_seq \(baseSeq), not seq - 1") }
        guard baseSeq == self.seq else { throw ApplyError("diff base_seq \(baseSeq) does not follow our seq \(self.seq)") }
        guard diff["epoch"]?.stringValue == epoch else { throw ApplyError("diff from another epoch") }
        let expectedDigest = try Self.string(diff["digest"], "digest")
        guard let changes = diff["changes"], let itemChanges = changes["items"], let sectionChanges = changes["sections"] else {
            throw ApplyError("diff without changes.items / changes.sections")
        }
        let itemsDeleted = try Self.list(itemChanges["deleted"], "items.deleted")
        let itemsInserted = try Self.list(itemChanges["inserted"], "items.inserted")
        let itemsMoved = try Self.list(itemChanges["moved"], "items.moved")
        let itemsUpdated = try Self.list(itemChanges["updated"], "items.updated")
        let sectionsDeleted = try Self.list(sectionChanges["deleted"], "sections.deleted")
        let sectionsInserted = try Self.list(sectionChanges["inserted"], "sections.inserted")
        let sectionsMoved = try Self.list(sectionChanges["moved"], "sections.moved")
        let sectionsUpdated = try Self.list(sectionChanges["updated"], "sections.updated")

        let base = try sections.map(Section.init)
        var baseIndex: [String: Int] = [:]
        for (i, s) in base.enumerated() { baseIndex[s.id] = i }

        // Step 1: remove deleted items and the sources of moved items; remove deleted
        // sections; detach moved sections.
        var removed: [String: Set<String>] = [:]
        func markRemoved(_ id: String, in sectionID: String) throws {
            guard removed[sectionID, default: []].insert(id).inserted else {
                throw ApplyError("item \(id) deleted or moved twice")
            }
        }
        for d in itemsDeleted {
            let id = try Self.string(d["id"], "items.deleted id"), sid = try Self.string(d["section"], "items.deleted section")
            guard let si = baseIndex[sid] else { throw ApplyError("items.deleted names unknown section \(sid)") }
            guard try base[si].items.contains(where: { try Self.itemID($0) == id }) else {
                throw ApplyError("items.deleted: \(id) is not in section \(sid)")
            }
            try markRemoved(id, in: sid)
        }
        var movedContent: [JSONValue] = []
        for m in itemsMoved {
            let id = try Self.string(m["id"], "items.moved id")
            let sid = try Self.string(m["from"]?["section"], "items.moved from.section")
            let index = try Self.int(m["from"]?["index"], "items.moved from.index")
            guard let si = baseIndex[sid] else { throw ApplyError("items.moved from unknown section \(sid)") }
            guard base[si].items.indices.contains(index), try Self.itemID(base[si].items[index]) == id else {
                throw ApplyError("items.moved: \(id) is not at \(sid)[\(index)] of the base")
            }
            try markRemoved(id, in: sid)
            movedContent.append(base[si].items[index])
        }
        var sectionState = [Int](repeating: 0, count: base.count) // 1 deleted, 2 detached
        for d in sectionsDeleted {
            let sid = try Self.string(d, "sections.deleted entry")
            guard let si = baseIndex[sid] else { throw ApplyError("sections.deleted names unknown section \(sid)") }
            guard sectionState[si] == 0 else { throw ApplyError("section \(sid) deleted twice") }
            sectionState[si] = 1
        }
        for m in sectionsMoved {
            let sid = try Self.string(m["id"], "sections.moved id")
            let from = try Self.int(m["from"], "sections.moved from")
            guard let si = baseIndex[sid], si == from else { throw ApplyError("sections.moved: \(sid) is not at \(from) of the base") }
            guard sectionState[si] == 0 else { throw ApplyError("section \(sid) deleted and moved") }
            sectionState[si] = 2
        }
        var remaining: [Section] = []
        var detached: [String: Section] = [:]
        for (i, var s) in base.enumerated() where sectionState[i] != 1 {
            if let gone = removed[s.id] { s.items = try s.items.filter { !gone.contains(try Self.itemID($0)) } }
            if sectionState[i] == 2 { detached[s.id] = s } else { remaining.append(s) }
        }

        // Step 2: inserted and moved sections at their new indexes, ascending.
        var sectionInsertions: [(index: Int, element: Section)] = []
        for ins in sectionsInserted {
            guard let sectionJSON = ins["section"] else { throw ApplyError("sections.inserted without section") }
            sectionInsertions.append((try Self.int(ins["index"], "sections.inserted index"), try Section(sectionJSON)))
        }
        for m in sectionsMoved {
            let sid = try Self.string(m["id"], "sections.moved id")
            sectionInsertions.append((try Self.int(m["to"], "sections.moved to"), detached[sid]!))
        }
        var result = remaining
        try Self.insertAscending(sectionInsertions, into: &result, "the section list")
        var resultIndex: [String: Int] = [:]
        for (i, s) in result.enumerated() {
            guard resultIndex.updateValue(i, forKey: s.id) == nil else { throw ApplyError("duplicate section \(s.id) after apply") }
        }

        // Step 3: inserted and moved items at their new indexes, ascending, per section.
        var pending: [String: [(index: Int, element: JSONValue)]] = [:]
        for ins in itemsInserted {
            let sid = try Self.string(ins["section"], "items.inserted section")
            guard resultIndex[sid] != nil else { throw ApplyError("items.inserted into unknown section \(sid)") }
            guard let item = ins["item"] else { throw ApplyError("items.inserted without item") }
            pending[sid, default: []].append((try Self.int(ins["index"], "items.inserted index"), item))
        }
        for (n, m) in itemsMoved.enumerated() {
            let sid = try Self.string(m["to"]?["section"], "items.moved to.section")
            guard resultIndex[sid] != nil else { throw ApplyError("items.moved to unknown section \(sid)") }
            pending[sid, default: []].append((try Self.int(m["to"]?["index"], "items.moved to.index"), movedContent[n]))
        }
        for (sid, insertions) in pending {
            try Self.insertAscending(insertions, into: &result[resultIndex[sid]!].items, "section \(sid)")
        }

        // Step 4: item contents and section headers.
        for u in itemsUpdated {
            let sid = try Self.string(u["section"], "items.updated section")
            guard let item = u["item"] else { throw ApplyError("items.updated without item") }
            let id = try Self.itemID(item)
            guard let si = resultIndex[sid], let ii = try result[si].items.firstIndex(where: { try Self.itemID($0) == id }) else {
                throw ApplyError("items.updated: \(id) is not in section \(sid) after steps 1-3")
            }
            result[si].items[ii] = item
        }
        for u in sectionsUpdated {
            guard let header = u["section"]?.objectValue, let sid = header["id"]?.stringValue else {
                throw ApplyError("sections.updated entry without a section header")
            }
            guard header["items"] == nil else { throw ApplyError("sections.updated header of \(sid) carries items") }
            guard let si = resultIndex[sid] else { throw ApplyError("sections.updated names unknown section \(sid)") }
            result[si].header = header
        }

        var seen = Set<String>()
        for s in result {
            for item in s.items where !seen.insert(try Self.itemID(item)).inserted {
                throw ApplyError("duplicate item id \(try Self.itemID(item)) after apply")
            }
        }
        let newSections = result.map(\.json)
        let computed = Self.digest(of: newSections, protocolVersion: diff["protocol"]?.intValue ?? 1)
        guard computed == expectedDigest else {
            throw ApplyError("after applying diff seq \(seq) the state hashes to \(computed), the diff says \(expectedDigest)",
                             digestMismatch: true)
        }
        sections = newSections
        self.seq = seq
        digest = computed
    }
}
