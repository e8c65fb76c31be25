import FeedProtocol
import Agenda
import LiveSources
import Reactor
import Threads

/// The feed's pure core: connections, subscriptions, views, resume history,
/// backpressure, stall and heartbeat decisions, readiness and watchdog. It takes
/// `FeedEvent`s and returns `FeedEffect`s; it owns no descriptor, calls no clock and
/// does no I/O, so every rule of the protocol is tested in-process with a fake clock
/// (`Tests/FeedTests`). `FeedLoop` is the thin I/O around it.
struct FeedHub {
    /// A view's published state, shared by all its subscribers.
    struct ViewFeed {
        var seq: Int64 = 0
        /// The current state (`seq`) as a snapshot message, while it is current: a diff
        /// drops it (once no queue holds it, its items are gone unless still current) and
        /// the next subscriber that needs one has it made again (`snapshotRequested`).
        var snapshotMessage: SnapshotMessage?
        /// An `encodeSnapshot` job is out for this view.
        var snapshotRequested = false
        var history = ViewHistory()
        /// The size of the view's latest snapshot, when the recomputer said: the most
        /// bytes of history worth keeping for it.
        var snapshotBytes: Int?
        /// The items of the view's latest state, counted in `viewItems`.
        var items = 0
        var subscribers = Set<ConnectionID>()
        /// When the last subscriber left (monotonic), for the grace period.
        var idleSince: MonotonicInstant?
    }

    let config: DaemonConfiguration
    let epoch: String
    /// Time between `WATCHDOG=1` pings, when systemd asked for them.
    let watchdogInterval: Duration?
    /// `config`'s heartbeat, stall timeout and view grace (seconds where they are parsed).
    let heartbeat: Duration, stallTimeout: Duration, viewGrace: Duration
    /// Whether views without `tz` follow the system's zone (no `--tz` was given).
    let followsSystemZone: Bool

    /// Every connection, by id. The paths every subscriber takes (a diff queued, the
    /// write the kernel took) go through `withConnection`, see there.
    var connections = ConnectionTable<HubConnection>()
    var views: [View: ViewFeed] = [:]
    /// The bytes of every view's history, bounded by `config.historyBytes`.
    var historyBytes = 0
    /// Stamps history entries in the order they were appended, across views.
    var historyStamp: UInt64 = 0
    /// The items of every view's latest state, bounded by `config.maxViewItems`.
    var viewItems = 0
    /// One-shot `snapshot` requests in the recomputer, by token.
    var pendingOneShots: [Int: ConnectionID] = [:]
    /// `sync` requests at the source runner, by token.
    var pendingSyncs: [Int: ConnectionID] = [:]
    /// Every live source as the runner last reported it (for `status`).
    var sources: [SourceStatus] = []
    var nextToken = 1
    var info = StoreInfo(calendars: [], eventCount: 0, lastRecompute: nil, lastDurationMS: 0, healthy: true, problem: nil)
    /// The zone of views that name none.
    var defaultZone: String
    var ready = false
    /// Set by `shutdown`: the monotonic time by which the loop exits.
    var shutdownDeadline: MonotonicInstant?
    let started: Moment
    /// The time of the event being handled.
    var now: Moment
    var lastWatchdog: MonotonicInstant
    var lastStatusNotify: MonotonicInstant
    var jumps = ClockJumpDetector()
    /// Effects of the event being handled, in order.
    var effects: [FeedEffect] = []
    /// When each connection next needs a look (stall or heartbeat): see `tick`.
    var deadlines = DeadlineQueue()

    init(config: DaemonConfiguration, epoch: String, watchdogInterval: Duration?, followsSystemZone: Bool = false, now: Moment) {
        self.config = config
        self.epoch = epoch
        self.watchdogInterval = watchdogInterval
        heartbeat = config.heartbeat
        stallTimeout = config.stallTimeout
        viewGrace = config.viewGrace
        self.followsSystemZone = followsSystemZone
        self.defaultZone = config.timeZone
        self.started = now
        self.now = now
        lastWatchdog = now.monotonic
        lastStatusNotify = now.monotonic
        _ = jumps.observe(now)
    }

    // MARK: - Events

