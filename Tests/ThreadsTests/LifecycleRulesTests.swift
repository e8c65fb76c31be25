import Foundation
import Synchronization
import Testing
import Threads

/// A service that records what the lifecycle asked of it; `stuck` never ends once asked
/// to stop, `failsToStart` throws from `start`.
final class FakeService: Service {
    struct StartFailure: Error {}

    let name: String
    let stopDeadline: Duration
    let journal: Journal
    private let stuck: Bool
    private let failsToStart: Bool
    /// How long `requestStop` blocks (a service that breaks the rule).
    private let stopBlocks: Duration
    private let ended = Atomic<Bool>(false)

    init(_ name: String, journal: Journal, stopDeadline: Duration = .seconds(1), stuck: Bool = false, failsToStart: Bool = false,
         stopBlocks: Duration = .zero) {
        self.name = name
        self.stopBlocks = stopBlocks
        self.journal = journal
        self.stopDeadline = stopDeadline
        self.stuck = stuck
        self.failsToStart = failsToStart
    }

    func start() throws {
        if failsToStart { throw StartFailure() }
        journal.note("start \(name)")
    }

    func requestStop() {
        journal.note("stop \(name)")
        if stopBlocks > .zero { Thread.sleep(forTimeInterval: stopBlocks.seconds) }
        if !stuck { ended.store(true, ordering: .sequentiallyConsistent) }
    }

    func join(deadline: Duration) -> Bool {
        if ended.load(ordering: .sequentiallyConsistent) { return true }
        Thread.sleep(forTimeInterval: deadline.seconds)
        return ended.load(ordering: .sequentiallyConsistent)
    }
}

