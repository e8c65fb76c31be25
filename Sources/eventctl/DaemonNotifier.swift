import Foundation
import CommandLineKit
import FeedClientKit
import FeedProtocol

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
