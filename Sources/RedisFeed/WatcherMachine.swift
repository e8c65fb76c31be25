import Threads
import FeedProtocol
import RedisClient

/// One view's reader in a gateway, pure: the wanted-set entry (renewed every 20 s with a
/// 60 s lifetime, announced when Redis says it is new), the start from the snapshot key
/// and the stream, `XREAD` from the entry after the last one read, the joins (a
/// `Last-Event-ID` replayed from the entries held, else a fresh snapshot), and the
/// reconnection with backoff (0.5 s doubling to 30 s, reset once the view is read
/// again). It takes `WatcherEvent`s and returns `WatcherEffect`s; it owns no connection
/// and reads no clock (`ViewWatcher` is its I/O), so every rule is tested with a fake
/// clock (`WatcherMachineTests`).
///
/// While Redis is unreachable the machine keeps its view: its clients are told (each
/// browser shows "reconnecting" and retries), clients arriving meanwhile are told at
/// once, and only the machine's own schedule connects again — so a wave of browser
/// retries costs no connection attempt, whatever its size.
public struct WatcherMachine: Sendable {
    enum Link: Sendable, Equatable {
        /// Unusable; the next attempt is due at `retryAt` (monotonic).
        case down(retryAt: MonotonicInstant)
        case connecting
        case up
    }

    struct Join: Sendable, Equatable {
        var client: Int
        var resume: Request.Resume?
        var oneShot: Bool
    }

    public let view: PublishedView
    public let keys: FeedKeys
    public let settings: WatcherSettings
    var link = Link.connecting
    /// Consecutive failures since the view was last read: the next delay's exponent.
    var failures = 0
    /// Whether the start read succeeded on this connection (joins are served).
    var streaming = false
    /// The request whose replies are awaited (one at a time: one blocking connection).
    var inFlight: WatcherRequest?
    /// When the wanted-set entry was last written (monotonic), on this connection.
    var wantedAt: MonotonicInstant?
    /// While a new connection waits for eventd's first snapshot.
    var startDeadline = MonotonicInstant(sinceStart: .zero)
    var nextStartTry = MonotonicInstant(sinceStart: .zero)
    /// Joins not served yet (they need a snapshot, or the start read).
    var waiting: [Join] = []
    /// Members that fell out of step and need a fresh snapshot (their `resync` went).
    var lost: [Int] = []
    var snapshot: ViewFanout.Snapshot?
    var fanout: ViewFanout
    var idleSince: MonotonicInstant?
    /// Set from the first failure to the next start: `reachable` is said once each way.
    var outage = false
    public private(set) var isFinished = false
    var now = PublisherClock(monotonic: MonotonicInstant(sinceStart: .zero), wallMilliseconds: 0)
    var effects: [WatcherEffect] = []

    /// A machine for `view` under `keys` (nothing happens before `start`).
    public init(view: PublishedView, keys: FeedKeys, settings: WatcherSettings = WatcherSettings(), fanout: ViewFanout = ViewFanout()) {
        self.view = view
        self.keys = keys
        self.settings = settings
        self.fanout = fanout
    }

    /// The first effect: connect.
    public mutating func start(at now: PublisherClock) -> [WatcherEffect] {
        self.now = now
        link = .connecting
        return [.connect]
    }

    /// Handles one event; returns what the I/O must do, in order.
    public mutating func handle(_ event: WatcherEvent, at now: PublisherClock) -> [WatcherEffect] {
        self.now = now
        effects = []
        guard !isFinished else {
            if case .join(let client, _, _) = event { effects.append(.close(client: client)) }
            return effects
        }
        switch event {
        case .join(let client, let resume, let oneShot): join(Join(client: client, resume: resume, oneShot: oneShot))
        case .leave(let client):
            fanout.leave(client)
            waiting.removeAll { $0.client == client }
            lost.removeAll { $0 == client }
        case .connected:
            link = .up
            streaming = false
            inFlight = nil
            startDeadline = now.monotonic + settings.snapshotWait
            nextStartTry = now.monotonic
            send(.want)
        case .connectFailed(let error): fail(error.description)
        case .failed(_, let error): fail(error.description)
        case .answered(let request, let replies):
            inFlight = nil
            answered(request, replies)
        case .tick: tick()
        }
        return effects
    }

