import Testing
import Threads
import CanonicalJSON
import FeedProtocol

/// The machine driven by hand: a fake transport (events in, effects out) and a fake
/// clock (the `now` each event carries).
@Suite struct SubscriptionMachineTests {
    let one = [FeedScript.section("1", ["a", "b"])]
    let two = [FeedScript.section("1", ["b", "a"]), FeedScript.section("2", ["c"])]
    let three = [FeedScript.section("2", ["c", "a"])]

    func machine(_ configure: (inout SubscriptionMachine.Configuration) -> Void = { _ in }) -> SubscriptionMachine {
        var configuration = SubscriptionMachine.Configuration(view: FeedScript.view)
        configure(&configuration)
        return SubscriptionMachine(configuration)
    }

    /// Started, connected and greeted at time 0.
    func greeted(_ m: inout SubscriptionMachine) {
        #expect(m.handle(.start, now: at(0)) == [.connect])
        #expect(m.handle(.connected, now: at(0)) == [.send(.subscribe(view: FeedScript.view, resume: nil, protocolVersion: 2))])
        let hello = FeedScript.line(.hello(.init(epoch: FeedScript.epoch)))
        #expect(m.handle(.line(hello), now: at(0)) == [.line(hello)])
    }

    func snapshots(_ effects: [SubscriptionMachine.Effect]) -> [FeedClientState] {
        effects.compactMap { if case .snapshot(let s) = $0 { return s } else { return nil } }
    }

    func diffs(_ effects: [SubscriptionMachine.Effect]) -> [FeedClientState] {
        effects.compactMap { if case .diff(_, let s) = $0 { return s } else { return nil } }
    }

    /// The one backoff formula (the machine's, the Redis publisher's and watchers').
    @Test func backoffDoublesFromTheFirstDelayUpToItsBound() {
        let socket = Backoff(first: .milliseconds(200), max: .seconds(5)), redis = Backoff(first: .milliseconds(500), max: .seconds(30))
        #expect((0..<7).map { socket.delay(after: $0) } == [200, 400, 800, 1600, 3200, 5000, 5000].map { .milliseconds($0) })
        #expect((0..<9).map { redis.delay(after: $0) } == [500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000].map { .milliseconds($0) })
        #expect(redis.delay(after: 10_000) == .seconds(30))
    }

    @Test func aSnapshotAndItsDiffsKeepTheLocalCopyAndThePosition() throws {
        var m = machine()
        greeted(&m)
        let snapshot = snapshots(m.handle(.line(try FeedScript.snapshot(one, seq: 1)), now: at(1)))
        #expect(snapshot.map(\.sectionsJSON) == [.array(one)])
        #expect(diffs(m.handle(.line(try FeedScript.diff(from: one, to: two, seq: 2)), now: at(2))).map(\.sectionsJSON) == [.array(two)])
        #expect(diffs(m.handle(.line(try FeedScript.diff(from: two, to: three, seq: 3)), now: at(3))).map(\.sectionsJSON) == [.array(three)])
        #expect(m.position == Request.Resume(epoch: FeedScript.epoch, seq: 3))
        let heartbeat = FeedMessage.Heartbeat(epoch: FeedScript.epoch, seq: 3, time: "t")
        #expect(m.handle(.line(FeedScript.line(.heartbeat(heartbeat))), now: at(4)).last == .heartbeat(heartbeat))
    }

    @Test func aLostConnectionResumesWhereItLeftOffAfterTheBackoff() throws {
        var m = machine()
        greeted(&m)
        _ = m.handle(.line(try FeedScript.snapshot(one, seq: 1)), now: at(1))
        #expect(m.handle(.disconnected("closed"), now: at(10)) == [.lost("closed"), .scheduleReconnect(after: .milliseconds(200))])
        #expect(m.deadline == at(10.2))
        #expect(m.handle(.timer, now: at(10.1)) == [])
        #expect(m.handle(.timer, now: at(10.2)) == [.connect])
        let resume = Request.Resume(epoch: FeedScript.epoch, seq: 1)
        #expect(m.handle(.connected, now: at(10.2)) == [.send(.subscribe(view: FeedScript.view, resume: resume, protocolVersion: 2))])
    }

