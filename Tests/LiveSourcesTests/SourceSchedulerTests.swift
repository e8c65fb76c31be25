import Testing
@testable import LiveSources

/// The schedule's rules as arithmetic on made-up monotonic times (no clock, no I/O).
@Suite struct SourceSchedulerTests {
    @Test func aNewSourceIsDueAtOnceThenEveryInterval() {
        var s = SourceScheduler(jitter: { 0 })
        s.add("a", every: 900, due: 100)
        #expect(s.start(at: 99).isEmpty)
        #expect(s.nextDue == 100)
        #expect(s.start(at: 100) == ["a"])
        #expect(s.start(at: 100).isEmpty)  // running
        #expect(s.finished("a", .success(ttl: nil), at: 105) == 1005)
        #expect(s.start(at: 1004.9).isEmpty)
        #expect(s.start(at: 1005) == ["a"])
    }

    @Test func failuresBackOffExponentiallyUpToSixHoursAndASuccessResets() {
        var s = SourceScheduler(jitter: { 0 })
        s.add("a", every: 900, due: 0)
        var now = 0.0
        var waits: [Double] = []
        for _ in 0..<7 {
            #expect(s.start(at: now) == ["a"])
            let due = s.finished("a", .failure, at: now)!
            waits.append(due - now)
            now = due
        }
        #expect(waits == [1800, 3600, 7200, 14400, 21600, 21600, 21600])
        #expect(s.start(at: now) == ["a"])
        #expect(s.finished("a", .success(ttl: nil), at: now) == now + 900)
        #expect(s.entries["a"]?.failures == 0)
    }

    @Test func jitterIsTenPercentEitherWay() {
        var low = SourceScheduler(jitter: { -1 })
        low.add("a", every: 1000, due: 0)
        _ = low.start(at: 0)
        #expect(low.finished("a", .success(ttl: nil), at: 0) == 900)
        var high = SourceScheduler(jitter: { 1 })
        high.add("a", every: 1000, due: 0)
        _ = high.start(at: 0)
        #expect(high.finished("a", .failure, at: 0) == 2200)
    }

    @Test func theCalendarsRefreshIntervalSlowsPollingButIsCappedAtADay() {
        var s = SourceScheduler(jitter: { 0 })
        s.add("a", every: 900, due: 0)
        _ = s.start(at: 0)
        #expect(s.finished("a", .success(ttl: 3600), at: 0) == 3600)
        _ = s.start(at: 3600)
        #expect(s.finished("a", .success(ttl: 7 * 86_400), at: 3600) == 90_000.0)
        // A calendar asking for more often than --every does not speed polling up.
        _ = s.start(at: 90_000)
        s.add("b", every: 900, due: 0)
        _ = s.start(at: 90_000)
        #expect(s.finished("b", .success(ttl: 60), at: 90_000) == 90_900)
    }

    @Test func atMostFourRunAtOnce() {
        var s = SourceScheduler(jitter: { 0 })
        for i in 0..<10 { s.add("s\(i)", every: 900, due: Double(i)) }
        #expect(s.start(at: 100) == ["s0", "s1", "s2", "s3"])
        #expect(s.nextDue == nil)
        #expect(s.start(at: 200).isEmpty)
        s.finished("s1", .success(ttl: nil), at: 200)
        #expect(s.start(at: 200) == ["s4"])
        #expect(s.runningCount == 4)
    }

    @Test func syncNowIgnoresTheBackoffAndRunsAgainAfterARunningAttempt() {
        var s = SourceScheduler(jitter: { 0 })
        s.add("a", every: 900, due: 0)
        _ = s.start(at: 0)
        s.finished("a", .failure, at: 0)
        s.due(["a"], at: 10)
        #expect(s.start(at: 10) == ["a"])
        // Asked for while running: it runs again as soon as this attempt ends.
        s.due(["a"], at: 11)
        #expect(s.finished("a", .failure, at: 12) == 12)
        #expect(s.entries["a"]?.failures == 2)
        #expect(s.start(at: 12) == ["a"])
    }

    @Test func aRemovedSourceIsForgottenAndItsEndIgnored() {
        var s = SourceScheduler(jitter: { 0 })
        s.add("a", every: 900, due: 0)
        _ = s.start(at: 0)
        s.remove("a")
        #expect(s.finished("a", .success(ttl: nil), at: 1) == nil)
        #expect(s.nextDue == nil)
    }

    @Test func backoffNeverShortensALongInterval() {
        #expect(SourceScheduler.backoff(interval: 86_400, failures: 3) == 86_400)
        #expect(SourceScheduler.backoff(interval: 30, failures: 0) == 30)
        #expect(SourceScheduler.backoff(interval: 30, failures: 40) == 21_600)
    }
}
