import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// Issue 56, point 9, in Debian's headless Chromium: layouts that fit. The week
/// row shows every day of the week (a short heading over an empty column), a card's
/// content stays at its top when a taller neighbour stretches the row, a phone shows a
/// dense list (ten events and more on 390×844, 24 px targets).
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardFitTests {
    static let view: JSONValue = ["tz": "UTC", "days": 7]
    static let outputDirectory = DashboardBrowserTests.outputDirectory
    static let long = String(repeating: "A title long enough to wrap many times ", count: 5)

    /// `count` events on 2026-11-`day` (29 is today) or 2026-12-(`day` - 30), from 08:00.
    static func day(_ day: Int, _ count: Int, _ name: String) -> [TestEvent] {
        let date = day > 30 ? String(format: "202612%02d", day - 30) : String(format: "202611%02d", day)
        return (0..<count).map { TestEvent("\(name)-\($0)@x", "\(date)T\(String(format: "%02d", 8 + $0))3000Z", nil, "\(name) \($0)") }
    }

    func picture(_ browser: WebDriverSession, _ name: String) async throws {
        try FileManager.default.createDirectory(atPath: Self.outputDirectory, withIntermediateDirectories: true)
        try await browser.screenshot(to: Self.outputDirectory + "/fit-\(name).png")
    }

    func read(_ browser: WebDriverSession, _ script: String) async throws -> JSONValue {
        try JSONValue.parse(try await browser.run("return JSON.stringify((() => { \(script) })());").stringValue ?? "null")
    }

    @Test func theWeekRowShowsEveryDayAndCardsKeepTheirContentOnTop() async throws {
        // Today a tall card beside a short one; in the week only Wednesday and Friday.
        let events = [TestEvent("t@x", "20261129T150000Z", nil, Self.long, extra: ["LOCATION:" + Self.long]),
                      TestEvent("s@x", "20261129T160000Z", nil, "Short")]
            + Self.day(32, 1, "Wednesday") + Self.day(34, 2, "Friday")
        try await DaemonHarness.with(running: events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon, width: 1280, height: 900) { browser in
                try await browser.emulateLocale("en-US")
                try await browser.setClock(DaemonHarness.defaultNow)
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await browser.waitForVerifiedState(of: Self.view, in: daemon)
                try await picture(browser, "week")
                let page = try await read(browser, """
                    const week = [...document.querySelectorAll('.section[data-range="week"]')];
                    const widths = week.map((s) => Math.round(s.getBoundingClientRect().width));
                    const short = [...document.querySelectorAll('.item[data-id]')].find((n) => n.title.startsWith('Short'));
                    const box = short.getBoundingClientRect(), parts = [...short.children].map((c) => c.getBoundingClientRect());
                    const span = Math.max(...parts.map((p) => p.bottom)) - Math.min(...parts.map((p) => p.top));
                    const lines = new Set(parts.map((p) => Math.round(p.top))).size;
                    return { days: week.map((s) => s.dataset.date), headings: week.map((s) => s.firstChild.textContent),
                             widths, top: Math.min(...parts.map((p) => p.top)) - box.top, height: box.height, span, lines,
                             lineHeight: parseFloat(getComputedStyle(short).lineHeight) };
                    """)
                #expect(page["days"] == ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05"], "\(page)")
                #expect(page["headings"] == ["Tue 1", "Wed 2", "Thu 3", "Fri 4", "Sat 5"], "\(page)")
                let widths = page["widths"]?.arrayValue?.compactMap(\.doubleValue) ?? []
                #expect(widths.count == 5 && (widths.max() ?? 0) - (widths.min() ?? 1) <= 2, "\(page)")
                // Stretched by its tall neighbour, its lines packed at the top.
                let height = page["height"]?.doubleValue ?? 0, span = page["span"]?.doubleValue ?? .infinity
                let lines = Double(page["lines"]?.intValue ?? 9), line = page["lineHeight"]?.doubleValue ?? 0
                #expect(height > span + 40, "the short card is not stretched: \(page)")
                #expect((page["top"]?.doubleValue ?? 99) <= 16 && span <= lines * line + 8, "\(page)")
            }
        }
    }

    @Test func aPhoneShowsADenseListWith24PixelTargets() async throws {
        let events = Self.day(29, 5, "Today") + Self.day(30, 5, "Tomorrow") + Self.day(31, 3, "Tuesday") + Self.day(32, 3, "Wednesday")
        try await DaemonHarness.with(running: events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.emulateLocale("en-US")
                try await browser.setClock(DaemonHarness.defaultNow)
                try await browser.emulateDevice(width: 390, height: 844)
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await browser.waitForVerifiedState(of: Self.view, in: daemon)
                try await picture(browser, "phone")
                let page = try await read(browser, """
                    const header = document.querySelector('.bar').getBoundingClientRect().bottom;
                    const items = [...document.querySelectorAll('.item[data-id]')].filter((n) => n.dataset.kind === 'event');
                    const seen = items.filter((n) => { const r = n.getBoundingClientRect(); return r.top >= header - 1 && r.bottom <= innerHeight + 1; });
                    const boxes = [...document.querySelectorAll('.controls input[type="checkbox"]')].map((c) => getComputedStyle(c));
                    return { seen: seen.length, lowest: Math.min(...items.map((n) => n.getBoundingClientRect().height)),
                             boxes: boxes.length, small: boxes.filter((s) => parseFloat(s.width) < 24 || parseFloat(s.height) < 24).length,
                             wide: document.scrollingElement.scrollWidth <= innerWidth };
                    """)
                #expect((page["seen"]?.intValue ?? 0) >= 10, "\(page)")
                #expect((page["lowest"]?.doubleValue ?? 0) >= 24 && page["small"] == 0 && page["wide"] == true, "\(page)")
            }
        }
    }
}
