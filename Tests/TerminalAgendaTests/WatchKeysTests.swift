import Testing
import ICalendar
@testable import TerminalAgenda

/// The keys of part two: help, repaint, moving the window, the Go to prompt, and the key
/// line at narrow widths.
@Suite struct WatchKeysTests {
    static let sunday = CivilDate(year: 2026, month: 11, day: 29)

    func state(columns: Int = 80) -> WatchState {
        var state = WatchState(days: 14)
        state.size = (24, columns)
        state.today = Self.sunday
        state.update(rows: AgendaFixture.layout.rows(AgendaFixture.week))
        return state
    }

    func screen(_ s: WatchState) -> String {
        s.screen(title: [.init(" eventd watch")], frame: RowAnimator(rows: s.rows).frame(at: .now())).map(\.text).joined(separator: "\n")
    }

    @Test func questionMarkTogglesTheHelpAndEscapeClosesIt() {
        var s = state()
        let agenda = screen(s)
        #expect(s.handle(.character("?")) == .redraw)
        #expect(s.mode == .help)
        let help = screen(s)
        #expect(help.contains("go to date"))
        for key in ["?", "g", "]", "[", "}", "{", "/", "Ctrl-L", "Ctrl-Z", "q"] {
            #expect(help.split(separator: "\n").contains { $0.hasPrefix("  " + key) || $0.contains(" " + key + " ") }, "\(key) not in the help")
        }
        #expect(s.handle(.character("j")) == .redraw, "other keys do nothing over the help")
        #expect(s.handle(.character("?")) == .redraw)
        #expect(s.mode == .list)
        #expect(screen(s) == agenda, "the agenda is back as it was")
        _ = s.handle(.character("?"))
        _ = s.handle(.escape)
        #expect(s.mode == .list)
        _ = s.handle(.character("?"))
        #expect(s.handle(.character("q")) == .quit)
    }

    @Test func ctrlLRepaintsInEveryMode() {
        var s = state()
        #expect(s.handle(.repaint) == .repaint)
        _ = s.handle(.character("?"))
        #expect(s.handle(.repaint) == .repaint)
        #expect(s.mode == .help)
        _ = s.handle(.escape)
        _ = s.handle(.character("g"))
        #expect(s.handle(.repaint) == .repaint)
        #expect(s.mode == .goTo(""))
    }

    @Test func ctrlZSuspendsInEveryModeAndTheModeStays() {
        var s = state()
        #expect(s.handle(.suspend) == .suspend)
        #expect(s.mode == .list)
        _ = s.handle(.character("?"))
        #expect(s.handle(.suspend) == .suspend)
        #expect(s.mode == .help)
        _ = s.handle(.escape)
        _ = s.handle(.character("g"))
        _ = s.handle(.character("2"))
        #expect(s.handle(.suspend) == .suspend)
        #expect(s.mode == .goTo("2"), "the prompt's text is kept")
        _ = s.handle(.escape)
        _ = s.handle(.character("/"))
        #expect(s.handle(.suspend) == .suspend)
        #expect(s.mode == .search(""), "Ctrl-Z is not typed into the search")
    }

    @Test func slashSearchesAndEnterOnAResultStartsTheWindowAtItsDate() {
        var s = state()
        #expect(s.handle(.character("/")) == .redraw)
        for c in "Harbour" { _ = s.handle(.character(c)) }
        #expect(s.handle(.enter) == .search("Harbour"))
        let june = CivilDate(year: 2027, month: 6, day: 17)
        s.show(results: [
            WatchSearchResult(date: Self.sunday, time: "09:00", summary: "Harbour walk", location: nil, calendar: "work", repeats: true),
            WatchSearchResult(date: june, time: nil, summary: "Harbour festival", location: "Pier 9", calendar: "home", repeats: false),
        ])
        #expect(s.mode == .results(0))
        let listed = screen(s)
        #expect(listed.contains("Search “Harbour”: 2 found"), "\(listed)")
        #expect(listed.contains("Thu 17 Jun 2027") && listed.contains("all day") && listed.contains("Pier 9"), "\(listed)")
        #expect(listed.contains("(repeats)"))
        #expect(s.handle(.down) == .redraw)
        #expect(s.handle(.down) == .redraw)
        #expect(s.mode == .results(1), "the cursor stops at the last result")
        #expect(s.handle(.enter) == .changeView)
        #expect(s.mode == .list)
        #expect(s.from == june)
        _ = s.handle(.character("/"))
        #expect(s.handle(.enter) == .redraw, "an empty search searches nothing")
        #expect(s.mode == .list)
        s.show(results: nil)
        #expect(screen(s).contains("the database could not be read"))
        #expect(s.handle(.character("/")) == .redraw)
        #expect(s.mode == .search("Harbour"), "/ over the results searches again from the last text")
        _ = s.handle(.escape)
        #expect(s.mode == .list)
    }

