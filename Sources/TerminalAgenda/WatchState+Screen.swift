import AgendaText
import Diagnostics
import FeedProtocol
import ICalendar

/// One terminal line as the screen draws it: spans exactly as wide as the terminal.
public struct ScreenLine: Sendable, Equatable {
    /// How the whole line stands out.
    public enum Emphasis: Sendable, Equatable {
        case none, selected, fresh, leaving, bar
    }

    public var spans: [AgendaRow.Span]
    public var emphasis: Emphasis
    /// Drawn after `spans` without the emphasis (the month grid beside the agenda).
    public var side: [AgendaRow.Span]

    public init(_ spans: [AgendaRow.Span], _ emphasis: Emphasis = .none, side: [AgendaRow.Span] = []) {
        self.spans = spans
        self.emphasis = emphasis
        self.side = side
    }

    /// The line's text.
    public var text: String { (spans + side).map(\.text).joined() }
}

extension WatchState {
    /// The whole screen: `title` on the first line, then the body (the animation's
    /// `frame`, details, search results or the calendar list), and the footer: what the
    /// keys do, or the prompt being typed. Every line is exactly `size.columns` wide.
    public func screen(title: [AgendaRow.Span], frame: [RowAnimator.Placed]) -> [ScreenLine] {
        let width = size.columns
        var lines = [ScreenLine(AgendaRow(id: "", kind: .header, spans: title).fitted(to: width), .bar)]
        var body = [ScreenLine](repeating: ScreenLine(AgendaRow(id: "", kind: .gap, spans: []).fitted(to: width)), count: bodyLines)
        switch mode {
        case .list, .search, .goTo, .confirmDelete:
            // The month grid, when it fits, takes the right of the body and the agenda the rest.
            let grid = size.columns >= MonthGrid.minimumColumns
                ? MonthGrid(first: firstDate, days: days, today: today, busy: busyDays).rows(lines: bodyLines) : nil
            let agendaWidth = grid == nil ? width : width - MonthGrid.width - 1
            if let grid {
                let blank = AgendaRow(id: "", kind: .gap, spans: []).fitted(to: agendaWidth)
                for k in body.indices {
                    body[k] = ScreenLine(blank, side: [.init("│", .dim)]
                                         + (k < grid.count ? grid[k] : [.init(String(repeating: " ", count: MonthGrid.width))]))
                }
            }
            for placed in frame where placed.line >= top && placed.line < top + bodyLines {
                let emphasis: ScreenLine.Emphasis = placed.row.id == selected && placed.row.selectable ? .selected
                    : placed.mark == .fresh ? .fresh : placed.mark == .leaving ? .leaving : .none
                body[placed.line - top].spans = placed.row.fitted(to: agendaWidth)
                body[placed.line - top].emphasis = emphasis
            }
        case .details(let id):
            let details: [AgendaRow] = rows.first { $0.id == id }?.item.map { detailRows($0) } ?? []
            for (k, row) in details.prefix(bodyLines).enumerated() {
                body[k] = ScreenLine(row.fitted(to: width))
            }
        case .help:
            for (k, row) in helpRows.prefix(bodyLines).enumerated() {
                body[k] = ScreenLine(row.fitted(to: width))
            }
        case .results(let cursor):
            for (k, line) in resultLines(cursor: cursor).prefix(bodyLines).enumerated() {
                body[k] = ScreenLine(line.row.fitted(to: width), line.selected ? .selected : .none)
            }
        case .calendars(let cursor):
            body[0] = ScreenLine(AgendaRow(id: "", kind: .header, spans: [.init("Calendars", .bold),
                                 .init("   space: show/hide  a: show all  c: back", .dim)]).fitted(to: width))
            let visible = bodyLines - 1
            let first = max(0, cursor - visible + 1)
            for (k, name) in calendars.dropFirst(first).prefix(visible).enumerated() {
                let mark = hiddenCalendars.contains(name) ? "[ ] " : "[x] "
                let row = AgendaRow(id: "", kind: .event, spans: [.init("  " + mark), .init("● ", .calendar(name)), AgendaRow.text(name)])
                body[k + 1] = ScreenLine(row.fitted(to: width), first + k == cursor ? .selected : .none)
            }
            if calendars.isEmpty && visible > 0 {
                body[1] = ScreenLine(AgendaRow(id: "", kind: .placeholder, spans: [.init("  (no calendars)", .dim)]).fitted(to: width))
            }
        }
        lines += body
        lines.append(ScreenLine(AgendaRow(id: "", kind: .header, spans: footer).fitted(to: width), .bar))
        return lines
    }

