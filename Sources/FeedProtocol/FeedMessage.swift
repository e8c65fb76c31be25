import CanonicalJSON
import Diagnostics

/// A message line of the feed protocol (docs/protocol.md): the daemon encodes it
/// (`FeedMessage+Encoding`), clients decode it (`FeedMessage+Decoding`). Every line is
/// a JSON object with `type` first, then its other keys in code-point order.
public enum FeedMessage: Sendable, Equatable {
    case hello(Hello)
    case snapshot(Snapshot)
    case diff(Diff)
    case heartbeat(Heartbeat)
    /// A fresh snapshot follows (`epoch`, `expired`, `overflow`; a newer daemon's
    /// reason as `other`).
    case resync(reason: ResyncReason)
    /// A request failed (a newer daemon's code as `ErrorCode.other`).
    case error(RequestError)
    case ok
    case pong
    /// The answer to `sync`: one outcome per source.
    case synced(sources: [SyncOutcome])
    /// The answer to `status`.
    case status(FeedStatus)
    /// To every subscriber when the calendars or their colours changed: names and colours
    /// as `status` gives them, so that a running client recolours without asking.
    case calendars(CalendarList)
    /// A message of a type this client does not know (a newer daemon's), kept whole.
    case other(type: String, JSONValue)

    /// eventd's status without what a browser or another host has no business knowing:
    /// file paths (they name the user's home and the service's layout) and the text of a
    /// problem (it may quote them); `healthy` still says whether there is one.
    public static func redacted(status: JSONValue) -> JSONValue {
        guard case .object(var fields) = status else { return status }
        fields["database"] = nil
        fields["socket"] = nil
        if fields["problem"] != nil, fields["problem"] != .null { fields["problem"] = "see eventd's log" }
        if case .array(let sources)? = fields["sources"] { fields["sources"] = .array(sources.map(redacted(source:))) }
        return .object(fields)
    }

    /// A live source as others see it: a URL's location is already `scheme://host/…`
    /// (`LiveSource.redactedLocation`); a file's or directory's is its name alone, and
    /// every path in `last_error` is cut to its last component too.
    static func redacted(source: JSONValue) -> JSONValue {
        guard case .object(var fields) = source, fields["kind"]?.stringValue != "url" else { return source }
        let location = fields["location"]?.stringValue ?? ""
        fields["location"] = .string(fileName(location))
        if let error = fields["last_error"]?.stringValue {
            let named = location.isEmpty ? error : error.replacing(location, with: fileName(location))
            fields["last_error"] = .string(named.split(separator: " ", omittingEmptySubsequences: false)
                .map { $0.contains("/") ? fileName(String($0)) : String($0) }.joined(separator: " "))
        }
        return .object(fields)
    }

    /// The last component of `path` (`/home/a/work.ics:` → `work.ics:`).
    static func fileName(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? trimmed
    }

    /// The envelope's key naming a line's kind.
    public static let typeKey = "type"

    /// The message types, as `type` names them.
    public enum Kind: String, Sendable, CaseIterable {
        case hello, snapshot, diff, heartbeat, resync, error, ok, pong, synced, status, calendars
    }

    /// The calendars eventd holds and the colours of those that have one (`#rrggbb`).
    public struct CalendarList: Sendable, Equatable {
        public var names: [String]
        public var colors: [String: String]

        public init(names: [String], colors: [String: String]) {
            (self.names, self.colors) = (names, colors)
        }
    }

    /// The first message on every connection.
    public struct Hello: Sendable, Equatable {
        public var epoch: String
        public var protocolVersion: Int64
        public var server: String

        /// A greeting (by default this protocol's version and server name).
        public init(epoch: String, protocolVersion: Int64 = FeedMessage.protocolVersion, server: String = FeedMessage.serverName) {
            (self.epoch, self.protocolVersion, self.server) = (epoch, protocolVersion, server)
        }
    }

