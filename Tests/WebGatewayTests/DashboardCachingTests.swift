import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// Issue 56, point 9, in Debian's headless Chromium: the page's script comes gzipped and
/// a reload revalidates it (304, no body) rather than fetching it again.
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardCachingTests {
    static let view: JSONValue = ["tz": "UTC", "days": 7]
    static let events = [TestEvent("a@x", "20261130T090000Z", "20261130T100000Z", "Cached page")]

    /// The resource timing of app.js: bytes on the wire, encoded and decoded body.
    static let timing = """
        const e = performance.getEntriesByName(new URL('app.js', location.href).href)[0];
        return JSON.stringify({ transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize });
        """

    @Test func theScriptComesGzippedAndARevalidationIs304() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            let digest = try await daemon.oneShotSnapshot(Self.view).protocol2Digest
            let live = "const d = window.eventdDashboard; return !!d && d.connection === 'live' && d.verified === '\(digest)';"
            try await WebDriverSession.with(daemon) { browser in
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await browser.waitFor("the page", live)
                let first = try JSONValue.parse(try await browser.run(Self.timing).stringValue ?? "null")
                let encoded = first["encoded"]?.doubleValue ?? 0, decoded = first["decoded"]?.doubleValue ?? 0
                #expect(decoded > 0 && encoded < decoded / 2, "app.js not gzipped: \(first)")

                try await browser.run("window.beforeReload = true; location.reload();")
                try await browser.waitFor("the reload", "return window.beforeReload === undefined && document.readyState === 'complete';")
                try await browser.waitFor("the page after the reload", live)
                let again = try JSONValue.parse(try await browser.run(Self.timing).stringValue ?? "null")
                // Revalidated: only a head crossed the wire.
                #expect((again["transfer"]?.doubleValue ?? .infinity) < encoded, "\(again) after \(first)")
                #expect(web.log.contains("304 /app.js"), "no 304 for app.js in eventd-web's log")
            }
        }
    }
}
