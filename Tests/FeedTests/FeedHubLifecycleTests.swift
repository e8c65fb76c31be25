import Agenda
import Testing
@testable import Feed

/// One-shot answers, readiness, the watchdog, clock steps, the system zone and
/// shutdown, on the hub alone with a fake clock.
@Suite struct FeedHubLifecycleTests {
    @Test func oneShotAnswersGoToTheirAskerOnly() {
        var h = HubHarness()
        let a = h.connectPastHello(), b = h.connectPastHello()
        h.request(a, #"{"op":"snapshot","view":{"days":3}}"#)
        h.request(b, #"{"op":"snapshot","view":{"days":3}}"#)
        let jobs = h.takeJobs()
        let view = View(timeZone: HubHarness.zone, days: 3)
        #expect(jobs == [.oneShot(view, token: 1), .oneShot(view, token: 2)])
        h.handle(.recomputed(.oneShot(token: 2, message: HubHarness.snapshotLine(seq: 0))))
        #expect(h.kinds(b) == ["snapshot@0"])
        #expect(h.kinds(a).isEmpty)
        // The asker left: its answer goes nowhere.
        h.handle(.connection(.failed(a, reason: "read error")))
        h.handle(.recomputed(.oneShot(token: 1, message: HubHarness.snapshotLine(seq: 0))))
        #expect(h.kinds(a).isEmpty)
    }

    @Test func atMostFourOneShotsPerConnectionAreComputedAtOnce() {
        var h = HubHarness()
        let c = h.connect()
        for _ in 0..<6 { h.request(c, #"{"op":"snapshot"}"#) }
        #expect(h.takeJobs().count == 4)
        h.handle(.recomputed(.oneShot(token: 1, message: HubHarness.snapshotLine(seq: 0))))
        #expect(h.takeJobs().count == 1, "one more goes on when one is answered")
    }

    @Test func aClientThatClosesItsSideStillGetsTheAnswersItAskedFor() {
        var h = HubHarness()
        h.expectAnswerAfterPeerClosed(asking: #"{"op":"snapshot"}"#,
                                      answer: { _ in .recomputed(.oneShot(token: 1, message: HubHarness.snapshotLine(seq: 0))) },
                                      receives: ["snapshot@0"])
    }

    @Test func readyOnceTheCalendarsAreKnownThenStatusEveryTenSeconds() {
        var h = HubHarness()
        #expect(h.notifications == ["READY=1\nSTATUS=serving /tmp/none.sock"])
        h.advance(10)
        #expect(h.notifications.last?.hasPrefix("STATUS=0 view(s)") == true)
    }

    @Test func statusAnswersWithUptimeOnTheMonotonicClock() {
        var h = HubHarness()
        let c = h.connectPastHello()
        h.advance(5)
        h.stepWall(-7200)
        h.request(c, #"{"op":"status"}"#)
        let status = h.messages(c)[0]
        #expect(status["uptime_seconds"]?.intValue == 5)
        #expect(status["calendars"]?.intValue == 2)
        #expect(status["calendar_names"] == ["home", "work"])
        #expect(status["epoch"]?.stringValue == HubHarness.epoch)
    }

    /// The bug this core fixes: a wall clock set back an hour stopped the pings, and
    /// systemd killed a healthy daemon.
    @Test func watchdogPingsKeepTheirPaceWhenTheWallClockStepsBack() {
        var h = HubHarness(watchdog: 5)
        func pings(_ h: HubHarness) -> Int { h.notifications.filter { $0 == "WATCHDOG=1" }.count }
        h.advance(5)
        #expect(pings(h) == 1)
        h.stepWall(-3600)
        for _ in 0..<10 { h.advance(1) }
        #expect(pings(h) == 3)
        h.stepWall(86_400)
        for _ in 0..<5 { h.advance(1) }
        #expect(pings(h) == 4)
    }

    @Test func aStepOfTheWallClockAsksForADateCheckAtOnce() {
        var h = HubHarness()
        h.advance(1)
        #expect(h.takeJobs().isEmpty)
        h.stepWall(-3600)
        #expect(h.takeJobs() == [.clockChanged])
        h.advance(1)
        #expect(h.takeJobs().isEmpty, "one step, one check")
        h.stepWall(9 * 3600) // a laptop that resumes the next morning
        #expect(h.takeJobs() == [.clockChanged])
        // Drift below the threshold is not a step.
        h.stepWall(0.2)
        #expect(h.takeJobs().isEmpty)
    }

    @Test func aChangeOfTheSystemZoneMovesTheDefaultZoneWhenItFollowsTheSystem() {
        var h = HubHarness(followsSystemZone: true)
        h.handle(.systemZoneChanged("Asia/Tokyo"))
        #expect(h.takeJobs() == [.clockChanged])
        let c = h.connect()
        h.request(c, #"{"op":"subscribe"}"#)
        #expect(h.takeJobs() == [.activate(View(timeZone: "Asia/Tokyo"))])

        var fixed = HubHarness(followsSystemZone: false)
        fixed.handle(.systemZoneChanged("Asia/Tokyo"))
        #expect(fixed.takeJobs().isEmpty)
        #expect(fixed.hub.defaultZone == HubHarness.zone)
    }

    @Test func shutdownFlushesThenExitsOrGivesUpAfterTwoSeconds() {
        var h = HubHarness()
        let reader = h.connect()
        let stuck = h.connect(room: 0)
        h.request(stuck, #"{"op":"ping"}"#)
        h.handle(.shutdown)
        #expect(h.notifications.contains("STOPPING=1"))
        #expect(h.stoppedListening)
        #expect(!h.exited)
        // No new connections while stopping.
        let late = h.connect()
        #expect(h.closed.contains(late))
        h.advance(1)
        #expect(!h.exited)
        h.advance(1.1)
        #expect(h.exited)
        #expect(h.kinds(reader) == ["hello"])
    }

    @Test func shutdownWithNothingPendingExitsAtOnce() {
        var h = HubHarness()
        _ = h.connect()
        h.handle(.shutdown)
        #expect(h.exited)
    }
}
