import Threads
import Diagnostics
import FeedProtocol
import RedisClient

/// The publisher's pure core: which views are published, the connection's state, the
/// backoff, what is owed to Redis after an outage. It takes `PublisherEvent`s and returns
/// `PublisherEffect`s; it owns no connection and reads no clock, so every rule (log once
/// per outage, backoff up to 30 s, republish after an outage or an emptied Redis, stop
/// publishing unwanted views) is tested with a fake clock (`Tests/RedisTests`).
///
/// Redis is never the source of truth: while it is unreachable, a view's messages are
/// not queued, only its latest snapshot is kept, and that snapshot is what Redis gets
/// when it is back.
public struct PublisherMachine: Sendable {
    /// The connection as the machine sees it.
    enum Link: Sendable, Equatable {
        /// Unusable; the next attempt is due at `retryAt` (monotonic).
        case down(retryAt: MonotonicInstant, attempt: Int)
        case connecting(attempt: Int)
        case up
    }

    /// A followed view.
    struct ViewState: Sendable {
        let view: PublishedView
        /// The last message that had a snapshot (its state's snapshot line).
        var latest: FeedLine?
        /// Redis lacks this view's latest state (an outage, a refused write, an emptied
        /// Redis): its snapshot is published before anything else of it.
        var owed = true
    }

    public let settings: PublisherSettings
    var link: Link = .down(retryAt: MonotonicInstant(sinceStart: .zero), attempt: 0)
    /// When the current outage began (monotonic), while there is one: logged once.
    var outageSince: MonotonicInstant?
    /// Set while Redis answers writes with errors: logged once per episode.
    var refusing = false
    var views: [String: ViewState] = [:]
    /// The keys of the views gateways want, as last read.
    var wanted: Set<String> = []
    var nextWantedRead = MonotonicInstant(sinceStart: .zero)
    var now = PublisherClock(monotonic: MonotonicInstant(sinceStart: .zero), wallMilliseconds: 0)
    var effects: [PublisherEffect] = []

    /// A machine with these settings (nothing happens before `start`).
    public init(settings: PublisherSettings) { self.settings = settings }

    /// The first effects: follow the configured views, connect.
    public mutating func start(at now: PublisherClock) -> [PublisherEffect] {
        self.now = now
        effects = []
        for view in settings.configured { follow(view) }
        link = .connecting(attempt: 0)
        effects.append(.connect)
        return effects
    }

    /// Handles one event; returns what the I/O must do, in order.
    public mutating func handle(_ event: PublisherEvent, at now: PublisherClock) -> [PublisherEffect] {
        self.now = now
        effects = []
        switch event {
        case .line(let view, let line): received(line, of: view)
        case .skipped(let view, let line):
            views[view.key]?.owed = true
            received(line, of: view)
        case .connected: connected()
        case .connectFailed(let error): lost(error)
        case .answered(let request, let replies): answered(request, replies)
        case .failed(let request, let error):
            if case .publish(let view, _, _) = request { views[view.key]?.owed = true }
            lost(error)
        case .tick: tick()
        case .announcement: if link == .up { readWanted() }
        case .status(let line):
            // Not kept while Redis is away: the next one comes within seconds.
            if link == .up { effects.append(.send(.status, [StatusKey.write(line, keys: settings.keys)])) }
        }
        return effects
    }

    /// The views published now (for status and tests).
    public var publishedViews: [PublishedView] { views.values.map(\.view) }

    /// Whether the machine believes Redis reachable.
    public var isConnected: Bool { link == .up }

    // MARK: - Connection

    private mutating func connected() {
        if let since = outageSince {
            effects.append(.log(.notice, "Redis is reachable again after \(Self.seconds(now.monotonic - since)): republishing \(views.count) view(s)"))
            outageSince = nil
        }
        link = .up
        // Whatever happened meanwhile (a restart, a flush, missed messages), each view's
        // latest snapshot goes first.
        for key in views.keys { views[key]!.owed = true }
        readWanted()
        republishOwed()
    }

    /// The connection is unusable: retry with backoff, log once per outage.
    private mutating func lost(_ error: RedisError) {
        let attempt: Int
        switch link {
        case .down(_, let a), .connecting(let a): attempt = a + 1
        case .up: attempt = 0
        }
        let delay = Backoff(first: settings.firstBackoff, max: settings.maxBackoff).delay(after: attempt)
        link = .down(retryAt: now.monotonic + delay, attempt: attempt)
        for key in views.keys { views[key]!.owed = true }
        guard outageSince == nil else { return }
        outageSince = now.monotonic
        effects.append(.log(.warning, "\(error); the feed socket is served as before, Redis is retried (every \(Self.seconds(settings.maxBackoff)) at most) and gets each view's snapshot when it is back"))
    }

    private mutating func tick() {
        switch link {
        case .down(let retryAt, let attempt) where now.monotonic >= retryAt:
            link = .connecting(attempt: attempt)
            effects.append(.connect)
        case .up:
            // Owed snapshots (after refused writes) are retried with each read, not
            // every second: a Redis out of memory gets one try per view per interval.
            if now.monotonic >= nextWantedRead { readWanted() }
        default:
            break
        }
    }

    /// `2.5 s`, `30 s`: an outage's length or a retry interval, for the log.
    static func seconds(_ d: Duration) -> String {
        let s = d.seconds
        return s < 10 ? "\(Double(Int(s * 10)) / 10) s" : "\(Int(s)) s"
    }
}
