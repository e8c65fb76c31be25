import Agenda
import Testing
@testable import Feed

/// `HubConnection`'s queueing rules on their own (the hub applies them in place, through
/// `FeedHub.withConnection`): the stall clock, overflow against the client buffer, and
/// what an owed subscriber keeps.
@Suite struct HubConnectionTests {
    let view = HubHarness.view()

    func live(at now: Double = 0) -> HubConnection {
        var c = HubConnection(id: 1, now: at(now))
        c.subscription = .live(view)
        return c
    }

    @Test func dataIsQueuedAndTheClocksMove() {
        var c = live()
        #expect(c.queueSubscriptionData(Array(repeating: 65, count: 100), kind: .diff, limit: 1000, now: at(5)) == .queued)
        #expect(c.outbox.retainedBytes == 100)
        #expect(c.lastSent == at(5))
        // Nothing waited before: the stall clock starts now.
        #expect(c.lastDrain == at(5))
        // Something waits already: a later message does not restart the stall clock.
        #expect(c.queueSubscriptionData(Array(repeating: 66, count: 100), kind: .diff, limit: 1000, now: at(9)) == .queued)
        #expect(c.lastDrain == at(5))
        #expect(c.lastSent == at(9))
    }

    @Test func overflowDropsWhatHasNotStartedAndOwesASnapshot() {
        var c = live()
        _ = c.queueSubscriptionData(Array(repeating: 65, count: 150), kind: .diff, limit: 200, now: at(1))
        // 150 + 100 passes the 200-byte buffer while older data waits.
        #expect(c.queueSubscriptionData(Array(repeating: 66, count: 100), kind: .diff, limit: 200, now: at(2))
            == .dropped(owedBefore: false))
        #expect(c.outbox.isEmpty)
        #expect(c.subscription == .owed(view, reason: .overflow))
        // Owed already: dropped again, without a second "fell behind".
        _ = c.queueSubscriptionData(Array(repeating: 67, count: 150), kind: .heartbeat, limit: 200, now: at(3))
        #expect(c.queueSubscriptionData(Array(repeating: 68, count: 100), kind: .diff, limit: 200, now: at(4))
            == .dropped(owedBefore: true))
        #expect(c.subscription == .owed(view, reason: .overflow))
    }

    @Test func oneMessageLargerThanTheBufferStillGoesWhenNothingWaits() {
        var c = live()
        #expect(c.queueSubscriptionData(Array(repeating: 65, count: 500), kind: .diff, limit: 200, now: at(1)) == .queued)
        #expect(c.outbox.retainedBytes == 500)
    }

    @Test func anOwedSubscriberWithoutAReasonIsGivenOverflow() {
        var c = live()
        c.subscription = .owed(view, reason: nil)
        _ = c.queueSubscriptionData(Array(repeating: 65, count: 150), kind: .heartbeat, limit: 200, now: at(1))
        #expect(c.queueSubscriptionData(Array(repeating: 66, count: 100), kind: .diff, limit: 200, now: at(2))
            == .dropped(owedBefore: true))
        #expect(c.subscription == .owed(view, reason: .overflow))
    }

    @Test func nothingIsQueuedWithoutASubscription() {
        var c = HubConnection(id: 1, now: at(0))
        #expect(c.queueSubscriptionData([65], kind: .diff, limit: 200, now: at(1)) == .notSubscribed)
        #expect(c.outbox.isEmpty)
        #expect(c.lastSent == at(0))
    }
}
