import Testing
import FeedProtocol
import ICalendar
@testable import TerminalAgenda

@Suite struct WatchStateTests {
    func state(days: Int = 14) -> WatchState {
        var state = WatchState(days: days)
        state.size = (12, 60)
        state.today = CivilDate(year: 2026, month: 11, day: 29)
        state.calendars = ["home", "work"]
        state.update(rows: AgendaFixture.layout.rows(AgendaFixture.week))
        return state
    }

    @Test func selectionStartsAfterNowAndSkipsNonEvents() {
        var s = state()
        #expect(s.selected == "next")
        #expect(s.handle(.character("j")) == .redraw)
        #expect(s.selected == "tue", "headers and gaps are skipped")
        #expect(s.handle(.up) == .redraw)
        #expect(s.handle(.character("k")) == .redraw)
        #expect(s.selected == "run")
        _ = s.handle(.end)
        #expect(s.selected == "later")
        #expect(s.top > 0, "the selection is kept in sight")
        _ = s.handle(.character("t"))
        #expect(s.selected == "fest")
        #expect(s.top == 0)
    }

    /// t finds today by the section's kind, not by a header's words: a view that starts
    /// yesterday, today's section without a label.
    @Test func todayIsFoundByItsKindNotItsText() {
        var s = WatchState(days: 3)
        s.size = (12, 60)
        s.update(rows: AgendaFixture.layout.rows(AgendaFixture.model([
            AgendaFixture.section("2026-11-28", nil, [AgendaFixture.event("sat", "2026-11-28", "10:00", "11:00", "Today's Saturday")]),
            AgendaFixture.section("2026-11-29", nil, [AgendaFixture.event("sun", "2026-11-29", "15:00", "16:00", "Sunday")]),
        ])))
        _ = s.handle(.home)
        #expect(s.selected == "sat")
        _ = s.handle(.character("t"))
        #expect(s.selected == "sun")
    }

    @Test func selectionFollowsItsItemWhenRowsComeAndGo() {
        var s = state()
        let layout = AgendaFixture.layout
        s.update(rows: layout.rows(AgendaFixture.model([AgendaFixture.section("2026-11-29", "today", [
            AgendaFixture.event("next", "2026-11-29", "15:00", "16:00", "Review")])])))
        #expect(s.selected == "next")
        s.update(rows: layout.rows(AgendaFixture.model([AgendaFixture.section("2026-11-30", "tomorrow", [
            AgendaFixture.event("tue", "2026-11-30", "10:00", "11:00", "Planning")])])))
        #expect(s.selected == "tue", "the nearest event takes the selection of one that left")
    }

    /// The details show the item's description (a row per line, controls made harmless)
    /// and its URL; an item without them shows neither label.
    @Test func detailsShowTheDescriptionAndTheURL() {
        var item = AgendaFixture.event("memo", "2026-11-29", "15:00", "16:00", "Review").objectValue!
        item["description"] = .string("Bring the notes\nand \u{1B}[31mthe plan")
        item["url"] = .string("https://wiki.example.org/review")
        let model = AgendaFixture.model([AgendaFixture.section("2026-11-29", "today", [.object(item)])])
        var s = WatchState(days: 14)
        s.size = (14, 60)
        s.update(rows: AgendaFixture.layout.rows(model))
        #expect(s.selected == "memo")
        #expect(s.handle(.enter) == .redraw)
        let details = s.screen(title: [], frame: []).map(\.text)
        let all = details.joined(separator: "\n")
        #expect(details.contains { $0.contains("About     Bring the notes") }, "\(all)")
        #expect(details.contains { $0.contains("          and ^[[31mthe plan") }, "\(all)")
        #expect(details.contains { $0.contains("URL       https://wiki.example.org/review") }, "\(all)")
        #expect(!(all.contains("\u{1B}")), "no escape reaches the terminal")

        var plain = state()
        _ = plain.handle(.enter)
        let without = plain.screen(title: [], frame: []).map(\.text).joined(separator: "\n")
        #expect(!(without.contains("About") || without.contains("URL ")), "\(without)")
    }

    @Test func detailsFilterCalendarsDaysQuit() {
        var s = state()
        #expect(s.handle(.enter) == .redraw)
        #expect(s.mode == .details("next"))
        let details = s.screen(title: [], frame: []).map(\.text)
        #expect(details.contains { $0.contains("When      Sun 29 Nov 15:00 – 16:00 (UTC)") }, "\(details.joined(separator: "\n"))")
        #expect(details.contains { $0.contains("Calendar") && $0.contains("work") })
        #expect(s.handle(.escape) == .redraw)
        #expect(s.mode == .list)

        #expect(s.handle(.character("/")) == .redraw)
        #expect(s.handle(.character("r")) == .redraw)
        #expect(s.handle(.character("é")) == .redraw)
        #expect(s.mode == .search("ré"))
        #expect(s.handle(.backspace) == .redraw)
        #expect(s.handle(.character("q")) == .redraw, "q is text while typing")
        #expect(s.handle(.enter) == .search("rq"))
        s.show(results: [])
        #expect(s.screen(title: [], frame: []).contains { $0.text.contains("Search “rq”: nothing found") })
        #expect(s.handle(.escape) == .redraw)
        #expect(s.mode == .list)

        #expect(s.handle(.character("c")) == .redraw)
        #expect(s.handle(.down) == .redraw)
        #expect(s.handle(.character(" ")) == .relayout)
        #expect(s.hiddenCalendars == ["work"])
        #expect(s.handle(.character("c")) == .redraw)
        #expect(s.mode == .list)

        #expect(s.handle(.character("+")) == .changeView)
        #expect(s.days == 15)
        #expect(s.handle(.character("-")) == .changeView)
        #expect(s.days == 14)
        var one = state(days: 1)
        #expect(one.handle(.character("-")) == .redraw, "no fewer than one day")
        #expect(s.handle(.interrupt) == .quit)
        #expect(s.handle(.character("q")) == .quit)
    }

