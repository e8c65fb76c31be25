import AgendaText
import Diagnostics
import FeedProtocol
import ICalendar

/// What the details add from the database, in words (the executable reads it).
public struct WatchDetails: Sendable, Equatable {
    /// The whole description (the feed's item carries its first 1,024 bytes).
    public var description: String?
    public var organizer: String?
    /// `Kim <kim@example.org> (accepted)`, one each.
    public var attendees: [String]
    /// The rule in words (`every week on Tuesday, until 1 March 2027`).
    public var recurrence: String?
    /// Where the event comes from (a live source, or the imported file).
    public var source: String?

    public init(description: String?, organizer: String?, attendees: [String], recurrence: String?, source: String?) {
        (self.description, self.organizer, self.attendees) = (description, organizer, attendees)
        (self.recurrence, self.source) = (recurrence, source)
    }
}

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
            let details: [AgendaRow] = rows.first { $0.id == id }?.item.map {
                detailRows($0, extra: extra?.id == id ? extra?.details : nil, width: width)
            } ?? []
            let first = min(detailsTop, max(0, details.count - bodyLines))
            for (k, row) in details.dropFirst(first).prefix(bodyLines).enumerated() {
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
            return [.init(" Esc: back  ↑↓: previous/next  PgDn/PgUp, space/b: scroll  q: quit", .dim)]
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

    /// An event's details, wrapped to `width`: time with its zone, recurrence, location,
    /// status, calendar, source, organizer and attendees, URL, the whole description (from
    /// `extra`, the database's, when read), UID. Every value is sanitised
    /// (`AgendaRow.text`), so no control reaches the terminal.
    func detailRows(_ item: FeedItem, extra: WatchDetails?, width: Int) -> [AgendaRow] {
        let valueWidth = max(10, width - 12)
        func rows(_ label: String, _ value: String?, _ style: AgendaRow.Style = .plain) -> [AgendaRow] {
            guard let value, !value.isEmpty else { return [] }
            return Self.wrap(value, to: valueWidth).enumerated().map { k, piece in
                AgendaRow(id: "", kind: .event, spans: [.init("  " + (k == 0 ? label : "").padding(10), .dim), AgendaRow.text(piece, style)])
            }
        }
        let calendar = item.calendar ?? ""
        let start = item.start ?? "", end = item.end ?? ""
        let when = item.allDay ? Self.span(start, end, allDay: true, today: today)
            : Self.span(start, end, allDay: false, today: today) + " (\(zoneName))"
        var out = Self.wrap(item.summary ?? "(no title)", to: max(10, width - 2)).map {
            AgendaRow(id: "", kind: .header, spans: [.init("  "), AgendaRow.text($0, .bold)])
        }
        out.append(AgendaRow(id: "", kind: .gap, spans: []))
        out += rows("When", when) + rows("Repeats", extra?.recurrence) + rows("Location", item.location)
            + rows("Status", item.status) + rows("Calendar", calendar, .calendar(calendar)) + rows("Source", extra?.source, .dim)
            + rows("Organizer", extra?.organizer)
        for (k, attendee) in (extra?.attendees ?? []).enumerated() { out += rows(k == 0 ? "Attendees" : "", attendee) }
        out += rows("URL", item.url)
        // The description a row per line, each wrapped: the database's whole text once
        // read, the feed's first 1,024 bytes until then.
        let description = extra?.description ?? item.description ?? ""
        let lines = description.split(whereSeparator: \.isNewline).map { String($0).trimmingTrailingSpaces }.filter { !$0.isEmpty }
        for (k, line) in lines.enumerated() { out += rows(k == 0 ? "About" : "", line) }
        out += rows("UID", item.uid, .dim)
        return out
    }

    /// `text` in pieces at most `width` columns wide, broken at spaces where there are
    /// some (a word longer than a line is cut).
    static func wrap(_ text: String, to width: Int) -> [String] {
        var pieces: [String] = [], line = "", lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            var word = word, wordWidth = DisplayWidth.of(word)
            if lineWidth > 0, lineWidth + 1 + wordWidth > width {
                pieces.append(line)
                (line, lineWidth) = ("", 0)
            }
            while wordWidth > width {
                // A line's worth of the word, cut between grapheme clusters.
                var head = "", headWidth = 0
                for character in word {
                    let w = DisplayWidth.of(String(character))
                    if headWidth + w > width { break }
                    head.append(character)
                    headWidth += w
                }
                guard headWidth > 0 else { break }
                if lineWidth > 0 { pieces.append(line); (line, lineWidth) = ("", 0) }
                pieces.append(head)
                word = String(word.dropFirst(head.count))
                wordWidth = DisplayWidth.of(word)
            }
            if lineWidth > 0 { line += " "; lineWidth += 1 }
            line += word
            lineWidth += wordWidth
        }
        if lineWidth > 0 || pieces.isEmpty { pieces.append(line) }
        return pieces
    }
}

extension WatchState {

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
