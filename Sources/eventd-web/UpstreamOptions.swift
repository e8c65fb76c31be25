import CommandLineKit
import RedisFeed
import WebGateway

/// `eventd-web --upstream redis://…`: the feed read from Redis, on a host without eventd
/// (docs/scaling.md).
enum UpstreamOptions {
    static let upstream = RedisOptions.url(
        "--upstream", help: "Read the feed from Redis",
        details: """
        Instead of eventd's socket: the views eventd publishes with --publish. Each view is \
        read once (one XREAD BLOCK) and fanned out to this gateway's browsers; the gateway \
        asks eventd for the views its browsers open.
        """)

    /// Every option here, for the command's declaration.
    static let all: [any OptionDeclaring] = [upstream, RedisOptions.passwordFile, RedisOptions.prefix]

    /// Sets `config`'s Redis upstream from checked arguments (the password file read now).
    static func apply(_ arguments: ParsedArguments, to config: inout GatewayConfiguration) throws {
        guard let (target, keys) = try RedisOptions.connection(arguments, url: upstream) else { return }
        config.redisUpstream = target
        config.redisKeys = keys
    }
}
