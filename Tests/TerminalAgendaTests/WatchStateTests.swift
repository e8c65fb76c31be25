import XCTest
@testable import TerminalAgenda

final class WatchStateTests: XCTestCase {
    func state(days: Int = 14) -> WatchState {
        var state = WatchState(days: days)
        state.size = (12, 60)
        state.calendars = ["home", "work"]
        state.update(rows: AgendaFixture.layout.rows(AgendaFixture.week))
        return state
    }

    func testSelectionStartsAfterNowAndSkipsNonEvents() {
        var s = state()
        XCTAssertEqual(s.selected, "next")
        XCTAssertEqual(s.handle(.character("j")), .redraw)
        XCTAssertEqual(s.selected, "tue", "headers and gaps are skipped")
        XCTAssertEqual(s.handle(.up), .redraw)
        XCTAssertEqual(s.handle(.character("k")), .redraw)
        XCTAssertEqual(s.selected, "run")
        _ = s.handle(.end)
        XCTAssertEqual(s.selected, "later")
        XCTAssertGreaterThan(s.top, 0, "the selection is kept in sight")
        _ = s.handle(.character("t"))
        XCTAssertEqual(s.selected, "fest")
        XCTAssertEqual(s.top, 0)
    }

    func testSelectionFollowsItsItemWhenRowsComeAndGo() {
        var s = state()
        var layout = AgendaFixture.layout
        layout.filter = "review"
        s.update(rows: layout.rows(AgendaFixture.week))
        XCTAssertEqual(s.selected, "next")
        layout.filter = "planning"
        s.update(rows: layout.rows(AgendaFixture.week))
        XCTAssertEqual(s.selected, "tue", "the nearest event takes the selection of one that left")
    }

    /// The details show the item's description (a row per line, controls made harmless)
    /// and its URL; an item without them shows neither label.
    func testDetailsShowTheDescriptionAndTheURL() {
        var item = AgendaFixture.event("memo", "2026-11-29", "15:00", "16:00", "Review").objectValue!
        item["description"] = .string("Bring the notes\nand \u{1B}[31mthe plan")
        item["url"] = .string("https://wiki.example.org/review")
        let model = AgendaFixture.model([AgendaFixture.section("2026-11-29", "today", [.object(item)])])
        var s = WatchState(days: 14)
        s.size = (14, 60)
        s.update(rows: AgendaFixture.layout.rows(model))
        XCTAssertEqual(s.selected, "memo")
        XCTAssertEqual(s.handle(.enter), .redraw)
        let details = s.screen(title: [], frame: []).map(\.text)
        let all = details.joined(separator: "\n")
        XCTAssertTrue(details.contains { $0.contains("About     Bring the notes") }, all)
        XCTAssertTrue(details.contains { $0.contains("          and ^[[31mthe plan") }, all)
        XCTAssertTrue(details.contains { $0.contains("URL       https://wiki.example.org/review") }, all)
        XCTAssertFalse(all.contains("\u{1B}"), "no escape reaches the terminal")

        var plain = state()
        _ = plain.handle(.enter)
        let without = plain.screen(title: [], frame: []).map(\.text).joined(separator: "\n")
        XCTAssertFalse(without.contains("About") || without.contains("URL "), without)
    }

    func testDetailsFilterCalendarsDaysQuit() {
        var s = state()
        XCTAssertEqual(s.handle(.enter), .redraw)
        XCTAssertEqual(s.mode, .details("next"))
        let details = s.screen(title: [], frame: []).map(\.text)
        XCTAssertTrue(details.contains { $0.contains("When      Sun 29 Nov 15:00 – 16:00 (UTC)") }, details.joined(separator: "\n"))
        XCTAssertTrue(details.contains { $0.contains("Calendar") && $0.contains("work") })
        XCTAssertEqual(s.handle(.escape), .redraw)
        XCTAssertEqual(s.mode, .list)

        XCTAssertEqual(s.handle(.character("/")), .redraw)
        XCTAssertEqual(s.handle(.character("r")), .relayout)
        XCTAssertEqual(s.handle(.character("é")), .relayout)
        XCTAssertEqual(s.filter, "ré")
        XCTAssertEqual(s.handle(.backspace), .relayout)
        XCTAssertEqual(s.handle(.character("q")), .relayout, "q is text while typing")
        XCTAssertEqual(s.handle(.enter), .relayout)
        XCTAssertEqual(s.filter, "rq")
        XCTAssertEqual(s.handle(.escape), .relayout)
        XCTAssertEqual(s.filter, "")

        XCTAssertEqual(s.handle(.character("c")), .redraw)
        XCTAssertEqual(s.handle(.down), .redraw)
        XCTAssertEqual(s.handle(.character(" ")), .relayout)
        XCTAssertEqual(s.hiddenCalendars, ["work"])
        XCTAssertEqual(s.handle(.character("c")), .redraw)
        XCTAssertEqual(s.mode, .list)

        XCTAssertEqual(s.handle(.character("+")), .changeDays(15))
        XCTAssertEqual(s.handle(.character("-")), .changeDays(14))
        var one = state(days: 1)
        XCTAssertEqual(one.handle(.character("-")), .redraw, "no fewer than one day")
        XCTAssertEqual(s.handle(.interrupt), .quit)
        XCTAssertEqual(s.handle(.character("q")), .quit)
    }

    func testWheelScrollsWithoutMovingTheSelection() {
        var s = state()
        let selected = s.selected
        _ = s.handle(.wheelDown)
        XCTAssertEqual(s.top, 3)
        XCTAssertEqual(s.selected, selected)
        _ = s.handle(.wheelUp)
        _ = s.handle(.wheelUp)
        XCTAssertEqual(s.top, 0)
    }

    func testEveryScreenLineIsExactlyAsWideAsTheTerminal() {
        for columns in [1, 5, 20, 33, 60, 80] {
            var s = state()
            s.size = (20, columns)
            let frame = RowAnimator(rows: s.rows).frame(at: 0)
            let lines = s.screen(title: [.init(" eventd watch 会議 😀")], frame: frame)
            XCTAssertEqual(lines.count, 20)
            for line in lines { XCTAssertEqual(DisplayWidth.of(line.text), columns, "\(columns): \(line.text)") }
        }
    }
}