/// What happened, in order, across threads.
final class Journal: Sendable {
    private let lines = Mutex<[String]>([])
    func note(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

func elapsed(since start: MonotonicInstant) -> Duration { MonotonicInstant.now() - start }

@Suite(.timeLimit(.minutes(1)))
struct LifecycleRulesTests {
    @Test func servicesStartInOrderAndStopInReverse() throws {
        let journal = Journal()
        let lifecycle = Lifecycle(takingSignals: false)
        for name in ["a", "b", "c"] { try lifecycle.start(FakeService(name, journal: journal)) }
        #expect(lifecycle.stopServices() == .stopped)
        #expect(journal.all == ["start a", "start b", "start c", "stop c", "stop b", "stop a"])
    }

    @Test func aServiceThatFailsToStartStopsTheOnesAlreadyStarted() throws {
        let journal = Journal()
        let lifecycle = Lifecycle(takingSignals: false)
        try lifecycle.start(FakeService("a", journal: journal))
        try lifecycle.start(FakeService("b", journal: journal))
        #expect(throws: FakeService.StartFailure.self) {
            try lifecycle.start(FakeService("c", journal: journal, failsToStart: true))
        }
        #expect(journal.all == ["start a", "start b", "stop b", "stop a"])
        // Nothing is left to stop.
        #expect(lifecycle.stopServices() == .stopped)
        #expect(journal.all.count == 4)
    }

    @Test func aStuckServiceMissesItsOwnDeadlineAndTheOthersStillStop() throws {
        let journal = Journal()
        let warnings = Journal()
        let lifecycle = Lifecycle(shutdownDeadline: .seconds(5), takingSignals: false)
        try lifecycle.start(FakeService("first", journal: journal))
        try lifecycle.start(FakeService("stuck", journal: journal, stopDeadline: .milliseconds(200), stuck: true))
        try lifecycle.start(FakeService("last", journal: journal))
        let start = MonotonicInstant.now()
        #expect(lifecycle.stopServices(warn: { warnings.note($0) }) == .overdue(["stuck"]))
        #expect(elapsed(since: start) < .seconds(2))
        #expect(journal.all.suffix(3) == ["stop last", "stop stuck", "stop first"])
        #expect(warnings.all.count == 1 && warnings.all[0].hasPrefix("stuck did not stop within"))
    }

    @Test func theOverallDeadlineEndsTheWaitAndNamesWhoDidNotStop() throws {
        let journal = Journal()
        let lifecycle = Lifecycle(shutdownDeadline: .milliseconds(300), takingSignals: false)
        try lifecycle.start(FakeService("a", journal: journal, stopDeadline: .seconds(10), stuck: true))
        try lifecycle.start(FakeService("b", journal: journal, stopDeadline: .seconds(10), stuck: true))
        let start = MonotonicInstant.now()
        // b (stopped first) holds the wait; a was never reached.
        #expect(lifecycle.stopServices() == .overdue(["b", "a"]))
        let took = elapsed(since: start)
        #expect(took >= .milliseconds(290) && took < .seconds(2), "took \(took)")
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSecondSignalWhileStoppingEndsTheWaitAtOnce(signal: Int32) throws {
        let journal = Journal()
        let lifecycle = Lifecycle(shutdownDeadline: .seconds(30), takingSignals: false)
        try lifecycle.start(FakeService("stuck", journal: journal, stopDeadline: .seconds(30), stuck: true))
        lifecycle.signalled(SIGTERM)
        #expect(lifecycle.waitForStop() == "SIGTERM")
        let start = MonotonicInstant.now()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) { lifecycle.signalled(signal) }
        #expect(lifecycle.stopServices() == .interrupted(signal: signal))
        let took = elapsed(since: start)
        #expect(took >= .milliseconds(190) && took < .seconds(2), "took \(took)")
    }

    @Test func aLateEndOfAnEarlierStopIsNotTakenForTheNextOne() throws {
        let journal = Journal()
        let lifecycle = Lifecycle(shutdownDeadline: .milliseconds(300), takingSignals: false)
        // Its stop blocks past the overall deadline: the first round returns without it.
        try lifecycle.start(FakeService("blocking", journal: journal, stopBlocks: .milliseconds(400)))
        #expect(lifecycle.stopServices() == .overdue(["blocking"]))
        try lifecycle.start(FakeService("stuck", journal: journal, stuck: true))
        let start = MonotonicInstant.now()
        // The first round's end arrives meanwhile; this round still waits for its own.
        #expect(lifecycle.stopServices() == .overdue(["stuck"]))
        #expect(elapsed(since: start) >= .milliseconds(290))
    }

    @Test func sighupWhileStoppingIsNotAnEscalation() throws {
        let journal = Journal()
        let lifecycle = Lifecycle(takingSignals: false)
        try lifecycle.start(FakeService("slow", journal: journal, stopDeadline: .milliseconds(300), stuck: true))
        lifecycle.signalled(SIGHUP)
        lifecycle.requestStop("again")
        #expect(lifecycle.stopServices() == .overdue(["slow"]))
    }

    @Test func waitForStopReloadsOnSighupAndReturnsTheReason() {
        let lifecycle = Lifecycle(takingSignals: false)
        let reloads = Journal()
        lifecycle.signalled(SIGHUP)
        lifecycle.signalled(SIGHUP)
        lifecycle.signalled(SIGINT)
        #expect(lifecycle.waitForStop(reload: { reloads.note("reload") }) == "SIGINT")
        #expect(reloads.all.count == 2)
        lifecycle.requestStop("the feed loop failed")
        #expect(lifecycle.waitForStop() == "the feed loop failed")
    }

    @Test func aBlockingStopRunsOffTheLifecycleAndIsBoundedByItsDeadline() throws {
        let lifecycle = Lifecycle(shutdownDeadline: .seconds(5), takingSignals: false)
        let released = Atomic<Bool>(false)
        lifecycle.started("relay", stopDeadline: .milliseconds(200)) {
            while !released.load(ordering: .sequentiallyConsistent) { usleep(10_000) }
        }
        let start = MonotonicInstant.now()
        #expect(lifecycle.stopServices() == .overdue(["relay"]))
        #expect(elapsed(since: start) < .seconds(2))
        released.store(true, ordering: .sequentiallyConsistent)
    }
}
