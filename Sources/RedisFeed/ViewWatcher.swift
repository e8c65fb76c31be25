import Dispatch
import Diagnostics
import FeedProtocol
import RedisClient
import Synchronization
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// One view's reader in a gateway: a thread with its own blocking connection that runs
/// a `WatcherMachine` (every decision is the machine's) and carries out its effects.
/// Joins and leaves reach it through a small inbox, taken between two reads (an
/// `XREAD BLOCK` of 250 ms at most), so many browsers arriving at once share one read.
/// It ends when the machine says nobody has read the view for a minute.
final class ViewWatcher: Sendable {
    private struct Inbox {
        var events: [WatcherEvent] = []
        var running = true
    }

    private let inbox = Mutex(Inbox())
    /// The thread; a post (`()`) wakes it while it waits (Redis down, or a new view's
    /// first snapshot).
    private let thread = Mutex<ServiceThread<Void>?>(nil)
    let view: PublishedView

    /// How long the thread waits for its inbox when the machine asked for nothing.
    static let idleWait: Duration = .milliseconds(50)

    init(view: PublishedView, target: RedisPublisher.Target, keys: FeedKeys, settings: WatcherSettings, upstream: RedisUpstream) {
        self.view = view
        let worker = ServiceThread<Void>(name: "redis-view") { [self] thread in
            run(WatcherMachine(view: view, keys: keys, settings: settings), on: thread, target: target, upstream: upstream)
        }
        thread.withLock { $0 = worker }
    }

    /// Asks the thread to end after its read under way (`XREAD BLOCK`: 250 ms at most).
    func requestStop() { thread.withLock { $0 }?.requestStop() }

    /// Waits at most `deadline` for the thread to end.
    func join(deadline: Duration) -> Bool { thread.withLock { $0 }?.join(deadline: deadline) ?? true }

    var isRunning: Bool { inbox.withLock { $0.running } }

    /// Queues a join; false once the watcher has ended (the caller starts another).
    @discardableResult
    func join(_ client: Int, resume: Request.Resume?, oneShot: Bool) -> Bool {
        post(.join(client: client, resume: resume, oneShot: oneShot))
    }

    func leave(_ client: Int) { _ = post(.leave(client: client)) }

    private func post(_ event: WatcherEvent) -> Bool {
        let taken = inbox.withLock { i -> Bool in
            guard i.running else { return false }
            i.events.append(event)
            return true
        }
        if taken { thread.withLock { $0 }?.post(()) }
        return taken
    }

    private func run(_ start: WatcherMachine, on thread: ServiceThread<Void>, target: RedisPublisher.Target, upstream: RedisUpstream) {
        var machine = start
        var link = RedisLink(target: target, blocking: .milliseconds(machine.settings.blockMilliseconds))
        var pending = machine.start(at: Self.clock())
        while true {
            // Effects can lead to events (replies, failures): run them to the end.
            while !pending.isEmpty {
                let effect = pending.removeFirst()
                var next: WatcherEvent?
                switch effect {
                case .deliver(let client, let lines): upstream.send(client, .bytes(Self.joined(lines)))
                case .close(let client):
                    upstream.forget(client, of: view.key)
                    upstream.send(client, .closed(reason: Self.unavailable))
                case .reachable(let up, let reason): upstream.reachable(up, RedisErrorText(text: reason))
                case .finished: break
                case .connect:
                    next = link.connect().map { WatcherEvent.connected }.catching { .connectFailed($0) }
                case .send(let request, let commands):
                    next = link.send(commands).map { WatcherEvent.answered(request, $0) }.catching { .failed(request, $0) }
                }
                if let next { pending += machine.handle(next, at: Self.clock()) }
            }
            if machine.isFinished || thread.isStopRequested { return finish(upstream) }
            let events = inbox.withLock { i in defer { i.events.removeAll() }; return i.events }
            for event in events { pending += machine.handle(event, at: Self.clock()) }
            pending += machine.handle(.tick, at: Self.clock())
            // Nothing to do (Redis down, eventd's first snapshot awaited): wait for a join.
            if pending.isEmpty { _ = thread.take(waitingAtMost: Self.idleWait) }
        }
    }

    /// Stops taking joins and tells every join that raced the end that the upstream is
    /// gone (its browser reconnects, and a new watcher starts).
    private func finish(_ upstream: RedisUpstream) {
        let late = inbox.withLock { i -> [Int] in
            i.running = false
            return i.events.compactMap { if case .join(let client, _, _) = $0 { return client } else { return nil } }
        }
        upstream.ended(self, key: view.key)
        for client in late {
            upstream.forget(client, of: view.key)
            upstream.send(client, .closed(reason: Self.unavailable))
        }
    }

    /// What a browser is told when its view's watcher lets it go.
    static let unavailable = "the feed through Redis is unavailable"

    static func joined(_ lines: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.reduce(0) { $0 + $1.count + 1 })
        for line in lines { bytes += line; bytes.append(10) }
        return bytes
    }

    static func clock() -> PublisherClock { .now() }
}
