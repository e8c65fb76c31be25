import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// The dashboard in Debian's headless Chromium, driven by chromedriver: the sample
/// calendars' agenda, an import's animated change keeping the moved item's DOM node,
/// the page's digest equal to the daemon's, an eventd restart, the empty view.
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardBrowserTests {
    static let view: JSONValue = ["tz": "UTC", "days": 7]
    static let query = "tz=UTC&days=7"
    /// Screenshots go here (kept after the test, for people to look at).
    static let outputDirectory = Products.repositoryRoot.appendingPathComponent(".build/test-output/dashboard").path

    static let work = [
        TestEvent("r@x", "20261129T150000Z", "20261129T160000Z", #"Review ☕ Zürich "draft""#),
        TestEvent("m@x", "20261130T090000Z", "20261130T100000Z", "Moving meeting"),
        TestEvent("d@x", "20261202T100000Z", "20261202T110000Z", "Doomed"),
        TestEvent("s@x", "20261201T080000Z", "20261201T083000Z", "Stays"),
    ]
    static let workChanged = [
        // (ICS escapes a backslash as two.)
        TestEvent("r@x", "20261129T150000Z", "20261129T160000Z", #"Review ☕ Zürich 🎉 "final" \\back\\slash"#),
        TestEvent("m@x", "20261201T140000Z", "20261201T150000Z", "Moving meeting"),
        TestEvent("s@x", "20261201T080000Z", "20261201T083000Z", "Stays"),
        TestEvent("n@x", "20261203T110000Z", "20261203T120000Z", "New 😀 ünïcödé"),
    ]

    /// The page's state as JSON.
    static let pageState = """
        const d = window.eventdDashboard;
        return JSON.stringify({connection: d.connection, digest: d.digest, verified: d.verified, seq: d.seq, epoch: d.epoch,
          stats: d.stats, animations: d.animations, items: document.querySelectorAll('.sections .item').length});
        """

    func state(_ browser: WebDriverSession) async throws -> JSONValue {
        try JSONValue.parse(try await browser.run(Self.pageState).stringValue ?? "null")
    }

    func waitForDigest(_ browser: WebDriverSession, _ digest: String, _ what: String) async throws {
        try await browser.waitFor(what, "const d = window.eventdDashboard; return d.connection === 'live' && d.verified === '\(digest)';")
    }

    @Test func theDashboardFollowsTheFeed() async throws {
        try FileManager.default.createDirectory(atPath: Self.outputDirectory, withIntermediateDirectories: true)
        try await DaemonHarness.with { daemon in
            let samples = try FileManager.default.contentsOfDirectory(atPath: Products.repositoryRoot.path + "/sample-calendars")
                .filter { $0.hasSuffix(".ics") }.map { Products.repositoryRoot.path + "/sample-calendars/" + $0 }
            let imported = try await daemon.eventctl(["import"] + samples)
            #expect(imported.succeeded, "\(imported.stderr)")
            try await daemon.importCalendar(icsCalendar(Self.work))
            try await daemon.start()
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in

                // The agenda: every item of the daemon's snapshot, its digest verified in the page.
                let before = try await daemon.oneShotSnapshot(Self.view)
                try await browser.setClock(DaemonHarness.defaultNow)
                try await browser.open(web.pageURL + "&" + Self.query)
                try await waitForDigest(browser, before.protocol2Digest, "the first snapshot")
                // The page took the token out of its address (and keeps it in its own storage).
                let loaded = try await browser.run("return location.href").stringValue ?? ""
                #expect(!loaded.contains("token") && loaded.contains("tz="), "\(loaded)")
                var page = try await state(browser)
                #expect(page["items"]?.intValue == Int64(before.itemCount))
                #expect(page["stats"]?["mismatches"] == 0)
                let text = try await browser.run("return document.querySelector('main').innerText").stringValue ?? ""
                #expect(text.contains(#"Review ☕ Zürich "draft""#))
                #expect(text.contains("Stays"))

                // Mark the node of the item that will move, then import renames, a move, an
                // addition and a deletion: the page changes without a reload.
                let movedID = try #require(before.item(uid: "m@x")?.item["id"]?.stringValue)
                try await browser.run("document.querySelector('[data-id=\"\(movedID)\"]').dataset.mark = 'same-node'; window.notReloaded = true;")
                try await daemon.importCalendar(icsCalendar(Self.workChanged))
                let after = try await daemon.oneShotSnapshot(Self.view)
                try await waitForDigest(browser, after.protocol2Digest, "the diff of the import")
                page = try await state(browser)
                #expect(try await browser.run("return window.notReloaded === true") == true)
                #expect(page["stats"]?["diffs"]?.intValue ?? 0 >= 1)
                #expect(page["stats"]?["mismatches"] == 0)
                #expect(page["items"]?.intValue == Int64(after.itemCount))
                let moved = try await browser.run("""
                    const n = document.querySelector('.sections [data-id="\(movedID)"]');
                    return n ? n.dataset.mark + ' ' + n.closest('.section').dataset.date : 'missing';
                    """)
                #expect(moved == "same-node 2026-12-01")
                let animations = page["animations"] ?? .null
                for kind in ["entered", "left", "moved", "flashed"] {
                    #expect(animations[kind]?.intValue ?? 0 >= 1, "no \(kind) animation: \(animations)")
                }
                let changed = try await browser.run("return document.querySelector('main').innerText").stringValue ?? ""
                #expect(changed.contains(#"Review ☕ Zürich 🎉 "final" \back\slash"#))
                #expect(changed.contains("New 😀 ünïcödé"))
                #expect(!changed.contains("Doomed"))
                let announced = try await browser.run("return document.getElementById('announce').textContent").stringValue ?? ""
                // The live region names what changed, not only how much.
                for said in ["New 😀 ünïcödé added", "Moving meeting moved to Tuesday, December 1", "Doomed removed"] {
                    #expect(announced.contains(said), "\(announced)")
                }
                try await pause(0.6) // let the animations finish before the pictures
                try await browser.screenshot(to: Self.outputDirectory + "/dashboard-light.png")
                try await browser.emulateMedia(["prefers-color-scheme": "dark"])
                try await browser.screenshot(to: Self.outputDirectory + "/dashboard-dark.png")
                try await browser.emulateMedia(["prefers-color-scheme": "light"])

                // prefers-reduced-motion: the change is drawn, nothing is animated.
                try await browser.emulateMedia(["prefers-reduced-motion": "reduce"])
                let still = try await state(browser)["animations"]
                try await daemon.importCalendar(icsCalendar(Self.workChanged + [TestEvent("q@x", "20261130T120000Z", "20261130T130000Z", "Quiet")]))
                let quiet = try await daemon.oneShotSnapshot(Self.view)
                try await waitForDigest(browser, quiet.protocol2Digest, "the diff without motion")
                #expect(try await state(browser)["animations"] == still)
                #expect(try await browser.run("return document.querySelector('main').innerText.includes('Quiet')") == true)
                try await browser.emulateMedia(["prefers-reduced-motion": "no-preference"])

                // eventd restarts: "reconnecting", then the agenda of the new run.
                let epoch = page["epoch"]?.stringValue
                _ = await daemon.stop()
                try await browser.waitFor("the reconnecting state", "return window.eventdDashboard.connection === 'reconnecting';")
                let shown = try await browser.run("return document.getElementById('connection').textContent").stringValue ?? ""
                #expect(shown.hasPrefix("Reconnecting"))
                try await daemon.start()
                let restarted = try await daemon.oneShotSnapshot(Self.view)
                try await waitForDigest(browser, restarted.protocol2Digest, "the agenda after the restart")
                page = try await state(browser)
                #expect(page["epoch"]?.stringValue != epoch)
                #expect(page["stats"]?["mismatches"] == 0)

                // A state out of step with the daemon (an item changed behind the page's back,
                // in the section the next diff touches: protocol 2 hashes again only those):
                // the next diff's digest does not match, and the page reconnects for a snapshot.
                try await browser.run("window.eventdDashboard.sections.flatMap((s) => s.items).find((i) => i.uid === 's@x').summary = 'tampered';")
                try await daemon.importCalendar(icsCalendar(Self.workChanged + [TestEvent("late@x", "20261201T170000Z", "20261201T180000Z", "Late")]))
                let tampered = try await daemon.oneShotSnapshot(Self.view)
                try await browser.waitFor("the reconnect after the mismatch", """
                    const d = window.eventdDashboard; return d.stats.mismatches === 1 && d.connection === 'live' && d.verified === '\(tampered.protocol2Digest)';
                    """)
                #expect(try await browser.run("return JSON.stringify(window.eventdDashboard.sections).includes('tampered')") == false)

                // The controls live in the URL: three days and one calendar.
                try await browser.run("""
                    const form = document.getElementById('controls');
                    form.days.value = '3';
                    for (const box of form.querySelectorAll('input[name="calendar"]')) box.checked = box.value === 'work';
                    form.dispatchEvent(new Event('change'));
                    """)
                let narrowed = try await daemon.oneShotSnapshot(["tz": "UTC", "days": 3, "calendars": ["work"]])
                try await waitForDigest(browser, narrowed.protocol2Digest, "the view the controls chose")
                let address = try await browser.run("return location.search").stringValue ?? ""
                #expect(address.contains("days=3") && address.contains("calendar=work") && address.contains("tz=UTC"), "\(address)")

                // An empty view, and empty dates with placeholders: their own cells.
                try await browser.open(web.pageURL + "&tz=UTC&days=3&from=2031-01-01&calendar=work")
                try await browser.waitFor("the empty view", "return !!document.getElementById('empty-view');")
                try await browser.open(web.pageURL + "&tz=UTC&days=3&from=2031-01-01&calendar=work&empty_days=placeholder")
                try await browser.waitFor("placeholder sections",
                                          "return document.querySelectorAll('.section[data-kind=\"placeholder\"] .item.placeholder').length === 3;")
                let placeholder = try await browser.run("return document.querySelector('.item.placeholder').innerText").stringValue
                #expect(placeholder == "Nothing planned")
            }
        }
    }
}
