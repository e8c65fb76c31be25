import Threads

/// When each source is synchronised: a pure state machine. It takes events (a source
/// added or removed, an attempt finished, a file changed, "sync now") and the time, and
/// returns which sources to start; it reads no clock and does no I/O, so every rule is
/// tested with made-up times (`Tests/LiveSourcesTests`).
///
/// Rules (docs/live-sources.md): a source is due every `interval` (its `--every`, but never
/// more often than the calendar's own refresh interval asks, capped at a day), ±10%
/// jitter; after `n` failures in a row the wait is `interval × 2ⁿ`, at most 6 h, and a
/// success resets it; at most `maxRunning` attempts run at once; "sync now" ignores the
/// backoff. Times are instants on the monotonic clock.
public struct SourceScheduler: Sendable {
    /// One source's schedule.
    public struct Entry: Sendable, Equatable {
        /// The configured interval.
        public var every: Duration
        /// The calendar's own refresh interval (already capped).
        public var ttl: Duration?
        /// Failures since the last success.
        public var failures = 0
        /// When the next attempt is due.
        public var due: MonotonicInstant
        /// An attempt is running.
        public var running = false
        /// Another attempt was asked for while one ran: start it when that one ends.
        public var again = false

        /// The wait after a success.
        public var interval: Duration { max(every, ttl ?? .zero) }
    }

    /// The result of one attempt, as the schedule needs it.
    public enum Outcome: Sendable, Equatable {
        /// Synchronised (changed or not); `ttl` is the calendar's own refresh interval.
        case success(ttl: Duration?)
        case failure
    }

    /// Every source's schedule, by name.
    public private(set) var entries: [String: Entry] = [:]
    /// Attempts at once.
    public let maxRunning: Int
    /// A number in [-1, 1] per planned attempt; the jitter is 10% of the wait times it.
    private var jitter: @Sendable () -> Double

    /// `jitter` is injectable so that tests know every due time (`{ 0 }`: none).
    public init(maxRunning: Int = LiveSourceDefaults.concurrentFetches,
                jitter: @escaping @Sendable () -> Double = { Double.random(in: -1...1) }) {
        self.maxRunning = max(1, maxRunning)
        self.jitter = jitter
    }

    /// The attempts running now.
    public var runningCount: Int { entries.values.filter(\.running).count }

    /// Adds (or re-adds, keeping nothing) a source, first due at `due`.
    public mutating func add(_ name: String, every: Duration, ttl: Duration? = nil, failures: Int = 0, due: MonotonicInstant) {
        entries[name] = Entry(every: every, ttl: ttl.map { min($0, .seconds(LiveSourceDefaults.maximumTTL)) },
                              failures: failures, due: due)
    }

    /// Forgets a source (a running attempt's end is then ignored).
    public mutating func remove(_ name: String) { entries[name] = nil }

    /// Makes the named sources due at `now`, backoff or not (`source sync`, or a
    /// watched file changed: `now` plus a short settling delay).
    public mutating func due(_ names: [String], at time: MonotonicInstant) {
        for name in names where entries[name] != nil {
            if entries[name]!.running { entries[name]!.again = true } else { entries[name]!.due = min(entries[name]!.due, time) }
        }
    }

    /// Records the end of an attempt and plans the next one. Returns when it is due.
    @discardableResult
    public mutating func finished(_ name: String, _ outcome: Outcome, at now: MonotonicInstant) -> MonotonicInstant? {
        guard var entry = entries[name] else { return nil }
        entry.running = false
        let wait: Duration
        switch outcome {
        case .success(let ttl):
            entry.failures = 0
            if let ttl { entry.ttl = min(ttl, .seconds(LiveSourceDefaults.maximumTTL)) }
            wait = entry.interval
        case .failure:
            entry.failures += 1
            wait = Self.backoff(interval: entry.interval, failures: entry.failures)
        }
        entry.due = entry.again ? now : now + wait + wait * (0.1 * max(-1, min(1, jitter())))
        entry.again = false
        entries[name] = entry
        return entry.due
    }

    /// `interval × 2ⁿ`, at most six hours (the interval itself when it is longer).
    public static func backoff(interval: Duration, failures: Int) -> Duration {
        let cap = max(interval, LiveSourceDefaults.maximumBackoff)
        guard failures > 0 else { return interval }
        // Doubling stops at the cap, so the product cannot overflow.
        var wait = interval
        for _ in 0..<min(failures, 30) where wait < cap { wait *= 2 }
        return min(wait, cap)
    }

    /// The sources to start at `now`: due ones, earliest first, while fewer than
    /// `maxRunning` run. They are marked running.
    public mutating func start(at now: MonotonicInstant) -> [String] {
        var free = maxRunning - runningCount
        guard free > 0 else { return [] }
        let ready = entries.filter { !$0.value.running && $0.value.due <= now }
            .sorted { ($0.value.due, $0.key) < ($1.value.due, $1.key) }
        var started: [String] = []
        for (name, _) in ready where free > 0 {
            entries[name]!.running = true
            started.append(name)
            free -= 1
        }
        return started
    }

    /// The earliest time something could start (nil: nothing waits). When every slot
    /// is busy, the next change comes from a `finished`, not from time.
    public var nextDue: MonotonicInstant? {
        guard runningCount < maxRunning else { return nil }
        return entries.values.filter { !$0.running }.map(\.due).min()
    }
}
