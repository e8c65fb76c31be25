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

    /// eventd's status without what a browser or another host has no business knowing:
    /// file paths (they name the user's home and the service's layout) and the text of a
    /// problem (it may quote them); `healthy` still says whether there is one.
    public static func redacted(_ status: JSONValue) -> JSONValue {
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

    /// The line to store for a socket's answer to `status` (redacted, canonical, without
    /// its newline); nil when the line is not a status answer.
    public static func line(fromAnswer answer: [UInt8]) -> [UInt8]? {
        let end = answer.last == 10 ? answer.count - 1 : answer.count
        guard case .status(var fields)? = try? FeedMessage.decode(answer[0..<end]) else { return nil }
        fields["type"] = .string(FeedMessage.Kind.status.rawValue)
        return redacted(.object(fields)).canonicalBytes()
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
              case .status(var fields)? = try? FeedMessage.decode(line[...]) else { return nil }
        let age = max(0, lifetimeMilliseconds - remaining)
        let hello = FeedMessage.hello(epoch: "redis")
        if health { return age <= freshMilliseconds ? hello + FeedMessage.line(.pong) : nil }
        fields["type"] = .string(FeedMessage.Kind.status.rawValue)
        fields["age"] = .double(Double(age / 100) / 10)
        // Redacted again: another host's eventd (an older one) may have written more.
        return hello + redacted(.object(fields)).canonicalBytes() + [10]
    }
}
