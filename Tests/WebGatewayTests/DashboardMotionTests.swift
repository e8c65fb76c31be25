import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// The dashboard's motion, as a collection view's: real imports (an insert, a delete, a
/// move within a day, a move to a new day and back, a rename) followed frame by frame in
/// Debian's headless Chromium by `DashboardMotionProbe`; then pictures of one change's
/// frames (before, first frame, midway, after).
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardMotionTests {
    static let outputDirectory = DashboardBrowserTests.outputDirectory
    static let query = "tz=UTC&days=7&calendar=work"
    static let view: JSONValue = ["tz": "UTC", "days": 7, "calendars": ["work"]]

    /// Today is 2026-11-29 (the harness's clock): two cards today, four tomorrow, two
    /// days of the week row.
    static let base = [
        TestEvent("a@x", "20261129T090000Z", "20261129T100000Z", "Alpha"),
        TestEvent("b@x", "20261129T140000Z", "20261129T150000Z", "Bravo"),
        TestEvent("c@x", "20261130T080000Z", "20261130T090000Z", "Charlie"),
        TestEvent("d@x", "20261130T110000Z", "20261130T120000Z", "Delta"),
        TestEvent("e@x", "20261130T150000Z", "20261130T160000Z", "Echo"),
        TestEvent("f@x", "20261201T100000Z", "20261201T110000Z", "Foxtrot"),
        TestEvent("g@x", "20261201T130000Z", "20261201T140000Z", "Golf"),
        TestEvent("h@x", "20261203T090000Z", "20261203T100000Z", "Hotel"),
    ]

    static func changing(_ events: [TestEvent], _ uid: String, start: String? = nil, end: String? = nil,
                         summary: String? = nil) -> [TestEvent] {
        events.map { e in
            guard e.uid == uid else { return e }
            return TestEvent(uid, start ?? e.start, end ?? e.end, summary ?? e.summary)
        }
    }

    /// The changes, each applied on top of the one before: (name, calendar, the uids
    /// whose items must be among those that changed place).
    static var steps: [(String, [TestEvent], [String])] {
        let insert = base + [TestEvent("i@x", "20261130T100000Z", "20261130T103000Z", "India (inserted)")]
        let delete = insert.filter { $0.uid != "a@x" }
        let within = changing(delete, "c@x", start: "20261130T170000Z", end: "20261130T180000Z")
        let away = changing(within, "d@x", start: "20261204T110000Z", end: "20261204T120000Z")
        let back = changing(away, "d@x", start: "20261130T110000Z", end: "20261130T120000Z")
        let rename = changing(back, "e@x", summary: "Echo, renamed to something rather longer than it was")
        return [("insert", insert, ["i@x", "d@x", "e@x"]), ("delete", delete, ["b@x"]),
                ("move within a day", within, ["c@x"]), ("move to a new day", away, ["d@x"]),
                ("move back", back, ["d@x"]), ("rename", rename, ["e@x"])]
    }

    @Test func everyChangeAnimatesLikeACollectionView() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(icsCalendar(Self.base))
            try await daemon.start()
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.setClock(DaemonHarness.defaultNow)
                try await browser.open(web.pageURL + "&" + Self.query)
                try await browser.waitForVerifiedState(of: Self.view, in: daemon)
                for (name, events, mustChange) in Self.steps {
                    try await browser.run(DashboardMotionProbe.install)
                    try await daemon.importCalendar(icsCalendar(events))
                    try await browser.waitFor("the end of the \(name) transition", timeout: 10, "return window.motionProbe.done === true;")
                    let probe = try JSONValue.parse(try await browser.run("return JSON.stringify(window.motionProbe)").stringValue ?? "null")
                    #expect(probe["problems"] == [], "\(name): \(probe["problems"] ?? .null)")
                    if probe["late"] == true { print("DashboardMotionTests: \(name): the second frame came after 200 ms") }
                    let ids = try await ids(of: mustChange, daemon)
                    let changed = probe["changed"]?.arrayValue?.compactMap(\.stringValue) ?? []
                    for (uid, id) in zip(mustChange, ids) {
                        #expect(changed.contains(id), "\(name): \(uid) did not change place: \(changed)")
                    }
                    if name == "delete" { #expect(probe["ghosts"] == 1, "\(name): \(probe)") }
                    try await browser.waitForVerifiedState(of: Self.view, in: daemon)
                }
            }
        }
    }

    /// Pictures of one change (an event moved to a new day): before, the first frame,
    /// midway and after, each animation held at that time.
    @Test func framesOfAMoveToANewDay() async throws {
        try FileManager.default.createDirectory(atPath: Self.outputDirectory, withIntermediateDirectories: true)
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(icsCalendar(Self.base))
            try await daemon.start()
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.setClock(DaemonHarness.defaultNow)
                try await browser.open(web.pageURL + "&" + Self.query)
                try await browser.waitForVerifiedState(of: Self.view, in: daemon)
                try await pause(0.4)
                try await browser.screenshot(to: Self.outputDirectory + "/motion-0-before.png")
                try await browser.run(DashboardMotionProbe.hold)
                try await daemon.importCalendar(icsCalendar(Self.changing(Self.base, "d@x", start: "20261204T110000Z",
                                                                          end: "20261204T120000Z")))
                try await browser.waitFor("the held transition", "return window.heldAnimations !== null;")
                let count = try await browser.run("return window.heldAnimations.length;").intValue ?? 0
                #expect(count >= 3, "a glide, the new section's heading, the neighbours: \(count)")
                for (time, name) in [(0, "1-first-frame"), (125, "2-midway")] {
                    try await browser.run("for (const a of window.heldAnimations) a.currentTime = \(time);")
                    try await browser.screenshot(to: Self.outputDirectory + "/motion-\(name).png")
                }
                try await browser.run("for (const a of window.heldAnimations) a.finish();")
                try await browser.waitForVerifiedState(of: Self.view, in: daemon)
                try await browser.screenshot(to: Self.outputDirectory + "/motion-3-after.png")
            }
        }
    }

    /// The item ids of `uids` in the daemon's view.
    func ids(of uids: [String], _ daemon: DaemonHarness) async throws -> [String] {
        let snapshot = try await daemon.oneShotSnapshot(Self.view)
        return uids.map { uid in snapshot.item(uid: uid)?.item["id"]?.stringValue ?? "(\(uid) not in view)" }
    }
}
