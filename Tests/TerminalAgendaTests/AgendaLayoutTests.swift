import Testing
import CanonicalJSON
@testable import TerminalAgenda

@Suite struct AgendaLayoutTests {
    @Test func sectionsNowRuleProgressAndDenseList() {
        let rows = AgendaFixture.layout.rows(AgendaFixture.week)
        let text = rows.map(\.plainText)
        #expect(rows.first?.plainText == "Today, Sunday 29 November")
        #expect(text.contains("Tomorrow, Monday 30 November"))
        #expect(text.contains("Wednesday 2 December"))
        #expect(text.contains("Later"))
        let ids = rows.map(\.id)
        // The rule stands between the event under way and the coming one.
        #expect(ids.firstIndex(of: "now") == ids.firstIndex(of: "run")! + 1)
        #expect(ids.firstIndex(of: "next") == ids.firstIndex(of: "now")! + 1)
        #expect(rows.first { $0.id == "run" }!.plainText.hasPrefix("▶ 11:30–12:30"))
        #expect(rows.first { $0.id == "run" }!.plainText.contains("▰▰▰▰▱▱▱▱"))
        #expect(rows.first { $0.id == "past" }!.past)
        #expect(rows.first { $0.id == "now" }?.plainText == "  ── now 12:00 ")
        // Past the week: one dense line per event, its date in front, no header of its own.
        #expect(rows.first { $0.id == "later" }!.plainText.hasPrefix("  Tue 8 Dec    10:00–11:00"))
        #expect(!(text.contains { $0.contains("8 December") }))
    }

    @Test func bannersContinue() {
        let rows = AgendaFixture.layout.rows(AgendaFixture.week)
        let banner = rows.first { $0.id == "fest" }!
        #expect(banner.kind == .banner)
        // As agenda writes it: the time column, then the continuation's mark at the end.
        #expect(banner.plainText.hasPrefix("  all day     ●  Festival "), "\(banner.plainText)")
        #expect(banner.plainText.hasSuffix("  ↔"), "\(banner.plainText)")
        #expect(banner.spans.contains { $0.style == .banner("home") })
    }

    /// The forms `agenda` writes (AgendaText), where watch once wrote `18:00–18:00` and
    /// `←–07:05`; a night that began yesterday is under way, not over, and the now line
    /// follows it.
    @Test func momentsAndNightsAsAgendaWritesThem() {
        var fields = AgendaFixture.event("night", "2026-11-29", "00:00", "13:05", "Night shift").objectValue ?? [:]
        fields["start"] = "2026-11-28T22:00:00Z"
        fields["continues_from_previous_day"] = true
        let night = JSONValue.object(fields)
        let model = AgendaFixture.model([AgendaFixture.section("2026-11-29", "today", [
            night, AgendaFixture.event("due", "2026-11-29", "18:00", "18:00", "Deadline")])])
        let rows = AgendaFixture.layout.rows(model)
        let text = rows.map(\.plainText)
        #expect(text.contains { $0.hasPrefix("▶ …    –13:05 ●  Night shift ") && $0.hasSuffix("  ←") }, "\(text)")
        #expect(text.contains("  18:00       ● Deadline"), "\(text)")
        #expect(rows.map(\.id) == ["h:2026-11-29", "night", "now", "due"])
        #expect(rows.first { $0.id == "night" }?.past == false)
    }

    @Test func placeholdersSayWhy() {
        var layout = AgendaFixture.layout
        layout.calendarCount = 0
        #expect(layout.rows(AgendaFixture.model([])).map(\.plainText) == ["  (no calendars yet: eventctl import FILE.ics, or eventctl source add)"])
        layout.calendarCount = 3
        layout.days = 7
        #expect(layout.rows(AgendaFixture.model([])).map(\.plainText) == ["  (nothing in the next 7 days)"])
        layout.hiddenCalendars = ["work"]
        let hidden = layout.rows(AgendaFixture.week)
        #expect(hidden.contains { $0.plainText == "  (only events of hidden calendars)" })
        #expect(!(hidden.contains { $0.id == "run" }))
        #expect(hidden.contains { $0.id == "fest" })
    }

    @Test func hostileTextIsInert() {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[31mred\u{202E}x"
        let model = AgendaFixture.model([AgendaFixture.section("2026-11-29", "today", [
            AgendaFixture.event("h", "2026-11-29", "15:00", "16:00", hostile, location: "\u{1B}[5mblink")])])
        let row = AgendaFixture.layout.rows(model).first { $0.id == "h" }!
        for span in row.fitted(to: 120) {
            #expect(!(span.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x202E }), "\(span.text)")
        }
        #expect(row.plainText.contains("^[]0;pwned^G^[[2J^[[31mred�x"))
    }

    @Test func theCacheKeepsOtherDatesAndRedoesToday() {
        var layout = AgendaFixture.layout
        var cache = AgendaLayout.Cache()
        #expect(layout.rows(AgendaFixture.week, cache: &cache) == layout.rows(AgendaFixture.week))
        layout.now += 3 * 3600 + 1800 // 15:30: Review is under way
        let later = layout.rows(AgendaFixture.week, cache: &cache)
        #expect(later == layout.rows(AgendaFixture.week), "cached dates are the same as laid out afresh")
        #expect(later.first { $0.id == "next" }!.plainText.hasPrefix("▶ 15:00–16:00"))
        #expect(later.first { $0.id == "now" }?.plainText == "  ── now 15:30 ")
        layout.now += 86_400 // the next day: the cache starts over
        let tomorrow = layout.rows(AgendaFixture.week, cache: &cache)
        #expect(tomorrow == layout.rows(AgendaFixture.week))
    }
}