    var footer: [AgendaRow.Span] {
        switch mode {
        case .search(let text):
            return [.init(" Search: ", .bold), .init(text.terminalSafe), .init("▏  Enter: search every event  Esc: cancel", .dim)]
        case .results:
            return [.init(" ↑↓: choose  Enter: show the date  /: search again  Esc: back  q: quit", .dim)]
        case .details:
            return [.init(" Esc: back  ↑↓: previous/next  q: quit", .dim)]
        case .calendars:
            return [.init(" ↑↓: choose  space: show/hide  c: back", .dim)]
        case .help:
            return [.init(" ? or Esc: back  q: quit", .dim)]
        case .goTo(let text):
            return goToFooter(text)
        case .confirmDelete(let id):
            let title = rows.first { $0.id == id }?.item?.summary ?? "(no title)"
            return [.init(" delete ", .warning), AgendaRow.text(title, .bold), .init("? y/n", .warning)]
        case .list:
            if let notice {
                return [.init(" " + notice.terminalSafe + " ", .warning), .init(Self.keys(fitting: 0), .dim)]
            }
            return [.init(Self.keys(fitting: size.columns), .dim)]
        }
    }

    /// An event's details: time with its zone, location, description, URL, calendar.
    func detailRows(_ item: FeedItem) -> [AgendaRow] {
        func row(_ label: String, _ value: String?, _ style: AgendaRow.Style = .plain) -> AgendaRow? {
            guard let value, !value.isEmpty else { return nil }
            return AgendaRow(id: "", kind: .event, spans: [.init("  " + label.padding(10), .dim), AgendaRow.text(value, style)])
        }
        let calendar = item.calendar ?? ""
        let allDay = item.allDay
        let start = item.start ?? ""
        let end = item.end ?? ""
        let when = allDay ? Self.span(start, end, allDay: true, today: today)
            : Self.span(start, end, allDay: false, today: today) + " (\(zoneName))"
        var rows = [AgendaRow(id: "", kind: .header, spans: [.init("  "), AgendaRow.text(item.summary ?? "(no title)", .bold)])]
        rows.append(AgendaRow(id: "", kind: .gap, spans: []))
        rows += [row("When", when), row("Location", item.location),
                 row("Status", item.status), row("Calendar", calendar, .calendar(calendar)),
                 row("URL", item.url)].compactMap { $0 }
        // The description (at most 1,024 bytes in the feed) a row per line, its first
        // `maxDescriptionLines`; each sanitised (`AgendaRow.text`), so no control reaches
        // the terminal. Before the UID, after what is shorter, so it cannot push them out.
        let lines = (item.description ?? "").split(whereSeparator: \.isNewline)
            .map { String($0).trimmingTrailingSpaces }.filter { !$0.isEmpty }
        for (k, line) in lines.prefix(Self.maxDescriptionLines).enumerated() {
            let more = k == Self.maxDescriptionLines - 1 && lines.count > Self.maxDescriptionLines
            rows += [row(k == 0 ? "About" : "", more ? line + " …" : line)].compactMap { $0 }
        }
        rows += [row("UID", item.uid, .dim)].compactMap { $0 }
        return rows
    }
}

extension WatchState {
    /// The most lines of a description the details show.
    static let maxDescriptionLines = 8

    /// `Sun 29 Nov 15:00 – 16:00`, the end's date only when it differs; all-day events
    /// by dates (the feed's end is exclusive); the year of dates outside `today`'s.
    static func span(_ start: String, _ end: String, allDay: Bool, today: CivilDate? = nil) -> String {
        func date(_ text: String) -> String {
            CivilDate(iso: String(text.prefix(10))).map { day in
                today.map { AgendaWords.shortDate(day, today: $0) } ?? AgendaWords.shortDate(day)
            } ?? text
        }
        if allDay {
            let last = CivilDate(iso: end).map { $0.adding(days: -1).iso } ?? end
            return last == start ? date(start) + ", all day" : date(start) + " – " + date(last) + ", all day"
        }
        let sameDay = start.prefix(10) == end.prefix(10)
        return date(start) + " " + (AgendaWords.clock(start) ?? "??:??") + " – " + (sameDay ? "" : date(end) + " ")
            + (AgendaWords.clock(end) ?? "??:??")
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Padded with spaces to `columns` (labels are ASCII).
    func padding(_ columns: Int) -> String { self + String(repeating: " ", count: max(1, columns - count)) }
}
