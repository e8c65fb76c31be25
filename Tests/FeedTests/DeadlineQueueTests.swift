@testable import Feed
import Testing
import TestSupport

/// `DeadlineQueue` against a model that scans everything: the same connections come
/// due at the same times, whatever the order of schedules and pops.
@Suite struct DeadlineQueueTests {
    @Test func popsWhatIsDueInOrderOfTime() {
        var q = DeadlineQueue()
        q.schedule(3, at: 30)
        q.schedule(1, at: 10)
        q.schedule(2, at: 20)
        #expect(q.popDue(5).isEmpty)
        #expect(q.popDue(20) == [1, 2])
        #expect(q.popDue(100) == [3])
        #expect(q.popDue(1000).isEmpty)
    }

    @Test func aLaterScheduleKeepsTheEarlierEntryAndAnEarlierOneReplacesIt() {
        var q = DeadlineQueue()
        q.schedule(1, at: 10)
        q.schedule(1, at: 50)
        #expect(q.popDue(10) == [1])
        q.schedule(2, at: 50)
        q.schedule(2, at: 20)
        #expect(q.popDue(20) == [2])
        // The stale entry at 50 is skipped, not reported again.
        #expect(q.popDue(60).isEmpty)
    }

    @Test func aForgottenConnectionIsNeverDueAndCanBeScheduledAgain() {
        var q = DeadlineQueue()
        q.schedule(1, at: 10)
        q.schedule(2, at: 10)
        q.forget(1)
        #expect(q.popDue(20) == [2])
        q.schedule(1, at: 30)
        #expect(q.popDue(30) == [1])
        // Scheduling the same time twice leaves one entry.
        q.schedule(3, at: 40)
        q.schedule(3, at: 40)
        #expect(q.count == 1)
    }

    @Test func agreesWithAFullScan() {
        var rng = SeededRandom(seed: 12)
        for _ in 0..<200 {
            var q = DeadlineQueue()
            var model: [ConnectionID: Double] = [:]
            var now = 0.0
            for _ in 0..<300 {
                if rng.percent(60) {
                    let id = rng.below(40), at = now + Double(rng.below(100))
                    q.schedule(id, at: at)
                    model[id] = min(model[id] ?? .infinity, at)
                } else if rng.percent(10) {
                    // A connection closes.
                    let id = rng.below(40)
                    q.forget(id)
                    model[id] = nil
                } else {
                    now += Double(rng.below(30))
                    let expected = Set(model.filter { $0.value <= now }.keys)
                    let popped = q.popDue(now)
                    #expect(Set(popped) == expected && popped.count == expected.count)
                    for id in expected { model[id] = nil }
                }
            }
        }
    }
}
