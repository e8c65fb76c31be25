import CanonicalJSON
import Diagnostics
import FeedProtocol
import Synchronization
import Threads

/// eventd-web's upstream through Redis (`--upstream redis://…`): it answers the feed
/// requests the gateway would send eventd, from Redis. One `ViewWatcher` per view (one
/// connection, one `XREAD BLOCK` at a time) fans out to every browser of that view, so
/// many browsers reconnecting at once cost one read per view. What it delivers for a
/// client is what eventd's socket would have sent on that client's connection; the
/// gateway treats it the same way (its bounded buffers, its `offline` event when the
/// upstream goes away).
public final class RedisUpstream: Service {
    /// What a client's upstream receives.
    public enum Delivery: Sendable, Equatable {
        /// Feed lines, each ending in a newline.
        case bytes([UInt8])
        /// The upstream went away (Redis is unreachable): the gateway tells the browser,
        /// in these words (fixed texts: they name no host, user or key).
        case closed(reason: String)
    }

    private let target: RedisPublisher.Target
    private let keys: FeedKeys
    private let settings: WatcherSettings
    private let logger: Logger
    private let deliver: @Sendable (Int, Delivery) -> Void
    private let watchers = Mutex<[String: ViewWatcher]>([:])
    private let clientViews = Mutex<[Int: String]>([:])
    private let outage = Mutex<Bool>(false)
    private let statusReader = Mutex<StatusReader?>(nil)
    private let stopping = Atomic<Bool>(false)
    /// The watchers `requestStop` stopped, for `join` (an ending watcher leaves `watchers`).
    private let stopped = Mutex<[ViewWatcher]>([])
    public let name = "redis upstream"
    /// A watcher's read under way (250 ms) or a connect (the I/O timeout).
    public var stopDeadline: Duration { target.ioTimeout + .seconds(1) }

    /// An upstream reading Redis at `target` under `keys`; `deliver` is called from the
    /// watchers' threads (the gateway's loop posts it to itself).
    public init(target: RedisPublisher.Target, keys: FeedKeys, settings: WatcherSettings = WatcherSettings(), logger: Logger,
                deliver: @escaping @Sendable (Int, Delivery) -> Void) {
        self.target = target
        self.keys = keys
        self.settings = settings
        self.logger = logger
        self.deliver = deliver
    }

    /// Nothing to do: watchers start with their view's first browser.
    public func start() {}

    /// Stops every watcher and the status reader; later requests are refused (returns
    /// at once).
    public func requestStop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        let all = watchers.withLock { Array($0.values) }
        stopped.withLock { $0 = all }
        for watcher in all { watcher.requestStop() }
        statusReader.withLock { $0 }?.requestStop()
    }

    /// Waits at most `deadline` for the watchers' and the status reader's threads.
    public func join(deadline: Duration) -> Bool {
        let until = MonotonicInstant.now() + deadline
        let all = stopped.withLock { $0 }
        let watchersEnded = all.allSatisfy { $0.join(deadline: until - MonotonicInstant.now()) }
        let readerEnded = statusReader.withLock { $0 }?.join(deadline: until - MonotonicInstant.now()) ?? true
        return watchersEnded && readerEnded
    }

    /// A request line the gateway sends on `client`'s upstream.
    public func request(_ client: Int, line: [UInt8]) {
        let end = line.last == 10 ? line.count - 1 : line.count
        guard !stopping.load(ordering: .sequentiallyConsistent) else {
            deliver(client, .closed(reason: ViewWatcher.unavailable))
            return
        }
        guard case .success(let request) = Request.decode(line[0..<end]) else {
            deliver(client, .bytes(FeedMessage.error(.badRequest, "not a request")))
            return
        }
        switch request {
        case .subscribe(let view, let resume, _, _): watch(client, view: view, resume: resume, oneShot: false)
        case .snapshot(let view): watch(client, view: view, resume: nil, oneShot: true)
        case .ping, .status:
            // From eventd's status key: /healthz is healthy while Redis answers and the
            // key is fresh; /api/status serves it with its age.
            statusReader.withLock { reader in
                if reader == nil { reader = StatusReader(target: target, keys: keys, upstream: self) }
                return reader!
            }.request(client, health: request.op == "ping")
        default:
            deliver(client, .bytes(FeedMessage.hello(epoch: "redis")
                + FeedMessage.error(.unknownOp, "\(request.op) is not available through Redis")))
        }
    }

    /// The gateway closed `client`'s upstream.
    public func close(_ client: Int) {
        guard let key = clientViews.withLock({ $0.removeValue(forKey: client) }) else { return }
        watchers.withLock { $0[key] }?.leave(client)
    }

    private func watch(_ client: Int, view: ViewFields?, resume: Request.Resume?, oneShot: Bool) {
        let published = PublishedView(view: view ?? ViewFields())
        clientViews.withLock { $0[client] = published.key }
        // A watcher that ended between the lookup and the join refuses it: start another.
        while true {
            let watcher = watchers.withLock { all -> ViewWatcher in
                if let running = all[published.key], running.isRunning { return running }
                let started = ViewWatcher(view: published, target: target, keys: keys, settings: settings, upstream: self)
                all[published.key] = started
                return started
            }
            if watcher.join(client, resume: resume, oneShot: oneShot) { return }
        }
    }

    // MARK: - For the watchers

    func send(_ client: Int, _ delivery: Delivery) { deliver(client, delivery) }

    /// The client left or was dropped by its watcher.
    func forget(_ client: Int, of key: String) {
        clientViews.withLock { if $0[client] == key { $0[client] = nil } }
    }

    /// A watcher ended (nobody watches its view any more).
    func ended(_ watcher: ViewWatcher, key: String) {
        watchers.withLock { if $0[key] === watcher { $0[key] = nil } }
    }

    /// Redis became unreachable or reachable again: logged once per outage.
    func reachable(_ up: Bool, _ error: RedisErrorText? = nil) {
        let changed = outage.withLock { down -> Bool in
            defer { down = !up }
            return down == up
        }
        guard changed else { return }
        if up {
            logger.notice("Redis is reachable again: streams resume")
        } else {
            logger.warning("\(error?.text ?? "Redis is unreachable"); browsers are told the upstream is unavailable and resume when it is back")
        }
    }
}

/// An error's words, for the outage log line.
struct RedisErrorText: Sendable {
    var text: String
}
