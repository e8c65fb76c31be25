import SectionedDiff
import CanonicalJSON
import Digests

/// A subscriber's local copy of a view: built from a `snapshot` message, advanced by
/// `diff` messages with the reference application (SectionedDiff), and checked
/// against each message's digest.
public struct FeedClientState: Sendable, Equatable {
    /// Sections by date and items by id, with their JSON as content.
    public typealias Model = Snapshot<String, JSONValue, String, JSONValue>
    /// A diff's `changes` in SectionedDiff's form.
    public typealias Changes = SnapshotDiff<String, JSONValue, String, JSONValue>
    /// Why a message could not be applied.
    public typealias Failure = FeedChanges.Failure

    /// The view's sections and items.
    public private(set) var model: Model
    /// The state's sequence number within `epoch`.
    public private(set) var seq: Int64
    /// The daemon run the state belongs to.
    public private(set) var epoch: String
    /// The normalised view the snapshot was of.
    public private(set) var view: JSONValue
    /// The protocol whose digest the messages carry (the snapshot's `protocol`).
    public private(set) var protocolVersion: Int64
    /// Protocol 2: each section's digest by id, hashed again only when a diff touches
    /// the section.
    private var sectionDigests: [String: String] = [:]

    /// Starts from a `snapshot` message.
    public init(snapshot: FeedMessage.Snapshot) throws {
        model = try Model(sections: snapshot.sections.map(FeedChanges.section))
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
        guard version == 2 else { return SHA256.hexDigest(sectionsJSON.canonicalBytes()) }
        var sha = SHA256()
        for section in model.sections { sha.update(sectionDigests[section.id] ?? Self.sectionDigest(section)) }
        return SHA256.hexString(sha.finalize())
    }

    /// Protocol 2's digest of one section: the SHA-256 of its canonical JSON.
    static func sectionDigest(_ section: Model.Section) -> String {
        SHA256.hexDigest(sectionJSON(section).canonicalBytes())
    }

    /// The current state's `sections` as JSON.
    public var sectionsJSON: JSONValue {
        .array(model.sections.map(Self.sectionJSON))
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
        let changes = try FeedChanges.read(diff.changes)
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
    static func sectionJSON(_ section: Model.Section) -> JSONValue {
        var object = section.content.objectValue ?? [:]
        object["items"] = .array(section.items.map(\.content))
        return .object(object)
    }
}

/// One item of a section (docs/data-model.md), typed: clients read its fields here,
/// decoded from the item's JSON in one place, rather than by key.
public struct FeedItem: Sendable, Equatable {
    /// What the item is.
    public enum Kind: String, Sendable {
        /// An occurrence of an event.
        case event
        /// The one item of a date without occurrences (`empty_days: placeholder`).
        case placeholder
    }

    public var id: String
    /// Nil for a kind this client does not know.
    public var kind: Kind?
    public var uid: String?
    public var recurrenceID: String?
    public var summary: String?
    public var location: String?
    /// The event's DESCRIPTION, its first 1,024 bytes (`…` when cut); nil when none.
    public var description: String?
    /// The event's URL: http, https or mailto only (the feed carries no other); nil when none.
    public var url: String?
    public var calendar: String?
    /// Local date-times (`YYYY-MM-DDTHH:MM:SS±HH:MM`), or dates for all-day events.
    public var start: String?
    public var end: String?
    public var allDay: Bool
    /// The iCalendar `STATUS` (`CONFIRMED`, `TENTATIVE`, `CANCELLED`), when given.
    public var status: String?
    public var continuesFromPreviousDay: Bool
    public var continuesToNextDay: Bool

    /// The item that `json` (one element of a section's `items`) describes.
    public init(_ json: JSONValue) {
        func text(_ key: String) -> String? { json[key]?.stringValue }
        id = text("id") ?? ""
        kind = text("kind").flatMap(Kind.init)
        uid = text("uid")
        recurrenceID = text("recurrence_id")
        summary = text("summary")
        location = text("location")
        description = text("description")
        url = text("url")
        calendar = text("calendar")
        start = text("start")
        end = text("end")
        allDay = json["all_day"]?.boolValue == true
        status = text("status")
        continuesFromPreviousDay = json["continues_from_previous_day"]?.boolValue == true
        continuesToNextDay = json["continues_to_next_day"]?.boolValue == true
    }
}

/// A section's own fields (docs/data-model.md: one section per date), typed.
public struct FeedDay: Sendable, Equatable {
    /// `YYYY-MM-DD`.
    public var date: String?
    /// `today`, `tomorrow`, or the date for people; nil when the section has none.
    public var label: String?

    /// The fields of `json` (a section's content; its `items` are not read).
    public init(_ json: JSONValue) {
        (date, label) = (json["date"]?.stringValue, json["label"]?.stringValue)
    }
}
