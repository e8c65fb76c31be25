import FeedProtocol
import RedisClient

/// A Redis stream entry id (`MS-N`), ordered as Redis orders them.
public struct StreamID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var milliseconds: UInt64
    public var sequence: UInt64

    /// `0-0`: before every entry.
    public static let zero = StreamID(milliseconds: 0, sequence: 0)

    public init(milliseconds: UInt64, sequence: UInt64) {
        self.milliseconds = milliseconds
        self.sequence = sequence
    }

    /// Parses `MS-N`.
    public init?(_ text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 2, let ms = UInt64(parts[0]), let n = UInt64(parts[1]) else { return nil }
        self.init(milliseconds: ms, sequence: n)
    }

    public static func < (a: StreamID, b: StreamID) -> Bool {
        (a.milliseconds, a.sequence) < (b.milliseconds, b.sequence)
    }

    public var description: String { "\(milliseconds)-\(sequence)" }
}

/// One entry of a view's stream, as eventd's publisher writes it.
public struct StreamEntry: Sendable, Equatable {
    public var id: StreamID
    public var epoch: String
    public var seq: Int64
    public var type: FeedMessage.Kind
    /// The feed line, without its newline.
    public var line: [UInt8]
    /// The feed protocol of the line: which digest it carries (absent: 1).
    public var protocolVersion: Int64

    public init(id: StreamID, epoch: String, seq: Int64, type: FeedMessage.Kind, line: [UInt8], protocolVersion: Int64 = 1) {
        self.protocolVersion = protocolVersion
        self.id = id
        self.epoch = epoch
        self.seq = seq
        self.type = type
        self.line = line
    }

    /// The entries of an `XRANGE`/`XREVRANGE` reply (`[[id, [field, value, …]], …]`);
    /// malformed entries are left out.
    public static func entries(_ reply: RedisReply) -> [StreamEntry] {
        (reply.elements ?? []).compactMap(entry)
    }

    /// The entries of an `XREAD` reply for one stream (`[[key, entries]]`, or nil).
    public static func readEntries(_ reply: RedisReply) -> [StreamEntry] {
        guard let streams = reply.elements, let first = streams.first?.elements, first.count == 2 else { return [] }
        return entries(first[1])
    }

    static func entry(_ reply: RedisReply) -> StreamEntry? {
        guard let parts = reply.elements, parts.count == 2, let idText = parts[0].text, let id = StreamID(idText),
              let fields = parts[1].elements else { return nil }
        var epoch: String?, seq: Int64?, type: FeedMessage.Kind?, line: [UInt8]?, version: Int64 = 1
        var i = 0
        while i + 1 < fields.count {
            guard case .string(let value) = fields[i + 1] else { i += 2; continue }
            switch fields[i].text {
            case "epoch": epoch = String(decoding: value, as: UTF8.self)
            case "seq": seq = Int64(String(decoding: value, as: UTF8.self))
            case FeedMessage.typeKey: type = FeedMessage.Kind(rawValue: String(decoding: value, as: UTF8.self))
            case "line": line = value
            case "protocol": version = Int64(String(decoding: value, as: UTF8.self)) ?? 1
            default: break
            }
            i += 2
        }
        guard let epoch, let seq, let type, let line else { return nil }
        return StreamEntry(id: id, epoch: epoch, seq: seq, type: type, line: line, protocolVersion: version)
    }
}
