import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// A readable timeline, in Debian's headless Chromium: time order for an overnight
/// event, long words kept inside their column, the week row across the width, a "now"
/// line that takes no cell, calendar colours, times and labels in the locale's words, a
/// phone's header, the keyboard, and contrast in light and dark.
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardTimelineTests {
    static let url = "https://calendar.example.org/events/2026/12/01/a-very-long-unbroken-address-without-any-spaces-at-all?ref=dashboard"
    static let personal = [
        TestEvent("n@x", "20261129T210000Z", "20261130T010000Z", "Night shift"),
        TestEvent("m1@x", "20261129T080000Z", "20261129T090000Z", "Morning run"),
        TestEvent("m2@x", "20261129T100000Z", "20261129T110000Z", "Coffee"),
        TestEvent("hol@x", "20261130", "20261201", "Holiday"),
        TestEvent("u@x", "20261201T100000Z", "20261201T110000Z", url),
        TestEvent("w2@x", "20261202T100000Z", "20261202T110000Z", "Wednesday"),
        TestEvent("w3@x", "20261203T100000Z", "20261203T110000Z", "Thursday"),
        TestEvent("w4@x", "20261204T100000Z", "20261204T110000Z", "Friday"),
        TestEvent("w5@x", "20261205T100000Z", "20261205T110000Z", "Saturday"),
    ]
    static let team = [TestEvent("t1@x", "20261129T130000Z", "20261129T140000Z", "Team lunch")]
    static let view: JSONValue = ["tz": "UTC", "days": 7]
    static let outputDirectory = DashboardBrowserTests.outputDirectory

    func picture(_ browser: WebDriverSession, _ name: String) async throws {
        try FileManager.default.createDirectory(atPath: Self.outputDirectory, withIntermediateDirectories: true)
        try await browser.screenshot(to: Self.outputDirectory + "/timeline-\(name).png")
    }

    /// Contrast of two computed colours (WCAG 2), as page functions.
    static let contrast = """
        const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
        const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        const contrast = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
        const css = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
        const item = (text) => [...document.querySelectorAll('.sections .item')].find((n) => n.getAttribute('aria-label').includes(text));
        const when = (text) => item(text).querySelector('.when').textContent.replace(/[\\s\\u2009\\u202f]+/g, ' ');
        """

    func page(_ browser: WebDriverSession, _ script: String) async throws -> JSONValue {
        try JSONValue.parse(try await browser.run("\(Self.contrast) return JSON.stringify((() => { \(script) })());").stringValue ?? "null")
    }

    func load(_ browser: WebDriverSession, _ web: WebGatewayHarness, _ daemon: DaemonHarness) async throws {
        let digest = try await daemon.oneShotSnapshot(Self.view).protocol2Digest
        try await browser.open(web.pageURL + "&tz=UTC&days=7")
        try await browser.waitFor("the view", "const d = window.eventdDashboard; return d.connection === 'live' && d.verified === '\(digest)';")
    }

    @Test func theTimelineIsReadable() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(icsCalendar(Self.personal), file: "personal.ics", calendar: "personal")
            try await daemon.importCalendar(icsCalendar(Self.team), file: "team.ics", calendar: "team")
            try await daemon.start()
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.emulateLocale("en-US")
                try await browser.setClock(DaemonHarness.defaultNow)
                try await load(browser, web, daemon)

                // Time order: the overnight event after the day's morning, not as a banner.
                let today = try await page(browser, """
                    const cards = [...document.querySelectorAll('.section[data-kind="today"] .item')];
                    return cards.map((c) => [c.querySelector('.summary').textContent, c.classList.contains('banner')]);
                    """)
                #expect(today.arrayValue?.compactMap { $0[0]?.stringValue } == ["Morning run", "Coffee", "Team lunch", "Night shift"], "\(today)")
                #expect(today.arrayValue?.last?[1] == false)

                // Times and labels of the locale (en-US: 12-hour, ranges as ICU writes them).
                let english = try await page(browser, """
                    return [when('Morning run'), when('Night shift'), when('Holiday'),
                      document.querySelector('.section[data-kind="today"] .heading').textContent,
                      document.querySelector('.section[data-kind="tomorrow"] .heading').textContent,
                      document.querySelector('.now-line').textContent];
                    """)
                #expect(Array(english.arrayValue?.prefix(5) ?? []) == ["8:00 – 9:00 AM", "9:00 PM – 1:00 AM", "All day",
                                                                    "Today · Sunday, November 29", "Tomorrow · Monday, November 30"],
                        "\(english)")
                #expect(english[5]?.stringValue?.hasPrefix("now ") == true)

                // A long unbroken summary stays in its week column, whole in its name.
                let long = try await page(browser, """
                    const n = item('calendar.example.org'), s = n.querySelector('.summary'), col = n.closest('.section').getBoundingClientRect();
                    const r = n.getBoundingClientRect();
                    return [s.scrollWidth <= s.clientWidth + 1, r.right <= col.right + 0.5, n.getAttribute('aria-label').includes('\(Self.url)'),
                            s.getBoundingClientRect().height <= 3.5 * parseFloat(getComputedStyle(s).lineHeight)];
                    """)
                #expect(long == [true, true, true, true], "\(long)")

                // The "now" line takes no cell of today's grid.
                #expect(try await page(browser, "return css('.now-line', 'position');") == "absolute")

                // Each calendar its colour, the same on every item of it; readable on the card
                // (3:1, a graphic), the name written beside it; the "now" label at 4.5:1.
                for scheme in ["light", "dark"] {
                    try await browser.emulateMedia(["prefers-color-scheme": .init(scheme)])
                    try await picture(browser, "1280-\(scheme)")
                    let colours = try await page(browser, """
                        const edge = (t) => getComputedStyle(item(t)).borderLeftColor;
                        const label = document.querySelector('.now-line .label');
                        // Every item: its edge at 3:1 on its card (a graphic), its calendar's name
                        // in the calendar's colour at 4.5:1 (text), banners included.
                        let worst = 21;
                        for (const n of document.querySelectorAll('.sections .item[data-calendar]')) {
                          const bg = getComputedStyle(n).backgroundColor;
                          worst = Math.min(worst, contrast(getComputedStyle(n).borderLeftColor, bg) / 3,
                                           contrast(getComputedStyle(n.querySelector('.calendar')).color, bg) / 4.5);
                        }
                        return [edge('Coffee') === edge('Morning run'), edge('Coffee') !== edge('Team lunch'), worst >= 1,
                                item('Team lunch').querySelector('.calendar').textContent === 'team',
                                contrast(getComputedStyle(label).color, getComputedStyle(label).backgroundColor) >= 4.5];
                        """)
                    #expect(colours == [true, true, true, true, true], "\(scheme): \(colours)")
                }
                try await browser.emulateMedia(["prefers-color-scheme": "light"])

                // The keyboard: one tab stop per section, arrows between its items.
                let keys = try await page(browser, """
                    const stops = [...document.querySelectorAll('.section > .items')].map((l) => [...l.children].filter((n) => n.tabIndex === 0).length);
                    const first = document.querySelector('.section[data-kind="today"] .item');
                    first.focus();
                    const press = (key) => document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
                    press('ArrowRight');
                    const second = document.activeElement.querySelector('.summary').textContent;
                    press('End');
                    const last = document.activeElement.querySelector('.summary').textContent;
                    const zero = [...first.parentNode.children].filter((n) => n.tabIndex === 0).map((n) => n.querySelector('.summary').textContent);
                    return [stops.every((n) => n === 1), second, last, zero];
                    """)
                #expect(keys == [true, "Coffee", "Night shift", ["Night shift"]], "\(keys)")

                // 1920 px: the week row fills the width.
                try await browser.emulateDevice(width: 1920, height: 1000, mobile: false)
                let row = try await page(browser, """
                    const all = document.querySelector('.sections').getBoundingClientRect();
                    const week = [...document.querySelectorAll('.section[data-range="week"]')].map((s) => s.getBoundingClientRect());
                    return [week.length, Math.abs(week[0].left - all.left) < 1, Math.abs(week[week.length - 1].right - all.right) < 1,
                            week.every((r) => r.top === week[0].top)];
                    """)
                #expect(row == [5, true, true, true], "\(row)")
                try await picture(browser, "1920")

                // A phone: one line of header, the controls behind one button.
                try await browser.emulateDevice(width: 390, height: 844)
                try await load(browser, web, daemon)
                try await picture(browser, "390")
                let phone = try await page(browser, """
                    const bar = document.querySelector('.bar').getBoundingClientRect().height;
                    const hidden = css('#controls', 'display') === 'none';
                    document.getElementById('controls-toggle').click();
                    return [bar <= 844 / 12, hidden, css('#controls', 'display') !== 'none',
                            document.getElementById('controls-toggle').getAttribute('aria-expanded')];
                    """)
                #expect(phone == [true, true, true, "true"], "\(phone)")
                try await picture(browser, "390-controls")
            }

            // German: 24-hour times, Intl's words for today, tomorrow and now.
            try await WebDriverSession.with(daemon) { browser in
                try await browser.emulateLocale("de-DE")
                try await browser.setClock(DaemonHarness.defaultNow)
                try await load(browser, web, daemon)
                let german = try await page(browser, """
                    return [when('Morning run'), when('Night shift'), when('Holiday'),
                      document.querySelector('.section[data-kind="today"] .heading').textContent,
                      document.querySelector('.section[data-kind="tomorrow"] .heading').textContent.split(' · ')[0],
                      document.querySelector('.now-line').textContent.split(' ')[0]];
                    """)
                try await picture(browser, "1280-de")
                #expect(german == ["08:00–09:00 Uhr", "21:00 – 01:00 Uhr", "Ganztägig", "Heute · Sonntag, 29. November", "Morgen", "jetzt"],
                        "\(german)")
                // The page's own words too: Intl's name of the zone field, the table's others.
                let labels = try await page(browser, """
                    return [document.documentElement.lang, ...['days', 'timeZone', 'emptyDays', 'calendars', 'agenda']
                      .map((w) => document.querySelector(`[data-word="${w}"]`).textContent),
                      document.getElementById('controls').getAttribute('aria-label')];
                    """)
                #expect(labels == ["de", "Tage", "Zeitzone", "Leere Tage", "Kalender", "Termine", "Ansicht"], "\(labels)")
            }
        }
    }
}
