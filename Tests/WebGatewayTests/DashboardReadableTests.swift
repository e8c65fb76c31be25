import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// Readable on a wall, a desk and a phone, in Debian's headless Chromium: calendar
/// colours from the files or `eventctl calendars --calendar NAME --color`, carried in eventd's status;
/// the detail sheet; clamped titles; truthful empty states; German without English.
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardReadableTests {
    static let outputDirectory = DashboardBrowserTests.outputDirectory
    static let long = String(repeating: "A very long title that goes on ", count: 7)
    static let work = [
        TestEvent("a@x", "20261129T090000Z", "20261129T100000Z", long),
        TestEvent("b@x", "20261129T140000Z", "20261129T150000Z", "Review"),
        TestEvent("c@x", "20261202T100000Z", "20261202T110000Z", long),
    ]

    func page(_ browser: WebDriverSession, _ script: String) async throws -> JSONValue {
        try JSONValue.parse(try await browser.run("""
            \(DashboardTimelineTests.contrast)
            const until = () => [...document.querySelectorAll('.sections .item')].find((n) => n.title.startsWith('Night') && n.querySelector('.cont.from'))
              .querySelector('.when').textContent.replace(/[\\s\\u2009\\u202f]+/g, ' ');
            return JSON.stringify((() => { \(script) })());
            """).stringValue ?? "null")
    }

    func picture(_ browser: WebDriverSession, _ name: String) async throws {
        try FileManager.default.createDirectory(atPath: Self.outputDirectory, withIntermediateDirectories: true)
        try await browser.screenshot(to: Self.outputDirectory + "/readable-\(name).png")
    }

    func waitForView(_ browser: WebDriverSession, _ daemon: DaemonHarness, _ view: JSONValue) async throws {
        let digest = try await daemon.oneShotSnapshot(view).protocol2Digest
        try await browser.waitFor("the view", "const d = window.eventdDashboard; return d.connection === 'live' && d.verified === '\(digest)';")
    }

    @Test func calendarColoursComeFromTheFilesOrEventctlAndReachEveryPage() async throws {
        try await DaemonHarness.with { daemon in
            // Apple's colour (with alpha), and RFC 7986's COLOR winning over it.
            let apple = icsCalendar(lines: Self.work[1].lines.map { $0 }, header: ["X-APPLE-CALENDAR-COLOR:#FF2968FF"])
            let both = icsCalendar(lines: ["BEGIN:VEVENT", "UID:h@x", "DTSTART:20261130T100000Z", "DTEND:20261130T110000Z",
                                           "SUMMARY:Holiday", "END:VEVENT"], header: ["COLOR:turquoise", "X-APPLE-CALENDAR-COLOR:#000000"])
            _ = try await daemon.importCalendar(apple, file: "work.ics", calendar: "work")
            _ = try await daemon.importCalendar(both, file: "home.ics", calendar: "home")
            _ = try await daemon.importCalendar(icsCalendar([Self.work[2]]), file: "plain.ics", calendar: "plain")
            let listed = try await daemon.eventctl(["calendars", "--json"])
            let colours = try JSONValue.parse(listed.stdout)["calendars"]?.arrayValue?.map { [$0["name"], $0["color"]] }
            #expect(colours == [["home", "turquoise"], ["plain", .null], ["work", "#ff2968"]], "\(listed.stdout)")

            // A user's choice wins; a bad one is a usage error; "" gives the file's back.
            #expect(try await daemon.eventctl(["calendars", "--calendar", "plain", "--color", "red"]).status == 64)
            #expect(try await daemon.eventctl(["calendars", "--calendar", "nosuch", "--color", "#123456"]).succeeded == false)
            let chosen = try await daemon.eventctl(["calendars", "--calendar", "work", "--color", "#1F77B4"])
            #expect(chosen.succeeded, "\(chosen.stderr)")
            try await daemon.start()
            let status = try await daemon.status()
            #expect(status["calendar_colors"] == ["home": "turquoise", "work": "#1f77b4"], "\(status)")

            // Every page draws them alike: the chosen colour (as ink at 4.5:1), the name's,
            // and for the calendar that has none the palette's by its name, as agenda and
            // watch choose (AgendaText's CalendarColors: `plain` takes #ff9da7).
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await waitForView(browser, daemon, ["tz": "UTC", "days": 7])
                try await browser.waitFor("the colours", "return document.adoptedStyleSheets.some((s) => s.cssRules.length === 3);")
                let drawn = try await page(browser, """
                    const edge = (cal) => getComputedStyle(document.querySelector(`.sections .item[data-calendar="${cal}"]`)).borderLeftColor;
                    const swatch = (cal) => getComputedStyle(document.querySelector(`.swatch[data-calendar="${cal}"]`)).backgroundColor;
                    return [edge('work'), edge('work') === swatch('work'), edge('plain'), edge('home')];
                    """)
                #expect(drawn == ["rgb(28, 107, 162)", true, "rgb(135, 84, 89)", "rgb(34, 120, 110)"], "\(drawn)")
                // A removed calendar leaves the filter.
                #expect(try await daemon.eventctl(["remove", "--calendar", "plain"]).succeeded)
                try await browser.waitFor("the filter without plain", """
                    const boxes = [...document.querySelectorAll('input[name="calendar"]')].map((b) => b.value);
                    return boxes.length === 2 && !boxes.includes('plain');
                    """)
                // A colour set while the page is open shows within 2 s (eventd's
                // `calendars` event on the stream; the page's status poll is a minute).
                #expect(try await daemon.eventctl(["calendars", "--calendar", "work", "--color", "#ff8800"]).succeeded)
                let asked = monotonicNow()
                try await browser.waitFor("work recoloured", timeout: 2, """
                    const edge = getComputedStyle(document.querySelector('.sections .item[data-calendar="work"]')).borderLeftColor;
                    const swatch = getComputedStyle(document.querySelector('.swatch[data-calendar="work"]')).backgroundColor;
                    return edge !== 'rgb(28, 107, 162)' && edge === swatch;
                    """)
                print("DashboardReadableTests: work recoloured \(Int((monotonicNow() - asked) * 1000)) ms after calendars --color returned")
            }
            #expect(try await daemon.eventctl(["calendars", "--calendar", "work", "--color", ""]).succeeded)
            let restored = try await daemon.eventctl(["calendars", "--json"])
            #expect(restored.stdout.contains("#ff2968"), "\(restored.stdout)")
        }
    }

    /// Today's and the week's events for the sheet, the keyboard and the wall: a long
    /// title, a tentative event with a meeting address (and a javascript: one that must
    /// stay text), a 16-day holiday, an event with no title, a night that ends at 00:15.
    static var agenda: String {
        let events = Self.work.map(\.lines) + [
            TestEvent("t@x", "20261129T160000Z", "20261129T170000Z", "Planning",
                      extra: ["STATUS:TENTATIVE", "LOCATION:https://meet.example.org/plan javascript:alert(1)",
                              "DESCRIPTION:<b>Bring</b> the notes\\nand the plan", "URL:https://wiki.example.org/plan"]).lines,
            TestEvent("v@x", "20261127", "20261213", "Holiday").lines,
            TestEvent("n@x", "20261130T210000Z", "20261201T001500Z", "Night").lines,
            ["BEGIN:VEVENT", "UID:u@x", "DTSTAMP:20261101T000000Z", "DTSTART:20261130T120000Z", "DTEND:20261130T130000Z", "END:VEVENT"],
        ]
        return icsCalendar(lines: events.flatMap { $0 })
    }

    @Test func theSheetClampedTitlesAndTheKeyboard() async throws {
        try await DaemonHarness.with { daemon in
            _ = try await daemon.importCalendar(Self.agenda, file: "work.ics", calendar: "work")
            _ = try await daemon.importCalendar(icsCalendar([TestEvent("h@x", "20261201T080000Z", "20261201T090000Z", "Home")]),
                                                file: "home.ics", calendar: "home")
            try await daemon.start()
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.emulateLocale("en-US")
                try await browser.setClock(DaemonHarness.defaultNow)
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await waitForView(browser, daemon, ["tz": "UTC", "days": 7])

                // Titles: two lines with "…" in today, one in the week; the whole text in the name.
                let clamp = try await page(browser, """
                    const lines = (n) => { const s = n.querySelector('.summary'); return s.getBoundingClientRect().height / parseFloat(getComputedStyle(s).lineHeight); };
                    const today = item('very long title'), week = [...document.querySelectorAll('.section[data-kind="week"] .item')].find((n) => n.title.includes('very long'));
                    return [Math.round(lines(today)), Math.round(lines(week)), today.getAttribute('aria-label').includes('\(Self.long.suffix(20))')];
                    """)
                #expect(clamp == [2, 1, true], "\(clamp)")
                // Words: a continuation until 00:15, day n of 16, no title, tentative said.
                let words = try await page(browser, """
                    return [until().startsWith('until 12:15'), when('Holiday'), !!item('(no title)'), item('Planning').getAttribute('aria-label').includes('Tentative'),
                            document.querySelector('.section[data-kind="week"] .heading').textContent];
                    """)
                #expect(words == [true, "day 3 of 16", true, true, "Tue 1"], "\(words)")

                // Enter opens the sheet: the time with its zone, a link only for https; the
                // description as text (its markup shown, not made), the URL as a link.
                try await browser.run("item = null; const n = [...document.querySelectorAll('.sections .item')].find((x) => x.title.startsWith('Planning')); n.focus();")
                try await browser.press("Enter", code: "Enter", keyCode: 13)
                try await browser.waitFor("the sheet", "return document.getElementById('sheet').open;")
                let sheet = try await page(browser, """
                    const d = document.getElementById('sheet');
                    return [d.querySelector('h2').textContent, d.textContent.includes('(UTC)'), d.textContent.includes('Tentative'),
                            [...d.querySelectorAll('a')].map((a) => a.href), d.textContent.includes('javascript:alert(1)'),
                            [...d.querySelectorAll('dd')].some((n) => n.textContent === '<b>Bring</b> the notes\\nand the plan'), !d.querySelector('dd b')];
                    """)
                #expect(sheet == ["Planning", true, true, ["https://meet.example.org/plan", "https://wiki.example.org/plan"], true, true, true],
                        "\(sheet)")
                try await picture(browser, "sheet")
                try await browser.press("Escape", code: "Escape", keyCode: 27)
                try await browser.waitFor("the sheet to close", "return !document.getElementById('sheet').open;")
                #expect(try await browser.run("return document.activeElement.title.startsWith('Planning');") == true)

                // Arrows by what is drawn: down from today's first card leaves today's row.
                let arrows = try await page(browser, """
                    const first = document.querySelector('.section[data-kind="today"] .item[data-id]:not(.banner)');
                    first.focus();
                    const press = (key) => document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
                    const r = first.getBoundingClientRect();
                    press('ArrowRight');
                    const right = document.activeElement.getBoundingClientRect();
                    press('ArrowDown');
                    const down = document.activeElement.getBoundingClientRect();
                    return [right.left > r.left && Math.abs(right.top - r.top) < 2, down.top >= right.bottom - 1,
                            [...document.querySelectorAll('.section > .items')].every((l) => [...l.children].filter((n) => n.tabIndex === 0).length <= 1)];
                    """)
                #expect(arrows == [true, true, true], "\(arrows)")

                // Space on a calendar's box: the view changes, the focus stays on the box.
                try await browser.run("document.querySelector('input[name=\"calendar\"][value=\"home\"]').focus();")
                try await browser.press(" ", code: "Space", keyCode: 32)
                try await waitForView(browser, daemon, ["tz": "UTC", "days": 7, "calendars": ["work"]])
                #expect(try await browser.run("return document.activeElement.value;") == "home")

                // eventd gone: the pill says since when, whole, on a desk and on a phone.
                _ = await daemon.stop()
                try await browser.waitFor("reconnecting", "return window.eventdDashboard.connection === 'reconnecting';")
                for (width, height) in [(1280, 1000), (390, 844)] {
                    try await browser.emulateDevice(width: width, height: height)
                    let pill = try await page(browser, """
                        const p = document.getElementById('connection');
                        return [/^Reconnecting… · as of 12:0\\d PM$/.test(p.textContent), p.scrollWidth <= p.clientWidth];
                        """)
                    #expect(pill == [true, true], "\(width) px: \(pill)")
                    try await picture(browser, "reconnecting-\(width)")
                }
            }
        }
    }

    @Test func aWallFitsTheScreenWithoutATouch() async throws {
        try await DaemonHarness.with { daemon in
            let crowded = (0..<25).map { i in
                TestEvent("c\(i)@x", String(format: "20261202T%02d%02d00Z", 7 + i / 3, (i % 3) * 20), nil, "Crowded \(i)")
            }
            _ = try await daemon.importCalendar(Self.agenda, file: "work.ics", calendar: "work")
            _ = try await daemon.importCalendar(icsCalendar(crowded), file: "crowd.ics", calendar: "crowd")
            try await daemon.start()
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon, width: 1920, height: 1080) { browser in
                try await browser.emulateLocale("en-US")
                try await browser.setClock(DaemonHarness.defaultNow)
                try await browser.emulateDevice(width: 1920, height: 1080, mobile: false)
                try await browser.open(web.pageURL + "&tz=UTC&days=7&wall=1")
                try await waitForView(browser, daemon, ["tz": "UTC", "days": 7])
                try await pause(0.4)
                let wall = try await page(browser, """
                    const more = [...document.querySelectorAll('.more')].map((m) => m.textContent);
                    // Past events dimmed: their text's contrast well under a current one's.
                    const ink = (n) => { const s = getComputedStyle(n); return contrast(s.color, s.backgroundColor); };
                    const past = item('Alpha') ?? item('very long'), current = item('Review');
                    return [document.scrollingElement.scrollHeight <= innerHeight, getComputedStyle(document.getElementById('controls')).display,
                            more.some((m) => /^\\+\\d+ more$/.test(m)), ink(past) < 0.6 * ink(current),
                            getComputedStyle(document.documentElement).fontSize];
                    """)
                try await picture(browser, "wall-1920")
                #expect(wall == [true, "none", true, true, "19px"], "\(wall)")
            }
        }
    }

    @Test func emptyStatesSayWhyAndGermanHasNoEnglish() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.start()
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.emulateLocale("en-US")
                // No calendar at all: the command that adds one.
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await browser.waitFor("no calendars yet", "return document.getElementById('empty-view')?.dataset.why === 'noCalendarsYet';")
                #expect(try await browser.run("return document.getElementById('empty-view').textContent.includes('eventctl import');") == true)
                try await picture(browser, "empty-no-calendars")
                _ = try await daemon.importCalendar(Self.agenda, file: "work.ics", calendar: "work")
                // None ticked; nothing in these days: each its own words.
                try await browser.open(web.pageURL + "&tz=UTC&days=7&calendar=")
                try await browser.waitFor("none ticked", "return document.getElementById('empty-view')?.dataset.why === 'noneTicked';")
                try await picture(browser, "empty-none-ticked")
                try await browser.open(web.pageURL + "&tz=UTC&days=3&from=2031-01-01")
                try await browser.waitFor("nothing in range", "return document.getElementById('empty-view')?.dataset.why === 'nothingInRange';")
                let texts = try await browser.run("return document.getElementById('empty-view').textContent;").stringValue ?? ""
                #expect(texts.contains("Nothing planned in these days"), "\(texts)")
                try await picture(browser, "empty-nothing")
            }
            try await WebDriverSession.with(daemon) { browser in
                try await browser.emulateLocale("de-DE")
                try await browser.setClock(DaemonHarness.defaultNow)
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await waitForView(browser, daemon, ["tz": "UTC", "days": 7])
                try await picture(browser, "de")
                let english = try await page(browser, """
                    const text = document.body.innerText + [...document.querySelectorAll('[aria-label], [title]')]
                      .map((n) => (n.getAttribute('aria-label') ?? '') + (n.title ?? '')).join(' ');
                    return ['no title', 'continued', 'continues', 'Nothing', 'No events', 'All day', 'until', 'Tentative', 'day 3', 'Calendars', ' AM', ' PM']
                      .filter((w) => text.includes(w));
                    """)
                #expect(english == [], "English left in German: \(english)")
                let german = try await page(browser, "return [until(), when('Holiday'), !!item('(ohne Titel)')];")
                #expect(german == ["bis 00:15 Uhr", "Tag 3 von 16", true], "\(german)")
            }
        }
    }
}
