import FeedClientKit
import RuntimeDirectories

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

/// Opens the gateway's connections to eventd's feed socket. Every connection goes
/// through `connect`, which checks, as every client does (`FeedSocketConnector`), the
/// socket's directory by the rules eventd made it with and who listens there
/// (`SO_PEERCRED`: this user, root or the system `eventd` user): a squatter's socket
/// never gets a browser's subscription.
public struct FeedConnector: Sendable {
    /// Why a connection could not be made.
    public struct Unavailable: Error, CustomStringConvertible, Sendable {
        /// What failed, for the log and the browser's `offline` event.
        public var description: String

        /// An error with this message.
        public init(description: String) { self.description = description }
    }

    /// The shared connector doing the work.
    public let checks: FeedSocketConnector
    /// eventd's socket.
    public var path: String { checks.path }
    /// The rules its directory must meet (nil: not checked).
    public var directoryPolicy: DirectoryPolicy? { checks.directoryPolicy }
    /// The uids the listening process may run as (nil: not checked).
    public var trustedPeers: Set<UInt32>? { checks.trustedPeers }

    /// A connector for the socket at `path`; with a policy and peers, one that checks them.
    public init(path: String, directoryPolicy: DirectoryPolicy? = nil, trustedPeers: Set<UInt32>? = nil) {
        checks = FeedSocketConnector(path: path, directoryPolicy: directoryPolicy, trustedPeers: trustedPeers)
    }

    /// A connected, non-blocking, close-on-exec socket. The connect itself does not
    /// wait: a Unix socket connects at once or fails (`EAGAIN` when eventd's backlog is
    /// full, which is reported like any failure: the browser retries).
    public func connect() throws(Unavailable) -> Int32 {
        do {
            return try checks.connect(nonBlocking: true)
        } catch is FeedSocket.UntrustedPeer {
            throw Unavailable(description: "the socket \(path) is not served by this user, root or the system eventd; refusing to use it")
        } catch let e as FeedSocket.Unavailable {
            throw Unavailable(description: "\(path): \(e.description)")
        } catch {
            throw Unavailable(description: "\(error)")
        }
    }
}
