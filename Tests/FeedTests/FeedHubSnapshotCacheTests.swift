import Agenda
import Testing
@testable import Feed

/// The hub holds a view's snapshot message only while it is current: a diff drops it,
/// and the next subscriber that needs one has it encoded (once, however many wait).
@Suite struct FeedHubSnapshotCacheTests {
    let view = HubHarness.view()
    let subscribe = #"{"op":"subscribe","view":{"tz":"Europe/Berlin"}}"#

    /// A hub with one live subscriber of `view` at seq 1, then a diff to seq 2.
    func afterADiff() -> (HubHarness, ConnectionID) {
        var h = HubHarness()
        let a = h.connect()
        h.request(a, subscribe)
        h.publish(view, seq: 1, diff: false)
        h.publish(view, seq: 2)
        _ = h.kinds(a)
        _ = h.takeJobs()
        return (h, a)
    }

    @Test func aDiffDropsTheHeldSnapshot() {
        var (h, _) = afterADiff()
        #expect(h.hub.views[view]!.snapshotMessage == nil)
        #expect(h.hub.views[view]!.seq == 2)
        _ = h.takeJobs()
    }

    @Test func subscribersAfterADiffShareOneEncodingOfTheCurrentState() {
        var (h, a) = afterADiff()
        h.answersEncodes = false
        let b = h.connectPastHello(), c = h.connectPastHello()
        h.request(b, subscribe)
        h.request(c, subscribe)
        #expect(h.takeJobs() == [.encodeSnapshot(view)], "one encoding for both")
        #expect(h.kinds(b).isEmpty && h.kinds(c).isEmpty)
        h.answerEncodes()
        #expect(h.kinds(b) == ["snapshot@2"])
        #expect(h.kinds(c) == ["snapshot@2"])
        // Held now that it is current: the next subscriber gets it at once.
        let d = h.connectPastHello()
        h.request(d, subscribe)
        #expect(h.takeJobs().isEmpty)
        #expect(h.kinds(d) == ["snapshot@2"])
        h.publish(view, seq: 3)
        for id in [a, b, c, d] { #expect(h.kinds(id) == ["diff@3"]) }
    }

    /// A diff that arrives while the encoding is out: those waiting get the snapshot of
    /// the newer state (the recomputer encodes what it has when it gets the job), never
    /// a diff they have no base for; the live ones get the diff.
    @Test func aDiffWhileWaitingIsNotSentToThoseWaiting() {
        var (h, a) = afterADiff()
        h.answersEncodes = false
        let b = h.connectPastHello()
        h.request(b, subscribe)
        #expect(h.takeJobs() == [.encodeSnapshot(view)])
        h.publish(view, seq: 3)
        #expect(h.kinds(a) == ["diff@3"])
        #expect(h.kinds(b).isEmpty)
        h.answerEncodes()
        #expect(h.kinds(b) == ["snapshot@3"])
        h.publish(view, seq: 4)
        #expect(h.kinds(b) == ["diff@4"])
    }

    /// An encoding of another state than the hub's (the recomputer's outputs arrive in
    /// order, so only a bug would do it) is not served: it is asked for again.
    @Test func anEncodingOfAnotherStateIsAskedForAgain() {
        var (h, _) = afterADiff()
        h.answersEncodes = false
        let b = h.connectPastHello()
        h.request(b, subscribe)
        _ = h.takeJobs()
        h.handle(.recomputed(.snapshot(view, seq: 1, message: HubHarness.snapshotMessage(seq: 1))))
        #expect(h.kinds(b).isEmpty)
        #expect(h.takeJobs() == [.encodeSnapshot(view)])
        h.handle(.recomputed(.snapshot(view, seq: 2, message: HubHarness.snapshotMessage(seq: 2))))
        #expect(h.kinds(b) == ["snapshot@2"])
    }

    @Test func anExpiredResumeGetsItsResyncThenTheEncodedSnapshot() {
        var (h, _) = afterADiff()
        h.answersEncodes = false
        let b = h.connectPastHello()
        h.request(b, HubHarness.resume(epoch: "other", seq: 1))
        #expect(h.kinds(b) == ["resync:epoch"])
        h.answerEncodes()
        #expect(h.kinds(b) == ["snapshot@2"])
    }

    /// A subscriber that fell behind is owed the current state: when it reads again and
    /// the hub holds no snapshot, it waits for one encoding like a new subscriber.
    @Test func anOwedSubscriberWaitsForTheEncoding() {
        var h = HubHarness()
        h.answersEncodes = false
        let slow = h.connect(room: 0)
        h.request(slow, subscribe)
        h.publish(view, seq: 1, diff: false)
        h.publish(view, seq: 2) // supersedes its unstarted snapshot: owed
        #expect(h.hub.connections[slow]!.subscription == .owed(view, reason: nil))
        _ = h.takeJobs()
        h.makeRoom(slow)
        #expect(h.kinds(slow) == ["hello"])
        #expect(h.takeJobs() == [.encodeSnapshot(view)])
        // Waiting for a snapshot it asked for keeps a closing client until it is out.
        h.handle(.connection(.peerClosed(slow)))
        #expect(!h.closed.contains(slow))
        h.answerEncodes()
        #expect(h.kinds(slow) == ["snapshot@2"])
        #expect(h.closed.contains(slow))
    }

    /// A snapshot larger than --client-buffer still goes out after the `resync` of an
    /// overflow (once: an overflow check on it would drop it and owe it again, forever).
    @Test func aSnapshotLargerThanTheBufferGoesOutOnceAfterTheResync() {
        var h = HubHarness { $0.clientBuffer = 4096 }
        h.answersEncodes = false
        let slow = h.connect(room: 0)
        h.request(slow, subscribe)
        h.publish(view, seq: 1, diff: false)
        h.makeRoom(slow)
        _ = h.kinds(slow)
        h.room[slow] = 0
        for seq in 2...200 { h.publish(view, seq: Int64(seq)) } // its diffs pass the buffer
        #expect(h.hub.connections[slow]!.subscription == .owed(view, reason: .overflow))
        _ = h.takeJobs()
        // Another subscriber has the current state encoded: the hub holds it.
        let other = h.connect()
        h.request(other, subscribe)
        #expect(h.takeJobs() == [.encodeSnapshot(view)])
        h.handle(.recomputed(.snapshot(view, seq: 200, message: HubHarness.snapshotMessage(seq: 200, padding: 20_000))))
        #expect(h.kinds(other) == ["hello", "snapshot@200"])
        h.makeRoom(slow)
        let got = h.kinds(slow).filter { !$0.hasPrefix("diff") }
        #expect(got == ["resync:overflow", "snapshot@200"], "\(got.prefix(8))")
        #expect(h.takeJobs().isEmpty)
    }
}