    @Test func aDigestMismatchDropsTheCopyAndThePositionAndSubscribesAfresh() throws {
        var m = machine()
        greeted(&m)
        _ = m.handle(.line(try FeedScript.snapshot(one, seq: 1)), now: at(1))
        let wrong = try FeedScript.diff(from: one, to: two, seq: 2, digest: String(repeating: "0", count: 64))
        #expect(m.handle(.line(wrong), now: at(2)) == [.line(wrong), .digestMismatch(seq: 2),
                                                  .send(.subscribe(view: FeedScript.view, resume: nil, protocolVersion: 2))])
        #expect(m.state == nil)
        #expect(m.position == nil)
        // Lost before the fresh snapshot came: the next connection does not resume either.
        _ = m.handle(.disconnected("closed"), now: at(3))
        _ = m.handle(.timer, now: at(4))
        #expect(m.handle(.connected, now: at(4)) == [.send(.subscribe(view: FeedScript.view, resume: nil, protocolVersion: 2))])
    }

    @Test func aDiffThatDoesNotFollowOnCountsAsAMismatch() throws {
        var m = machine()
        greeted(&m)
        _ = m.handle(.line(try FeedScript.snapshot(one, seq: 1)), now: at(1))
        let gap = try FeedScript.diff(from: two, to: three, seq: 3)
        #expect(m.handle(.line(gap), now: at(2)).contains(.digestMismatch(seq: 3)))
    }

    @Test func failedConnectionsBackOffDoublingUpToTheLimitAndASnapshotResetsIt() throws {
        var m = machine { $0.maxBackoff = .seconds(1) }
        _ = m.handle(.start, now: at(0))
        var now = at(0)
        var delays: [Duration] = []
        for _ in 0..<5 {
            for effect in m.handle(.connectFailed("refused"), now: now) {
                if case .scheduleReconnect(let after) = effect { delays.append(after) }
            }
            now = m.deadline!
            #expect(m.handle(.timer, now: now) == [.connect])
        }
        #expect(delays == [.milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1)])
        _ = m.handle(.connected, now: now)
        _ = m.handle(.line(FeedScript.line(.hello(.init(epoch: FeedScript.epoch)))), now: now)
        _ = m.handle(.line(try FeedScript.snapshot(one, seq: 1)), now: now)
        #expect(m.handle(.disconnected("closed"), now: now).last == .scheduleReconnect(after: .milliseconds(200)))
    }

    @Test func silenceBeyondTheStaleLimitGivesTheConnectionUp() throws {
        var m = machine { $0.staleAfter = .seconds(90) }
        greeted(&m)
        _ = m.handle(.line(try FeedScript.snapshot(one, seq: 1)), now: at(10))
        #expect(m.deadline == at(100))
        #expect(m.handle(.timer, now: at(99)) == [])
        #expect(m.handle(.timer, now: at(100)) == [.stale, .close, .scheduleReconnect(after: .milliseconds(200))])
        #expect(m.state != nil, "the last copy is kept while reconnecting")
    }

    @Test func aRefusedViewEndsTheSubscriptionButAnOverloadedDaemonIsRetried() {
        var m = machine()
        greeted(&m)
        let refused = FeedScript.line(.error(RequestError(code: .invalidView, message: "unknown zone")))
        #expect(m.handle(.line(refused), now: at(1)) == [.line(refused), .close, .failed(.refused(RequestError(code: .invalidView, message: "unknown zone")))])
        #expect(m.isStopped)
        #expect(m.handle(.timer, now: at(1000)) == [])

        var busy = machine()
        _ = busy.handle(.start, now: at(0))
        _ = busy.handle(.connected, now: at(0))
        let overloaded = FeedScript.line(.error(RequestError(code: .overloaded, message: "too many")))
        #expect(busy.handle(.line(overloaded), now: at(0)).last == .scheduleReconnect(after: .milliseconds(200)))
        #expect(!busy.isStopped)
    }

    @Test func aFirstConnectionThatFailsEndsItOnlyWhenConfiguredSo() {
        var byHand = machine { $0.failIfFirstConnectFails = true }
        _ = byHand.handle(.start, now: at(0))
        #expect(byHand.handle(.connectFailed("no such file"), now: at(0)) == [.failed(.unreachable("no such file"))])
        var bar = machine()
        _ = bar.handle(.start, now: at(0))
        #expect(bar.handle(.connectFailed("no such file"), now: at(0)) == [.lost("no such file"), .scheduleReconnect(after: .milliseconds(200))])
    }

    @Test func aPositionGivenByHandMovesWithTheDiffsThatFollowOn() throws {
        var m = machine { $0.resume = .init(epoch: FeedScript.epoch, seq: 1) }
        _ = m.handle(.start, now: at(0))
        #expect(m.handle(.connected, now: at(0)) == [.send(.subscribe(view: FeedScript.view, resume: .init(epoch: FeedScript.epoch, seq: 1), protocolVersion: 2))])
        _ = m.handle(.line(FeedScript.line(.hello(.init(epoch: FeedScript.epoch)))), now: at(0))
        _ = m.handle(.line(try FeedScript.diff(from: one, to: two, seq: 2)), now: at(1))
        #expect(m.position == Request.Resume(epoch: FeedScript.epoch, seq: 2))
        #expect(m.state == nil)
    }

    @Test func aServerThatIsNotEventdIsLeft() {
        var m = machine()
        _ = m.handle(.start, now: at(0))
        _ = m.handle(.connected, now: at(0))
        #expect(m.handle(.line(Array("{\"type\":\"pong\"}".utf8)), now: at(0)).contains(.close))
        var garbage = machine()
        _ = garbage.handle(.start, now: at(0))
        _ = garbage.handle(.connected, now: at(0))
        #expect(garbage.handle(.line(Array("not json".utf8)), now: at(0)).first == .close)
    }
}

/// The instant `seconds` after the test clock's start (exact to the millisecond).
func at(_ seconds: Double) -> MonotonicInstant {
    MonotonicInstant(sinceStart: .milliseconds(Int64((seconds * 1000).rounded())))
}
