import CanonicalJSON

/// A request line of the feed protocol (docs/protocol.md): the daemon decodes it
/// (`decode`), clients encode it (`line`).
public enum Request: Sendable, Equatable {
    /// `protocolVersion`: the digest the subscription's messages carry (1 or 2, docs/protocol.md);
    /// `calendars`: also send `calendars` messages when the calendars or colours change.
    case subscribe(view: ViewFields?, resume: Resume?, protocolVersion: Int64 = 1, calendars: Bool = false)
    case snapshot(view: ViewFields?)
    case refresh
    case status
    case ping
    /// Synchronise the named live sources now (all when empty) and answer `synced`.
    case sync(sources: [String])

    /// `resume` of a subscribe: the last state the client has.
    public struct Resume: Sendable, Equatable {
        public var epoch: String
        public var seq: Int64

        /// The position `seq` of the daemon run `epoch`.
        public init(epoch: String, seq: Int64) { (self.epoch, self.seq) = (epoch, seq) }
    }

    /// The request's `op`.
    public var op: String {
        switch self {
        case .subscribe: return "subscribe"
        case .snapshot: return "snapshot"
        case .refresh: return "refresh"
        case .status: return "status"
        case .ping: return "ping"
        case .sync: return "sync"
        }
    }

    /// The request as a JSON object.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["op": .string(op)]
        switch self {
        case .subscribe(let view, let resume, let version, let calendars):
            if let view { object["view"] = view.json }
            if calendars { object["calendars"] = true }
            if version != 1 { object["protocol"] = .int(version) }
            if let resume { object["resume"] = ["epoch": .string(resume.epoch), "seq": .int(resume.seq)] }
        case .snapshot(let view):
            if let view { object["view"] = view.json }
        case .sync(let sources):
            object["sources"] = .array(sources.map { .string($0) })
        case .refresh, .status, .ping:
            break
        }
        return .object(object)
    }

    /// The request as it goes on the wire: canonical JSON and a newline.
    public var line: [UInt8] { json.canonicalBytes() + [10] }
}
