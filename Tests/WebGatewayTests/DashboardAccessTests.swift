import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// Issue 56, point 9, in Debian's headless Chromium: what assistive technology gets.
/// A Japanese browser's page says `lang="ja"` (words the catalogue lacks marked English
/// on their own), events are buttons in a group named by their day, an event that is
/// over or in progress says so in its name, and the now line is not hidden.
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardAccessTests {
    static let view: JSONValue = ["tz": "UTC", "days": 7]
    // The page's clock: 2026-11-29 12:00 UTC (DaemonHarness.defaultNow).
    static let events = [
        TestEvent("o@x", "20261129T080000Z", "20261129T090000Z", "Over already"),
        TestEvent("g@x", "20261129T113000Z", "20261129T123000Z", "Going on"),
        TestEvent("l@x", "20261129T150000Z", "20261129T160000Z", "Later on"),
    ]

    @Test func aJapanesePageHasItsLanguageButtonsAndSaysWhatIsOver() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.emulateLocale("ja-JP")
                try await browser.setClock(DaemonHarness.defaultNow)
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await browser.waitForVerifiedState(of: Self.view, in: daemon)
                let page = try JSONValue.parse(try await browser.run("""
                    const item = (text) => [...document.querySelectorAll('.item[data-id]')].find((n) => n.title.startsWith(text));
                    const group = item('Later on').parentNode, line = document.querySelector('[data-key="now"]');
                    return JSON.stringify({
                      lang: document.documentElement.lang,
                      english: [...document.querySelectorAll('[data-word]')].every((n) => n.lang === 'en'), // (no Japanese catalogue)
                      roles: [...document.querySelectorAll('.item[data-id]')].map((n) => n.getAttribute('role')).filter((r) => r !== 'button').length,
                      group: group.getAttribute('role') + ' ' + document.getElementById(group.getAttribute('aria-labelledby'))?.textContent,
                      heading: item('Later on').closest('.section').querySelector('.heading').textContent,
                      over: item('Over already').getAttribute('aria-label'), going: item('Going on').getAttribute('aria-label'),
                      later: item('Later on').getAttribute('aria-label'),
                      line: line.closest('[aria-hidden="true"]') === null && line.textContent });
                    """).stringValue ?? "null")
                #expect(page["lang"] == "ja" && page["english"] == true, "\(page)")
                #expect(page["roles"] == 0, "\(page)")
                #expect(page["group"]?.stringValue == "group " + (page["heading"]?.stringValue ?? "-"), "\(page)")
                #expect(page["over"]?.stringValue?.hasSuffix(", over") == true, "\(page)")
                #expect(page["going"]?.stringValue?.hasSuffix(", in progress") == true, "\(page)")
                let later = page["later"]?.stringValue ?? ", over"
                #expect(later.contains("Later on") && !later.contains(", over") && !later.contains("in progress"), "\(page)")
                #expect(page["line"]?.stringValue?.contains("12:00") == true, "\(page)")
            }
        }
    }
}