    @Test func wheelScrollsWithoutMovingTheSelection() {
        var s = state()
        let selected = s.selected
        _ = s.handle(.wheelDown)
        #expect(s.top == 3)
        #expect(s.selected == selected)
        _ = s.handle(.wheelUp)
        _ = s.handle(.wheelUp)
        #expect(s.top == 0)
    }

    @Test func everyScreenLineIsExactlyAsWideAsTheTerminal() {
        for columns in [1, 5, 20, 33, 60, 80] {
            var s = state()
            s.size = (20, columns)
            let frame = RowAnimator(rows: s.rows).frame(at: .now())
            let lines = s.screen(title: [.init(" eventd watch 会議 😀")], frame: frame)
            #expect(lines.count == 20)
            for line in lines { #expect(DisplayWidth.of(line.text) == columns, "\(columns): \(line.text)") }
        }
    }

    /// n, e and d (issue 55, item 8): only vdir calendars; d asks first, any key but y cancels.
    @Test func editingKeysActOnVdirCalendarsOnly() {
        var s = state()
        #expect(s.selected == "next")
        for key in ["e", "d"] {
            #expect(s.handle(.character(Character(key))) == .redraw)
            #expect(s.mode == .list && s.notice?.hasPrefix("read-only: calendar work") == true, "\(key): \(String(describing: s.notice))")
        }
        #expect(s.handle(.character("n")) == .redraw)
        #expect(s.notice?.hasPrefix("no vdir calendar") == true)

        s.editableCalendars = ["work"]
        #expect(s.handle(.character("e")) == .edit(.edit(calendar: "work", uid: "next@test")))
        #expect(s.handle(.character("n")) == .edit(.new(calendar: "work")))
        #expect(s.handle(.character("d")) == .redraw)
        #expect(s.mode == .confirmDelete("next"))
        #expect(s.footer.map(\.text).joined().contains("delete Review? y/n"))
        #expect(s.handle(.character("x")) == .redraw)
        #expect(s.mode == .list && s.notice == "not deleted")
        _ = s.handle(.character("d"))
        #expect(s.handle(.character("y")) == .edit(.delete(calendar: "work", uid: "next@test")))
        #expect(s.mode == .list)

        // n: the selected event's calendar when it is a vdir, else the only vdir one.
        s.editableCalendars = ["home"]
        #expect(s.handle(.character("n")) == .edit(.new(calendar: "home")))
        s.editableCalendars = ["home", "personal"]
        #expect(s.handle(.character("n")) == .redraw)
        #expect(s.notice == "which calendar? select an event of home, personal")
    }

    /// Details wrap at spaces (a word longer than the line is cut, never "…") and keep
    /// every character; wide characters count two columns.
    @Test func detailsWrapWithoutLosingText() {
        #expect(WatchState.wrap("alpha beta gamma", to: 10) == ["alpha beta", "gamma"])
        #expect(WatchState.wrap("abcdefghijkl", to: 5) == ["abcde", "fghij", "kl"])
        #expect(WatchState.wrap("", to: 5) == [""])
        #expect(WatchState.wrap("会議会議会議", to: 5) == ["会議", "会議", "会議"])
        let text = (1...300).map { "w\($0)" }.joined(separator: " ")
        let lines = WatchState.wrap(text, to: 37)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 37 })
        #expect(lines.joined(separator: " ") == text)
    }

    /// PgDn/space and PgUp/b scroll the details; ↑↓ go to the next event from the top;
    /// the database's part is asked for once per event shown.
    @Test func detailsScrollAndAskForTheDatabaseOnce() {
        var state = WatchState(days: 7)
        state.size = (10, 80)
        state.update(rows: [AgendaRow(id: "h", kind: .header, spans: []),
                            AgendaRow(id: "a", kind: .event, spans: [], item: FeedItem(id: "a", uid: "ua", summary: "A", calendar: "work")),
                            AgendaRow(id: "b", kind: .event, spans: [], item: FeedItem(id: "b", uid: "ub", summary: "B", calendar: "home"))])
        _ = state.handle(.enter)
        #expect(state.mode == .details("a"))
        #expect(state.detailsWanted?.uid == "ua" && state.detailsWanted?.calendar == "work")
        state.show(details: nil, for: "a")
        #expect(state.detailsWanted == nil, "asked once, even when there was nothing to read")
        _ = state.handle(.pageDown)
        #expect(state.detailsTop == 7)
        _ = state.handle(.character(" "))
        #expect(state.detailsTop == 14)
        _ = state.handle(.character("b"))
        #expect(state.detailsTop == 7)
        _ = state.handle(.down)
        #expect(state.mode == .details("b") && state.detailsTop == 0)
        #expect(state.detailsWanted?.uid == "ub")
    }
}
