import Diagnostics
import FeedClientKit
import FeedProtocol
import RedisFeed

/// eventd's status for gateways on other hosts: every 5 s a thread asks the daemon's own
/// socket for its `status` (the answer every socket client gets) and hands it, redacted,
/// to the publisher, which writes it to `PREFIX:status` with a 30 s lifetime
/// (`StatusKey`). A gateway serves it as `/api/status` and judges `/healthz` by its age.
final class StatusRelay: Sendable {
    private let thread: RelayThread

    init(connector: FeedSocketConnector, publisher: RedisPublisher) {
        thread = RelayThread(name: "redis-status") { thread in
            while thread.isRunning {
                // The socket may not be there yet at start, or a shutdown is under way:
                // nothing is written, and the key's lifetime says so to the gateways.
                if let line = try? Self.ask(connector, thread: thread) { publisher.offerStatus(line) }
                thread.pause(.seconds(StatusKey.interval))
            }
        }
    }

    /// Ends the thread and waits for it.
    func stop() { thread.stop() }

    /// One `status` request on a connection of its own.
    private static func ask(_ connector: FeedSocketConnector, thread: RelayThread) throws -> [UInt8]? {
        try thread.withSocket(connector) { socket in
            try socket.send(.status)
            while thread.isRunning, let line = try socket.readLine(timeout: .seconds(5)) {
                if let status = StatusKey.line(fromAnswer: line) { return status }
            }
            return nil
        }
    }
}
