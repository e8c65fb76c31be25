import Foundation
import Testing
import CanonicalJSON
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The dashboard's controls and states tell the truth, in Debian's headless Chromium:
/// views change in place, "all calendars" stays all and none is none, every calendar
/// eventd knows is offered with its colour, a refused view shows eventd's words and
/// keeps the last good one, a restarted eventd-web is live as soon as the stream is
/// open, and the connection's state never moves the page.
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardControlsTests {
    static let work = [
        TestEvent("w1@x", "20261129T150000Z", "20261129T160000Z", "Work today"),
        TestEvent("w2@x", "20261201T090000Z", "20261201T100000Z", "Work Tuesday"),
    ]
    static let home = [TestEvent("h1@x", "20261130T180000Z", "20261130T190000Z", "Home tomorrow")]
    /// A calendar with no event in any window the test opens.
    static let archive = [TestEvent("a1@x", "20240105T100000Z", "20240105T110000Z", "Long ago")]

    func picture(_ browser: WebDriverSession, _ name: String) async throws {
        let directory = DashboardBrowserTests.outputDirectory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try await browser.screenshot(to: directory + "/controls-\(name).png")
    }

    func page(_ browser: WebDriverSession, _ script: String) async throws -> JSONValue {
        try JSONValue.parse(try await browser.run("return JSON.stringify((() => { \(script) })());").stringValue ?? "null")
    }

    func waitForView(_ browser: WebDriverSession, _ daemon: DaemonHarness, _ view: JSONValue, _ what: String) async throws {
        let digest = try await daemon.oneShotSnapshot(view).protocol2Digest
        try await browser.waitFor(what, """
            const d = window.eventdDashboard; return d.connection === 'live' && d.verified === '\(digest)';
            """)
    }

    /// Sets the controls by script as a person would, then sends what they would send.
    func setControls(_ browser: WebDriverSession, _ body: String, submit: Bool = false) async throws {
        try await browser.run("""
            const form = document.getElementById('controls');
            \(body)
            \(submit ? "form.requestSubmit();" : "form.dispatchEvent(new Event('change', { bubbles: true }));")
            """)
    }

    @Test func controlsChangeTheViewInPlaceAndTellTheTruth() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(icsCalendar(Self.work), file: "work.ics", calendar: "work")
            try await daemon.importCalendar(icsCalendar(Self.home), file: "home.ics", calendar: "home")
            try await daemon.importCalendar(icsCalendar(Self.archive), file: "archive.ics", calendar: "archive")
            try await daemon.start()
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.setClock(DaemonHarness.defaultNow)
                try await browser.open(web.pageURL + "&tz=UTC&days=5")
                try await waitForView(browser, daemon, ["tz": "UTC", "days": 5], "the first view")
                try await browser.run("window.notReloaded = true;")

                // ?days=5 shows 5; every calendar eventd knows is offered, with its colour.
                #expect(try await browser.run("return document.getElementById('controls').days.value;") == "5")
                try await browser.waitFor("the calendars of eventd's status", """
                    return document.querySelectorAll('input[name="calendar"]').length === 3;
                    """)
                let offered = try await page(browser, """
                    return [...document.querySelectorAll('#calendars label')].map((l) => [l.textContent.trim(),
                      l.querySelector('input').checked, getComputedStyle(l.querySelector('.swatch')).backgroundColor]);
                    """)
                #expect(offered.arrayValue?.compactMap { $0[0]?.stringValue } == ["archive", "home", "work"], "\(offered)")
                let colours = Set(offered.arrayValue?.compactMap { $0[2]?.stringValue } ?? [])
                #expect(colours.count == 3 && !colours.contains("rgba(0, 0, 0, 0)"), "\(offered)")
                let itemColour = try await browser.run("""
                    return getComputedStyle(document.querySelector('.item[aria-label*="Home tomorrow"]')).borderLeftColor;
                    """).stringValue
                #expect(offered.arrayValue?.first { $0[0] == "home" }?[2]?.stringValue == itemColour)
                let mainTop = try await browser.run("return document.querySelector('main').getBoundingClientRect().top;")

                // Enter in the time-zone field: the view changes in place, "all" stays all.
                try await setControls(browser, "form.tz.value = 'Europe/Berlin';", submit: true)
                try await waitForView(browser, daemon, ["tz": "Europe/Berlin", "days": 5], "Berlin by Enter")
                var address = try await browser.run("return location.search;").stringValue ?? ""
                #expect(address.contains("tz=Europe%2FBerlin") && !address.contains("calendar"), "\(address)")
                #expect(try await browser.run("return window.notReloaded === true;") == true)
                // A calendar made later is in "all".
                try await daemon.importCalendar(icsCalendar([TestEvent("l1@x", "20261130T100000Z", "20261130T110000Z", "Later calendar")]),
                                                file: "later.ics", calendar: "later")
                try await waitForView(browser, daemon, ["tz": "Europe/Berlin", "days": 5], "the later calendar's event")
                #expect(try await browser.run("return document.querySelector('main').innerText.includes('Later calendar');") == true)

                // Empty days: a toggle, in the URL.
                try await setControls(browser, "form.empty_days.checked = true;")
                try await waitForView(browser, daemon, ["tz": "Europe/Berlin", "days": 5, "empty_days": "placeholder"], "empty days")
                #expect(try await browser.run("return location.search.includes('empty_days=placeholder');") == true)
                #expect(try await browser.run("return document.querySelectorAll('.section[data-kind=\"placeholder\"]').length > 0;") == true)
                try await setControls(browser, "form.empty_days.checked = false;")
                try await waitForView(browser, daemon, ["tz": "Europe/Berlin", "days": 5], "no empty days")

                // No calendar chosen: nothing, and the empty view's cell.
                try await setControls(browser, "for (const b of form.querySelectorAll('input[name=\"calendar\"]')) b.checked = false;")
                try await browser.waitFor("the empty view", """
                    return !!document.getElementById('empty-view') && document.querySelectorAll('.sections .item[data-id]').length === 0;
                    """)
                try await picture(browser, "no-calendar")
                address = try await browser.run("return location.search;").stringValue ?? ""
                #expect(address.contains("calendar=&") || address.hasSuffix("calendar="), "\(address)")
                try await setControls(browser, "for (const b of form.querySelectorAll('input[name=\"calendar\"]')) b.checked = b.value === 'home';")
                try await waitForView(browser, daemon, ["tz": "Europe/Berlin", "days": 5, "calendars": ["home"]], "home alone")

                // A view eventd refuses: its words, and the last good view stays.
                try await setControls(browser, "form.tz.value = 'Mars/Olympus';", submit: true)
                try await browser.waitFor("eventd's words", "return !document.getElementById('problem').hidden;")
                try await waitForView(browser, daemon, ["tz": "Europe/Berlin", "days": 5, "calendars": ["home"]], "the last good view")
                try await picture(browser, "refused")
                let problem = try await browser.run("return document.getElementById('problem').textContent;").stringValue ?? ""
                #expect(problem.contains("Mars/Olympus"), "\(problem)")
                #expect(try await browser.run("return document.getElementById('controls').tz.value;") == "Europe/Berlin")
                #expect(try await browser.run("return document.querySelector('main').innerText.includes('Home tomorrow');") == true)
                #expect(try await browser.run("return document.querySelector('main').getBoundingClientRect().top;") == mainTop,
                        "the problem moved the page")
                #expect(try await browser.run("return window.notReloaded === true;") == true)

                // eventd-web restarts with nothing changed: reconnecting (dimmed, nothing
                // moves), then live as soon as the stream is open again.
                let snapshots = try await browser.run("return window.eventdDashboard.stats.snapshots;")
                kill(web.pid, SIGTERM)
                _ = try await daemon.waitOther(web.pid, timeout: 5)
                try await browser.waitFor("the reconnecting state", "return window.eventdDashboard.connection !== 'live';")
                try await browser.waitFor("stale content dimmed", timeout: 5,
                                          "return Number(getComputedStyle(document.querySelector('main')).opacity) < 0.6;")
                try await picture(browser, "reconnecting")
                #expect(try await browser.run("return document.querySelector('main').getBoundingClientRect().top;") == mainTop,
                        "the connection state moved the page")
                let restarted = monotonicNow()
                _ = try await WebGatewayHarness.start(for: daemon, port: web.port)
                // eventd's heartbeat is 30 s away: only the open stream can say "live" this soon.
                try await browser.waitFor("live again", timeout: 10, "return window.eventdDashboard.connection === 'live';")
                print("DashboardControlsTests: live \(Int((monotonicNow() - restarted) * 1000)) ms after eventd-web restarted")
                #expect(try await browser.run("return window.eventdDashboard.stats.snapshots;") == snapshots, "a resume, not a fresh snapshot")
            }
        }
    }

    @Test func aViewRefusedFromTheStartShowsEventdsWords() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(icsCalendar(Self.work), file: "work.ics", calendar: "work")
            try await daemon.start()
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.open(web.pageURL + "&tz=UTC&calendar=nosuch")
                try await browser.waitFor("eventd's words", "return !document.getElementById('problem').hidden;")
                let problem = try await browser.run("return document.getElementById('problem').textContent;").stringValue ?? ""
                #expect(problem.contains("nosuch"), "\(problem)")
                #expect(try await browser.run("return window.eventdDashboard.connection;") == "error")
                #expect(try await browser.run("return !!document.getElementById('empty-view');") == true)

                // An address that chooses no calendar: nothing asked, nothing shown, and the
                // calendars still offered (from eventd's status) to choose from.
                try await browser.open(web.pageURL + "&tz=UTC&calendar=")
                try await browser.waitFor("the calendars to choose from", """
                    const boxes = [...document.querySelectorAll('input[name="calendar"]')];
                    return boxes.length === 1 && !boxes[0].checked && !!document.getElementById('empty-view')
                      && window.eventdDashboard.connection === 'idle';
                    """)
            }
        }
    }
}
