import Testing
@testable import Feed

/// The recompute thread's timing rules, as pure arithmetic on the monotonic clock.
@Suite struct RecomputeScheduleTests {
    @Test func theTimerTicksEveryInterval() {
        var s = RecomputeSchedule(interval: 60, coalescing: 0.1, now: 0)
        #expect(s.due(at: 59.9, dateChanged: false) == nil)
        #expect(s.wait(at: 59.9, untilMidnight: nil) == 60 - 59.9)
        #expect(s.due(at: 60, dateChanged: false) == .timer)
        #expect(s.due(at: 61, dateChanged: false) == nil)
        #expect(s.due(at: 120, dateChanged: false) == .timer)
    }

    @Test func refreshesRunAtOnceButAtMostOncePerCoalescingPeriod() {
        var s = RecomputeSchedule(interval: 60, coalescing: 0.1, now: 0)
        s.requestRefresh(at: 10)
        #expect(s.due(at: 10, dateChanged: false) == .refresh)
        s.recomputed(at: 10)
        s.requestRefresh(at: 10.02)
        s.requestRefresh(at: 10.05)
        #expect(s.wait(at: 10.05, untilMidnight: nil) == (10.1 - 10.05))
        #expect(s.due(at: 10.09, dateChanged: false) == nil)
        #expect(s.due(at: 10.1, dateChanged: false) == .refresh)
        #expect(s.due(at: 10.2, dateChanged: false) == nil, "the two requests were one")
    }

    @Test func aRefreshResetsTheTimer() {
        var s = RecomputeSchedule(interval: 60, coalescing: 0.1, now: 0)
        s.requestRefresh(at: 50)
        #expect(s.due(at: 50, dateChanged: false) == .refresh)
        #expect(s.due(at: 60, dateChanged: false) == nil)
        #expect(s.due(at: 110, dateChanged: false) == .timer)
    }

    @Test func aChangedDateIsDueAtOnceAndMidnightBoundsTheWait() {
        var s = RecomputeSchedule(interval: 60, coalescing: 0.1, now: 0)
        #expect(s.wait(at: 5, untilMidnight: 2.5) == 2.5)
        #expect(s.wait(at: 5, untilMidnight: -3) == 0)
        #expect(s.due(at: 7.5, dateChanged: true) == .midnight)
        #expect(s.due(at: 8, dateChanged: false) == nil)
    }
}
