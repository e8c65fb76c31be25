import Testing
import ICalendar
import AgendaText
import CanonicalJSON
@testable import StatusBar

/// The bar's lines at each minute and each change, on a fake clock: exact output.
@Suite struct BarRendererTests {
    static let berlin = Zone.system("Europe/Berlin")!
    /// 2026-12-01 in Berlin (UTC+1): `t(9, 50)` is 09:50 local.
    static func t(_ hour: Int, _ minute: Int, day: Int = 1) -> Int64 {
        berlin.instant(forLocal: CivilDateTime(date: CivilDate(year: 2026, month: 12, day: day), hour: hour, minute: minute))
    }
    static func event(_ summary: String, _ from: (Int, Int), _ to: (Int, Int), day: Int = 1, location: String? = nil) -> BarEvent {
        BarEvent(summary: summary, location: location, calendar: "work", start: t(from.0, from.1, day: day), end: t(to.0, to.1, day: day))
    }
    static let day = [
        event("Standup", (10, 0), (10, 15)),
        event("Design review", (14, 0), (15, 0), location: "Room 4"),
        event("Planning", (9, 30), (10, 30), day: 2),
    ]

    @Test func lineFormatCountsDownEachMinuteAndGoesQuietWhenFree() {
        var bar = BarRenderer(format: .line, options: BarOptions())
        var out: [String] = []
        out += bar.feedChanged(Self.day, zone: Self.berlin, now: Self.t(9, 30))
        for m in [31, 44, 45, 46, 59] { out += bar.tick(now: Self.t(9, m)) }
        out += bar.tick(now: Self.t(10, 0))
        out += bar.tick(now: Self.t(10, 0) + 30) // same minute, same text: nothing
        out += bar.tick(now: Self.t(10, 14))
        out += bar.tick(now: Self.t(10, 15))
        out += bar.tick(now: Self.t(15, 0))
        #expect(out == [
            "10:00 Standup · in 30 min", "10:00 Standup · in 29 min", "10:00 Standup · in 16 min",
            "10:00 Standup · in 15 min", "10:00 Standup · in 14 min", "10:00 Standup · in 1 min",
            "Standup · now, 15 min left", "Standup · now, 1 min left",
            "14:00 Design review · in 3 h 45 min", "",
        ])
    }

    @Test func waybarClassesFollowTheClockAndTheFeed() throws {
        var bar = BarRenderer(format: .waybar, options: BarOptions())
        func fields(_ lines: [String]) throws -> [String] {
            try lines.map { line in
                let o = try JSONValue.parse(Array(line.utf8), maxDepth: 8)
                return "\(o["class"]!.stringValue!)|\(o["alt"]!.stringValue!)|\(o["percentage"]!.intValue!)|\(o["text"]!.stringValue!)"
            }
        }
        #expect(try fields(bar.feedChanged(Self.day, zone: Self.berlin, now: Self.t(9, 0))) == ["later|timed|0|10:00 Standup · in 1 h"])
        #expect(try fields(bar.tick(now: Self.t(9, 45))) == ["soon|timed|0|10:00 Standup · in 15 min"])
        #expect(try fields(bar.tick(now: Self.t(10, 3))) == ["now|timed|20|Standup · now, 12 min left"])
        // The standup moves to 10:30: the feed changes in the middle of a minute.
        var moved = Self.day
        moved[0] = Self.event("Standup", (10, 30), (10, 45))
        #expect(try fields(bar.feedChanged(moved, zone: Self.berlin, now: Self.t(10, 3) + 20)) == ["later|timed|0|10:30 Standup · in 27 min"])
        #expect(try fields(bar.connectionLost(now: Self.t(10, 4))) == ["stale|timed|0|10:30 Standup · in 26 min"])
        #expect(try fields(bar.tick(now: Self.t(10, 5))) == ["stale|timed|0|10:30 Standup · in 25 min"])
        #expect(try fields(bar.feedChanged([], zone: Self.berlin, now: Self.t(10, 5))) == ["free|none|0|"])
    }

    @Test func waybarTooltipIsTheRestOfTodayAndTomorrowInEscapedPango() throws {
        var bar = BarRenderer(format: .waybar, options: BarOptions())
        var events = Self.day
        events.append(Self.event("Q&A <live> \"Tom's\"", (16, 0), (17, 0)))
        events.append(BarEvent(summary: "Holiday", calendar: "h", allDayFrom: CivilDate(year: 2026, month: 12, day: 2),
                               until: CivilDate(year: 2026, month: 12, day: 3)))
        let line = try #require(bar.feedChanged(events, zone: Self.berlin, now: Self.t(10, 20)).first)
        let tooltip = try JSONValue.parse(Array(line.utf8), maxDepth: 8)["tooltip"]!.stringValue!
        #expect(tooltip == """
        <b>Today</b>
        14:00–15:00  Design review <i>Room 4</i>
        16:00–17:00  Q&amp;A &lt;live&gt; &quot;Tom&#39;s&quot;
        <b>Tomorrow</b>
        all day  Holiday
        09:30–10:30  Planning
        """)
        #expect(!line.contains("\n"))
    }

    @Test func i3barWritesTheHeaderOnceThenAnEndlessArray() throws {
        var bar = BarRenderer(format: .i3bar, options: BarOptions())
        var out = bar.feedChanged(Self.day, zone: Self.berlin, now: Self.t(9, 50))
        out += bar.tick(now: Self.t(10, 1))
        out += bar.connectionLost(now: Self.t(10, 2))
        #expect(out.count == 5)
        #expect(out[0] == #"{"version":1}"#)
        #expect(out[1] == "[")
        // What i3bar reads after the header is a JSON array that is never closed: close it
        // here and it must parse, one block list per update.
        let array = try JSONValue.parse(Array((out[1...].joined(separator: "\n") + "]").utf8), maxDepth: 8)
        let blocks = array.arrayValue!.map { $0[0]! }
        #expect(blocks.map { $0["full_text"]!.stringValue! } == ["10:00 Standup · in 10 min", "Standup · now, 14 min left", "Standup · now, 13 min left"])
        #expect(blocks.map { $0["instance"]!.stringValue! } == ["soon", "now", "stale"])
        #expect(blocks.map { $0["short_text"]!.stringValue! } == ["Standup", "Standup", "Standup"])
        #expect(blocks.map { $0["color"]?.stringValue } == ["#EBCB8B", "#A3BE8C", "#808080"])
    }

    /// Waybar's objects and i3bar's block lists are canonical JSON (keys in code-point
    /// order), as every JSON line the project writes.
    @Test(arguments: [BarFormat.waybar, .i3bar])
    func barLinesAreCanonicalJSON(format: BarFormat) throws {
        var bar = BarRenderer(format: format, options: BarOptions())
        var out = bar.feedChanged(Self.day, zone: Self.berlin, now: Self.t(9, 50))
        out += bar.tick(now: Self.t(10, 1))
        out += bar.connectionLost(now: Self.t(10, 2))
        let updates = out.filter { $0 != "[" && $0 != #"{"version":1}"# }.map { $0.hasPrefix(",") ? String($0.dropFirst()) : $0 }
        #expect(updates.count == 3)
        for line in updates {
            #expect(try JSONValue.parse(Array(line.utf8), maxDepth: 8).canonicalString() == line)
        }
    }

    @Test func beforeAnyStateTheBarIsStaleAndEmpty() {
        var line = BarRenderer(format: .line, options: BarOptions())
        #expect(line.connectionLost(now: 0) == [""])
        #expect(line.tick(now: 60) == [])
        var waybar = BarRenderer(format: .waybar, options: BarOptions())
        #expect(waybar.connectionLost(now: 0).first?.contains(#""class":"stale""#) == true)
    }

    @Test func lineFormatMarksStaleTextAndNeverBreaksTheLine() {
        var bar = BarRenderer(format: .line, options: BarOptions())
        let hostile = [Self.event("Evil\n\u{1B}[2Jtitle\u{202E}", (10, 0), (11, 0))]
        let first = bar.feedChanged(hostile, zone: Self.berlin, now: Self.t(9, 0))
        #expect(first == ["10:00 Evil ^[[2Jtitle\u{FFFD} · in 1 h"])
        #expect(bar.connectionLost(now: Self.t(9, 0)) == ["10:00 Evil ^[[2Jtitle\u{FFFD} · in 1 h (stale)"])
    }

    @Test func nextMinuteIsTheNextWholeMinute() {
        #expect(BarRenderer.nextMinute(after: 0) == 60)
        #expect(BarRenderer.nextMinute(after: 59) == 60)
        #expect(BarRenderer.nextMinute(after: 60) == 120)
        #expect(BarRenderer.nextMinute(after: -1) == 0)
    }
}
