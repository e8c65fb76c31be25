import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// Issue 56, points 5 and 9, in Debian's headless Chromium: layouts that fit. The week
/// row shows every day of the week (a short heading over an empty column), a card's
/// content stays at its top when a taller neighbour stretches the row, a phone shows a
/// dense list (ten events and more on 390×844, 24 px targets), and a wall screen at
/// 720p, 1080p and 4K scales its type, fills the screen and accounts for every event it
/// leaves out ("+N more" for a day, "+N more days, M events" at the foot).
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
                    window.thursday = week.find((s) => s.dataset.date === '2026-12-03');
                    return { days: week.map((s) => s.dataset.date), headings: week.map((s) => s.firstChild.textContent),
                             sizes: [...new Set(week.map((s) => getComputedStyle(s.firstChild).fontSize))],
                             widths, top: Math.min(...parts.map((p) => p.top)) - box.top, height: box.height, span, lines,
                             lineHeight: parseFloat(getComputedStyle(short).lineHeight) };
                    """)
                #expect(page["days"] == ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05"], "\(page)")
                #expect(page["headings"] == ["Tue 1", "Wed 2", "Thu 3", "Fri 4", "Sat 5"], "\(page)")
                #expect(page["sizes"]?.arrayValue?.count == 1, "headings of one row in one size: \(page)")
                let widths = page["widths"]?.arrayValue?.compactMap(\.doubleValue) ?? []
                #expect(widths.count == 5 && (widths.max() ?? 0) - (widths.min() ?? 1) <= 2, "\(page)")
                // Stretched by its tall neighbour, its lines packed at the top.
                let height = page["height"]?.doubleValue ?? 0, span = page["span"]?.doubleValue ?? .infinity
                let lines = Double(page["lines"]?.intValue ?? 9), line = page["lineHeight"]?.doubleValue ?? 0
                #expect(height > span + 40, "the short card is not stretched: \(page)")
                #expect((page["top"]?.doubleValue ?? 99) <= 16 && span <= lines * line + 8, "\(page)")

                // An event on the empty Thursday: its column (heading and all) stays, filled.
                try await daemon.importCalendar(icsCalendar(events + Self.day(33, 1, "Thursday")))
                try await browser.waitForVerifiedState(of: Self.view, in: daemon)
                let kept = try await browser.run("""
                    const s = document.querySelector('.section[data-date="2026-12-03"]');
                    return s === window.thursday && s.dataset.kind === 'week' && s.textContent.includes('Thursday 0');
                    """)
                #expect(kept == true)
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

    /// Every event of the view is drawn, or counted by a "+N" summary; a day with a
    /// "+N more" draws what fits; nothing scrolls; the lowest thing drawn is near the foot.
    static let accounted = """
        const events = [...document.querySelectorAll('#agenda .item[data-id]')].filter((n) => n.dataset.kind === 'event');
        const drawn = events.filter((n) => n.getClientRects().length > 0);
        const number = (s) => (s.match(/\\d+/g) ?? []).map(Number);
        const days = [...document.querySelectorAll('.more.days')].map((m) => number(m.textContent));
        const more = [...document.querySelectorAll('.more:not(.days)')].filter((m) => m.getClientRects().length > 0);
        const starved = more.filter((m) => !m.closest('.section').querySelector('.item[data-id]:not([hidden])')).length;
        const lowest = Math.max(...drawn.map((n) => n.getBoundingClientRect().bottom));
        const sum = document.querySelector('.more.days')?.getBoundingClientRect();
        const covered = sum ? [...drawn, ...more].filter((n) => { const r = n.getBoundingClientRect();
          return r.left < sum.right && r.right > sum.left && r.top < sum.bottom && r.bottom > sum.top; }).length : 0;
        return { total: events.length, drawn: drawn.length, more: more.reduce((n, m) => n + number(m.textContent)[0], 0),
                 left: days.reduce((n, d) => n + (d[1] ?? 0), 0), starved, covered, fits: document.scrollingElement.scrollHeight <= innerHeight,
                 below: drawn.filter((n) => n.getBoundingClientRect().bottom > innerHeight).length, filled: lowest / innerHeight,
                 font: parseFloat(getComputedStyle(document.documentElement).fontSize) };
        """

    @Test func aWallFitsAndSummarisesAt720p1080pAnd4K() async throws {
        // More than a 1080p wall holds: the week's days crowded, three later days.
        let events = Self.day(29, 8, "Today") + Self.day(30, 8, "Tomorrow") + (31...35).flatMap { Self.day($0, 9, "Day \($0 - 30)") }
            + (36...38).flatMap { Self.day($0, 3, "Later \($0 - 30)") }
        try await DaemonHarness.with(running: events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            var fonts: [Int: Double] = [:]
            for (width, height) in [(1280, 720), (1920, 1080), (3840, 2160)] {
                try await WebDriverSession.with(daemon, width: min(width, 1920), height: min(height, 1080)) { browser in
                    try await browser.emulateLocale("en-US")
                    try await browser.setClock(DaemonHarness.defaultNow)
                    try await browser.emulateDevice(width: width, height: height, mobile: false)
                    try await browser.open(web.pageURL + "&tz=UTC&days=10&wall=1")
                    try await browser.waitForVerifiedState(of: ["tz": "UTC", "days": 10], in: daemon)
                    try await pause(0.5)
                    try await picture(browser, "wall-\(height)")
                    let wall = try await read(browser, Self.accounted)
                    print("DashboardFitTests: wall \(width)×\(height): \(wall)")
                    fonts[height] = wall["font"]?.doubleValue
                    let total = wall["total"]?.intValue ?? -1
                    #expect(total == Int64(events.count), "\(height): \(wall)")
                    let counted = (wall["drawn"]?.intValue ?? 0) + (wall["more"]?.intValue ?? 0) + (wall["left"]?.intValue ?? 0)
                    #expect(counted == total, "\(height): every event drawn or counted: \(wall)")
                    #expect(wall["fits"] == true && wall["below"] == 0 && wall["starved"] == 0 && wall["covered"] == 0, "\(height): \(wall)")
                    // Where something was left out, the screen is used to its foot.
                    if (wall["more"]?.intValue ?? 0) + (wall["left"]?.intValue ?? 0) > 0 {
                        #expect((wall["filled"]?.doubleValue ?? 0) >= 0.8, "\(height): \(wall)")
                    }
                }
            }
            let full = fonts[1080] ?? 0, big = fonts[2160] ?? 0
            #expect(full == 19 && big >= 1.9 * full, "type at 1080p and 4K: \(fonts)")
        }
    }
}
