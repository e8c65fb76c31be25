import Diagnostics
import FeedClientKit
import RedisFeed
import Synchronization
import Threads

/// eventd's way into Redis (`--publish`): for each published view, a subscriber of the
/// daemon's own socket, on a thread of its own, hands every line it receives to a
/// `RedisPublisher`. Being an ordinary subscriber, it gets exactly the lines every
/// socket subscriber gets, and the feed loop treats it like any other: it never waits
/// for it, and if the relay falls behind the hub's bounded buffer applies (`resync`,
/// then a fresh snapshot). The relay keeps each view's local copy to write the
/// snapshot line of every state (the snapshot key).
public final class RedisRelay: Sendable {
    private let publisher = Mutex<RedisPublisher?>(nil)
    private let relays = Mutex<[String: ViewRelay]>([:])
    private let status = Mutex<StatusRelay?>(nil)
    private let connector: FeedSocketConnector
    private let logger: Logger

    /// Starts publishing: the publisher connects to Redis and asks for the views to follow.
    public init(connector: FeedSocketConnector, target: RedisPublisher.Target, settings: PublisherSettings, logger: Logger) {
        self.connector = connector
        self.logger = logger
        let started = RedisPublisher(target: target, settings: settings, logger: logger) { [self] view, on in
            on ? follow(view) : unfollow(view)
        }
        publisher.withLock { $0 = started }
        started.start()
        status.withLock { $0 = StatusRelay(connector: connector, publisher: started) }
    }

    /// Stops every view's subscriber and the publisher.
    public func stop() {
        let all = relays.withLock { r in defer { r.removeAll() }; return Array(r.values) }
        for relay in all { relay.stop() }
        status.withLock { $0 }?.stop()
        publisher.withLock { $0 }?.stop()
    }

    private func follow(_ view: PublishedView) {
        guard let publisher = publisher.withLock({ $0 }) else { return }
        relays.withLock { r in
            guard r[view.key] == nil else { return }
            r[view.key] = ViewRelay(view: view, connector: connector, publisher: publisher, logger: logger)
        }
    }

    private func unfollow(_ view: PublishedView) {
        relays.withLock { $0.removeValue(forKey: view.key) }?.stop()
    }
}
