import Foundation
import Testing
import TestSupport

/// The dashboard in headless Chromium through a gateway reading Redis: while Redis is
/// stopped (SIGSTOP) the page's status says "reconnecting", and once Redis answers again
/// (SIGCONT) it is live on the agenda the socket serves, with the change made meanwhile.
@Suite(.serialized, .timeLimit(.minutes(3)),
       .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct UpstreamDashboardTests {
    @Test func thePageShowsReconnectingWhileRedisIsStopped() async throws {
        let redis = try await RedisServerProcess()
        try await DaemonHarness.with(running: PublishEndToEndTests.base, arguments: ["--publish", redis.url()]) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--upstream", redis.url()])
            let (socket, state) = try await daemon.subscribe(protocolVersion: 2)
            defer { socket.close() }
            try await WebDriverSession.with(daemon) { browser in
                try await browser.open(web.pageURL + "&" + UpstreamEndToEndTests.query)
                try await browser.waitFor("the first snapshot", timeout: 30, """
                    const d = window.eventdDashboard; return d.connection === 'live' && d.verified === '\(state.digest)';
                    """)

                redis.suspend()
                defer { redis.resume() }
                try await browser.waitFor("the reconnecting state", timeout: 20, "return window.eventdDashboard.connection === 'reconnecting';")
                let shown = try await browser.run("return document.getElementById('connection').textContent").stringValue ?? ""
                #expect(shown.hasPrefix("Reconnecting"), "\(shown)")
                var events = PublishEndToEndTests.base
                events[0].summary = "Changed while Redis was stopped"
                try await daemon.importCalendar(icsCalendar(events))
                let diff = try await socket.next("diff")
                try await pause(3)
                // Still reconnecting: the page never claims to be live without Redis.
                #expect(try await browser.run("return window.eventdDashboard.connection;").stringValue == "reconnecting")

                redis.resume()
                let answering = monotonicNow()
                try await browser.waitFor("live again with the change", timeout: 30, """
                    const d = window.eventdDashboard; return d.connection === 'live' && d.verified === '\(diff["digest"]!.stringValue!)';
                    """)
                print("UpstreamDashboardTests: the page was live again \(Int((monotonicNow() - answering) * 1000)) ms after Redis answered")
                let page = try await browser.run("return window.eventdDashboard.stats.mismatches;")
                #expect(page == 0)
            }
        }
    }
}
