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

/// Tells a running daemon that the database changed (`Request.refresh`); does
/// nothing, silently, when no daemon listens, and warns (without sending) when the
/// socket is not to be trusted: the import itself has succeeded either way.
enum DaemonNotifier {
    static func requestRefresh(_ env: CommandEnvironment) {
        let socket: FeedSocket
        do {
            socket = try DaemonConnection.open(env)
        } catch CommandFailure.daemonUnavailable(let reason) {
            printError("warning: did not ask the daemon to refresh: \(reason)")
            return
        } catch {
            return
        }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(socket.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket.fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // Read the hello and the ok, so the daemon sees an orderly close.
        _ = try? DaemonConnection.answer(to: .refresh, on: socket, timeout: .seconds(1))
    }
}
