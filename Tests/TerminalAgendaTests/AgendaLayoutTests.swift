import XCTest
import CanonicalJSON
@testable import TerminalAgenda

final class AgendaLayoutTests: XCTestCase {
    func testSectionsNowRuleProgressAndDenseList() {
        let rows = AgendaFixture.layout.rows(AgendaFixture.week)
        let text = rows.map(\.plainText)
        XCTAssertEqual(rows.first?.plainText, "Today, Sunday 29 November")
        XCTAssertTrue(text.contains("Tomorrow, Monday 30 November"))
        XCTAssertTrue(text.contains("Wednesday 2 December"))
        XCTAssertTrue(text.contains("Later"))
        let ids = rows.map(\.id)
        // The rule stands between the event under way and the coming one.
        XCTAssertEqual(ids.firstIndex(of: "now"), ids.firstIndex(of: "run")! + 1)
        XCTAssertEqual(ids.firstIndex(of: "next"), ids.firstIndex(of: "now")! + 1)
        XCTAssertTrue(rows.first { $0.id == "run" }!.plainText.hasPrefix("▶ 11:30–12:30"))
        XCTAssertTrue(rows.first { $0.id == "run" }!.plainText.contains("▰▰▰▰▱▱▱▱"))
        XCTAssertTrue(rows.first { $0.id == "past" }!.past)
        XCTAssertEqual(rows.first { $0.id == "now" }?.plainText, "  ── now 12:00 ")
        // Past the week: one dense line per event, its date in front, no header of its own.
        XCTAssertTrue(rows.first { $0.id == "later" }!.plainText.hasPrefix("  Tue 8 Dec    10:00–11:00"))
        XCTAssertFalse(text.contains { $0.contains("8 December") })
    }

    func testBannersContinue() {
        let rows = AgendaFixture.layout.rows(AgendaFixture.week)
        let banner = rows.first { $0.id == "fest" }!
        XCTAssertEqual(banner.kind, .banner)
        XCTAssertTrue(banner.plainText.hasPrefix("  ← all day →"))
        XCTAssertTrue(banner.spans.contains { $0.style == .banner("home") })
    }

    func testPlaceholdersSayWhy() {
        var layout = AgendaFixture.layout
        layout.calendarCount = 0
        XCTAssertEqual(layout.rows(AgendaFixture.model([])).map(\.plainText), ["  (no calendars yet: eventctl import FILE.ics, or eventctl source add)"])
        layout.calendarCount = 3
        layout.days = 7
        XCTAssertEqual(layout.rows(AgendaFixture.model([])).map(\.plainText), ["  (nothing in the next 7 days)"])
        layout.filter = "zzz"
        let filtered = layout.rows(AgendaFixture.week)
        XCTAssertTrue(filtered.contains { $0.plainText == "  (nothing matches “zzz”)" })
        layout.filter = ""
        layout.hiddenCalendars = ["work"]
        let hidden = layout.rows(AgendaFixture.week)
        XCTAssertTrue(hidden.contains { $0.plainText == "  (only events of hidden calendars)" })
        XCTAssertFalse(hidden.contains { $0.id == "run" })
        XCTAssertTrue(hidden.contains { $0.id == "fest" })
    }

    func testFilterMatchesSummaryLocationCalendar() {
        var layout = AgendaFixture.layout
        layout.filter = "room 4"
        let ids = layout.rows(AgendaFixture.week).filter(\.selectable).map(\.id)
        XCTAssertEqual(ids, ["run"])
    }

    func testHostileTextIsInert() {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[31mred\u{202E}x"
        let model = AgendaFixture.model([AgendaFixture.section("2026-11-29", "today", [
            AgendaFixture.event("h", "2026-11-29", "15:00", "16:00", hostile, location: "\u{1B}[5mblink")])])
        let row = AgendaFixture.layout.rows(model).first { $0.id == "h" }!
        for span in row.fitted(to: 120) {
            XCTAssertFalse(span.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x202E }, span.text)
        }
        XCTAssertTrue(row.plainText.contains("^[]0;pwned^G^[[2J^[[31mred�x"))
    }

    func testTheCacheKeepsOtherDatesAndRedoesToday() {
        var layout = AgendaFixture.layout
        var cache = AgendaLayout.Cache()
        XCTAssertEqual(layout.rows(AgendaFixture.week, cache: &cache), layout.rows(AgendaFixture.week))
        layout.now += 3 * 3600 + 1800 // 15:30: Review is under way
        let later = layout.rows(AgendaFixture.week, cache: &cache)
        XCTAssertEqual(later, layout.rows(AgendaFixture.week), "cached dates are the same as laid out afresh")
        XCTAssertTrue(later.first { $0.id == "next" }!.plainText.hasPrefix("▶ 15:00–16:00"))
        XCTAssertEqual(later.first { $0.id == "now" }?.plainText, "  ── now 15:30 ")
        layout.now += 86_400 // the next day: the cache starts over
        let tomorrow = layout.rows(AgendaFixture.week, cache: &cache)
        XCTAssertEqual(tomorrow, layout.rows(AgendaFixture.week))
    }
}
