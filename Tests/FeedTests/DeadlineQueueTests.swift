@testable import Feed
import Testing
import TestSupport

/// `DeadlineQueue` against a model that scans everything: the same connections come
/// due at the same times, whatever the order of schedules and pops.
@Suite struct DeadlineQueueTests {
    /// One step of a script run against a queue: `pop` expects exactly `due`, in order.
    enum Step {
        case schedule(ConnectionID, at: Double)
        case forget(ConnectionID)
        case pop(Double, due: [ConnectionID])
    }

    /// Runs `steps` on a new queue, checking each pop; returns the queue.
    @discardableResult
    func run(_ steps: [Step], sourceLocation: SourceLocation = #_sourceLocation) -> DeadlineQueue {
        var q = DeadlineQueue()
        for (i, step) in steps.enumerated() {
            switch step {
            case let .schedule(id, time): q.schedule(id, at: at(time))
            case let .forget(id): q.forget(id)
            case let .pop(now, due): #expect(q.popDue(at(now)) == due, "step \(i): pop at \(now)", sourceLocation: sourceLocation)
            }
        }
        return q
    }

    @Test func popsWhatIsDueInOrderOfTime() {
        run([.schedule(3, at: 30), .schedule(1, at: 10), .schedule(2, at: 20),
             .pop(5, due: []), .pop(20, due: [1, 2]), .pop(100, due: [3]), .pop(1000, due: [])])
    }

    @Test func aLaterScheduleKeepsTheEarlierEntryAndAnEarlierOneReplacesIt() {
        run([.schedule(1, at: 10), .schedule(1, at: 50), .pop(10, due: [1]),
             .schedule(2, at: 50), .schedule(2, at: 20), .pop(20, due: [2]),
             // The stale entry at 50 is skipped, not reported again.
             .pop(60, due: [])])
    }

    @Test func aForgottenConnectionIsNeverDueAndCanBeScheduledAgain() {
        let q = run([.schedule(1, at: 10), .schedule(2, at: 10), .forget(1), .pop(20, due: [2]),
                     .schedule(1, at: 30), .pop(30, due: [1]),
                     // Scheduling the same time twice leaves one entry.
                     .schedule(3, at: 40), .schedule(3, at: 40)])
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
                    let id = rng.below(40), due = now + Double(rng.below(100))
                    q.schedule(id, at: at(due))
                    model[id] = min(model[id] ?? .infinity, due)
                } else if rng.percent(10) {
                    // A connection closes.
                    let id = rng.below(40)
                    q.forget(id)
                    model[id] = nil
                } else {
                    now += Double(rng.below(30))
                    let expected = Set(model.filter { $0.value <= now }.keys)
                    let popped = q.popDue(at(now))
                    #expect(Set(popped) == expected && popped.count == expected.count)
                    for id in expected { model[id] = nil }
                }
            }
        }
    }
}
