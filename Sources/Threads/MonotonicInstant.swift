import Foundation

/// A reading of `CLOCK_MONOTONIC`, the one clock every interval of the project is
/// measured on: it never steps and does not count suspended time (so a wall clock that
/// moved against it shows a step or a resume).
public struct MonotonicInstant: Sendable, Hashable, Comparable {
    /// Time since an arbitrary start (the boot).
    public var sinceStart: Duration

    public init(sinceStart: Duration) { self.sinceStart = sinceStart }

    /// The clock's reading now.
    public static func now() -> MonotonicInstant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicInstant(sinceStart: .seconds(ts.tv_sec) + .nanoseconds(ts.tv_nsec))
    }

    /// Seconds since the start, for the state machines that count in seconds.
    public var seconds: Double { sinceStart.seconds }

    public static func < (a: Self, b: Self) -> Bool { a.sinceStart < b.sinceStart }
    public static func + (a: Self, d: Duration) -> Self { Self(sinceStart: a.sinceStart + d) }
    public static func - (a: Self, b: Self) -> Duration { a.sinceStart - b.sinceStart }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    public var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    /// Whole milliseconds, rounded up so that a wait never ends early; 0 when negative,
    /// at most `Int32.max` (what `poll` and `epoll_wait` take).
    public var pollMilliseconds: Int32 {
        let (whole, attoseconds) = components
        guard whole >= 0, attoseconds >= 0 else { return 0 }
        guard whole < Int64(Int32.max) / 1000 else { return Int32.max }
        let unit: Int64 = 1_000_000_000_000_000
        return Int32(whole * 1000 + attoseconds / unit + (attoseconds % unit > 0 ? 1 : 0))
    }

    /// Whole seconds, rounded up (a date planned this far ahead is never early).
    public var wholeSecondsRoundedUp: Int64 {
        let (whole, attoseconds) = components
        return attoseconds > 0 ? whole + 1 : whole
    }
}
