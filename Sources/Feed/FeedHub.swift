import Agenda
import LiveSources
import Support

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
        var history: [(seq: Int64, bytes: [UInt8])] = []
        var subscribers = Set<ConnectionID>()
        /// When the last subscriber left (monotonic), for the grace period.
        var idleSince: Double?
    }

    let config: DaemonConfiguration
    let epoch: String
    /// Seconds between `WATCHDOG=1` pings, when systemd asked for them.
    let watchdogInterval: Double?
    /// Whether views without `tz` follow the system's zone (no `--tz` was given).
    let followsSystemZone: Bool

    /// Every connection, by id. Hot paths (a diff to every subscriber, each write the
    /// kernel took) find a connection once and then read and change its fields in place
    /// through `connections.values[slot]`: `connections[id]!.field` returns a copy of the
    /// whole connection for every read (its queue, input and view retained and released),
    /// which was a third of handing a diff to 10,000 subscribers (issue 12).
    var connections: [ConnectionID: HubConnection] = [:]
    var views: [View: ViewFeed] = [:]
    /// One-shot `snapshot` requests in the recomputer, by token.
    var pendingOneShots: [Int: ConnectionID] = [:]
    /// `sync` requests at the source runner, by token.
    var pendingSyncs: [Int: ConnectionID] = [:]
    /// Every live source as the runner last reported it (for `status`).
    var sources: [SourceStatus] = []
    var nextToken = 1
    var info = StoreInfo(calendars: [], eventCount: 0, lastRecompute: 0, lastDurationMS: 0, healthy: true, problem: nil)
    /// The zone of views that name none.
    var defaultZone: String
    var ready = false
    /// Set by `shutdown`: the monotonic time by which the loop exits.
    var shutdownDeadline: Double?
    let started: Moment
    /// The time of the event being handled.
    var now: Moment
    var lastWatchdog: Double
    var lastStatusNotify: Double
    var jumps = ClockJumpDetector()
    /// Effects of the event being handled, in order.
    var effects: [FeedEffect] = []
    /// When each connection next needs a look (stall or heartbeat): see `tick`.
    var deadlines = DeadlineQueue()

    init(config: DaemonConfiguration, epoch: String, watchdogInterval: Double?, followsSystemZone: Bool = false, now: Moment) {
        self.config = config
        self.epoch = epoch
        self.watchdogInterval = watchdogInterval
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
        case .accepted(let id): accept(id)
        case .received(let id, let bytes): receive(bytes, from: id)
        case .peerClosed(let id): peerClosed(id)
        case .wrote(let id, let count): wrote(count, to: id)
        case .failed(let id, let reason): remove(id, reason: reason)
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
    func interest(_ id: ConnectionID) -> (read: Bool, write: Bool) {
        guard let slot = connections.index(forKey: id) else { return (false, false) }
        return (connections.values[slot].ending == nil && acceptsRequests(connections.values[slot]),
                connections.values[slot].hasUnreadData)
    }

    /// The connection's queued output (the loop writes it, then reports `.wrote`).
    func output(_ id: ConnectionID) -> Outbox? {
        guard let slot = connections.index(forKey: id) else { return nil }
        return connections.values[slot].outbox
    }

    // MARK: - Connections

    private mutating func accept(_ id: ConnectionID) {
        guard shutdownDeadline == nil else { effects.append(.close(id)); return }
        if connections.count >= config.maxClients {
            effects.append(.refuse(id, Messages.error(.overloaded, "too many connections (limit \(config.maxClients)); try again later")))
            effects.append(.log(.warning, "connection refused: \(config.maxClients) clients already"))
            return
        }
        connections[id] = HubConnection(id: id, now: now.monotonic)
        send(Messages.hello(epoch: epoch), to: id)
        effects.append(.log(.debug, "client \(id) connected (\(connections.count) total)"))
    }

    /// Forgets a connection and closes it.
    mutating func remove(_ id: ConnectionID, reason: String?) {
        guard let c = connections.removeValue(forKey: id) else { return }
        if let view = c.subscription.view { unsubscribe(id, from: view) }
        effects.append(.close(id))
        if let reason { effects.append(.log(.info, "client \(id) disconnected: \(reason)")) }
    }

    private mutating func peerClosed(_ id: ConnectionID) {
        guard let c = connections[id] else { return }
        // Finish what it asked for (answers still being computed included), then close.
        if c.outbox.isEmpty && !c.awaitsAnswer {
            remove(id, reason: nil)
            return
        }
        connections[id]!.ending = .peerClosed
        effects.append(.stopReading(id))
    }

    private mutating func wrote(_ count: Int, to id: ConnectionID) {
        guard let slot = connections.index(forKey: id) else { return }
        // (No copy of the connection is held while it changes: its queue would be copied.)
        connections.values[slot].outbox.consume(count)
        let drained = connections.values[slot].outbox.isEmpty
        if count > 0 || drained { connections.values[slot].lastDrain = now.monotonic }
        guard drained else { return }
        // Nothing waits now: its next heartbeat may be sooner than the stall check.
        deadlines.schedule(id, at: connections.values[slot].lastSent + config.heartbeat)
        if connections.values[slot].ending != nil {
            if !connections.values[slot].awaitsAnswer { remove(id, reason: nil) }
            return
        }
        if case .owed(let view, let reason) = connections.values[slot].subscription, let feed = views[view], feed.seq > 0 {
            // It reads again: what it missed, as one fresh snapshot.
            serveSnapshot(of: view, to: id, resync: reason)
            return
        }
        // Requests held back while it did not read go on now.
        processInput(id)
    }

    /// Whether to read and act on more requests of `c`: not while more than
    /// --client-buffer bytes wait unread, nor while it has `maxOneShotsPerConnection`
    /// snapshots being computed. Its requests then wait in the kernel, so a client that
    /// floods the socket without reading can neither grow the daemon's memory (answers
    /// are never dropped) nor flood the recomputer.
    func acceptsRequests(_ c: HubConnection) -> Bool {
        c.outbox.retainedBytes <= config.clientBuffer && c.oneShotsWaiting < Self.maxOneShotsPerConnection
            && c.syncsWaiting < Self.maxOneShotsPerConnection
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
        guard let slot = connections.index(forKey: id), let view = connections.values[slot].subscription.view else { return }
        let retained = connections.values[slot].outbox.retainedBytes
        if retained > 0, retained + bytes.count > config.clientBuffer {
            connections.values[slot].outbox.dropUnstarted()
            if case .owed(_, let reason) = connections.values[slot].subscription {
                if reason != nil { return }
            } else {
                effects.append(.log(.notice, "client \(id) fell behind: queued diffs dropped, resync when it reads again"))
            }
            connections.values[slot].subscription = .owed(view, reason: "overflow")
            return
        }
        enqueue(bytes, kind: kind, to: id)
        effects.append(.flush(id))
    }

    mutating func enqueue(_ bytes: [UInt8], kind: Outbox.Kind, to id: ConnectionID) {
        enqueue(to: id) { $0.append(bytes, kind: kind) }
    }

    /// Queues a snapshot (written piece by piece).
    mutating func enqueue(_ snapshot: SnapshotMessage, to id: ConnectionID) {
        enqueue(to: id) { $0.append(snapshot) }
    }

    private mutating func enqueue(to id: ConnectionID, _ add: (inout Outbox) -> Void) {
        guard let slot = connections.index(forKey: id) else { return }
        // The stall clock starts when data starts waiting; owed data counts as waiting,
        // so a pong queued meanwhile does not restart it.
        if !connections.values[slot].hasUnreadData { connections.values[slot].lastDrain = now.monotonic }
        add(&connections.values[slot].outbox)
        connections.values[slot].lastSent = now.monotonic
        // Whatever it is waiting for now (a stall, or a heartbeat after this), it is
        // looked at again no later than the earlier of the two.
        deadlines.schedule(id, at: now.monotonic + min(config.heartbeat, config.stallTimeout))
    }
}
