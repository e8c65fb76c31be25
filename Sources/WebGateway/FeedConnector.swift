import FeedClientKit
import RuntimeDirectories

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
