import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// The dashboard's side of the agenda's shared rules (Tests/Vectors/agenda-text.json,
/// which AgendaTextTests read too), run in Debian's headless Chromium on the served
/// modules: the section kinds, what is over and where the now line goes, each calendar's
/// colour and its inks. (Times and headers are the browser's locale's, not the vectors'.)
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardVectorTests {
    static let script = """
        const v = JSON.parse(arguments[0]), base = new URL('.', location.href);
        return Promise.all([import(new URL('render.js', base)), import(new URL('format.js', base))]).then(([render, format]) => {
        const misses = [], check = (what, got, want) => { if (JSON.stringify(got) !== JSON.stringify(want)) misses.push({ what, got, want }); };
        for (const c of v.sections) {
          check(['section', c.date, c.label, c.today], render.sectionKind({ date: c.date, label: c.label, items: c.items }, c.today), c.kind);
        }
        for (const c of v.now) {
          const now = Date.parse(c.now), line = c.items.findIndex((i) => render.comesNext(i, now));
          check(['over', c.why], c.items.map((i) => render.isOver(i, now)), c.phases.map((p) => p === 'over'));
          check(['line', c.why], line < 0 ? c.items.length : line, c.line);
        }
        const rgb = (hex) => `rgb(${format.channels(hex).join(' ')})`;
        for (const c of v.colors) {
          const colour = c.own ? c.color : format.paletteColour(c.name);
          check(['colour', c.name], colour, c.color);
          check(['inks', c.name], format.inks(format.channels(colour)), [rgb(c.light), rgb(c.dark)]);
        }
        return JSON.stringify({ misses, checked: v.sections.length + 2 * v.now.length + 2 * v.colors.length });
        });
        """

    @Test func theDashboardFollowsTheSharedVectors() async throws {
        let vectors = try String(contentsOf: Products.repositoryRoot.appendingPathComponent("Tests/Vectors/agenda-text.json"), encoding: .utf8)
        try await DaemonHarness.with(running: []) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.open(web.pageURL + "&tz=UTC&days=7")
                try await browser.waitFor("the page's modules", "return !!window.eventdDashboard;")
                let answer = try JSONValue.parse(try await browser.run(Self.script, [.string(vectors)]).stringValue ?? "null")
                #expect(answer["misses"] == [], "\(answer)")
                #expect((answer["checked"]?.intValue ?? 0) >= 20, "\(answer)")
            }
        }
    }
}
