import Agenda
import Testing
import Threads
@testable import Feed

/// Backpressure, superseded snapshots, stalls and heartbeats (docs/protocol.md,
/// "Backpressure"), on the hub alone with a fake clock.
@Suite struct FeedHubBackpressureTests {
    let view = HubHarness.view()
    let subscribe = #"{"op":"subscribe","view":{"tz":"Europe/Berlin"}}"#

    /// A subscriber whose socket takes nothing, with its first snapshot written.
    func stalledSubscriber(_ h: inout HubHarness) -> ConnectionID {
        let c = h.connect()
        h.request(c, subscribe)
        h.publish(view, seq: 1, diff: false)
        #expect(h.kinds(c) == ["hello", "snapshot@1"])
        h.room[c] = 0
        return c
    }

    @Test func overflowDropsTheQueuedDiffsAndResyncsWhenItReadsAgain() {
        var h = HubHarness { $0.clientBuffer = 200 }
        let slow = stalledSubscriber(&h)
        let fast = h.connect()
        h.request(fast, subscribe)
        _ = h.kinds(fast)
        for seq in 2...20 { h.publish(view, seq: Int64(seq)) }
        // Never more than the buffer (plus one message) is kept for the slow one.
        #expect(h.hub.connections[slow]!.outbox.retainedBytes <= 200)
        #expect(h.hub.connections[slow]!.isOwed)
        // The fast one is not held back by it.
        #expect(h.kinds(fast) == (2...20).map { "diff@\($0)" })
        h.makeRoom(slow)
        let got = h.kinds(slow)
        #expect(got.suffix(2) == ["resync:overflow", "snapshot@20"], "\(got)")
        #expect(!got.contains("snapshot@1"))
        h.publish(view, seq: 21)
        #expect(h.kinds(slow) == ["diff@21"])
    }

    /// A subscriber that never reads must not keep a superseded snapshot alive: when the
    /// view moves on, its unstarted snapshot is dropped and it is owed the current one.
    @Test func aStalledSubscriberDoesNotPinASupersededSnapshot() {
        var h = HubHarness()
        let c = h.connect(room: 0)
        h.request(c, subscribe)
        h.handle(.recomputed(.published(view, ViewPublication(
            seq: 1, snapshotMessage: HubHarness.snapshotMessage(seq: 1, padding: 100_000), diffMessage: nil))))
        // Held a piece at a time (1000 bytes here), but the message holds its state.
        #expect(h.hub.connections[c]!.outbox.pending.contains { $0.snapshot != nil })
        #expect(h.hub.connections[c]!.outbox.retainedBytes > 1000)
        h.publish(view, seq: 2)
        // Only the hello is still queued: the old snapshot is gone (the hub's own copy
        // too: a diff makes it stale), the new one is owed.
        #expect(!h.hub.connections[c]!.outbox.pending.contains { $0.snapshot != nil })
        #expect(h.hub.connections[c]!.outbox.retainedBytes < 1000)
        #expect(h.hub.views[view]!.snapshotMessage == nil)
        #expect(h.hub.connections[c]!.subscription == .owed(view, reason: nil))
        h.makeRoom(c)
        #expect(h.kinds(c) == ["hello", "snapshot@2"])
    }

    @Test func aSnapshotAlreadyGoingOutIsFinishedNotDropped() {
        var h = HubHarness()
        let c = h.connectPastHello()
        h.room[c] = 10
        h.request(c, subscribe)
        h.publish(view, seq: 1, diff: false)
        h.publish(view, seq: 2)
        // Ten bytes of snapshot 1 are out: it goes out whole, then diff 2 follows it.
        h.makeRoom(c)
        #expect(h.kinds(c) == ["snapshot@1", "diff@2"])
    }

