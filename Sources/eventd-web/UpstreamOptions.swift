import CommandLineKit
import Diagnostics
import RedisFeed
import ServerOptions
import Threads
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
    static let all: [any OptionDeclaring] = [upstream, RedisOptions.passwordFile, RedisOptions.requireAuth, RedisOptions.prefix]

    /// The gateway loop's upstream the arguments name: nil for eventd's socket, else
    /// Redis (the password file read now), whose watchers are a service of `lifecycle`.
    static func upstream(_ arguments: ParsedArguments, log: Logger, lifecycle: Lifecycle) throws
        -> ((_ wake: @escaping @Sendable () -> Void) -> any Upstream)? {
        guard let (target, keys) = try RedisOptions.connection(arguments, url: upstream) else { return nil }
        if let warning = RedisOptions.openServerWarning(target) { log.log(.warning, warning) }
        return { wake in
            let upstream = RedisFedUpstream(target: target, keys: keys, log: log, wake: wake)
            // Started before the gateway, so stopped after it has ended its streams.
            lifecycle.started(upstream.redis)
            return upstream
        }
    }
}

/// `RedisUpstream` as the gateway's `Upstream`: its watchers' deliveries wait in a
/// mailbox that wakes the loop.
final class RedisFedUpstream: Upstream {
    let redis: RedisUpstream
    private let deliveries: Mailbox<(client: ClientID, delivery: UpstreamDelivery)>

    init(target: RedisPublisher.Target, keys: FeedKeys, log: Logger, wake: @escaping @Sendable () -> Void) {
        let deliveries = Mailbox<(client: ClientID, delivery: UpstreamDelivery)>(wake: wake)
        self.deliveries = deliveries
        redis = RedisUpstream(target: target, keys: keys, logger: log) { client, delivery in
            switch delivery {
            case .bytes(let bytes): deliveries.post((client, .bytes(bytes)))
            case .closed(let reason): deliveries.post((client, .closed(reason: reason)))
            }
        }
    }

    // Through Redis there is no connection to make: the request goes to the watchers.
    func connect(_ id: ClientID) throws -> UpstreamConnection { .pushed }
    func request(_ id: ClientID, line: [UInt8]) { redis.request(id, line: line) }
    func close(_ id: ClientID) { redis.close(id) }
    func takeDeliveries() -> [(client: ClientID, delivery: UpstreamDelivery)] { deliveries.takeAll() }
}
