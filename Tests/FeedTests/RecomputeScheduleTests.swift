import Testing
import Threads
@testable import Feed

/// The recompute thread's timing rules, as pure arithmetic on the monotonic clock.
@Suite struct RecomputeScheduleTests {
    @Test func theTimerTicksEveryInterval() {
        var s = RecomputeSchedule(interval: .seconds(60), coalescing: .milliseconds(100), now: t(0))
        #expect(s.due(at: t(59.9), dateChanged: false) == nil)
        #expect(s.wait(at: t(59.9), untilMidnight: nil) == .milliseconds(100))
        #expect(s.due(at: t(60), dateChanged: false) == .timer)
        #expect(s.due(at: t(61), dateChanged: false) == nil)
        #expect(s.due(at: t(120), dateChanged: false) == .timer)
    }

    @Test func refreshesRunAtOnceButAtMostOncePerCoalescingPeriod() {
        var s = RecomputeSchedule(interval: .seconds(60), coalescing: .milliseconds(100), now: t(0))
        s.requestRefresh(at: t(10))
        #expect(s.due(at: t(10), dateChanged: false) == .refresh)
        s.recomputed(at: t(10))
        s.requestRefresh(at: t(10.02))
        s.requestRefresh(at: t(10.05))
        #expect(s.wait(at: t(10.05), untilMidnight: nil) == .milliseconds(50))
        #expect(s.due(at: t(10.09), dateChanged: false) == nil)
        #expect(s.due(at: t(10.1), dateChanged: false) == .refresh)
        #expect(s.due(at: t(10.2), dateChanged: false) == nil, "the two requests were one")
    }

    @Test func aRefreshResetsTheTimer() {
        var s = RecomputeSchedule(interval: .seconds(60), coalescing: .milliseconds(100), now: t(0))
        s.requestRefresh(at: t(50))
        #expect(s.due(at: t(50), dateChanged: false) == .refresh)
        #expect(s.due(at: t(60), dateChanged: false) == nil)
        #expect(s.due(at: t(110), dateChanged: false) == .timer)
    }

    @Test func aChangedDateIsDueAtOnceAndMidnightBoundsTheWait() {
        var s = RecomputeSchedule(interval: .seconds(60), coalescing: .milliseconds(100), now: t(0))
        #expect(s.wait(at: t(5), untilMidnight: .milliseconds(2500)) == .milliseconds(2500))
        #expect(s.wait(at: t(5), untilMidnight: .seconds(-3)) == .zero)
        #expect(s.due(at: t(7.5), dateChanged: true) == .midnight)
        #expect(s.due(at: t(8), dateChanged: false) == nil)
    }

    /// The instant `seconds` after the clock's start (exact for the test's hundredths).
    func t(_ seconds: Double) -> MonotonicInstant {
        MonotonicInstant(sinceStart: .milliseconds(Int64((seconds * 1000).rounded())))
    }
}
