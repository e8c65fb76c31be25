import Testing
import Threads
@testable import LiveSources

/// The schedule's rules as arithmetic on made-up monotonic times (no clock, no I/O).
@Suite struct SourceSchedulerTests {
    @Test func aNewSourceIsDueAtOnceThenEveryInterval() {
        var s = SourceScheduler(jitter: { 0 })
        s.add("a", every: .seconds(900), due: t(100))
        #expect(s.start(at: t(99)).isEmpty)
        #expect(s.nextDue == t(100))
        #expect(s.start(at: t(100)) == ["a"])
        #expect(s.start(at: t(100)).isEmpty)  // running
        #expect(s.finished("a", .success(ttl: nil), at: t(105)) == t(1005))
        #expect(s.start(at: t(1004.9)).isEmpty)
        #expect(s.start(at: t(1005)) == ["a"])
    }

    @Test func failuresBackOffExponentiallyUpToSixHoursAndASuccessResets() {
        var s = SourceScheduler(jitter: { 0 })
        s.add("a", every: .seconds(900), due: t(0))
        var now = t(0)
        var waits: [Duration] = []
        for _ in 0..<7 {
            #expect(s.start(at: now) == ["a"])
            let due = s.finished("a", .failure, at: now)!
            waits.append(due - now)
            now = due
        }
        #expect(waits == [1800, 3600, 7200, 14400, 21600, 21600, 21600].map { .seconds($0) })
        #expect(s.start(at: now) == ["a"])
        #expect(s.finished("a", .success(ttl: nil), at: now) == now + .seconds(900))
        #expect(s.entries["a"]?.failures == 0)
    }

    @Test func jitterIsTenPercentEitherWay() {
        var low = SourceScheduler(jitter: { -1 })
        low.add("a", every: .seconds(1000), due: t(0))
        _ = low.start(at: t(0))
        #expect(low.finished("a", .success(ttl: nil), at: t(0)) == t(900))
        var high = SourceScheduler(jitter: { 1 })
        high.add("a", every: .seconds(1000), due: t(0))
        _ = high.start(at: t(0))
        #expect(high.finished("a", .failure, at: t(0)) == t(2200))
    }

    @Test func theCalendarsRefreshIntervalSlowsPollingButIsCappedAtADay() {
        var s = SourceScheduler(jitter: { 0 })
        s.add("a", every: .seconds(900), due: t(0))
        _ = s.start(at: t(0))
        #expect(s.finished("a", .success(ttl: .seconds(3600)), at: t(0)) == t(3600))
        _ = s.start(at: t(3600))
        #expect(s.finished("a", .success(ttl: .seconds(7 * 86_400)), at: t(3600)) == t(90_000.0))
        // A calendar asking for more often than --every does not speed polling up.
        _ = s.start(at: t(90_000))
        s.add("b", every: .seconds(900), due: t(0))
        _ = s.start(at: t(90_000))
        #expect(s.finished("b", .success(ttl: .seconds(60)), at: t(90_000)) == t(90_900))
    }

    @Test func atMostFourRunAtOnce() {
        var s = SourceScheduler(jitter: { 0 })
        for i in 0..<10 { s.add("s\(i)", every: .seconds(900), due: t(Double(i))) }
        #expect(s.start(at: t(100)) == ["s0", "s1", "s2", "s3"])
        #expect(s.nextDue == nil)
        #expect(s.start(at: t(200)).isEmpty)
        s.finished("s1", .success(ttl: nil), at: t(200))
        #expect(s.start(at: t(200)) == ["s4"])
        #expect(s.runningCount == 4)
    }

    @Test func syncNowIgnoresTheBackoffAndRunsAgainAfterARunningAttempt() {
        var s = SourceScheduler(jitter: { 0 })
        s.add("a", every: .seconds(900), due: t(0))
        _ = s.start(at: t(0))
        s.finished("a", .failure, at: t(0))
        s.due(["a"], at: t(10))
        #expect(s.start(at: t(10)) == ["a"])
        // Asked for while running: it runs again as soon as this attempt ends.
        s.due(["a"], at: t(11))
        #expect(s.finished("a", .failure, at: t(12)) == t(12))
        #expect(s.entries["a"]?.failures == 2)
        #expect(s.start(at: t(12)) == ["a"])
    }

    @Test func aRemovedSourceIsForgottenAndItsEndIgnored() {
        var s = SourceScheduler(jitter: { 0 })
        s.add("a", every: .seconds(900), due: t(0))
        _ = s.start(at: t(0))
        s.remove("a")
        #expect(s.finished("a", .success(ttl: nil), at: t(1)) == nil)
        #expect(s.nextDue == nil)
    }

    @Test func backoffNeverShortensALongInterval() {
        #expect(SourceScheduler.backoff(interval: .seconds(86_400), failures: 3) == .seconds(86_400))
        #expect(SourceScheduler.backoff(interval: .seconds(30), failures: 0) == .seconds(30))
        #expect(SourceScheduler.backoff(interval: .seconds(30), failures: 40) == .seconds(21_600))
    }
}

/// A made-up monotonic reading, `seconds` after the clock's start.
private func t(_ seconds: Double) -> MonotonicInstant { MonotonicInstant(sinceStart: .seconds(seconds)) }
