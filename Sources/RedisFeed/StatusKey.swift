import CanonicalJSON
import FeedProtocol
import RedisClient

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
