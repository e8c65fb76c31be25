import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// Issue 56, point 9, in Debian's headless Chromium: a tab behind another gets a change
/// (an event added, one moved to another day); shown again, it marks what changed
/// (`.changed` on those cards, for a while) and its live region names it, rather than
/// jumping with nothing marked.
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardAwayTests {
    static let view: JSONValue = ["tz": "UTC", "days": 7]
    static let before = [
        TestEvent("k@x", "20261130T090000Z", "20261130T100000Z", "Kept as it was"),
        TestEvent("m@x", "20261201T090000Z", "20261201T100000Z", "Moved meanwhile"),
    ]
    static let after = [
        TestEvent("k@x", "20261130T090000Z", "20261130T100000Z", "Kept as it was"),
        TestEvent("m@x", "20261202T090000Z", "20261202T100000Z", "Moved meanwhile"),
        TestEvent("n@x", "20261130T140000Z", "20261130T150000Z", "Arrived meanwhile"),
    ]

    @Test func aTabShownAgainMarksAndSaysWhatChangedMeanwhile() async throws {
        try await DaemonHarness.with(running: Self.before) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.emulateLocale("en-US")
                try await browser.setClock(DaemonHarness.defaultNow)
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await browser.waitForVerifiedState(of: Self.view, in: daemon)
                let page = try await browser.currentWindow()
                try await browser.run("window.states = []; addEventListener('eventd:applied', () => window.states.push(document.visibilityState));")
                try await browser.openInNewTab("about:blank")
                try await daemon.importCalendar(icsCalendar(Self.after))
                try await browser.switchTo(page)
                try await browser.waitFor("the change applied while hidden", timeout: 30, "return window.states.includes('hidden');")
                try await browser.bringToFront()
                try await browser.waitFor("the tab shown again", timeout: 10, "return document.visibilityState === 'visible';")
                let seen = try JSONValue.parse(try await browser.run("""
                    const marked = [...document.querySelectorAll('.item.changed')].map((n) => n.title.split(' · ')[0]).sort();
                    return JSON.stringify({ marked, said: document.getElementById('announce').textContent });
                    """).stringValue ?? "null")
                #expect(seen["marked"] == ["Arrived meanwhile", "Moved meanwhile"], "\(seen)")
                let said = seen["said"]?.stringValue ?? ""
                #expect(said.hasPrefix("Changed while away") && said.contains("Arrived meanwhile added")
                        && said.contains("Moved meanwhile moved to Wednesday, December 2"), "\(said)")
                try await browser.waitForVerifiedState(of: Self.view, in: daemon)
            }
        }
    }
}
