import CanonicalJSON
import Digests

/// A local copy of a view that also keeps the canonical JSON of its `sections`, section
/// by section, so that following a diff re-encodes only the sections the diff touched.
///
/// A publisher that must write the whole state after every diff (the snapshot key of the
/// feed through Redis) would otherwise encode the whole view twice per diff, once for the
/// digest and once for the line: at ten thousand items that dominates its cost. The bytes
/// are the same as `FeedClientState.sectionsBytes` (a property test
/// holds it to that), so the digest check and the snapshot line stay exact.
public struct EncodedFeedState: Sendable {
    /// The view's state.
    public private(set) var state: FeedClientState
    /// Each section's canonical JSON, by section id.
    private var encoded: [String: [UInt8]]
    /// The canonical JSON of the whole `sections` array.
    public private(set) var sectionsBytes: [UInt8]

    /// Starts from a `snapshot` message.
    public init(snapshot: FeedMessage.Snapshot) throws {
        state = try FeedClientState(snapshot: snapshot)
        encoded = [:]
        encoded.reserveCapacity(state.model.sections.count)
        for section in state.model.sections {
            encoded[section.id] = FeedClientState.sectionBytes(section)
        }
        sectionsBytes = []
        assemble()
    }

    /// Starts from a local copy (a subscription's, its digest checked).
    public init(state: FeedClientState) {
        self.state = state
        encoded = [:]
        encoded.reserveCapacity(state.model.sections.count)
        for section in state.model.sections { encoded[section.id] = FeedClientState.sectionBytes(section) }
        sectionsBytes = []
        assemble()
    }

    /// Follows a `diff` message that a subscription already applied to its copy
    /// (`state`, its digest checked): only the sections it touched are encoded again.
    /// Throws when it does not follow on from this state.
    public mutating func follow(_ diff: FeedMessage.Diff, to state: FeedClientState) throws {
        guard diff.epoch == self.state.epoch, diff.baseSeq == self.state.seq, state.seq == diff.seq else {
            throw FeedClientState.Failure("diff \(diff.seq) does not follow on from seq \(self.state.seq)")
        }
        self.state = state
        for id in diff.changes.sections.deleted { encoded.removeValue(forKey: id) }
        for id in Self.touchedSections(diff.changes) {
            guard let section = state.model.section(withID: id) else { continue }
            encoded[id] = FeedClientState.sectionBytes(section)
        }
        assemble()
    }

    /// The digest of the current state (the same as `state.digest`).
    public var digest: String { digest(version: state.protocolVersion) }

    /// The digest in protocol `version` (protocol 1's from the joined bytes).
    public func digest(version: Int64) -> String {
        version == 2 ? state.digest(version: 2) : SHA256.hexDigest(sectionsBytes)
    }

    /// Applies a `diff` message. Throws when it does not follow on from this state or
    /// does not fit it; returns false when the resulting digest differs from the
    /// message's (the caller should resubscribe).
    public mutating func apply(diff: FeedMessage.Diff) throws -> Bool {
        let changes = try state.advance(by: diff)
        for id in changes.sections.deleted { encoded.removeValue(forKey: id) }
        for id in Self.touchedSections(changes) {
            guard let section = state.model.section(withID: id) else { continue }
            encoded[id] = FeedClientState.sectionBytes(section)
        }
        assemble()
        return digest(version: diff.protocolVersion) == diff.digest
    }

    /// The snapshot line of the current state (without its newline), as the daemon
    /// writes it; `digest` is the state's, known from the message that produced it.
    public func snapshotLine(digest: String) -> [UInt8] {
        let bytes = sectionsBytes
        return Array(FeedMessage.snapshot(digest: digest, epoch: state.epoch, seq: state.seq, view: state.view,
                                          protocolVersion: state.protocolVersion, reserving: bytes.count + 512) { w in w.raw(bytes) }.dropLast())
    }

    /// The sections whose JSON a diff changed: new and renamed sections, and every
    /// section an item left, entered or changed in. A moved section keeps its bytes.
    static func touchedSections(_ changes: FeedClientState.Changes) -> Set<String> {
        var touched = Set(changes.sections.inserted.map(\.section.id))
        touched.formUnion(changes.sections.updated.map(\.id))
        touched.formUnion(changes.items.deleted.map(\.section))
        touched.formUnion(changes.items.inserted.map(\.section))
        for move in changes.items.moved {
            touched.insert(move.from.section)
            touched.insert(move.to.section)
        }
        touched.formUnion(changes.items.updated.map(\.section))
        return touched
    }

    /// Joins the sections' bytes in display order into `sectionsBytes`.
    private mutating func assemble() {
        sectionsBytes = FeedClientState.arrayBytes(state.model.sections.map { encoded[$0.id]! })
    }
}
