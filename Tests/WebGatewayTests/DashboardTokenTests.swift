import Foundation
import Testing
import CanonicalJSON
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 43, point 1, in Debian's headless Chromium: the dashboard's credential stays on
/// eventd-web's origin (scheme, host and port). A server of another local user on
/// another loopback port, visited directly and loading images from itself, records all
/// the browser sends it; replayed against eventd-web, none of it opens the calendar.
/// The page still works from its bookmarked `?token=` address, after a reload and in a
/// second tab.
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardTokenTests {
    static let view: JSONValue = ["tz": "UTC", "days": 7]
    static let events = [TestEvent("t@x", "20261130T090000Z", "20261130T100000Z", "Token check")]

    func waitLive(_ browser: WebDriverSession, _ digest: String, _ what: String) async throws {
        try await browser.waitFor(what, "const d = window.eventdDashboard; return !!d && d.connection === 'live' && d.verified === '\(digest)';")
    }

    @Test func aPageOnAnotherPortGetsNothingThatOpensTheCalendar() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            let token = try #require(web.token)
            let recorder = try LocalHTTPServer()
            defer { recorder.stop() }
            try recorder.serve("page.html", """
                <!doctype html><title>elsewhere</title>
                <img src="/files/pixel.png"><img src="http://127.0.0.1:\(recorder.port)/redirect/1/pixel2.png">
                <img src="http://localhost:\(recorder.port)/files/pixel3.png">
                """)
            let digest = try await daemon.oneShotSnapshot(Self.view).protocol2Digest
            try await WebDriverSession.with(daemon) { browser in
                // The bookmarked address: live, and the token gone from the address bar.
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await waitLive(browser, digest, "the page from its ?token= address")
                let address = try await browser.run("return location.href").stringValue ?? ""
                #expect(!address.contains(token) && address.contains("days=7"), "\(address)")
                #expect(try await browser.run("return document.cookie") == "")

                // A reload (the address has no token now) and a second tab without one.
                try await browser.run("window.beforeReload = true; location.reload();")
                try await browser.waitFor("the reload", "return window.beforeReload === undefined && document.readyState === 'complete';")
                try await waitLive(browser, digest, "the page after a reload")
                try await browser.openInNewTab(web.url + "?tz=UTC&days=7")
                try await waitLive(browser, digest, "the page in a second tab")

                // Another port of the same host, visited and loading images from itself.
                try await browser.open(recorder.url("/page/page.html"))
                try await browser.waitFor("the other page's images", "return [...document.images].every((i) => i.complete);")
            }
            let heads = recorder.heads
            #expect(heads.count >= 3, "\(heads)")
            #expect(!heads.joined().contains(token), "the token reached another port: \(heads)")
            for head in heads { try await Self.expectWorthless(head, against: web) }
        }
    }

    /// Issue 52, point 8: a link with another `?token=` does not replace a stored token
    /// that works (any page could log the dashboard out so), and a refused token says
    /// which address brings a good one instead of "Offline".
    @Test func aLinksTokenIsTriedBeforeItReplacesAWorkingOne() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            let token = try #require(web.token)
            let digest = try await daemon.oneShotSnapshot(Self.view).protocol2Digest
            let bogus = String(repeating: "A", count: 64)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await waitLive(browser, digest, "the page from its ?token= address")
                // Another page's link with a token of its own: tried, refused, the stored one kept.
                try await browser.open(web.url + "?token=\(bogus)&tz=UTC&days=7")
                try await waitLive(browser, digest, "the page after a link with a bad token")
                #expect(try await browser.run("return localStorage.getItem('eventd-web-token')").stringValue == token)
                let address = try await browser.run("return location.href").stringValue ?? ""
                #expect(!address.contains(bogus), "\(address)")
                // A stored token eventd-web no longer takes (it was restarted with another):
                // the page says so, not "Offline".
                try await browser.run("localStorage.setItem('eventd-web-token', '\(bogus)'); sessionStorage.setItem('eventd-web-token', '\(bogus)');")
                try await browser.open(web.url + "?tz=UTC&days=7")
                try await browser.waitFor("the refused token's words",
                                          "return window.eventdDashboard?.connection === 'refused';")
                let words = try await browser.run("return document.getElementById('connection').title").stringValue ?? ""
                #expect(words.contains("no longer valid") && words.contains("eventd-web printed"), "\(words)")
                // The printed address again: its working token replaces the refused one.
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await waitLive(browser, digest, "the page from the printed address again")
                #expect(try await browser.run("return localStorage.getItem('eventd-web-token')").stringValue == token)
            }
        }
    }

    /// Issue 56, point 7: eventd-web restarted with another token (a new runtime
    /// directory) makes an open page say that its address's token is no longer valid,
    /// within 10 s, and say it once: the pill does not flip while the page retries.
    @Test func aRestartWithANewTokenIsSaidOnce() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            let digest = try await daemon.oneShotSnapshot(Self.view).protocol2Digest
            try await WebDriverSession.with(daemon) { browser in
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await waitLive(browser, digest, "the page from its ?token= address")
                kill(web.pid, SIGTERM)
                _ = try await daemon.waitOther(web.pid, timeout: 5)
                let restarted = try await WebGatewayHarness.start(for: daemon, name: "eventd-web-new-token", port: web.port)
                #expect(restarted.token != nil && restarted.token != web.token)
                try await browser.waitFor("the refused token's words", timeout: 10, """
                    const pill = document.getElementById('connection');
                    return pill.dataset.state === 'refused' && /token|address/.test(pill.textContent);
                    """)
                // In full at the window's foot (the pill cuts it short).
                let advice = try await browser.run("const p = document.getElementById('problem'); return p.hidden ? '' : p.textContent;").stringValue ?? ""
                #expect(advice.contains("no longer valid") && advice.contains("eventd-web printed"), "\(advice)")
                // Two retries later (every 5 s): neither the pill nor the alert has changed once.
                try await browser.run("""
                    window.pillChanges = [];
                    for (const id of ['connection', 'problem']) {
                      new MutationObserver((records) => window.pillChanges.push(...records.map((r) => id + ' ' + r.type)))
                        .observe(document.getElementById(id), { childList: true, characterData: true, subtree: true, attributes: true });
                    }
                    """)
                try await pause(11)
                let changes = try await browser.run("return JSON.stringify(window.pillChanges)").stringValue ?? ""
                #expect(changes == "[]", "the pill changed: \(changes)")
                #expect(try await browser.run("return window.eventdDashboard.connection") == "refused")
                try FileManager.default.createDirectory(atPath: DashboardBrowserTests.outputDirectory, withIntermediateDirectories: true)
                try await browser.screenshot(to: DashboardBrowserTests.outputDirectory + "/token-refused-after-restart.png")
            }
        }
    }

    /// Replays `head` against eventd-web's API: its headers as sent (Host apart), and
    /// every piece of it long enough to be a token as the bearer token. Each gets 401.
    static func expectWorthless(_ head: String, against web: WebGatewayHarness) async throws {
        let lines = head.split(separator: "\n").map(String.init)
        let headers = lines.dropFirst().filter {
            let name = $0.lowercased()
            return !name.hasPrefix("host:") && !name.hasPrefix("connection:") && $0.contains(":")
        }
        let replayed = try await HTTPConnection.get(port: web.port, "/api/snapshot?days=3", headers: Array(headers))
        #expect(replayed.status == 401, "replayed as sent: \(replayed.status)\n\(head)")
        let separators = CharacterSet(charactersIn: " ;,=&?:/\t\r\n\"'")
        let pieces = Set(head.components(separatedBy: separators).filter { $0.count >= 16 })
        for piece in pieces {
            let answer = try await HTTPConnection.get(port: web.port, "/api/snapshot?days=3", headers: ["Authorization: Bearer \(piece)"])
            #expect(answer.status == 401, "\(piece) opened the calendar")
        }
    }
}
