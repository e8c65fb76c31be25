import Diagnostics
import RedisClient
import Synchronization
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// The publisher's thin I/O: one thread owning a blocking `RedisConnection` runs a
/// `PublisherMachine`, fed through a bounded `PublisherInbox`; a second thread holds a
/// `SUBSCRIBE` to the wanted channel (a subscribed connection can do nothing else) and
/// turns its messages into announcements. Nothing here ever blocks the caller of
/// `offer`: a full inbox drops lines and owes the view a snapshot.
public final class RedisPublisher: Service {
    /// Where Redis is and how to log in.
    public struct Target: Sendable {
        public var url: RedisURL
        public var password: RedisPassword?
        /// How long a Redis read or write may wait: past it Redis counts as down.
        public var ioTimeout: Duration
        /// Refuse a server that answers without a password (`--redis-require-auth`).
        public var requireAuthentication: Bool

        /// Creates a target.
        public init(url: RedisURL, password: RedisPassword?, ioTimeout: Duration = .seconds(2), requireAuthentication: Bool = false) {
            self.url = url
            self.password = password
            self.ioTimeout = ioTimeout
            self.requireAuthentication = requireAuthentication
        }

        /// A new connection to the target; `blocking` is how much longer than the I/O
        /// timeout a reply may take (an `XREAD BLOCK`'s own wait).
        public func connect(blocking: Duration = .zero) throws(RedisError) -> RedisConnection {
            try RedisConnection(url: url, password: password, connectTimeout: ioTimeout, ioTimeout: ioTimeout + blocking,
                                requireAuthentication: requireAuthentication)
        }
    }

    private let inbox: PublisherInbox
    private let threads = Mutex<[ServiceThread<Never>]>([])
    public let name = "redis publisher"
    /// The write under way, bounded by the I/O timeout.
    public var stopDeadline: Duration { target.ioTimeout + .seconds(1) }

    private let target: Target
    private let settings: PublisherSettings
    private let logger: Logger
    private let follow: @Sendable (PublishedView, Bool) -> Void

    /// A publisher, not started yet. `follow(view, true)` asks the feed side to start
    /// handing the view's lines to `offer`, `follow(view, false)` to stop; both are
    /// called on the publisher thread.
    public init(target: Target, settings: PublisherSettings, logger: Logger, inboxCapacity: Int = 4096,
                follow: @escaping @Sendable (PublishedView, Bool) -> Void) {
        inbox = PublisherInbox(capacity: inboxCapacity)
        self.target = target
        self.settings = settings
        self.logger = logger
        self.follow = follow
    }

    /// Starts both threads (once).
    public func start() {
        let (inbox, target, settings, logger, follow) = (inbox, target, settings, logger, follow)
        let publisher = ServiceThread<Never>(name: "redis-publisher") { _ in
            Self.publish(target: target, settings: settings, logger: logger, inbox: inbox, follow: follow)
        }
        let listener = ServiceThread<Never>(name: "redis-wanted") { [self] thread in
            listen(thread, target: target, channel: settings.keys.wanted)
        }
        threads.withLock { $0 = [publisher, listener] }
    }

    /// Hands a feed line of a followed view to the publisher (never blocks).
    @discardableResult
    public func offer(_ line: FeedLine, of view: PublishedView) -> Bool { inbox.offer(line, of: view) }

    /// Hands eventd's latest status line (`StatusKey.line(fromAnswer:)`) to the
    /// publisher (never blocks; only the latest is kept).
    public func offerStatus(_ line: [UInt8]) { inbox.offerStatus(line) }

    /// Asks both threads to stop: the publisher's inbox ends, the listener's socket is
    /// shut down (returns at once).
    public func requestStop() {
        inbox.stop()
        for thread in threads.withLock({ $0 }) { thread.requestStop() }
    }

    /// Waits at most `deadline` for both threads.
    public func join(deadline: Duration) -> Bool {
        let until = MonotonicInstant.now() + deadline
        return threads.withLock { $0 }.allSatisfy { $0.join(deadline: until - MonotonicInstant.now()) }
    }

    /// Stops both threads and waits for them (at most `stopDeadline`).
    public func stop() {
        requestStop()
        _ = join(deadline: stopDeadline)
    }

    // MARK: - The publisher thread

    private static func publish(target: Target, settings: PublisherSettings, logger: Logger, inbox: PublisherInbox,
                                follow: @Sendable (PublishedView, Bool) -> Void) {
        var machine = PublisherMachine(settings: settings)
        var link = RedisLink(target: target)
        var pending = machine.start(at: clock())
        while true {
            // Effects can lead to events (replies, failures): run them to the end.
            while !pending.isEmpty {
                let effect = pending.removeFirst()
                var next: PublisherEvent?
                switch effect {
                case .connect:
                    next = link.connect().map { PublisherEvent.connected }.catching { .connectFailed($0) }
                case .send(let request, let commands):
                    next = link.send(commands).map { PublisherEvent.answered(request, $0) }.catching { .failed(request, $0) }
                case .follow(let view): follow(view, true)
                case .unfollow(let view): follow(view, false)
                case .log(let level, let message): logger.log(level, message)
                }
                if let next { pending += machine.handle(next, at: clock()) }
            }
            guard let items = inbox.take(waitingAtMost: .seconds(1)) else { return }
            for item in items {
                let event: PublisherEvent
                switch item {
                case .line(let view, let line): event = .line(view, line)
                case .skipped(let view, let line): event = .skipped(view, line)
                case .announcement: event = .announcement
                case .status(let line): event = .status(line)
                }
                pending += machine.handle(event, at: clock())
            }
            pending += machine.handle(.tick, at: clock())
        }
    }

    private static func clock() -> PublisherClock { .now() }

    // MARK: - The announcement listener

    /// Subscribes to the wanted channel and announces each message; reconnects after
    /// 1 s when Redis goes away (the publisher logs outages: this thread is silent). A
    /// quiet channel times out every minute and subscribes again.
    private func listen(_ thread: ServiceThread<Never>, target: Target, channel: String) {
        while !thread.isStopRequested {
            do {
                let redis = try target.connect()
                let fd = redis.fileDescriptor
                try thread.interruptible({ shutdown(fd, Int32(SHUT_RDWR)) }) {
                    guard !thread.isStopRequested else { return }
                    try redis.call(RedisCommand(["SUBSCRIBE", channel]))
                    try redis.setTimeout(.seconds(60))
                    while !thread.isStopRequested {
                        let message = try redis.readReply(operation: "SUBSCRIBE")
                        if message.elements?.first?.text == "message" { inbox.announce() }
                    }
                }
            } catch {
                thread.pause(.seconds(1))
            }
        }
    }
}
