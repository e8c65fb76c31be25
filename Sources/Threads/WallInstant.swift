import Foundation

/// A reading of the wall clock (`CLOCK_REALTIME`): the one form of a date-and-time of
/// the project, as time since the Unix epoch. Unlike `MonotonicInstant` it may step
/// (NTP, suspend, an administrator), so it dates things and never measures an interval.
/// Calendar code counts whole seconds (`unixSeconds`), the feed's documents milliseconds.
public struct WallInstant: Sendable, Hashable, Comparable {
    /// Time since 1970-01-01T00:00:00Z.
    public var sinceEpoch: Duration

    public init(sinceEpoch: Duration) { self.sinceEpoch = sinceEpoch }

    /// The instant `seconds` whole seconds after the epoch.
    public init(unixSeconds seconds: Int64) { sinceEpoch = .seconds(seconds) }

    /// The instant `milliseconds` after the epoch.
    public init(unixMilliseconds milliseconds: Int64) { sinceEpoch = .milliseconds(milliseconds) }

    /// The system's wall clock now.
    public static func now() -> WallInstant {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return WallInstant(sinceEpoch: .seconds(ts.tv_sec) + .nanoseconds(ts.tv_nsec))
    }

    /// Whole seconds since the epoch, rounded down (toward the past, also before 1970).
    public var unixSeconds: Int64 {
        let (whole, attoseconds) = sinceEpoch.components
        return attoseconds < 0 ? whole - 1 : whole
    }

    /// Whole milliseconds since the epoch, rounded down.
    public var unixMilliseconds: Int64 {
        let (whole, attoseconds) = sinceEpoch.components
        let milliseconds = attoseconds / 1_000_000_000_000_000
        return whole * 1000 + milliseconds - (attoseconds < 0 && attoseconds % 1_000_000_000_000_000 != 0 ? 1 : 0)
    }

    public static func < (a: Self, b: Self) -> Bool { a.sinceEpoch < b.sinceEpoch }
    public static func + (a: Self, d: Duration) -> Self { Self(sinceEpoch: a.sinceEpoch + d) }
    public static func - (a: Self, d: Duration) -> Self { Self(sinceEpoch: a.sinceEpoch - d) }
    public static func - (a: Self, b: Self) -> Duration { a.sinceEpoch - b.sinceEpoch }
}
