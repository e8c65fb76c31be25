import SectionedDiff
import CanonicalJSON
import Digests

/// The client's form of a view: sections by date with their headers as `FeedDay`, items
/// by id as `FeedItem`.
public typealias FeedModel = Snapshot<String, FeedDay, String, FeedItem>
/// The changes between two `FeedModel`s: a diff message's `changes`, decoded.
public typealias FeedModelChanges = SnapshotDiff<String, FeedDay, String, FeedItem>
/// One section of a `FeedModel`: a snapshot message's section, decoded.
public typealias FeedSection = FeedModel.Section

/// A subscriber's local copy of a view: built from a `snapshot` message, advanced by
/// `diff` messages with the reference application (SectionedDiff), and checked
/// against each message's digest.
public struct FeedClientState: Sendable, Equatable {
    /// Sections by date and items by id, decoded: each section's header a `FeedDay`,
    /// each item a `FeedItem`, both keeping their canonical bytes.
    public typealias Model = FeedModel
    /// A diff's `changes` in SectionedDiff's form.
    public typealias Changes = FeedModelChanges
    /// Why a message could not be applied.
    public typealias Failure = FeedChanges.Failure

    /// The view's sections and items.
    public private(set) var model: Model
    /// The state's sequence number within `epoch`.
    public private(set) var seq: Int64
    /// The daemon run the state belongs to.
    public private(set) var epoch: String
    /// The normalised view the snapshot was of.
    public private(set) var view: ViewFields
    /// The protocol whose digest the messages carry (the snapshot's `protocol`).
    public private(set) var protocolVersion: Int64
    /// Protocol 2: each section's digest by id, hashed again only when a diff touches
    /// the section.
    private var sectionDigests: [String: String] = [:]

    /// Starts from a `snapshot` message.
    public init(snapshot: FeedMessage.Snapshot) throws {
        model = try Model(sections: snapshot.sections)
        seq = snapshot.seq
        epoch = snapshot.epoch
        view = snapshot.view
        protocolVersion = snapshot.protocolVersion
        if protocolVersion == 2 {
            for section in model.sections { sectionDigests[section.id] = Self.sectionDigest(section) }
        }
    }

    /// The feed position of this state (what a resume names).
    public var position: Request.Resume { Request.Resume(epoch: epoch, seq: seq) }

    /// The digest of the current state in the snapshot's protocol (docs/protocol.md).
    public var digest: String { digest(version: protocolVersion) }

    /// The digest of the current state in protocol `version`: 1, the SHA-256 of the
    /// whole `sections` array; 2, the SHA-256 of the sections' digests in order.
    public func digest(version: Int64) -> String {
        guard version == 2 else { return SHA256.hexDigest(sectionsBytes) }
        var sha = SHA256()
        for section in model.sections { sha.update(sectionDigests[section.id] ?? Self.sectionDigest(section)) }
        return SHA256.hexString(sha.finalize())
    }

    /// Protocol 2's digest of one section: the SHA-256 of its canonical JSON.
    static func sectionDigest(_ section: Model.Section) -> String {
        SHA256.hexDigest(sectionBytes(section))
    }

    /// The canonical JSON of the current state's `sections` array.
    public var sectionsBytes: [UInt8] { Self.arrayBytes(model.sections.map(Self.sectionBytes)) }

    /// The current state's `sections` as JSON (parsed again from their bytes: to print).
    public var sectionsJSON: JSONValue { (try? JSONValue.parse(sectionsBytes, maxDepth: 64)) ?? .array([]) }

    /// `[`, the elements joined by `,`, `]`.
    static func arrayBytes(_ elements: [[UInt8]]) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(elements.reduce(2) { $0 + $1.count + 1 })
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: element)
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }

    /// Applies a `diff` message. Throws when it does not follow on from this state
    /// (wrong epoch or seq) or does not fit it; returns false when the resulting
    /// digest differs from the message's (the caller should resubscribe).
    public mutating func apply(diff: FeedMessage.Diff) throws -> Bool {
        try advance(by: diff)
        return digest(version: diff.protocolVersion) == diff.digest
    }

    /// Applies a `diff` message without checking its digest; returns its changes.
    /// Throws as `apply(diff:)` does.
    @discardableResult
    mutating func advance(by diff: FeedMessage.Diff) throws -> Changes {
        guard diff.epoch == epoch else { throw Failure("diff from another epoch") }
        guard diff.baseSeq == seq else { throw Failure("diff for seq \(diff.baseSeq), local state is at \(seq)") }
        let changes = diff.changes
        model = try changes.apply(to: model)
        seq = diff.seq
        if protocolVersion == 2 {
            for id in changes.sections.deleted { sectionDigests.removeValue(forKey: id) }
            for id in EncodedFeedState.touchedSections(changes) {
                if let section = model.section(withID: id) { sectionDigests[id] = Self.sectionDigest(section) }
            }
        }
        return changes
    }

    /// The canonical JSON of one section as it stands in `sections`.
    public static func sectionBytes(_ section: Model.Section) -> [UInt8] {
        section.content.sectionBytes(items: section.items.map(\.content))
    }
}