    @Test func aSubscriberThatReadsNothingIsClosedAfterTheStallTimeout() {
        var h = HubHarness { $0.stallTimeout = .seconds(60); $0.clientBuffer = 100 }
        let slow = stalledSubscriber(&h)
        h.publish(view, seq: 2)
        h.advance(30)
        // Pongs and dropped diffs do not restart its stall clock.
        h.request(slow, #"{"op":"ping"}"#)
        for seq in 3...10 { h.publish(view, seq: Int64(seq)) }
        h.advance(29)
        #expect(h.hub.connections[slow] != nil)
        h.advance(2)
        #expect(h.hub.connections[slow] == nil)
        #expect(h.closed.contains(slow))
        #expect(h.logs.contains { $0.contains("stalled for 60 s") })
    }

    @Test func progressKeepsASlowReaderConnected() {
        var h = HubHarness { $0.stallTimeout = .seconds(10) }
        let c = stalledSubscriber(&h)
        for seq in 2...30 {
            h.publish(view, seq: Int64(seq))
            h.advance(5)
            h.makeRoom(c, 40) // reads a little every five seconds
        }
        #expect(h.hub.connections[c] != nil)
    }

    @Test func idleSubscribersGetHeartbeatsAndIdleViewsAreDroppedAfterTheGrace() {
        var h = HubHarness { $0.heartbeat = .seconds(30); $0.viewGrace = .seconds(60) }
        let c = h.connect()
        h.request(c, subscribe)
        h.publish(view, seq: 1, diff: false)
        _ = h.kinds(c)
        h.advance(29)
        #expect(h.kinds(c).isEmpty)
        h.advance(1.5)
        let beat = h.messages(c)
        #expect(beat.count == 1 && beat[0]["type"]?.stringValue == "heartbeat" && beat[0]["seq"]?.intValue == 1)
        #expect(beat.first?["time"]?.stringValue?.hasSuffix("Z") == true)
        _ = h.takeJobs()
        h.handle(.connection(.peerClosed(c)))
        #expect(h.closed.contains(c))
        h.advance(59)
        #expect(h.hub.views[view] != nil)
        h.advance(2)
        #expect(h.hub.views[view] == nil)
        #expect(h.takeJobs() == [.deactivate(view)])
    }

    /// A subscriber whose snapshot took longer to read than the heartbeat interval gets
    /// its heartbeat one interval after it was last sent something, not at the later
    /// stall check that was scheduled while data waited.
    @Test func aHeartbeatAfterASlowDrainIsOnTime() {
        var h = HubHarness { $0.heartbeat = .seconds(30); $0.stallTimeout = .seconds(100) }
        let c = h.connect(room: 0)
        h.request(c, subscribe)
        h.publish(view, seq: 1, diff: false)
        h.advance(40)
        #expect(h.hub.connections[c] != nil && h.hub.connections[c]!.hasUnreadData)
        h.makeRoom(c)
        _ = h.kinds(c)
        // Last sent at 0 (the snapshot): the heartbeat is overdue once it has drained.
        h.advance(1)
        #expect(h.kinds(c) == ["heartbeat@1"])
        h.advance(29)
        #expect(h.kinds(c).isEmpty)
        h.advance(1.5)
        #expect(h.kinds(c) == ["heartbeat@1"])
    }

    /// Heartbeats due in one tick are encoded once per view: subscribers of two views at
    /// different seqs, due together, each get their own view's seq and the tick's time.
    @Test func heartbeatsDueTogetherCarryTheirOwnViewsSeq() {
        var h = HubHarness { $0.heartbeat = .seconds(30) }
        let week = HubHarness.view(days: 7)
        let a = (0..<3).map { _ in h.connect() }, b = (0..<3).map { _ in h.connect() }
        for c in a { h.request(c, subscribe) }
        for c in b { h.request(c, #"{"op":"subscribe","view":{"tz":"Europe/Berlin","days":7}}"#) }
        h.publish(view, seq: 4, diff: false)
        h.publish(week, seq: 9, diff: false)
        for c in a + b { _ = h.kinds(c) }
        h.advance(31)
        let beats = (a + b).map { h.messages($0) }
        #expect(beats.allSatisfy { $0.count == 1 && $0[0]["type"]?.stringValue == "heartbeat" })
        #expect(beats.prefix(3).allSatisfy { $0[0]["seq"]?.intValue == 4 }, "\(beats)")
        #expect(beats.suffix(3).allSatisfy { $0[0]["seq"]?.intValue == 9 }, "\(beats)")
        #expect(Set(beats.map { $0[0]["time"]?.stringValue ?? "" }) == [FeedHub.utcStamp(h.now.wall)])
    }

    /// The timers cost the connections that are due: 2,000 idle subscribers keep at
    /// most one live entry each, and a tick between heartbeats pops none of them.
    @Test func timersLookOnlyAtConnectionsThatAreDue() {
        var h = HubHarness { $0.heartbeat = .seconds(30); $0.maxClients = 5000 }
        let clients = (0..<2000).map { _ in h.connect() }
        for c in clients { h.request(c, subscribe) }
        h.publish(view, seq: 1, diff: false)
        for c in clients { _ = h.kinds(c) }
        var popped = h.hub.deadlines
        #expect(popped.popDue(h.now.monotonic + .seconds(1)).isEmpty)
        h.advance(31)
        #expect(clients.allSatisfy { h.kinds($0) == ["heartbeat@1"] })
        var later = h.hub.deadlines
        #expect(later.popDue(h.now.monotonic + .seconds(29)).isEmpty, "a tick before the next heartbeat would look at someone")
        #expect(later.popDue(h.now.monotonic + .seconds(31)).count == clients.count)
        // Closed connections leave nothing behind in the timers.
        for c in clients { h.handle(.connection(.peerClosed(c))) }
        #expect(h.hub.deadlines.knownConnections == 0)
    }

    @Test func aClientThatFloodsRequestsWithoutReadingIsHeldBackAtItsBuffer() {
        var h = HubHarness { $0.clientBuffer = 1000 }
        let c = h.connect(room: 0)
        for _ in 0..<500 { h.request(c, #"{"op":"ping"}"#) }
        let queued = h.hub.connections[c]!.outbox.retainedBytes
        #expect(queued <= 1000 + 20)
        #expect(h.hub.interest(c).read == false)
        #expect(h.hub.connections[c]!.input.count > 0, "the rest waits unread")
        h.makeRoom(c)
        // Reading again lets the held-back requests through, none lost.
        #expect(h.kinds(c).filter { $0 == "pong" }.count == 500)
    }
}
