import Agenda
import Testing
@testable import Feed

/// Subscriptions, resume and the request errors of docs/protocol.md, on the hub alone.
@Suite struct FeedHubSubscriptionTests {
    let view = HubHarness.view()
    let subscribe = #"{"op":"subscribe","view":{"tz":"Europe/Berlin"}}"#

    @Test func helloThenPongAndOk() {
        var h = HubHarness()
        let c = h.connect()
        #expect(h.kinds(c) == ["hello"])
        h.request(c, #"{"op":"ping"}"#)
        h.request(c, #"{"op":"refresh"}"#)
        #expect(h.kinds(c) == ["pong", "ok"])
        #expect(h.takeJobs() == [.refresh])
    }

    @Test func firstSubscriberActivatesTheViewAndGetsItsFirstSnapshot() {
        var h = HubHarness()
        let a = h.connectPastHello(), b = h.connectPastHello()
        h.request(a, subscribe)
        #expect(h.takeJobs() == [.activate(view)])
        #expect(h.kinds(a).isEmpty)
        h.publish(view, seq: 1, diff: false)
        #expect(h.kinds(a) == ["snapshot@1"])
        // A second subscriber of the same view shares it: snapshot at once, no recompute.
        h.request(b, subscribe)
        #expect(h.takeJobs().isEmpty)
        #expect(h.kinds(b) == ["snapshot@1"])
        h.publish(view, seq: 2)
        #expect(h.kinds(a) == ["diff@2"])
        #expect(h.kinds(b) == ["diff@2"])
        #expect(h.hub.views[view]?.subscribers.count == 2)
    }

    /// `h` once `view` has one subscriber (its messages left unread) and went from its
    /// first snapshot at seq 1 through diffs up to `last`.
    func published(through last: Int64, _ h: HubHarness = HubHarness()) -> HubHarness {
        var h = h
        let a = h.connect()
        h.request(a, subscribe)
        h.publish(view, seq: 1, diff: false)
        for seq in 2...last { h.publish(view, seq: seq) }
        return h
    }

    @Test func resumeWithinHistoryGetsOnlyTheMissedDiffs() {
        var h = published(through: 5)
        let b = h.connectPastHello()
        h.request(b, HubHarness.resume(epoch: "e1", seq: 3))
        #expect(h.kinds(b) == ["diff@4", "diff@5"])
        // Up to date: nothing at all.
        let c = h.connectPastHello()
        h.request(c, HubHarness.resume(epoch: "e1", seq: 5))
        #expect(h.kinds(c).isEmpty)
        h.publish(view, seq: 6)
        #expect(h.kinds(c) == ["diff@6"])
    }

    @Test func resumePastTheHistoryOrFromAnotherEpochIsAResync() {
        var h = published(through: 6, HubHarness { $0.history = 2 })
        let b = h.connectPastHello()
        h.request(b, HubHarness.resume(epoch: "e1", seq: 3))
        #expect(h.kinds(b) == ["resync:expired", "snapshot@6"])
        h.request(b, HubHarness.resume(epoch: "old", seq: 6))
        #expect(h.kinds(b) == ["resync:epoch", "snapshot@6"])
        // Within the two retained diffs: honoured.
        h.request(b, HubHarness.resume(epoch: "e1", seq: 4))
        #expect(h.kinds(b) == ["diff@5", "diff@6"])
    }

    @Test func resumeOfAViewNotComputedInThisRunIsAResyncBeforeItsFirstSnapshot() {
        var h = HubHarness()
        let a = h.connectPastHello(), b = h.connectPastHello()
        h.request(a, HubHarness.resume(epoch: "old", seq: 9))
        h.request(b, HubHarness.resume(epoch: "e1", seq: 9))
        h.publish(view, seq: 10, diff: false)
        #expect(h.kinds(a) == ["resync:epoch", "snapshot@10"])
        #expect(h.kinds(b) == ["resync:expired", "snapshot@10"])
    }

    @Test func aNewSubscribeReplacesTheOldOne() {
        var h = HubHarness()
        let a = h.connect()
        h.request(a, subscribe)
        h.publish(view, seq: 1, diff: false)
        h.request(a, #"{"op":"subscribe","view":{"tz":"UTC","days":3}}"#)
        let other = View(timeZone: "UTC", days: 3)
        #expect(h.hub.views[view]?.subscribers.isEmpty == true)
        #expect(h.hub.views[other]?.subscribers == [a])
        h.publish(view, seq: 2)
        h.publish(other, seq: 3, diff: false)
        #expect(h.kinds(a) == ["hello", "snapshot@1", "snapshot@3"])
    }

    @Test func aViewThatCannotBeBuiltIsAnInvalidViewError() {
        var h = HubHarness()
        let a = h.connectPastHello()
        h.request(a, subscribe)
        _ = h.takeJobs()
        h.handle(.recomputed(.failed(view, message: "the window holds more than 500000 items")))
        #expect(h.kinds(a) == ["error:invalid_view"])
        #expect(h.hub.views[view] == nil)
        #expect(h.takeJobs() == [.deactivate(view)])
        #expect(!h.closed.contains(a))
    }

    @Test(arguments: [
        ("not json", "error:bad_request"),
        ("[1,2]", "error:bad_request"),
        (#"{"view":{}}"#, "error:bad_request"),
        (#"{"op":7}"#, "error:bad_request"),
        (#"{"op":"dance"}"#, "error:unknown_op"),
        (#"{"op":"subscribe","view":{"tz":"Mars/Olympus"}}"#, "error:invalid_view"),
        (#"{"op":"subscribe","view":{"calendars":["nope"]}}"#, "error:invalid_view"),
        (#"{"op":"subscribe","view":{"days":0}}"#, "error:invalid_view"),
        (#"{"op":"snapshot","view":{"past_days":400}}"#, "error:invalid_view"),
        (#"{"op":"subscribe","resume":{"epoch":1}}"#, "error:bad_request"),
    ])
    func aBadRequestGetsItsErrorAndTheConnectionStays(line: String, expected: String) {
        var h = HubHarness()
        let c = h.connectPastHello()
        h.request(c, line)
        h.request(c, #"{"op":"ping"}"#)
        #expect(h.kinds(c) == [expected, "pong"])
        #expect(!h.closed.contains(c))
    }

    /// A calendar the database does not have is named by a typed member (clients choose
    /// from it, not from the words); another refused view has none.
    @Test func anUnknownCalendarIsNamedByItsOwnMember() {
        var h = HubHarness()
        let c = h.connectPastHello()
        h.request(c, #"{"op":"subscribe","view":{"calendars":["nope"]}}"#)
        h.request(c, #"{"op":"subscribe","view":{"tz":"Mars/Olympus"}}"#)
        let errors = h.messages(c)
        #expect(errors.map { $0["code"]?.stringValue } == ["invalid_view", "invalid_view"])
        #expect(errors.map { $0["unknown_calendar"]?.stringValue } == ["nope", nil])
    }

    @Test func aLineTooLongIsAnsweredThenClosed() {
        var h = HubHarness { $0.maxRequestLine = 100 }
        let c = h.connectPastHello()
        h.handle(.connection(.received(c, ArraySlice(Array(repeating: UInt8(ascii: "x"), count: 150)))))
        #expect(h.kinds(c) == ["error:line_too_long"])
        #expect(h.readingStopped.contains(c))
        #expect(h.closed.contains(c))
        #expect(h.hub.connections[c] == nil)
    }

    @Test func connectionsOverTheLimitAreRefusedAsOverloaded() {
        var h = HubHarness { $0.maxClients = 2 }
        _ = h.connect(); _ = h.connect()
        let third = h.connect()
        #expect(h.kinds(third) == ["error:overloaded"])
        #expect(h.closed.contains(third))
        #expect(h.hub.connections.count == 2)
    }

    /// Issue 43, point 8: another account fills `maxClients` but for the last quarter
    /// (64 at most); those are left to eventd's own user (its gateway, eventctl).
    @Test func theLastSlotsAreKeptForEventdsOwnUser() {
        var h = HubHarness { $0.maxClients = 8 }
        let others = (0..<7).map { _ in h.connect() }
        #expect(others.prefix(6).allSatisfy { !h.closed.contains($0) })
        #expect(h.kinds(others[6]) == ["error:overloaded"])
        let own: [ConnectionID] = [1001, 1002, 1003]
        for id in own { h.handle(.ownUserConnected(id)) }
        #expect(!h.closed.contains(own[0]) && !h.closed.contains(own[1]))
        #expect(h.kinds(own[2]) == ["error:overloaded"])
        #expect(h.hub.connections.count == 8)
    }

    @Test func distinctViewsAreBounded() {
        var h = HubHarness { $0.maxViews = 2 }
        let c = h.connectPastHello()
        h.request(c, #"{"op":"subscribe","view":{"days":1}}"#)
        let d = h.connectPastHello()
        h.request(d, #"{"op":"subscribe","view":{"days":2}}"#)
        h.request(d, #"{"op":"subscribe","view":{"days":3}}"#)
        #expect(h.kinds(d) == ["error:invalid_view"])
        #expect(h.hub.views.count == 2)
    }

    @Test func requestsSplitAcrossReadsAndCRLFAreOneLine() {
        var h = HubHarness()
        let c = h.connectPastHello()
        h.handle(.connection(.received(c, ArraySlice(Array(#"{"op":"pi"#.utf8)))))
        #expect(h.kinds(c).isEmpty)
        h.handle(.connection(.received(c, ArraySlice(Array("ng\"}\r\n\n   \n{\"op\":\"ping\"}\n".utf8)))))
        #expect(h.kinds(c) == ["pong", "pong"])
    }

    /// A long line that arrives a byte at a time is one request (and each byte is searched
    /// for a newline once: this took quadratic time before); past the limit it is refused.
    @Test func aLongLineTrickledAByteAtATime() {
        var h = HubHarness { $0.maxRequestLine = 20_000 }
        let c = h.connectPastHello()
        let line = Array(#"{"op":"ping""#.utf8) + [UInt8](repeating: 32, count: 19_000) + Array("}\n".utf8)
        for byte in line { h.handle(.connection(.received(c, [byte]))) }
        #expect(h.kinds(c) == ["pong"])
        #expect(h.hub.connections[c]!.input.isEmpty && h.hub.connections[c]!.scanned == 0)
        for _ in 0...20_000 { h.handle(.connection(.received(c, [32]))) }
        #expect(h.kinds(c) == ["error:line_too_long"])
        #expect(h.closed.contains(c))
    }
}
