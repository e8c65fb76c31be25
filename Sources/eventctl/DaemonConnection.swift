import Foundation
import CommandLineKit
import FeedClientKit
import FeedProtocol
import RuntimeDirectories
import Threads

/// eventctl's one way to the daemon: `FeedSocketConnector`'s checks (the socket's
/// directory, then who listens) for the user's paths, and its one-shot requests.
enum DaemonConnection {
    /// Connects to the daemon. Throws `FeedSocket.Unavailable` when nothing listens
    /// (callers may wait and retry), and `CommandFailure.daemonUnavailable` when the
    /// socket is not to be trusted (retrying would not help).
    static func open(_ env: CommandEnvironment) throws -> FeedSocket {
        do {
            return try FeedSocket(connector: FeedSocketConnector(paths: env.paths))
        } catch let e as UnsafeDirectoryError {
            throw CommandFailure.daemonUnavailable(e.description)
        } catch let e as FeedSocket.UntrustedPeer {
            throw CommandFailure.daemonUnavailable(e.description)
        }
    }

    /// Sends `request` and returns its answer: the first message that is not the
    /// greeting or a subscription's traffic; nil when the daemon closes first. Throws
    /// `FeedSocket.Unavailable` when `timeout` passes first.
    static func answer(to request: Request, on socket: FeedSocket, timeout: Duration) throws -> FeedMessage? {
        try socket.send(request)
        let deadline = MonotonicInstant.now() + timeout
        while let message = try socket.readMessage(timeout: max(.milliseconds(100), deadline - MonotonicInstant.now())) {
            switch message {
            case .hello, .heartbeat, .diff, .resync: continue
            default: return message
            }
        }
        return nil
    }
}
