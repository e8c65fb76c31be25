import Dispatch
import RedisClient
import Synchronization
import Threads

/// A gateway's reader of eventd's status key (`StatusKey`): one thread with its own
/// connection serving `/api/status` and `/healthz`. Requests arriving while a read is
/// under way share the next one, so a burst of probes costs one read.
final class StatusReader: Sendable {
    private struct Pending {
        var requests: [(client: Int, health: Bool)] = []
    }

    private let pending = Mutex(Pending())
    private let signal = DispatchSemaphore(value: 0)
    private let thread = Mutex<WorkerThread<Void>?>(nil)

    init(target: RedisPublisher.Target, keys: FeedKeys, upstream: RedisUpstream) {
        let worker = WorkerThread(name: "redis-status") { [self] in
            run(target: target, keys: keys, upstream: upstream)
        }
        thread.withLock { $0 = worker }
    }

    /// Answers `client` (a ping when `health`) from the next read.
    func request(_ client: Int, health: Bool) {
        pending.withLock { $0.requests.append((client, health)) }
        signal.signal()
    }

    private func run(target: RedisPublisher.Target, keys: FeedKeys, upstream: RedisUpstream) {
        var connection: RedisConnection?
        while true {
            signal.wait()
            let batch = pending.withLock { p in defer { p.requests.removeAll() }; return p.requests }
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
            for (client, health) in batch {
                upstream.send(client, StatusKey.answer(replies, health: health).map { .bytes($0) } ?? .closed(reason: reason))
            }
        }
    }
}
