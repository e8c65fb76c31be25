import CommandLineKit
import RedisClient
import RedisFeed
import WebGateway

/// `eventd-web --upstream redis://…`: the feed read from Redis, on a host without eventd
/// (docs/scaling.md).
enum UpstreamOptions {
    static let upstream = Option.value(
        "--upstream", "URL", help: "Read the feed from Redis: redis://[USER@]HOST[:PORT][/DB].",
        details: """
        Instead of eventd's socket: the views eventd publishes with --publish. Each view is \
        read once (one XREAD BLOCK) and fanned out to this gateway's browsers; the gateway \
        asks eventd for the views its browsers open. No password in the URL: see \
        --redis-password-file.
        """,
        validation: .custom { text in
            do { _ = try RedisURL(parsing: text); return nil } catch { return "invalid value for --upstream: \(error)" }
        })
    static let passwordFile = Option.value(
        "--redis-password-file", "PATH", help: "Read the Redis password from this file.",
        details: "One line; under systemd, a credential (LoadCredential=) named here as ${CREDENTIALS_DIRECTORY}/NAME.",
        completion: .file())
    static let prefix = Option.value("--redis-prefix", "PREFIX", help: "Prefix of the Redis keys (default: eventd:).")

    /// Every option here, for the command's declaration.
    static let all: [any OptionDeclaring] = [upstream, passwordFile, prefix]

    /// Sets `config`'s Redis upstream from checked arguments (the password file read now).
    static func apply(_ arguments: ParsedArguments, to config: inout GatewayConfiguration) throws {
        guard let text = arguments[upstream] else {
            if arguments[passwordFile] != nil { throw UsageError("--redis-password-file needs --upstream") }
            if arguments[prefix] != nil { throw UsageError("--redis-prefix needs --upstream") }
            return
        }
        let password = try arguments[passwordFile].map { path throws(RedisPasswordError) in try RedisPassword.read(path: path) }
        config.redisUpstream = RedisPublisher.Target(url: try RedisURL(parsing: text), password: password)
        config.redisKeys = FeedKeys(prefix: arguments[prefix] ?? FeedKeys.defaultPrefix)
    }
}
