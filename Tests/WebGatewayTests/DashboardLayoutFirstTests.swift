import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// Layout first, then motion, in Debian's headless Chromium: across a new section
/// above, an insert before the "now" line that wraps today's row, a move across
/// sections, a removed section above, a rename that makes a row taller and a move
/// across the "now" line, every animation frame is recorded, and every
/// item kept across the change and the "now" line must lie between its old and new
/// boxes on each one; the item crossing sections must be on top at its centre for the
/// whole flight; nothing may move once the animations have ended.
@Suite(.serialized, .enabled(if: WebDriverSession.isAvailable, "chromium and chromium-driver are not installed (make deps)"))
struct DashboardLayoutFirstTests {
    static let query = "tz=UTC&days=7&calendar=work"
    static let view: JSONValue = ["tz": "UTC", "days": 7, "calendars": ["work"]]

    /// Today (2026-11-29, 12:00 on both clocks): five cards around the "now" line; no
    /// Tomorrow yet; three days of the week row.
    static let base = [
        TestEvent("a@x", "20261129T090000Z", "20261129T100000Z", "Alpha"),
        TestEvent("b@x", "20261129T130000Z", "20261129T140000Z", "Bravo"),
        TestEvent("c@x", "20261129T140000Z", "20261129T150000Z", "Charlie"),
        TestEvent("d@x", "20261129T150000Z", "20261129T160000Z", "Delta"),
        TestEvent("e@x", "20261129T160000Z", "20261129T170000Z", "Echo"),
        TestEvent("f@x", "20261201T100000Z", "20261201T110000Z", "Foxtrot"),
        TestEvent("g@x", "20261202T100000Z", "20261202T110000Z", "Golf"),
        TestEvent("h@x", "20261203T100000Z", "20261203T110000Z", "Hotel"),
    ]

    /// Each change on top of the one before: (name, events, the uid that crosses sections).
    static var steps: [(String, [TestEvent], String?)] {
        let tomorrow = base + [TestEvent("t@x", "20261130T100000Z", "20261130T110000Z", "Tango, tomorrow")]
        let before = tomorrow + [TestEvent("i@x", "20261129T103000Z", "20261129T110000Z", "India, before now")]
        let across = before.map { $0.uid == "f@x" ? TestEvent("f@x", "20261130T120000Z", "20261130T130000Z", "Foxtrot") : $0 }
        let removed = across.filter { $0.uid != "t@x" && $0.uid != "f@x" }
        let renamed = removed.map { $0.uid == "b@x" ? TestEvent("b@x", $0.start, $0.end, "Bravo, renamed to a title long enough to wrap") : $0 }
        let past = renamed.map { $0.uid == "d@x" ? TestEvent("d@x", "20261129T093000Z", "20261129T094500Z", "Delta") : $0 }
        return [("a new section above", tomorrow, nil), ("an insert before the now line, a wrapped row", before, nil),
                ("a move across sections", across, "f@x"), ("a removed section above", removed, nil),
                ("a rename that makes a row taller", renamed, nil), ("a move across the now line", past, nil)]
    }