    @Test func bracketsMoveTheWindowByADayAndBracesByAWeek() {
        var s = state()
        #expect(s.firstDate == Self.sunday)
        #expect(s.handle(.character("]")) == .changeView)
        #expect(s.from == Self.sunday.adding(days: 1))
        #expect(s.handle(.character("}")) == .changeView)
        #expect(s.from == Self.sunday.adding(days: 8))
        #expect(s.handle(.character("[")) == .changeView)
        #expect(s.handle(.character("{")) == .changeView)
        #expect(s.from == Self.sunday)
        #expect(s.top == 0)
        // t slides back with today (the sliding window), and then only scrolls.
        #expect(s.handle(.character("t")) == .changeView)
        #expect(s.from == nil)
        #expect(s.handle(.character("t")) == .redraw)
        // From a window that starts days before today.
        s.pastDays = 3
        _ = s.handle(.character("]"))
        #expect(s.from == Self.sunday.adding(days: -2))
    }

    @Test func goToTakesEveryFormOfFromAndSaysWhatIsWrong() {
        var s = state()
        #expect(s.handle(.character("g")) == .redraw)
        #expect(s.mode == .goTo(""), "an empty prompt")
        for c in "2027-01-04" { _ = s.handle(.character(c)) }
        #expect(screen(s).contains("Go to: 2027-01-04"))
        #expect(s.handle(.enter) == .changeView)
        #expect(s.from == CivilDate(year: 2027, month: 1, day: 4))
        #expect(s.mode == .list)

        for (typed, date) in [("today", Self.sunday), ("tomorrow", Self.sunday.adding(days: 1)),
                              ("wednesday", Self.sunday.adding(days: 3)), ("sunday", Self.sunday),
                              ("+3d", Self.sunday.adding(days: 3)), ("-1w", Self.sunday.adding(days: -7))] {
            _ = s.handle(.character("g"))
            for c in typed { _ = s.handle(.character(c)) }
            #expect(s.handle(.enter) == .changeView, "\(typed)")
            #expect(s.from == date, "\(typed)")
        }

        let before = s.from
        _ = s.handle(.character("g"))
        for c in "someday" { _ = s.handle(.character(c)) }
        #expect(s.handle(.enter) == .redraw)
        #expect(s.mode == .goTo("someday"), "the prompt stays to be corrected")
        #expect(screen(s).split(separator: "\n").last!.contains("invalid date 'someday'"))
        _ = s.handle(.backspace)
        #expect(s.mode == .goTo("someda"))
        #expect(s.promptError == nil)
        #expect(s.handle(.character("q")) == .redraw, "q is text at the prompt")
        #expect(s.handle(.escape) == .redraw)
        #expect(s.mode == .list)
        #expect(s.from == before, "Escape cancels")
    }

    @Test func theKeyLineFitsAndKeepsHelpAndQuit() {
        for columns in [20, 40, 60, 80, 120, 200] {
            let s = state(columns: columns)
            let footer = screen(s).split(separator: "\n", omittingEmptySubsequences: false).last!
            #expect(DisplayWidth.of(footer) == columns)
            if columns >= 20 {
                #expect(footer.contains("? help") && footer.contains("q quit"), "\(columns): \(footer)")
            }
        }
        let sixty = WatchState.keys(fitting: 60)
        #expect(DisplayWidth.of(sixty) <= 60)
        #expect(sixty.contains("g go to date"))
        #expect(WatchState.keys(fitting: 200).contains("{ } week"))
        #expect(WatchState.keys(fitting: 200).contains("/ search"))
    }

    @Test func aNoticeTakesTheKeyLineUntilTheNextKey() {
        var s = state()
        s.notice = "TERM 'nosuch' unknown to terminfo: drawn as xterm-256color"
        let footer = screen(s).split(separator: "\n").last!
        #expect(footer.contains("drawn as xterm-256color") && footer.contains("? help") && footer.contains("q quit"), "\(footer)")
        _ = s.handle(.down)
        #expect(s.notice == nil)
        #expect(!screen(s).contains("xterm-256color"))
    }

    @Test func datesOfAnotherYearShowTheYear() {
        let rows = AgendaFixture.layout.rows(AgendaFixture.model([
            AgendaFixture.section("2026-12-30", nil, [AgendaFixture.event("dec", "2026-12-30", "10:00", "11:00", "December")]),
            AgendaFixture.section("2027-01-04", nil, [AgendaFixture.event("jan", "2027-01-04", "10:00", "11:00", "January")]),
        ]))
        #expect(rows.first { $0.id == "jan" }!.plainText.hasPrefix("  Mon 4 Jan 2027    10:00"))
        #expect(rows.first { $0.id == "dec" }!.plainText.hasPrefix("  Wed 30 Dec        10:00"), "the same column")
        #expect(WatchState.span("2027-01-04T10:00:00Z", "2027-01-04T11:00:00Z", allDay: false, today: Self.sunday)
                == "Mon 4 Jan 2027 10:00 – 11:00", "details name the year too")
        var moved = AgendaFixture.layout
        moved.from = CivilDate(year: 2027, month: 1, day: 4)
        moved.days = 7
        #expect(moved.rows(AgendaFixture.model([])).map(\.plainText) == ["  (nothing in the 7 days from Mon 4 Jan 2027)"])
    }
}