    /// Handles one event; returns what the loop must do, in order.
    mutating func handle(_ event: FeedEvent, at now: Moment) -> [FeedEffect] {
        self.now = now
        effects.removeAll(keepingCapacity: true)
        switch event {
        case .connection(let event): dispatch(event)
        case .ownUserConnected(let id): accept(id, ownUser: true)
        case .recomputed(let output): recomputed(output)
        case .sources(let report): sourcesReported(report)
        case .tick: tick()
        case .systemZoneChanged(let zone): systemZoneChanged(zone)
        case .reopen:
            effects.append(.recompute(.reopen))
            effects.append(.reopenSources)
        case .shutdown: beginShutdown()
        }
        return effects
    }

    /// Whether the loop should wait for input and for room to write on a connection.
    /// (Mutating only to read in place, see `withConnection`.)
    mutating func interest(_ id: ConnectionID) -> (read: Bool, write: Bool) {
        let config = config
        return withConnection(id) { c in
            (c.ending == nil && Self.acceptsRequests(c, config), c.hasUnreadData)
        } ?? (false, false)
    }

    /// The connection's queued output (the loop writes it, then reports `.wrote`).
    /// (Mutating only to read in place, see `withConnection`.)
    mutating func output(_ id: ConnectionID) -> Outbox? { withConnection(id) { $0.outbox } }

    /// Runs `body` on connection `id` in place; nil when there is no such connection.
    ///
    /// Reads on hot paths come here too: `connections[id]?.field` first copies the whole
    /// connection (its queue, input and view retained, then released), where this
    /// in-place access copies nothing. Those copies were about a fifth of the
    /// event loop's CPU while it handed one diff to 10,000 subscribers. `body` must not
    /// touch `self` (it cannot: `self` is being changed), so what it needs of the hub is
    /// read before.
    @discardableResult
    mutating func withConnection<R>(_ id: ConnectionID, _ body: (inout HubConnection) -> R) -> R? {
        connections.withValue(id, body)
    }

    // MARK: - Connections

    mutating func accept(_ id: ConnectionID) { accept(id, ownUser: false) }

    /// A client connected; one of eventd's own user (or root) may use the reserved slots.
    mutating func accept(_ id: ConnectionID, ownUser: Bool) {
        guard shutdownDeadline == nil else { effects.append(.close(id)); return }
        let reserved = ownUser ? 0 : min(config.reservedClients, config.maxClients / 4)
        if connections.count >= config.maxClients - reserved {
            effects.append(.refuse(id, FeedMessage.error(.overloaded, "too many connections (limit \(config.maxClients)); try again later")))
            effects.append(.log(.warning, "connection refused: \(config.maxClients) clients already"))
            return
        }
        connections[id] = HubConnection(id: id, now: now.monotonic)
        send(FeedMessage.hello(epoch: epoch), to: id)
        effects.append(.log(.debug, "client \(id) connected (\(connections.count) total)"))
    }

    /// Forgets a connection and closes it.
    mutating func remove(_ id: ConnectionID, reason: String?) {
        guard let c = connections.removeValue(forKey: id) else { return }
        deadlines.forget(id)
        if let view = c.subscription.view { unsubscribe(id, from: view) }
        effects.append(.close(id))
        if let reason { effects.append(.log(.info, "client \(id) disconnected: \(reason)")) }
    }

    mutating func peerClosed(_ id: ConnectionID) {
        guard let c = connections[id] else { return }
        // Finish what it asked for (answers still being computed included), then close.
        if c.outbox.isEmpty && !c.awaitsAnswer {
            remove(id, reason: nil)
            return
        }
        connections[live: id].ending = .peerClosed
        effects.append(.stopReading(id))
    }

    /// What follows a write, once the connection's queue is empty.
    private enum AfterDrain {
        case stillWaiting, close, closeLater, owed(View, reason: ResyncReason?)
        /// Requests it sent while it did not read wait in `input`.
        case readOn
        /// Nothing: no input waits (every subscriber after a diff).
        case idle
    }

