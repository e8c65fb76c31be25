import CanonicalJSON
import Digests
import FeedProtocol
import RedisClient

/// One view as every host names it: its canonical parameters (the `view` object of a
/// `subscribe` request, calendars sorted and without repeats, in canonical JSON) and the
/// key derived from them. eventd and every gateway derive the same key from the same
/// parameters, whichever order a URL gave them in.
public struct PublishedView: Sendable, Hashable, CustomStringConvertible {
    /// The canonical parameters, as the `subscribe` request's `view`.
    public let view: ViewFields
    /// `view` in canonical JSON: the member of the wanted set.
    public let canonical: String
    /// The first 32 hex digits of the SHA-256 of `canonical`: the `K` of `PREFIX:view:K`.
    public let key: String

    /// The published view for a `subscribe` request's `view` object.
    public init(view: ViewFields) {
        self.view = view.withCalendarSet
        canonical = self.view.json.canonicalString()
        key = String(SHA256.hexDigest(canonical).prefix(32))
    }

    /// A member of the wanted set (canonical JSON of a view object); nil when it is not one.
    public init?(wantedMember bytes: [UInt8]) {
        guard let value = try? JSONParser(maxDepth: 4).parse(bytes), value.objectValue != nil else { return nil }
        self.init(view: ViewFields(value))
    }

    public var description: String { "view \(key) \(canonical)" }
}

/// The Redis keys of the feed, all under one prefix (`eventd:` by default).
public struct FeedKeys: Sendable, Equatable {
    /// The prefix, with its trailing colon.
    public let prefix: String

    /// `eventd:`, the default prefix.
    public static let defaultPrefix = "eventd:"

    /// Keys under `prefix` (a colon is added when it does not end in one).
    public init(prefix: String = FeedKeys.defaultPrefix) {
        self.prefix = prefix.hasSuffix(":") ? prefix : prefix + ":"
    }

    /// The view's stream: one entry per feed message.
    public func stream(_ view: PublishedView) -> String { prefix + "view:" + view.key }
    /// The view's latest snapshot line.
    public func snapshot(_ view: PublishedView) -> String { prefix + "view:" + view.key + ":snapshot" }
    /// The sorted set of wanted views (score: expiry, Unix milliseconds), also the
    /// channel on which a gateway announces a view it starts wanting.
    public var wanted: String { prefix + "wanted" }
    /// eventd's status, redacted (`StatusKey`).
    public var status: String { prefix + "status" }
}

/// eventd's status through Redis (`PREFIX:status`): eventd writes the answer its socket
/// gives to a `status` request, redacted, every 5 s with a 30 s lifetime (`SET … PX`); a
/// gateway reading Redis serves it as `/api/status` with its age, and answers `/healthz`
/// with 200 only while it is fresh. The age comes from Redis's own clock (`PTTL`), so
/// the hosts' clocks need not agree.
public enum StatusKey {
    /// How often eventd writes it.
    public static let interval = 5.0
    /// How long it lives in Redis.
    public static let lifetimeMilliseconds: Int64 = 30_000
    /// The most age at which it counts as fresh: three writes missed.
    public static let freshMilliseconds: Int64 = 15_000

    /// The line to store for a socket's answer to `status` (redacted, canonical, without
    /// its newline); nil when the line is not a status answer.
    public static func line(fromAnswer answer: [UInt8]) -> [UInt8]? {
        let end = answer.last == 10 ? answer.count - 1 : answer.count
        guard case .status(let status)? = try? FeedMessage.decode(answer[0..<end]),
              case .object(let redacted) = FeedMessage.redacted(status: status.json) else { return nil }
        return Array(FeedMessage.status(redacted).dropLast())
    }

    /// eventd's write.
    public static func write(_ line: [UInt8], keys: FeedKeys) -> RedisCommand {
        RedisCommand(["SET", keys.status]).appending(bytes: line).appending("PX").appending(String(lifetimeMilliseconds))
    }

    /// A gateway's read: the line and its remaining lifetime.
    public static func read(keys: FeedKeys) -> [RedisCommand] {
        [RedisCommand(["GET", keys.status]), RedisCommand(["PTTL", keys.status])]
    }

    /// The feed lines a gateway answers with, from the read's replies: for `status`,
    /// `hello` and the status with `age` (seconds since eventd wrote it); for a ping
    /// (`/healthz`), `hello` and `pong` while the status is fresh. Nil when there is no
    /// usable status (the gateway answers 503).
    public static func answer(_ replies: [RedisReply], health: Bool) -> [UInt8]? {
        guard replies.count == 2, case .string(let line) = replies[0], case .integer(let remaining) = replies[1], remaining >= 0,
              case .status(let status)? = try? FeedMessage.decode(line[...]),
              var fields = status.json.objectValue else { return nil }
        let age = max(0, lifetimeMilliseconds - remaining)
        let hello = FeedMessage.hello(epoch: "redis")
        if health { return age <= freshMilliseconds ? hello + FeedMessage.line(.pong) : nil }
        fields["age"] = .double(Double(age / 100) / 10)
        // Redacted again: another host's eventd (an older one) may have written more.
        guard case .object(let shown) = FeedMessage.redacted(status: .object(fields)) else { return nil }
        return hello + FeedMessage.status(shown)
    }
}

/// One feed message of a published view, as a socket subscriber receives it, with the
/// snapshot line of the state after it (the snapshot key is written in the same
/// transaction as the message's stream entry).
public struct FeedLine: Sendable, Equatable {
    /// The message's kind: `snapshot`, `diff` or `heartbeat`.
    public var type: FeedMessage.Kind
    public var epoch: String
    public var seq: Int64
    /// The exact NDJSON line (without its `\n`).
    public var line: [UInt8]
    /// The snapshot line of the state `seq` (the line itself for a snapshot); nil for a
    /// heartbeat, which changes no state.
    public var snapshot: [UInt8]?
    /// The feed protocol of the line (which digest it carries; its stream entry says so).
    public var protocolVersion: Int64

    /// Creates a line.
    public init(type: FeedMessage.Kind, epoch: String, seq: Int64, line: [UInt8], snapshot: [UInt8]?, protocolVersion: Int64 = 1) {
        self.protocolVersion = protocolVersion
        self.type = type
        self.epoch = epoch
        self.seq = seq
        self.line = line
        self.snapshot = snapshot
    }
}
