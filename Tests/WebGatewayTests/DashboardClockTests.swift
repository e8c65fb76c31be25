import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// Issue 56, point 4, in Debian's headless Chromium: the "now" line and what is over
/// follow the clock, not a timer counted from the page's load. The page opens 50 s into
/// a minute (its `Date.now` shifted, as the daemon's clock is); 2 s after the minute
/// turns, the line says the new minute and an event that ended on it is dimmed, also
/// outside wall mode; a tab shown again is current at once.
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardClockTests {
    static let view: JSONValue = ["tz": "UTC", "days": 7]
    static let events = [
        TestEvent("m@x", "20261129T080000Z", "20261129T090000Z", "Morning run"),
        TestEvent("e@x", "20261129T110000Z", "20261129T120100Z", "Ends on the minute"),
        TestEvent("l@x", "20261129T150000Z", "20261129T160000Z", "Later today"),
    ]

    /// The label, and the named items' `done` state, opacity and ink (their text's
    /// contrast on their background), as JSON.
    static let probe = """
        \(DashboardTimelineTests.contrast)
        const ink = (n) => { const s = getComputedStyle(n); return contrast(s.color, s.backgroundColor); };
        const line = document.querySelector('[data-key="now"]');
        const state = (text) => ({ done: item(text).classList.contains('done'), opacity: Number(getComputedStyle(item(text)).opacity), ink: ink(item(text)) });
        return JSON.stringify({ label: line ? line.textContent : null, now: Date.now(),
          morning: state('Morning run'), ending: state('Ends on the minute'), later: state('Later today') });
        """

    /// Opens the UTC week with the page's clock at `clock` and waits until it shows the
    /// snapshot whose digest is `digest`.
    static func open(_ browser: WebDriverSession, _ web: WebGatewayHarness, at clock: String, verified digest: String) async throws {
        try await browser.setClock(clock)
        try await browser.open(web.pageURL + "&tz=UTC&days=7")
        try await browser.waitFor("the view at \(clock)", "const d = window.eventdDashboard; return d.connection === 'live' && d.verified === '\(digest)';")
    }

    @Test func theNowLineTurnsWithTheMinute() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            let digest = try await daemon.oneShotSnapshot(Self.view).protocol2Digest
            try await WebDriverSession.with(daemon) { browser in
                try await Self.open(browser, web, at: "2026-11-29T12:00:50Z", verified: digest)
                var page = try JSONValue.parse(try await browser.run(Self.probe).stringValue ?? "null")
                let before = page["label"]?.stringValue ?? ""
                #expect(before.contains("12:00"), "\(before)")
                #expect(page["morning"]?["done"] == true && page["ending"]?["done"] == false && page["later"]?["done"] == false, "\(page)")
                // Dimmed in the ordinary layout too, not only on a wall: muted ink, the card
                // still opaque (one flying over others hides them).
                let ink = { (name: String) in page[name]?["ink"]?.doubleValue ?? 0 }
                #expect(ink("morning") < 0.6 * ink("later"), "\(page)")
                #expect(page["morning"]?["opacity"]?.doubleValue == 1 && page["later"]?["opacity"]?.doubleValue == 1, "\(page)")

                // The minute turns at the page's 12:01:00; 2 s later all is current.
                let boundary = Double(try #require(Date.parse("2026-11-29T12:01:00Z"))) * 1000
                try await browser.waitFor("the page's clock passing 12:01:02", timeout: 20,
                                          "return Date.now() >= \(Int(boundary) + 2000);")
                page = try JSONValue.parse(try await browser.run(Self.probe).stringValue ?? "null")
                let after = page["label"]?.stringValue ?? ""
                #expect(after.contains("12:01"), "\(after) at page time \(page["now"]?.doubleValue.map { Int($0 - boundary) } ?? -1) ms past the minute")
                #expect(page["ending"]?["done"] == true, "\(page)")
                #expect(page["later"]?["done"] == false, "\(page)")
            }
        }
    }

    /// At the minute an event starts, the line goes on to the gap before the next card:
    /// recorded every frame, it travels there (on some frame at least half its way from
    /// its new place, with the new minute's label), not a jump.
    @Test func theNowLineTravelsWhenTheMinuteTurns() async throws {
        let events = [TestEvent("b@x", "20261129T110000Z", "20261129T113000Z", "Before"),
                      TestEvent("o@x", "20261129T120100Z", "20261129T123000Z", "On the minute"),
                      TestEvent("a@x", "20261129T130000Z", "20261129T140000Z", "After")]
        try await DaemonHarness.with(running: events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            let digest = try await daemon.oneShotSnapshot(Self.view).protocol2Digest
            try await WebDriverSession.with(daemon) { browser in
                try await Self.open(browser, web, at: "2026-11-29T12:00:52Z", verified: digest)
                try await browser.run("""
                    window.nowFrames = [];
                    const record = () => {
                      const line = document.querySelector('[data-key="now"]'), r = line.getBoundingClientRect();
                      window.nowFrames.push([r.left, r.top, line.textContent.includes('12:01')]);
                      if (window.nowFrames.length < 3000) requestAnimationFrame(record);
                    };
                    requestAnimationFrame(record);
                    """)
                let boundary = Double(try #require(Date.parse("2026-11-29T12:01:00Z"))) * 1000
                try await browser.waitFor("the page's clock passing 12:01:02", timeout: 30, "return Date.now() >= \(Int(boundary) + 2000);")
                let frames = try JSONValue.parse(try await browser.run("return JSON.stringify(window.nowFrames)").stringValue ?? "[]")
                    .arrayValue?.compactMap { f -> (Double, Double, Bool)? in
                        guard let a = f.arrayValue, a.count == 3, let x = a[0].doubleValue, let y = a[1].doubleValue else { return nil }
                        return (x, y, a[2] == true)
                    } ?? []
                let old = try #require(frames.first), new = try #require(frames.last)
                let way = hypot(new.0 - old.0, new.1 - old.1)
                let after = frames.filter(\.2)
                let far = after.map { hypot($0.0 - new.0, $0.1 - new.1) }.max() ?? 0
                let off = frames.filter { f in f.0 < min(old.0, new.0) - 8 || f.0 > max(old.0, new.0) + 8
                                              || f.1 < min(old.1, new.1) - 8 || f.1 > max(old.1, new.1) + 8 }
                print("DashboardClockTests: the line went \(Int(way)) px; \(after.count) frames after the minute, at most \(Int(far)) px from its place")
                #expect(new.2 && way > 40, "the line did not move on: \(old) → \(new)")
                #expect(far >= way / 2, "it jumped: \(Int(way)) px, seen at most \(Int(far)) px away after the minute")
                #expect(off.isEmpty, "\(off.count) frames off its path")
            }
        }
    }

    /// Before the day's first card (the line across the top of the grid) and before a
    /// card of the first row (upright; across on a phone, between two rows): the line's
    /// label covers no heading and no card.
    @Test func theNowLineNeverCoversAHeading() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            let digest = try await daemon.oneShotSnapshot(Self.view).protocol2Digest
            try await WebDriverSession.with(daemon) { browser in
                // On a phone every card is a row of its own: the line lies across the gap.
                for (width, clock, form) in [(1280, "2026-11-29T07:00:10Z", "across"), (1280, "2026-11-29T08:30:10Z", "upright"),
                                             (390, "2026-11-29T07:00:10Z", "across"), (390, "2026-11-29T08:30:10Z", "across")] {
                    try await browser.emulateDevice(width: width, height: 900, mobile: width < 600)
                    try await Self.open(browser, web, at: clock, verified: digest)
                    let page = try JSONValue.parse(try await browser.run("""
                        const line = document.querySelector('[data-key="now"]'), label = line.firstElementChild.getBoundingClientRect();
                        const covered = [...document.querySelectorAll('.heading, .item[data-id]')].map((h) => [h.textContent, h.getBoundingClientRect()])
                          .filter(([, h]) => label.bottom > h.top + 0.5 && label.top < h.bottom - 0.5 && label.right > h.left + 0.5 && label.left < h.right - 0.5);
                        return JSON.stringify({ across: line.classList.contains('across'), label: line.textContent, covered: covered.map(([t]) => t) });
                        """).stringValue ?? "null")
                    #expect(page["across"] == .bool(form == "across"), "\(width) px, \(clock): \(page)")
                    #expect(page["covered"] == [], "\(width) px, \(clock): the label covers \(page)")
                    try FileManager.default.createDirectory(atPath: DashboardBrowserTests.outputDirectory, withIntermediateDirectories: true)
                    try await browser.screenshot(to: DashboardBrowserTests.outputDirectory + "/clock-now-\(form)-\(width)-\(clock.dropFirst(11).prefix(2)).png")
                }
            }
        }
    }

    /// A tab hidden behind another while its clock moves on 3 minutes (its `Date.now`
    /// shifted in the page as it is hidden, so its minute timer is far off): shown again,
    /// the line says the new time within 1 s.
    @Test func aTabShownAgainIsCurrentAtOnce() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            let digest = try await daemon.oneShotSnapshot(Self.view).protocol2Digest
            try await WebDriverSession.with(daemon) { browser in
                try await Self.open(browser, web, at: "2026-11-29T12:00:10Z", verified: digest)
                let label = "return document.querySelector('[data-key=\"now\"]').textContent;"
                #expect(try await browser.run(label).stringValue?.contains("12:00") == true)
                let page = try await browser.currentWindow()
                // After the page's own listener: hidden, its clock jumps; the label it had is kept.
                try await browser.run("""
                    window.seen = [];
                    document.addEventListener('visibilitychange', () => {
                      window.seen.push(document.visibilityState + ' ' + document.querySelector('[data-key="now"]').textContent);
                      if (document.hidden && !window.jumped) { const shifted = Date.now; Date.now = () => shifted() + 180_000; window.jumped = true; }
                    });
                    """)
                try await browser.openInNewTab("about:blank")
                try await browser.switchTo(page)
                try await browser.bringToFront()
                let shown = monotonicNow()
                try await browser.waitFor("the label at 12:03 within 1 s of the tab shown", timeout: 1,
                                          "return document.visibilityState === 'visible' && document.querySelector('[data-key=\"now\"]').textContent.includes('12:03');")
                print("DashboardClockTests: current \(Int((monotonicNow() - shown) * 1000)) ms after the tab was shown")
                let seen = try await browser.run("return window.seen.join(' | ')").stringValue ?? ""
                #expect(seen.hasPrefix("hidden") && seen.contains("visible"), "\(seen)")
            }
        }
    }
}

extension Date {
    /// Seconds since 1970 of an ISO 8601 time such as 2026-11-29T12:01:00Z.
    static func parse(_ iso: String) -> Int? {
        (ISO8601DateFormatter().date(from: iso)?.timeIntervalSince1970).map { Int($0) }
    }
}
