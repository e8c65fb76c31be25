import CanonicalJSON
import Testing
@testable import Feed

/// `calendars` messages (docs/protocol.md): a subscriber that asked is told when the
/// calendars or their colours change, once per change; others are not.
@Suite struct FeedHubCalendarsTests {
    let view = HubHarness.view()

    func info(_ calendars: Set<String>, _ colors: [String: String] = [:]) -> FeedEvent {
        .recomputed(.info(StoreInfo(calendars: calendars, colors: colors, eventCount: 3, lastRecompute: nil,
                                    lastDurationMS: 0, healthy: true, problem: nil)))
    }

    @Test func aColourSetReachesTheSubscribersThatAskedOnce() {
        var h = HubHarness()
        let asked = h.connectPastHello(), plain = h.connectPastHello()
        h.request(asked, #"{"op":"subscribe","view":{"tz":"Europe/Berlin"},"calendars":true}"#)
        h.request(plain, #"{"op":"subscribe","view":{"tz":"Europe/Berlin"}}"#)
        h.publish(view, seq: 1, diff: false)
        #expect(h.kinds(asked) == ["snapshot@1"])
        #expect(h.kinds(plain) == ["snapshot@1"])

        h.handle(info(["work", "home"], ["work": "#ff8800", "gone": "#000000"]))
        let messages = h.messages(asked)
        #expect(messages == [["type": "calendars", "names": ["home", "work"], "colors": ["work": "#ff8800"]]])
        #expect(h.kinds(plain).isEmpty)

        // The same facts again (a recompute of other data): nothing.
        h.handle(info(["work", "home"], ["work": "#ff8800"]))
        #expect(h.kinds(asked).isEmpty)

        // A calendar removed is said too.
        h.handle(info(["work"], ["work": "#ff8800"]))
        #expect(h.messages(asked) == [["type": "calendars", "names": ["work"], "colors": ["work": "#ff8800"]]])
    }

    @Test func aSubscriberAwaitingItsFirstSnapshotIsNotTold() {
        var h = HubHarness()
        let c = h.connectPastHello()
        h.request(c, #"{"op":"subscribe","view":{"tz":"Europe/Berlin"},"calendars":true}"#)
        h.handle(info(["work", "home", "trip"]))
        #expect(h.kinds(c).isEmpty)
    }

    @Test func calendarsMustBeABoolean() {
        var h = HubHarness()
        let c = h.connectPastHello()
        h.request(c, #"{"op":"subscribe","view":{"tz":"Europe/Berlin"},"calendars":"yes"}"#)
        #expect(h.messages(c).first?["code"]?.stringValue == "bad_request")
    }
}
