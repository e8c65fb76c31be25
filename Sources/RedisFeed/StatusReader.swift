import RedisClient
import Synchronization
import Threads

/// A gateway's reader of eventd's status key (`StatusKey`): one thread with its own
/// connection serving `/api/status` and `/healthz`. Requests arriving while a read is
/// under way share the next one, so a burst of probes costs one read.
final class StatusReader: Sendable {
    /// A client waiting for an answer (a ping when `health`).
    private struct Asked: Sendable {
        var client: Int
        var health: Bool
    }

    private let thread = Mutex<ServiceThread<Asked>?>(nil)

    init(target: RedisPublisher.Target, keys: FeedKeys, upstream: RedisUpstream) {
        let worker = ServiceThread<Asked>(name: "redis-status") { thread in
            Self.run(thread, target: target, keys: keys, upstream: upstream)
        }
        thread.withLock { $0 = worker }
    }

    /// Answers `client` (a ping when `health`) from the next read.
    func request(_ client: Int, health: Bool) {
        thread.withLock { $0 }?.post(Asked(client: client, health: health))
    }

    /// Asks the thread to end after the read under way.
    func requestStop() { thread.withLock { $0 }?.requestStop() }

    /// Waits at most `deadline` for the thread to end.
    func join(deadline: Duration) -> Bool { thread.withLock { $0 }?.join(deadline: deadline) ?? true }

    private static func run(_ thread: ServiceThread<Asked>, target: RedisPublisher.Target, keys: FeedKeys,
                            upstream: RedisUpstream) {
        var connection: RedisConnection?
        while !thread.isStopRequested {
            let batch = thread.take(waitingAtMost: .seconds(3600))
            guard !batch.isEmpty else { continue }
            var replies: [RedisReply] = []
            // Redis answered but the status key is missing or stale: eventd is not publishing.
            var reason = "no recent status from eventd in Redis"
            do {
                let redis = try connection ?? target.connect()
                connection = redis
                replies = try redis.pipeline(StatusKey.read(keys: keys))
            } catch {
                // Unreachable: every request of the batch gets 503; the next batch connects again.
                connection = nil
                reason = "Redis did not answer"
            }
            for asked in batch {
                upstream.send(asked.client, StatusKey.answer(replies, health: asked.health).map { .bytes($0) } ?? .closed(reason: reason))
            }
        }
    }
}
