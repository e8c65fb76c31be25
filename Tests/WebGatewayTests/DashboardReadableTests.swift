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
        try JSONValue.parse(try await browser.run("\(DashboardTimelineTests.contrast) return JSON.stringify((() => { \(script) })());").stringValue ?? "null")
    }

    func picture(_ browser: WebDriverSession, _ name: String) async throws {
        try FileManager.default.createDirectory(atPath: Self.outputDirectory, withIntermediateDirectories: true)
        try await browser.screenshot(to: Self.outputDirectory + "/readable-\(name).png")
    }

    func waitForView(_ browser: WebDriverSession, _ daemon: DaemonHarness, _ view: JSONValue) async throws {
        let digest = try await daemon.oneShotSnapshot(view).digest
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
            // and the palette's first colour for the calendar that has none.
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
                #expect(drawn == ["rgb(28, 107, 162)", true, "rgb(70, 109, 150)", "rgb(34, 120, 110)"], "\(drawn)")
            }
            #expect(try await daemon.eventctl(["calendars", "--calendar", "work", "--color", ""]).succeeded)
            let restored = try await daemon.eventctl(["calendars", "--json"])
            #expect(restored.stdout.contains("#ff2968"), "\(restored.stdout)")
        }
    }
}
