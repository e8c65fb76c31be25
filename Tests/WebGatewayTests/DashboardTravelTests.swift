import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// Issue 56, points 1–3, in Debian's headless Chromium, frame by frame
/// (`DashboardTravelProbe`): after a replace that empties the top of a long page, moves a
/// far event into today and adds new ones, everything in view that was there before
/// travels from its old place (off screen too) on its path, moving cards stay opaque with
/// no see-through copy, and new cards come in from at least 90 % of their size, once the
/// movers have passed.
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardTravelTests {
    static let query = "tz=UTC&days=14&calendar=work"
    static let view: JSONValue = ["tz": "UTC", "days": 14, "calendars": ["work"]]

    static func events(_ prefix: String, day: Int, count: Int, from hour: Int = 8) -> [TestEvent] {
        let month = day > 30 ? 12 : 11, date = day > 30 ? day - 30 : day
        return (0..<count).map { i in
            TestEvent("\(prefix)-\(i)@x", String(format: "2026%02d%02dT%02d0000Z", month, date, hour + i), nil, "\(prefix) \(i)")
        }
    }

    /// A page longer than the window: eight cards today and tomorrow, three a day in the
    /// week row, four a day later on (2026-11-29 is today).
    static let base = events("Today", day: 29, count: 8, from: 13) + events("Tomorrow", day: 30, count: 8)
        + (31...35).flatMap { events("Week \($0 - 30)", day: $0, count: 3) }
        + (36...42).flatMap { events("Later \($0 - 30)", day: $0, count: 4) }

    /// The top emptied (two cards kept), a far event moved to today, three new ones.
    static var replaced: [TestEvent] {
        let kept = base.filter { !($0.uid.hasPrefix("Today") || $0.uid.hasPrefix("Tomorrow")) || $0.uid.hasSuffix("-0@x") }
        let quarterly = kept.map { $0.uid == "Later 10-1@x" ? TestEvent($0.uid, "20261129T153000Z", "20261129T163000Z", "Quarterly review") : $0 }
        return quarterly + [TestEvent("new-1@x", "20261129T170000Z", nil, "New one"),
                            TestEvent("new-2@x", "20261129T180000Z", nil, "New two"),
                            TestEvent("new-3@x", "20261130T120000Z", nil, "New three")]
    }

    @Test func everythingInViewTravelsOpaqueAndNewCardsWaitForMovers() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(icsCalendar(Self.base))
            try await daemon.start()
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon, width: 1280, height: 900) { browser in
                try await browser.setClock(DaemonHarness.defaultNow)
                try await browser.open(web.pageURL + "&" + Self.query)
                try await browser.waitForVerifiedState(of: Self.view, in: daemon)
                try await pause(0.4)
                let height = try await browser.run("return document.documentElement.scrollHeight").intValue ?? 0
                #expect(height > 1_350, "the page must be longer than the window: \(height)")
                try await browser.run(DashboardTravelProbe.install)
                try await daemon.importCalendar(icsCalendar(Self.replaced))
                try await browser.waitFor("the end of the replace", timeout: 10, "return window.travelProbe.done === true;")
                let probe = try JSONValue.parse(try await browser.run("return JSON.stringify(window.travelProbe)").stringValue ?? "null")
                print("DashboardTravelTests: \(probe["frames"] ?? .null) frames, \(probe["checked"] ?? .null) in view checked, "
                      + "\(probe["offPath"] ?? .null) off path, \(probe["travelled"] ?? .null) travelled "
                      + "(\(probe["offscreenTravelled"] ?? .null) from off screen), \(probe["movers"] ?? .null) movers at opacity ≥ "
                      + "\(probe["minMoverOpacity"] ?? .null), \(probe["inserted"] ?? .null) inserted at scale ≥ "
                      + "\(probe["minInsertScale"] ?? .null), crossing pairs \(probe["crossingPairs"] ?? .null)")
                let problems = probe["problems"]?.arrayValue ?? []
                #expect(problems.isEmpty, "\(problems.count) problems, first \(problems.prefix(8))")
                #expect((probe["frames"]?.intValue ?? 0) >= 3)
                #expect(probe["offPath"] == 0)
                #expect((probe["offscreenTravelled"]?.intValue ?? 0) >= 3, "\(probe)")
                #expect((probe["minMoverOpacity"]?.doubleValue ?? 0) >= 0.99 && (probe["movers"]?.intValue ?? 0) >= 3, "\(probe)")
                #expect((probe["inserted"]?.intValue ?? 0) == 3 && (probe["minInsertScale"]?.doubleValue ?? 0) >= 0.9, "\(probe)")
                #expect(probe["crossingPairs"] == [], "\(probe)")
                try await browser.waitForVerifiedState(of: Self.view, in: daemon)
            }
        }
    }
}
