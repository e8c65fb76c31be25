import Testing
import ICalendar
import Threads
@testable import TerminalAgenda

/// The month grid beside watch's agenda: its rows, each day's marks, the months shown.
@Suite struct MonthGridTests {
    static let today = CivilDate(year: 2026, month: 11, day: 29)

    static func date(_ iso: String) -> CivilDate { CivilDate(iso: iso)! }

    /// The style of day `day` in the block titled `title` (nil: not shown there).
    static func style(_ rows: [[AgendaRow.Span]], _ title: String, day: Int) -> AgendaRow.Style? {
        guard let start = rows.firstIndex(where: { $0.map(\.text).joined().contains(title) }) else { return nil }
        for row in rows[(start + 2)...] {
            if row.map(\.text).joined().trimmingCharacters(in: .whitespaces).isEmpty { break }
            if let span = row.first(where: { Int($0.text.trimmingCharacters(in: .whitespaces)) == day }) { return span.style }
        }
        return nil
    }

    static func text(_ rows: [[AgendaRow.Span]]) -> [String] { rows.map { $0.map(\.text).joined() } }

    @Test func everyRowIsExactlyTheGridsWidth() {
        for (first, days) in [("2026-11-29", 14), ("2027-02-01", 28), ("2026-02-01", 1), ("2026-12-20", 60)] {
            let rows = MonthGrid(first: Self.date(first), days: days, today: Self.today, busy: []).rows(lines: 40)
            #expect(!rows.isEmpty)
            for line in Self.text(rows) {
                #expect(DisplayWidth.of(line) == MonthGrid.width, "'\(line)' from \(first)")
            }
        }
    }

    @Test func weeksStartOnMonday() {
        // 1 November 2026 is a Sunday: the last column of the first week.
        let rows = MonthGrid(first: Self.today, days: 1, today: Self.today, busy: []).rows(lines: 40)
        let lines = Self.text(rows)
        #expect(lines[0].trimmingCharacters(in: .whitespaces) == "November 2026")
        #expect(lines[1] == " Mo Tu We Th Fr Sa Su ")
        #expect(lines[2] == "                    1 ")
        #expect(lines[3] == "  2  3  4  5  6  7  8 ")
        #expect(lines.last == " 30                   ", "Monday 30 November begins the last week")
        #expect(lines.count == 2 + 6)
        // February 2027 starts on a Monday and fills four weeks exactly.
        let february = Self.text(MonthGrid(first: Self.date("2027-02-10"), days: 1, today: Self.today, busy: []).rows(lines: 40))
        #expect(february.count == 2 + 4)
        #expect(february[2] == "  1  2  3  4  5  6  7 ")
    }

    @Test func busyDaysWindowAndTodayAreMarked() {
        let busy: Set = [Self.date("2026-11-29"), Self.date("2026-12-01")]
        let grid = MonthGrid(first: Self.today, days: 3, today: Self.today, busy: busy)
        let rows = grid.rows(lines: 40)
        #expect(Self.style(rows, "November", day: 29) == .day([.busy, .window, .today]))
        #expect(Self.style(rows, "November", day: 30) == .day([.window]))
        #expect(Self.style(rows, "November", day: 28) == .day([]), "before the window")
        #expect(Self.style(rows, "December", day: 1) == .day([.busy, .window]))
        #expect(Self.style(rows, "December", day: 2) == .day([]), "after the window")
        #expect(grid.marks(Self.date("2026-12-02")) == [])
        // The space between 1 and 2 December joins the window's bar, not the one before 1.
        let december = MonthGrid(first: Self.date("2026-12-01"), days: 2, today: Self.today, busy: []).rows(lines: 40)
        let week = december.first { Self.text([$0])[0].contains(" 1  2") }!
        let first = week.firstIndex { $0.text == " 1" }!
        #expect(week[first - 1].style == .plain)
        #expect(week[first + 1].style == .day([.window]) && week[first + 2].text == " 2")
        #expect(week[first + 3].style == .plain, "3 December is after the window")
    }

    @Test func aWindowOverTwoMonthsShowsBothWhenTheyFit() {
        let grid = MonthGrid(first: Self.today, days: 14, today: Self.today, busy: [])
        let both = Self.text(grid.rows(lines: 40))
        // November: 2 + 6 rows, an empty row, December: 2 + 5 rows.
        #expect(both.count == 8 + 1 + 7)
        #expect(both[9].contains("December 2026"))
        #expect(Self.style(grid.rows(lines: 40), "December", day: 12) == .day([.window]))
        #expect(Self.style(grid.rows(lines: 40), "December", day: 13) == .day([]))
        // One row short of December: November alone; fewer rows than November: cut.
        #expect(Self.text(grid.rows(lines: 15)).count == 8)
        #expect(Self.text(grid.rows(lines: 5)).count == 5)
        // A window within one month shows that month only.
        let one = MonthGrid(first: Self.date("2026-12-01"), days: 14, today: Self.today, busy: [])
        #expect(!Self.text(one.rows(lines: 40)).contains { $0.contains("January") })
        // Over a year's end.
        let yearEnd = MonthGrid(first: Self.date("2026-12-28"), days: 7, today: Self.today, busy: [])
        #expect(Self.text(yearEnd.rows(lines: 40)).contains { $0.contains("January 2027") })
    }

    /// At 100 columns the agenda gives up the grid's columns; at 99 nothing changes.
    @Test func theScreenDrawsTheGridFromAHundredColumns() {
        var state = WatchState(days: 14)
        state.today = Self.today
        state.busyDays = [Self.today]
        state.update(rows: AgendaFixture.layout.rows(AgendaFixture.week))
        var animator = RowAnimator(rows: state.rows)
        let frame = animator.drawFrame(at: .now())
        state.size = (24, 100)
        let wide = state.screen(title: [.init("t")], frame: frame)
        for line in wide { #expect(DisplayWidth.of(line.text) == 100, "'\(line.text)'") }
        #expect(wide[1].text.hasSuffix("│    November 2026     "), "'\(wide[1].text)'")
        #expect(wide[1].text.hasPrefix("Today, Sunday 29 November"))
        #expect(wide.dropFirst().dropLast().allSatisfy { DisplayWidth.of($0.spans.map(\.text).joined()) == 100 - 23 })
        state.size = (24, 99)
        let narrow = state.screen(title: [.init("t")], frame: frame)
        #expect(narrow.allSatisfy { $0.side.isEmpty && DisplayWidth.of($0.text) == 99 })
        #expect(!narrow.contains { $0.text.contains("November 2026") })
    }

    @Test func busyDatesAreThoseWithEventsOfShownCalendars() {
        var layout = AgendaFixture.layout
        #expect(layout.busyDates(AgendaFixture.week) == Set(["2026-11-29", "2026-11-30", "2026-12-02", "2026-12-08"].map(Self.date)))
        layout.hiddenCalendars = ["home"]
        #expect(!layout.busyDates(AgendaFixture.week).contains(Self.date("2026-12-08")), "Dentist is home's")
    }
}
