import CanonicalJSON

/// The daemon's encoders: each message is one line, `type` first, then its keys in
/// code-point order (the order the wire has always had; the daemon's tests check the
/// bytes). The snapshot and diff encoders take their large parts as writers, so the
/// daemon writes sections and changes straight into the line.
extension FeedMessage {
    /// One message line: `{"type":…` then what `body` writes, `}` and a newline.
    public static func line(_ kind: Kind, reserving capacity: Int = 256, _ body: (inout JSONWriter) -> Void = { _ in }) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: capacity)
        w.beginObject()
        w.key("type"); w.string(kind.rawValue)
        body(&w)
        w.endObject()
        var bytes = w.takeBytes()
        bytes.append(10)
        return bytes
    }

    /// The bytes every line of this type begins with (`{"type":"snapshot"`): tools that
    /// only wait for a type find it without decoding megabytes.
    public static func head(_ kind: Kind) -> [UInt8] { Array(line(kind).dropLast(2)) }

    /// The key of a snapshot's sections (the daemon cuts its snapshot lines around it).
    public static let sectionsKey = "sections"

    /// The greeting: the daemon run's epoch, the protocol version and the server's name.
    public static func hello(epoch: String, protocolVersion: Int64 = protocolVersion, server: String = serverName) -> [UInt8] {
        line(.hello) { w in
            w.key("epoch"); w.string(epoch)
            w.key("protocol"); w.int(protocolVersion)
            w.key("server"); w.string(server)
        }
    }

    /// A snapshot line; `sections` writes the sections array (`reserving`: about the
    /// line's size, so a large view's bytes are reserved once).
    /// Protocol 1's lines carry no `protocol` key (as that protocol has them).
    public static func snapshot(digest: String, epoch: String, seq: Int64, view: ViewFields, protocolVersion: Int64 = 1,
                                reserving capacity: Int = 512, sections: (inout JSONWriter) -> Void) -> [UInt8] {
        line(.snapshot, reserving: capacity) { w in
            w.key("digest"); w.string(digest)
            w.key("epoch"); w.string(epoch)
            if protocolVersion != 1 { w.key("protocol"); w.int(protocolVersion) }
            w.key(sectionsKey); sections(&w)
            w.key("seq"); w.int(seq)
            w.key("view"); w.value(view.json)
        }
    }

    /// A diff line from `seq - 1` (or `baseSeq`) to `seq`; `changes` writes the changes object.
    public static func diff(epoch: String, seq: Int64, baseSeq: Int64? = nil, digest: String, protocolVersion: Int64 = 1,
                            changes: (inout JSONWriter) -> Void) -> [UInt8] {
        line(.diff) { w in
            w.key("base_seq"); w.int(baseSeq ?? seq - 1)
            w.key("changes"); changes(&w)
            w.key("digest"); w.string(digest)
            w.key("epoch"); w.string(epoch)
            if protocolVersion != 1 { w.key("protocol"); w.int(protocolVersion) }
            w.key("seq"); w.int(seq)
        }
    }

    /// Sent to a subscriber idle for the heartbeat interval: where its view stands.
    public static func heartbeat(epoch: String, seq: Int64, time: String) -> [UInt8] {
        line(.heartbeat) { w in
            w.key("epoch"); w.string(epoch)
            w.key("seq"); w.int(seq)
            w.key("time"); w.string(time)
        }
    }

    /// A fresh snapshot follows, for `reason` (`epoch`, `expired`, `overflow`).
    public static func resync(_ reason: ResyncReason) -> [UInt8] {
        line(.resync) { w in w.key("reason"); w.string(reason.rawValue) }
    }

    /// The answer to a request that failed.
    public static func error(_ code: ErrorCode, _ message: String) -> [UInt8] {
        error(RequestError(code: code, message: message))
    }

    /// The answer to a request that failed, with its typed members.
    public static func error(_ error: RequestError) -> [UInt8] {
        line(.error) { w in
            w.key("code"); w.string(error.code.rawValue)
            w.key("message"); w.string(error.message)
            if let calendar = error.unknownCalendar { w.key("unknown_calendar"); w.string(calendar) }
        }
    }

    /// The answer to `refresh`.
    public static let okLine: [UInt8] = line(.ok)
    /// The answer to `ping`.
    public static let pongLine: [UInt8] = line(.pong)

    /// The answer to `sync`: per source, whether it succeeded, whether events changed,
    /// one line of outcome, and its status (as in `status`).
    public static func synced(_ sources: [SyncOutcome]) -> [UInt8] {
        line(.synced) { w in w.key("sources"); w.value(.array(sources.map(\.json))) }
    }

    /// The calendars and their colours (`calendars`), keys in code-point order.
    public static func calendars(_ list: CalendarList) -> [UInt8] {
        line(.calendars) { w in
            w.key("colors"); w.value(.object(list.colors.mapValues { .string($0) }))
            w.key("names"); w.value(.array(list.names.map { .string($0) }))
        }
    }

    /// The answer to `status`: `fields` in code-point order after `type`.
    public static func status(_ fields: [String: JSONValue]) -> [UInt8] {
        line(.status) { w in
            for key in fields.keys.sorted() where key != "type" {
                w.key(key)
                w.value(fields[key]!)
            }
        }
    }

    /// The message as it goes on the wire.
    public var line: [UInt8] {
        switch self {
        case .hello(let h): return Self.hello(epoch: h.epoch, protocolVersion: h.protocolVersion, server: h.server)
        case .snapshot(let s):
            return Self.snapshot(digest: s.digest, epoch: s.epoch, seq: s.seq, view: s.view,
                                 protocolVersion: s.protocolVersion) { $0.raw(s.sectionsBytes) }
        case .diff(let d):
            return Self.diff(epoch: d.epoch, seq: d.seq, baseSeq: d.baseSeq, digest: d.digest,
                             protocolVersion: d.protocolVersion) { FeedChanges.write(d.changes, into: &$0) }
        case .heartbeat(let h): return Self.heartbeat(epoch: h.epoch, seq: h.seq, time: h.time)
        case .resync(let reason): return Self.resync(reason)
        case .error(let error): return Self.error(error)
        case .ok: return Self.okLine
        case .pong: return Self.pongLine
        case .synced(let sources): return Self.synced(sources)
        case .status(let status): return Self.status(status.json.objectValue ?? [:])
        case .calendars(let list): return Self.calendars(list)
        case .other(_, let json): return json.canonicalBytes() + [10]
        }
    }

    /// The message as one JSON object (`type` included), e.g. to print.
    public var json: JSONValue {
        // Parsing our own canonical line cannot fail.
        (try? JSONValue.parse(line.dropLast(), maxDepth: 64)) ?? .null
    }
}