    /// Clients reading the view now.
    public var memberCount: Int { fanout.memberCount }
    /// Whether the machine believes Redis reachable.
    public var isConnected: Bool { link == .up }
    /// Whether the view is being read (the start read succeeded on this connection).
    public var isStreaming: Bool { streaming }

    // MARK: - Clients

    private mutating func join(_ join: Join) {
        // A browser retrying keeps the view (and its schedule of reconnections) alive.
        idleSince = nil
        if case .down = link { return effects.append(.close(client: join.client)) }
        if streaming, let resume = join.resume, let lines = fanout.resume(join.client, after: resume) {
            return effects.append(.deliver(client: join.client, lines: lines))
        }
        waiting.append(join)
    }

    /// Serves the waiting joins from `snapshot` (a resume from the entries held when it
    /// can be), and the members that lost step.
    mutating func serveWaiting() {
        guard let snapshot else { return }
        for join in waiting {
            if let resume = join.resume, let lines = fanout.resume(join.client, after: resume) {
                effects.append(.deliver(client: join.client, lines: lines))
            } else {
                effects.append(.deliver(client: join.client, lines: fanout.join(join.client, snapshot: snapshot, resume: join.resume)))
            }
            if join.oneShot { fanout.leave(join.client) }
        }
        waiting.removeAll()
        for client in lost {
            effects.append(.deliver(client: client, lines: fanout.join(client, snapshot: snapshot, resume: nil, hello: false)))
        }
        lost.removeAll()
    }

    // MARK: - Time and requests

    private mutating func tick() {
        if fanout.memberCount == 0 && waiting.isEmpty && lost.isEmpty {
            if let since = idleSince, now.monotonic - since >= settings.idleGrace {
                isFinished = true
                return effects.append(.finished)
            }
            if idleSince == nil { idleSince = now.monotonic }
        } else {
            idleSince = nil
        }
        switch link {
        case .down(let retryAt) where now.monotonic >= retryAt:
            link = .connecting
            effects.append(.connect)
        case .up:
            next(reading: true)
        default:
            break
        }
    }

    /// The next request, when none is in flight: the wanted-set entry when due, the
    /// start read, a snapshot for the joins waiting, and (on a tick) the next `XREAD`.
    mutating func next(reading: Bool) {
        guard link == .up, inFlight == nil else { return }
        let hasClients = fanout.memberCount > 0 || !waiting.isEmpty || !lost.isEmpty
        if hasClients && wantedAt.map({ now.monotonic - $0 >= settings.wantedRefresh }) ?? true { return send(.want) }
        if !streaming {
            if now.monotonic >= nextStartTry { send(.start) }
            return
        }
        if !waiting.isEmpty || !lost.isEmpty { return send(.snapshot) }
        if reading { send(.read) }
    }

    mutating func send(_ request: WatcherRequest) {
        inFlight = request
        effects.append(.send(request, commands(request)))
    }

    /// The commands of each request.
    func commands(_ request: WatcherRequest) -> [RedisCommand] {
        switch request {
        case .want:
            let expiry = now.wallMilliseconds + Int64(settings.wantedLifetime / .milliseconds(1))
            return [RedisCommand(["ZADD", keys.wanted, String(expiry), view.canonical])]
        case .announce:
            return [RedisCommand(["PUBLISH", keys.wanted, view.canonical])]
        case .start:
            return [RedisCommand(["MULTI"]), RedisCommand(["GET", keys.snapshot(view)]),
                    RedisCommand(["XRANGE", keys.stream(view), "-", "+"]), RedisCommand(["EXEC"])]
        case .snapshot:
            return [RedisCommand(["MULTI"]), RedisCommand(["GET", keys.snapshot(view)]),
                    RedisCommand(["XREVRANGE", keys.stream(view), "+", "-", "COUNT", "1"]), RedisCommand(["EXEC"])]
        case .read:
            return [RedisCommand(["XREAD", "COUNT", String(settings.readCount), "BLOCK", String(settings.blockMilliseconds),
                                  "STREAMS", keys.stream(view), fanout.position.description])]
        }
    }
}
