import Threads

/// When the recompute thread works, as pure arithmetic on the monotonic clock: the
/// timer (`--interval`), refreshes coalesced to at most one per `coalescing`, and date
/// checks (a view's local midnight, or a step of the wall clock). The thread supplies
/// the times and whether any view's date changed; this decides.
struct RecomputeSchedule: Equatable {
    enum Reason: String, Equatable {
        case refresh, timer, midnight
    }

    let interval: Duration
    let coalescing: Duration
    /// The next timer tick.
    private(set) var nextTick: MonotonicInstant
    /// When a requested refresh runs, if one is requested.
    private(set) var refreshDue: MonotonicInstant?
    /// The start of the last recompute.
    private(set) var lastRecompute: MonotonicInstant?

    init(interval: Duration, coalescing: Duration, now: MonotonicInstant) {
        self.interval = interval
        self.coalescing = coalescing
        nextTick = now + interval
    }

    /// A client asked for a refresh: at once, unless the last recompute was less than
    /// `coalescing` ago; refreshes requested meanwhile are one.
    mutating func requestRefresh(at now: MonotonicInstant) {
        let earliest = max(now, lastRecompute.map { $0 + coalescing } ?? now)
        refreshDue = min(refreshDue ?? earliest, earliest)
    }

    /// What is due at `now`, if anything; `dateChanged` says whether any view's local
    /// date differs from its snapshot's. A refresh or timer tick also covers dates.
    mutating func due(at now: MonotonicInstant, dateChanged: Bool) -> Reason? {
        if let due = refreshDue, now >= due {
            refreshDue = nil
            nextTick = now + interval
            return .refresh
        }
        if now >= nextTick {
            nextTick = now + interval
            return .timer
        }
        if dateChanged {
            nextTick = now + interval
            return .midnight
        }
        return nil
    }

    /// Records the start of a recompute.
    mutating func recomputed(at now: MonotonicInstant) { lastRecompute = now }

    /// How long the thread may sleep: until the next tick, refresh or midnight
    /// (`untilMidnight`: the time to the earliest view's next local midnight, by the
    /// wall clock).
    func wait(at now: MonotonicInstant, untilMidnight: Duration?) -> Duration {
        var deadline = nextTick
        if let due = refreshDue { deadline = min(deadline, due) }
        if let untilMidnight { deadline = min(deadline, now + max(.zero, untilMidnight)) }
        return max(.zero, deadline - now)
    }
}
