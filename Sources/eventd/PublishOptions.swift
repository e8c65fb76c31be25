import CommandLineKit
import Feed
import FeedClientKit
import RedisFeed
import ServerOptions
#if canImport(Glibc)
import Glibc
#endif

/// `eventd --publish`: the feed through Redis Streams (docs/scaling.md).
enum PublishOptions {
    static let publish = RedisOptions.url(
        "--publish", help: "Publish views' feeds to Redis",
        details: """
        Each view named by --publish-view or wanted by an eventd-web --upstream gets a Redis \
        stream of its feed's lines and a key with its latest snapshot. Redis may be down or \
        emptied at any time: the socket is served as before, and the snapshots are written \
        again when Redis is back.
        """)
    static let views = Option.values(
        "--publish-view", "QUERY", help: "Publish this view too (repeatable): tz=…&days=…&calendar=….",
        details: "The parameters of eventd-web's /api/events; published whether or not a gateway wants it.",
        validation: .custom { text in
            do { _ = try PublishedView(query: text); return nil } catch { return "invalid value for --publish-view: \(error)" }
        })

    /// Every option here, for the command's declaration.
    static let all: [any OptionDeclaring] = [publish, RedisOptions.passwordFile, RedisOptions.requireAuth, views, RedisOptions.prefix]

    /// What `--publish` asks for, read from checked arguments (the password file read
    /// now, so that a missing one stops eventd at start).
    struct Publishing {
        var target: RedisPublisher.Target
        var settings: PublisherSettings
    }

    static func publishing(_ arguments: ParsedArguments) throws -> Publishing? {
        guard let (target, keys) = try RedisOptions.connection(arguments, url: publish) else {
            if !arguments[views].isEmpty { throw UsageError("--publish-view needs --publish") }
            return nil
        }
        let configured = try arguments[views].map { text throws(PublishedView.QueryProblem) in try PublishedView(query: text) }
        return Publishing(target: target, settings: PublisherSettings(keys: keys, configured: configured))
    }
}