    mutating func wrote(_ count: Int, to id: ConnectionID) {
        let now = now.monotonic
        guard let (after, lastSent) = withConnection(id, { c -> (AfterDrain, MonotonicInstant) in
            c.outbox.consume(count)
            let drained = c.outbox.isEmpty
            if count > 0 || drained { c.lastDrain = now }
            if !drained { return (.stillWaiting, c.lastSent) }
            if c.ending != nil { return (c.awaitsAnswer ? .closeLater : .close, c.lastSent) }
            if case .owed(let view, let reason) = c.subscription { return (.owed(view, reason: reason), c.lastSent) }
            return (c.input.isEmpty ? .idle : .readOn, c.lastSent)
        }) else { return }
        if case .stillWaiting = after { return }
        // Nothing waits now: its next heartbeat may be sooner than the stall check.
        deadlines.schedule(id, at: lastSent + heartbeat)
        switch after {
        case .stillWaiting, .closeLater, .idle: return
        case .close:
            remove(id, reason: nil)
            return
        case .owed(let view, let reason):
            if let feed = views[view], feed.seq > 0 {
                // It reads again: what it missed, as one fresh snapshot.
                serveSnapshot(of: view, to: id, resync: reason)
                return
            }
        case .readOn: break
        }
        // Requests held back while it did not read go on now.
        processInput(id)
    }

    /// Whether to read and act on more requests of `c`: not while more than
    /// --client-buffer bytes wait unread, nor while it has `maxOneShotsPerConnection`
    /// snapshots being computed. Its requests then wait in the kernel, so a client that
    /// floods the socket without reading can neither grow the daemon's memory (answers
    /// are never dropped) nor flood the recomputer.
    func acceptsRequests(_ c: HubConnection) -> Bool { Self.acceptsRequests(c, config) }

    static func acceptsRequests(_ c: HubConnection, _ config: DaemonConfiguration) -> Bool {
        c.outbox.retainedBytes <= config.clientBuffer && c.oneShotsWaiting < maxOneShotsPerConnection
            && c.syncsWaiting < maxOneShotsPerConnection
    }

    /// Most `snapshot` requests of one connection waiting for the recomputer.
    static let maxOneShotsPerConnection = 4

    // MARK: - Output

    /// Queues an answer (never dropped) and asks the loop to write it.
    mutating func send(_ bytes: [UInt8], to id: ConnectionID) {
        enqueue(bytes, kind: .answer, to: id)
        effects.append(.flush(id))
    }

    /// Queues subscription data. On overflow (it would pass --client-buffer while older
    /// data still waits), the unstarted data is dropped and the subscriber is owed a
    /// `resync` and a fresh snapshot once it reads again.
    mutating func sendSubscriptionData(_ bytes: [UInt8], kind: Outbox.Kind, to id: ConnectionID) {
        let limit = config.clientBuffer, now = now.monotonic
        guard let outcome = withConnection(id, { $0.queueSubscriptionData(bytes, kind: kind, limit: limit, now: now) })
        else { return }
        queued(outcome, to: id)
    }

    /// The hub's part of `HubConnection.queueSubscriptionData` (done in place first).
    mutating func queued(_ outcome: HubConnection.QueueOutcome, to id: ConnectionID) {
        switch outcome {
        case .notSubscribed, .dropped(owedBefore: true): break
        case .dropped(owedBefore: false):
            effects.append(.log(.notice, "client \(id) fell behind: queued diffs dropped, resync when it reads again"))
        case .queued:
            scheduleLook(at: id)
            effects.append(.flush(id))
        }
    }

    mutating func enqueue(_ bytes: [UInt8], kind: Outbox.Kind, to id: ConnectionID) {
        enqueue(to: id) { $0.append(bytes, kind: kind) }
    }

    /// Queues a snapshot (written piece by piece).
    mutating func enqueue(_ snapshot: SnapshotMessage, to id: ConnectionID) {
        enqueue(to: id) { $0.append(snapshot) }
    }

    private mutating func enqueue(to id: ConnectionID, _ add: (inout Outbox) -> Void) {
        let now = now.monotonic
        guard withConnection(id, { $0.queue(now: now, add) }) != nil else { return }
        scheduleLook(at: id)
    }

    /// After output was queued on `id`.
    private mutating func scheduleLook(at id: ConnectionID) {
        // Whatever it is waiting for now (a stall, or a heartbeat after this), it is
        // looked at again no later than the earlier of the two.
        deadlines.schedule(id, at: now.monotonic + min(heartbeat, stallTimeout))
    }
}

extension FeedHub: ConnectionEventHandler {}
