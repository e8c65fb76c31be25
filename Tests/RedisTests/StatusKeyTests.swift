import CanonicalJSON
import FeedProtocol
import RedisClient
import RedisFeed
import Testing

/// eventd's status through Redis, without Redis: what eventd stores, what a gateway
/// answers at each age.
@Suite struct StatusKeyTests {
    static let answer = Array(#"{"type":"status","database":"/home/u/eventd.db","socket":"/run/user/1/eventd/feed.sock","healthy":false,"problem":"cannot open /home/u/x.ics","subscribers":3}"#.utf8) + [10]

    static func read(age: Int64?) -> [RedisReply] {
        guard let age, let line = StatusKey.line(fromAnswer: answer) else { return [.null, .integer(-2)] }
        return [.string(line), .integer(StatusKey.lifetimeMilliseconds - age)]
    }

    static func lines(_ bytes: [UInt8]?) -> [JSONValue] {
        (bytes ?? []).split(separator: 10).compactMap { try? JSONValue.parse(Array($0)[...], maxDepth: 8) }
    }

    @Test func eventdStoresTheRedactedAnswerWithALifetime() throws {
        let line = try #require(StatusKey.line(fromAnswer: Self.answer))
        let stored = try JSONValue.parse(line[...], maxDepth: 8)
        #expect(stored["database"] == nil && stored["socket"] == nil)
        #expect(stored["problem"] == "see eventd's log")
        #expect(stored["subscribers"] == 3)
        #expect(stored["type"] == "status")
        #expect(StatusKey.line(fromAnswer: Array(#"{"type":"pong"}"#.utf8)) == nil)
        let write = StatusKey.write(line, keys: FeedKeys(prefix: "p")).arguments.map { String(decoding: $0, as: UTF8.self) }
        #expect(write == ["SET", "p:status", String(decoding: line, as: UTF8.self), "PX", "30000"])
        #expect(StatusKey.read(keys: FeedKeys(prefix: "p")).map(\.name) == ["GET", "PTTL"])
    }

    /// Issue 43, point 2: a file source's path (and a directory's) shows as its name
    /// alone, in `location` and in `last_error`; a URL's stays `scheme://host/…`.
    @Test func fileSourcesShowTheirNameNotTheirPath() throws {
        let status: JSONValue = ["type": "status", "sources": [
            ["name": "secret", "kind": "file", "location": "/home/alice/private/secret-project.ics",
             "last_error": "/home/alice/private/secret-project.ics: no such file (events kept until the source is removed)"],
            ["name": "dir", "kind": "vdir", "location": "/home/alice/cal dir/",
             "last_error": "/home/alice/cal dir/: cannot list; also /srv/other/x.ics broke"],
            ["name": "web", "kind": "url", "location": "https://example.org/…", "last_error": nil],
        ]]
        let shown = FeedMessage.redacted(status: status)
        let text = String(decoding: shown.canonicalBytes(), as: UTF8.self)
        #expect(!text.contains("/home") && !text.contains("alice") && !text.contains("/srv"), "\(text)")
        #expect(shown["sources"]?[0]?["location"] == "secret-project.ics")
        #expect(shown["sources"]?[0]?["last_error"] == "secret-project.ics: no such file (events kept until the source is removed)")
        #expect(shown["sources"]?[1]?["location"] == "cal dir")
        #expect(shown["sources"]?[1]?["last_error"] == "cal dir: cannot list; also x.ics broke")
        #expect(shown["sources"]?[2]?["location"] == "https://example.org/…")
        // What eventd stores in Redis is the same.
        let line = try #require(StatusKey.line(fromAnswer: status.canonicalBytes() + [10]))
        #expect(!String(decoding: line, as: UTF8.self).contains("/home"))
        // A gateway reading one that another eventd wrote unredacted redacts it too.
        let served = try #require(StatusKey.answer([.string(status.canonicalBytes()), .integer(20_000)], health: false))
        #expect(!String(decoding: served, as: UTF8.self).contains("/home"))
    }

    @Test func aGatewayServesTheStatusWithItsAge() {
        let fresh = Self.lines(StatusKey.answer(Self.read(age: 2_345), health: false))
        #expect(fresh.count == 2)
        #expect(fresh[0]["type"] == "hello")
        #expect(fresh[1]["type"] == "status")
        #expect(fresh[1]["age"] == .double(2.3))
        #expect(fresh[1]["subscribers"] == 3)
        // Stale, the status is still served (with its age): healthz says the rest.
        #expect(Self.lines(StatusKey.answer(Self.read(age: 20_000), health: false))[1]["age"] == .double(20))
        #expect(StatusKey.answer(Self.read(age: nil), health: false) == nil)
        #expect(StatusKey.answer([], health: false) == nil) // Redis unreachable
    }

    @Test func healthzIsHealthyOnlyWhileTheStatusIsFresh() {
        let ok = Self.lines(StatusKey.answer(Self.read(age: 15_000), health: true))
        #expect(ok.map { $0["type"] } == ["hello", "pong"])
        #expect(StatusKey.answer(Self.read(age: 15_001), health: true) == nil)
        #expect(StatusKey.answer(Self.read(age: nil), health: true) == nil)
        #expect(StatusKey.answer([.string(Array("x".utf8)), .integer(-1)], health: true) == nil)
    }
}
