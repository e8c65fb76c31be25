import Agenda
import Foundation
import Threads

/// One reading of both clocks.
public struct Moment: Sendable, Equatable {
    /// The monotonic clock (`CLOCK_MONOTONIC`): every interval is measured here.
    public var monotonic: MonotonicInstant
    /// The wall clock: only for dates (today, midnight, message times).
    public var wall: WallInstant

    public init(monotonic: MonotonicInstant, wall: WallInstant) {
        self.monotonic = monotonic
        self.wall = wall
    }
}

/// The daemon's two clocks, injected so that tests control them. Intervals (watchdog,
/// stall, heartbeat, coalescing, the timer, the shutdown drain) use `monotonic`, which
/// never steps; dates use `wall`, which may jump (NTP, suspend, an administrator).
public struct DaemonClocks: Sendable {
    public var monotonic: @Sendable () -> MonotonicInstant
    public var wall: @Sendable () -> WallInstant

    public init(monotonic: @escaping @Sendable () -> MonotonicInstant, wall: @escaping @Sendable () -> WallInstant) {
        self.monotonic = monotonic
        self.wall = wall
    }

    /// The system's clocks; the wall clock is shifted by `EVENTD_FAKE_NOW` when set.
    public static func system(environment: [String: String]) -> DaemonClocks {
        let agenda = AgendaClock(environment: environment)
        return DaemonClocks(monotonic: { MonotonicInstant.now() }, wall: { agenda.instant() })
    }

    public func now() -> Moment { Moment(monotonic: monotonic(), wall: wall()) }

    /// CPU time of the calling thread: a diagnostic for the log, not one of the hub's clocks.
    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// Notices a step of the wall clock against the monotonic one: their difference stays
/// put while both run, and moves when the wall clock is set or the machine resumes
/// from suspend (the monotonic clock does not count suspended time).
struct ClockJumpDetector {
    /// Steps smaller than this are drift or scheduling noise.
    var threshold: Duration = .milliseconds(500)
    private var offset: Duration?

    /// Whether the wall clock stepped since the last reading.
    mutating func observe(_ now: Moment) -> Bool {
        let current = now.wall.sinceEpoch - now.monotonic.sinceStart
        defer { offset = current }
        guard let offset else { return false }
        return current - offset > threshold || offset - current > threshold
    }
}
