import EventStore
import LiveSources
import Testing
@testable import Feed

/// The hub's part in live sources: `sync` requests go to the runner and their answers
/// back to the asker; the runner's refreshes become recomputes; `status` lists sources.
@Suite struct FeedHubSourcesTests {
    static func report(_ name: String, ok: Bool) -> SyncReport {
        let source = LiveSource(name: name, kind: .url, location: "https://example.org/secret-token/x.ics",
                                calendar: name, everySeconds: 900)
        return SyncReport(name: name, failure: ok ? nil : FetchFailure(.httpStatus, "https://example.org/…: HTTP 500"),
                          changedEvents: ok, summary: ok ? "1 added, 0 updated, 0 removed" : "https://example.org/…: HTTP 500",
                          ttl: nil, source: source)
    }

    @Test func aSyncGoesToTheRunnerAndItsAnswerToTheAskerOnly() throws {
        var h = HubHarness()
        let a = h.connectPastHello(), b = h.connectPastHello()
        h.request(a, #"{"op":"sync","sources":["web"]}"#)
        h.request(b, #"{"op":"sync"}"#)
        #expect(h.syncs.map(\.names) == [["web"], []])
        let (tokenA, tokenB) = (h.syncs[0].token, h.syncs[1].token)
        h.handle(.sources(.synced(token: tokenB, [Self.report("web", ok: false)])))
        h.handle(.sources(.synced(token: tokenA, [Self.report("web", ok: true)])))
        let answerA = h.messages(a), answerB = h.messages(b)
        #expect(answerA.count == 1 && answerB.count == 1)
        #expect(answerA[0]["type"]?.stringValue == "synced")
        #expect(answerA[0]["sources"]?[0]?["ok"]?.boolValue == true)
        #expect(answerB[0]["sources"]?[0]?["ok"]?.boolValue == false)
        #expect(answerB[0]["sources"]?[0]?["status"]?["location"]?.stringValue == "https://example.org/…")
        // A token answered twice, or one whose asker left, goes nowhere.
        h.handle(.sources(.synced(token: tokenA, [])))
        #expect(h.messages(a).isEmpty)
    }

    @Test func malformedSyncRequestsAreBadRequests() {
        var h = HubHarness()
        let c = h.connectPastHello()
        h.request(c, #"{"op":"sync","sources":"web"}"#)
        h.request(c, #"{"op":"sync","sources":[1]}"#)
        #expect(h.messages(c).map { $0["code"]?.stringValue } == ["bad_request", "bad_request"])
        #expect(h.syncs.isEmpty)
    }

    @Test func aClientThatClosesWhileItsSyncRunsGetsTheAnswerThenIsClosed() {
        var h = HubHarness()
        h.expectAnswerAfterPeerClosed(asking: #"{"op":"sync"}"#, answer: { .sources(.synced(token: $0.syncs[0].token, [])) },
                                      receives: ["synced"])
    }

    @Test func refreshesAndStatusesFromTheRunner() {
        var h = HubHarness()
        _ = h.takeJobs()
        h.handle(.sources(.refresh))
        #expect(h.takeJobs() == [.refresh])
        let c = h.connectPastHello()
        // Once when the hub became ready (the runner starts then), once per refresh.
        #expect(h.reloads == 1)
        h.request(c, #"{"op":"refresh"}"#)
        #expect(h.reloads == 2)
        _ = h.messages(c)
        h.handle(.sources(.statuses([SourceStatus(Self.report("web", ok: true).source)])))
        h.request(c, #"{"op":"status"}"#)
        let status = h.messages(c)[0]
        #expect(status["sources"]?[0]?["name"]?.stringValue == "web")
        #expect(status["sources"]?[0]?["location"]?.stringValue == "https://example.org/…")
        #expect(!status.canonicalString().contains("secret-token"))
    }

    @Test func sighupReopensTheSourcesDatabaseToo() {
        var h = HubHarness()
        _ = h.takeJobs()
        h.handle(.reopen)
        #expect(h.takeJobs() == [.reopen])
        #expect(h.reopens == 1)
    }
}
