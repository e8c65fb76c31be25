/// Where the gateway's feed comes from for each browser: eventd's socket
/// (`FeedConnector`) or Redis (eventd-web's `--upstream`, the `RedisUpstream` of
/// RedisFeed). `GatewayLoop` takes one and treats every implementation alike; a new
/// upstream implements this in a module of its own and the executable hands it over.
///
/// A client's upstream is either a socket the loop owns (it writes the request line to
/// it and reads the feed's lines from it on the reactor, as from eventd), or pushed:
/// the request goes to `request`, and lines come back through `takeDeliveries` after the
/// upstream called the loop's wake-up.
public protocol Upstream: AnyObject {
    /// Starts client `id`'s upstream; throws when the feed cannot be reached.
    func connect(_ id: ClientID) throws -> UpstreamConnection
    /// A pushed upstream's request line (with its newline) for client `id`.
    func request(_ id: ClientID, line: [UInt8])
    /// Ends client `id`'s upstream (a pushed one; the loop closes sockets itself).
    func close(_ id: ClientID)
    /// What pushed upstreams delivered since the last call, oldest first.
    func takeDeliveries() -> [(client: ClientID, delivery: UpstreamDelivery)]
}

/// How a client's upstream reaches the loop.
public enum UpstreamConnection: Sendable, Equatable {
    /// A connected non-blocking socket, the loop's to watch and close.
    case socket(Int32)
    /// Lines are pushed (`Upstream.takeDeliveries`).
    case pushed
}

/// What a pushed upstream delivers for a client.
public enum UpstreamDelivery: Sendable, Equatable {
    /// Feed lines, each ending in a newline.
    case bytes([UInt8])
    /// The upstream went away; the browser is told in these words (fixed texts: they
    /// name no host, user or key).
    case closed(reason: String)
}

/// eventd's socket as the upstream: one connection per client, checked by `connect()`.
final class SocketUpstream: Upstream {
    let connector: FeedConnector

    init(_ connector: FeedConnector) { self.connector = connector }

    func connect(_ id: ClientID) throws -> UpstreamConnection { .socket(try connector.connect()) }
    func request(_ id: ClientID, line: [UInt8]) {}
    func close(_ id: ClientID) {}
    func takeDeliveries() -> [(client: ClientID, delivery: UpstreamDelivery)] { [] }
}