    /// Records every frame of the next diff's transition in `window.flipProbe`.
    static func probe(crossing: String?) -> String {
        """
        const kept = () => [...document.querySelectorAll('#agenda .item[data-id], #agenda .now-line')];
        const keyOf = (n) => n.dataset.id ?? 'now';
        const box = (n) => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        const old = new Map(kept().map((n) => [keyOf(n), { node: n, box: box(n) }]));
        const out = { done: false, frames: 0, problems: [], onTop: 0, checkedOnTop: 0, kept: 0 };
        window.flipProbe = out;
        addEventListener('eventd:applied', () => {
          const nodes = kept().filter((n) => old.get(keyOf(n))?.node === n);
          out.kept = nodes.length;
          const frames = [];
          const crossing = \(crossing.map { "'\($0)'" } ?? "null");
          const record = () => {
            frames.push(nodes.map(box));
            const n = crossing && nodes.find((x) => x.dataset.id === crossing);
            if (n && n.getAnimations().some((a) => a.playState === 'running' && a.currentTime < 230)) {
              const [l, t, r, b] = box(n);
              const hit = document.elementFromPoint((l + r) / 2, (t + b) / 2);
              out.checkedOnTop += 1;
              if (hit?.closest('.item') === n) out.onTop += 1;
              else out.problems.push(`frame ${frames.length}: ${crossing} under ${hit?.closest('.item')?.dataset.id ?? hit?.tagName}`);
            }
          };
          record();
          const end = () => {
            const last = nodes.map(box);
            frames.forEach((f, i) => f.forEach((b, j) => {
              const was = old.get(keyOf(nodes[j])).box, now = last[j];
              for (let k = 0; k < 4; k++) {
                const lo = Math.min(was[k], now[k]) - 3, hi = Math.max(was[k], now[k]) + 3;
                if (b[k] < lo || b[k] > hi) {
                  out.problems.push(`frame ${i}: ${keyOf(nodes[j])} edge ${k} at ${b[k].toFixed(1)}, not within ${was[k].toFixed(1)}…${now[k].toFixed(1)}`);
                  break;
                }
              }
            }));
            out.frames = frames.length;
            // No jump once it is over: three frames later every box is where the last frame had it.
            let wait = 3;
            const settle = () => {
              if (--wait > 0) { requestAnimationFrame(settle); return; }
              nodes.map(box).forEach((b, j) => {
                if (b.some((v, k) => Math.abs(v - last[j][k]) > 0.5)) out.problems.push(`${keyOf(nodes[j])} jumped after the end: ${last[j]} -> ${b}`);
              });
              out.done = true;
            };
            requestAnimationFrame(settle);
          };
          const frame = () => {
            record();
            if (document.getAnimations().some((a) => a.playState === 'running' || a.pending)) requestAnimationFrame(frame); else end();
          };
          requestAnimationFrame(frame);
        }, { once: true });
        """
    }

    @Test func keptItemsAndTheNowLineOnlyTravelFromTheirOldBoxToTheirNewOne() async throws {
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(icsCalendar(Self.base))
            try await daemon.start()
            let web = try await WebGatewayHarness.start(for: daemon)
            try await WebDriverSession.with(daemon) { browser in
                try await browser.setClock(DaemonHarness.defaultNow)
                try await browser.open(web.pageURL + "&" + Self.query)
                try await browser.waitForVerifiedState(of: Self.view, in: daemon)
                try await pause(0.3)
                for (name, events, uid) in Self.steps {
                    let snapshot = try await daemon.oneShotSnapshot(Self.view)
                    let crossing = uid.map { snapshot.item(uid: $0)?.item["id"]?.stringValue ?? "(\($0) not in view)" }
                    try await browser.run(Self.probe(crossing: crossing))
                    try await daemon.importCalendar(icsCalendar(events))
                    try await browser.waitFor("the end of \(name)", timeout: 10, "return window.flipProbe.done === true;")
                    let probe = try JSONValue.parse(try await browser.run("return JSON.stringify(window.flipProbe)").stringValue ?? "null")
                    let problems = probe["problems"]?.arrayValue ?? []
                    #expect(problems.isEmpty, "\(name): \(problems.count) problems, first \(problems.prefix(8))")
                    #expect((probe["frames"]?.intValue ?? 0) >= 3, "\(name): \(probe)")
                    #expect((probe["kept"]?.intValue ?? 0) >= 6, "\(name): \(probe)")
                    if crossing != nil {
                        #expect((probe["checkedOnTop"]?.intValue ?? 0) >= 1 && probe["onTop"] == probe["checkedOnTop"], "\(name): \(probe)")
                    }
                    print("DashboardLayoutFirstTests: \(name): \(probe["frames"] ?? .null) frames, \(probe["kept"] ?? .null) kept, "
                          + "on top \(probe["onTop"] ?? .null)/\(probe["checkedOnTop"] ?? .null)")
                    try await browser.waitForVerifiedState(of: Self.view, in: daemon)
                }
            }
        }
    }
}
