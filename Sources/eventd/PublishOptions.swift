import CommandLineKit
import Feed
import FeedClientKit
import RedisClient
import RedisFeed
#if canImport(Glibc)
import Glibc
#endif

/// `eventd --publish`: the feed through Redis Streams (docs/scaling.md).
enum PublishOptions {
    static let publish = Option.value(
        "--publish", "URL", help: "Publish views' feeds to Redis: redis://[USER@]HOST[:PORT][/DB].",
        details: """
        Each view named by --publish-view or wanted by an eventd-web --upstream gets a Redis \
        stream of its feed's lines and a key with its latest snapshot. Redis may be down or \
        emptied at any time: the socket is served as before, and the snapshots are written \
        again when Redis is back. No password in the URL: see --redis-password-file.
        """,
        validation: .custom { text in
            do { _ = try RedisURL(parsing: text); return nil } catch { return "invalid value for --publish: \(error)" }
        })
    static let passwordFile = Option.value(
        "--redis-password-file", "PATH", help: "Read the Redis password from this file.",
        details: "One line; under systemd, a credential (LoadCredential=) named here as ${CREDENTIALS_DIRECTORY}/NAME.",
        completion: .file())
    static let views = Option.values(
        "--publish-view", "QUERY", help: "Publish this view too (repeatable): tz=…&days=…&calendar=….",
        details: "The parameters of eventd-web's /api/events; published whether or not a gateway wants it.",
        validation: .custom { text in
            do { _ = try PublishedView(query: text); return nil } catch { return "invalid value for --publish-view: \(error)" }
        })
    static let prefix = Option.value("--redis-prefix", "PREFIX", help: "Prefix of the Redis keys (default: eventd:).")

    /// Every option here, for the command's declaration.
    static let all: [any OptionDeclaring] = [publish, passwordFile, views, prefix]

    /// What `--publish` asks for, read from checked arguments (the password file read
    /// now, so that a missing one stops eventd at start).
    struct Publishing {
        var target: RedisPublisher.Target
        var settings: PublisherSettings
    }

    static func publishing(_ arguments: ParsedArguments) throws -> Publishing? {
        guard let text = arguments[publish] else {
            if arguments[passwordFile] != nil { throw UsageError("--redis-password-file needs --publish") }
            if arguments[prefix] != nil { throw UsageError("--redis-prefix needs --publish") }
            if !arguments[views].isEmpty { throw UsageError("--publish-view needs --publish") }
            return nil
        }
        let url = try RedisURL(parsing: text)
        let password = try arguments[passwordFile].map { path throws(RedisPasswordError) in try RedisPassword.read(path: path) }
        let configured = try arguments[views].map { text throws(PublishedView.QueryProblem) in try PublishedView(query: text) }
        let keys = FeedKeys(prefix: arguments[prefix] ?? FeedKeys.defaultPrefix)
        return Publishing(target: RedisPublisher.Target(url: url, password: password),
                          settings: PublisherSettings(keys: keys, configured: configured))
    }
}