    /// A view's whole state at `seq`: its sections decoded, each keeping its bytes.
    public struct Snapshot: Sendable, Equatable {
        public var digest: String
        public var epoch: String
        public var sections: [FeedSection]
        public var seq: Int64
        /// The normalised view.
        public var view: ViewFields
        /// Which digest `digest` is (`protocol`; absent: 1).
        public var protocolVersion: Int64

        /// A snapshot of `view` at `seq`.
        public init(digest: String, epoch: String, sections: [FeedSection], seq: Int64, view: ViewFields,
                    protocolVersion: Int64 = 1) {
            (self.digest, self.epoch, self.sections, self.seq, self.view) = (digest, epoch, sections, seq, view)
            self.protocolVersion = protocolVersion
        }

        /// A snapshot of `view` at `seq` whose sections are the JSON objects `sectionObjects`.
        public init(digest: String, epoch: String, sectionObjects: [JSONValue], seq: Int64, view: ViewFields,
                    protocolVersion: Int64 = 1) throws {
            var sections: [FeedSection] = []
            sections.reserveCapacity(sectionObjects.count)
            for object in sectionObjects { sections.append(try FeedChanges.section(object)) }
            self.init(digest: digest, epoch: epoch, sections: sections, seq: seq, view: view, protocolVersion: protocolVersion)
        }

        /// The canonical JSON of the `sections` array.
        public var sectionsBytes: [UInt8] { FeedClientState.arrayBytes(sections.map(FeedClientState.sectionBytes)) }
    }

    /// The changes from state `baseSeq` (always `seq - 1`) to `seq`, decoded
    /// (`FeedChanges.read`).
    public struct Diff: Sendable, Equatable {
        public var baseSeq: Int64
        public var changes: FeedModelChanges
        public var digest: String
        public var epoch: String
        public var seq: Int64
        /// Which digest `digest` is (`protocol`; absent: 1).
        public var protocolVersion: Int64

        /// A diff to `seq` (from `baseSeq`, by default `seq - 1`).
        public init(baseSeq: Int64? = nil, changes: FeedModelChanges, digest: String, epoch: String, seq: Int64,
                    protocolVersion: Int64 = 1) {
            (self.baseSeq, self.changes, self.digest) = (baseSeq ?? seq - 1, changes, digest)
            (self.epoch, self.seq, self.protocolVersion) = (epoch, seq, protocolVersion)
        }
    }

    /// Sent to a subscriber that got nothing for a while.
    public struct Heartbeat: Sendable, Equatable {
        public var epoch: String
        public var seq: Int64
        public var time: String

        /// A heartbeat at `seq`, sent at `time` (UTC).
        public init(epoch: String, seq: Int64, time: String) { (self.epoch, self.seq, self.time) = (epoch, seq, time) }
    }

    /// The protocol version `hello` announces (the one a subscription gets unless it asks).
    public static let protocolVersion: Int64 = 1
    /// The versions a subscription may ask for; they differ in the digest only.
    public static let protocolVersions: ClosedRange<Int64> = 1...2
    /// The server name `hello` announces.
    public static let serverName = ProductVersion.token

    /// The message's `type`.
    public var type: String {
        switch self {
        case .hello: return Kind.hello.rawValue
        case .snapshot: return Kind.snapshot.rawValue
        case .diff: return Kind.diff.rawValue
        case .heartbeat: return Kind.heartbeat.rawValue
        case .resync: return Kind.resync.rawValue
        case .error: return Kind.error.rawValue
        case .ok: return Kind.ok.rawValue
        case .pong: return Kind.pong.rawValue
        case .synced: return Kind.synced.rawValue
        case .status: return Kind.status.rawValue
        case .calendars: return Kind.calendars.rawValue
        case .other(let type, _): return type
        }
    }

    /// The feed position of a `snapshot` or `diff` (what a resume names); nil for others.
    public var position: Request.Resume? {
        switch self {
        case .snapshot(let s): return Request.Resume(epoch: s.epoch, seq: s.seq)
        case .diff(let d): return Request.Resume(epoch: d.epoch, seq: d.seq)
        default: return nil
        }
    }
}
