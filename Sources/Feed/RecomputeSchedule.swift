/// When the recompute thread works, as pure arithmetic on the monotonic clock: the
/// timer (`--interval`), refreshes coalesced to at most one per `coalescing` seconds,
/// and date checks (a view's local midnight, or a step of the wall clock). The thread
/// supplies the times and whether any view's date changed; this decides.
struct RecomputeSchedule: Equatable {
    enum Reason: String, Equatable {
        case refresh, timer, midnight
    }

    let interval: Double
    let coalescing: Double
    /// The next timer tick.
    private(set) var nextTick: Double
    /// When a requested refresh runs, if one is requested.
    private(set) var refreshDue: Double?
    /// The start of the last recompute.
    private(set) var lastRecompute: Double?

    init(interval: Double, coalescing: Double, now: Double) {
        self.interval = interval
        self.coalescing = coalescing
        nextTick = now + interval
    }

    /// A client asked for a refresh: at once, unless the last recompute was less than
    /// `coalescing` ago; refreshes requested meanwhile are one.
    mutating func requestRefresh(at now: Double) {
        let earliest = lastRecompute.map { $0 + coalescing } ?? now
        refreshDue = min(refreshDue ?? .infinity, max(now, earliest))
    }

    /// What is due at `now`, if anything; `dateChanged` says whether any view's local
    /// date differs from its snapshot's. A refresh or timer tick also covers dates.
    mutating func due(at now: Double, dateChanged: Bool) -> Reason? {
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
    mutating func recomputed(at now: Double) { lastRecompute = now }

    /// How long the thread may sleep: until the next tick, refresh or midnight
    /// (`untilMidnight`: seconds until the earliest view's next local midnight).
    func wait(at now: Double, untilMidnight: Double?) -> Double {
        var deadline = nextTick
        if let due = refreshDue { deadline = min(deadline, due) }
        if let untilMidnight { deadline = min(deadline, now + max(0, untilMidnight)) }
        return max(0, deadline - now)
    }
}
