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
}
