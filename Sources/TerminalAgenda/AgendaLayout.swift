import FeedProtocol
import ICalendar
import AgendaText
import Diagnostics

/// Lays a view's local copy out as rows, worded by AgendaText as `agenda` words them: Today
/// (past events dimmed, the event under way marked with its progress, a rule at now),
/// Tomorrow, the rest of the week under day headers, then later dates as a dense list.
/// All-day and multi-day events are banners, continuing ← and → across dates. A
/// section or a view with nothing to show says why.
public struct AgendaLayout: Sendable {
    /// Seconds since the epoch.
    public var now: Int64
    /// The view's zone (today, and the now rule).
    public var zone: Zone
    /// Shown only when a calendar is not in here.
    public var hiddenCalendars: Set<String> = []
    /// The number of dates of the view (for the empty view's sentence).
    public var days: Int = 14
    /// The view's first date when it does not slide with today (the same sentence).
    public var from: CivilDate?
    /// How many calendars eventd has, when known (zero: the empty view says so).
    public var calendarCount: Int?

    public init(now: Int64, zone: Zone) {
        self.now = now
        self.zone = zone
    }

    /// The rows of `model`.
    public func rows(_ model: FeedClientState.Model) -> [AgendaRow] {
        var cache = Cache()
        return rows(model, cache: &cache)
    }

    /// The rows of each date but today's, kept between layouts of one local copy: only
    /// today's rows depend on the minute (past, under way, the now rule), so the minute's
    /// relayout lays out one date. Empty it when the copy, the calendars
    /// shown or the date change.
    public struct Cache: Sendable {
        var sections: [String: [AgendaRow]] = [:]
        var today: CivilDate?
        public init() {}
    }

    /// The rows of `model`, other dates than today's from `cache` (and kept there).
    public func rows(_ model: FeedClientState.Model, cache: inout Cache) -> [AgendaRow] {
        let today = zone.local(atUTC: now).date
        if cache.today != today { cache = Cache() }
        cache.today = today
        var rows: [AgendaRow] = []
        var inLater = false
        // Dates of another year than today's show it: the dense list's date column is
        // then wide enough for it on every row.
        let dateColumn = model.sections.contains { CivilDate(iso: $0.id).map { $0.year != today.year } ?? false } ? 15 : 10
        for section in model.sections {
            guard let date = CivilDate(iso: section.id) else { continue }
            let day = section.content
            let dense: Bool
            switch SectionKind.range(date: date, label: day.label, today: today) {
            case .later: dense = true
            case .today, .tomorrow, .week, .past, .placeholder: dense = false
            }
            if dense && !inLater {
                if !rows.isEmpty { rows.append(gap("later")) }
                rows.append(AgendaRow(id: "h:later", kind: .header, spans: [.init("Later", .bold)], section: .later))
                inLater = true
            }
            if !dense && !rows.isEmpty { rows.append(gap(section.id)) }
            if date != today, let known = cache.sections[section.id] {
                rows += known
                continue
            }
            let laid = sectionRows(section.items.map(\.content), id: section.id, day: day, date: date,
                                   today: today, dense: dense, dateColumn: dateColumn)
            if date != today { cache.sections[section.id] = laid }
            rows += laid
        }
        if model.sections.isEmpty {
            let why = calendarCount == 0 ? "no calendars yet: eventctl import FILE.ics, or eventctl source add"
                : from.map { "nothing in the \(days) day\(days == 1 ? "" : "s") from " + AgendaWords.shortDate($0, today: today) }
                ?? "nothing in the next \(days) day\(days == 1 ? "" : "s")"
            rows.append(placeholder("p:view", why))
        } else if rows.allSatisfy({ !$0.selectable }) && inLater {
            rows.append(placeholder("p:later", hiddenReason))
        }
        return rows
    }

    /// One date's rows: its header and events (with the now line today, `NowRule`), or
    /// for a date past the week its events alone, dense.
    func sectionRows(_ items: [FeedItem], id: String, day: FeedDay, date: CivilDate, today: CivilDate, dense: Bool,
                     dateColumn: Int = 10) -> [AgendaRow] {
        let events = items.filter { $0.kind == .event }
        let shown = events.filter(isShown)
        if dense { return shown.map { eventRow($0, date: date, dense: true, today: false, year: today, dateColumn: dateColumn) } }
        // A header's kind is where its date falls (today's even when it has nothing on it).
        var rows = [AgendaRow(id: "h:" + id, kind: .header,
                              spans: [.init(AgendaWords.dayHeader(date, label: day.label, today: today), .bold)],
                              section: date == today ? .today : SectionKind.range(date: date, label: day.label, today: today))]
        if shown.isEmpty {
            return rows + [placeholder("p:" + id, events.isEmpty ? "nothing on this day" : hiddenReason)]
        }
        rows += shown.map { eventRow($0, date: date, dense: false, today: date == today) }
        if date == today { rows.insert(nowRule(), at: 1 + NowRule.lineIndex(shown, now: now)) }
        return rows
    }

    /// Why shown events are missing: their calendars are hidden.
    var hiddenReason: String { "only events of hidden calendars" }

    func isShown(_ item: FeedItem) -> Bool { !hiddenCalendars.contains(item.calendar ?? "") }

    /// An event's row: `AgendaLine`'s pieces as spans, today's past dimmed and the
    /// current one marked with its progress.
    /// `year`: today's date, whose year dense dates leave out; `dateColumn`: their width.
    func eventRow(_ item: FeedItem, date: CivilDate, dense: Bool, today: Bool,
                  year: CivilDate? = nil, dateColumn: Int = 10) -> AgendaRow {
        let line = AgendaLine(item)
        let phase = today ? NowRule.phase(item, now: now) : .timeless
        let past = phase == .over
        var spans: [AgendaRow.Span] = []
        if dense {
            let text = year.map { AgendaWords.shortDate(date, today: $0) } ?? AgendaWords.shortDate(date)
            spans.append(.init("  " + ItemTime.padded(text, to: dateColumn) + " ", .dim))
        }
        spans.append(.init(phase == .current ? "▶ " : "  ", .progress))
        spans += line.head.map { span($0, line, past: past) }
        if phase == .current, let done = NowRule.progress(item, now: now) {
            spans.append(.init("  " + Self.progressBar(done), .progress))
        }
        spans += line.tail.map { span($0, line, past: past) }
        return AgendaRow(id: item.id, kind: line.isBanner ? .banner : .event, spans: spans, item: item, past: past)
    }

    /// A piece of the line as `watch` styles it: a banner's summary as a bar in the
    /// calendar's colour, today's past dimmed.
    func span(_ part: AgendaLine.Part, _ line: AgendaLine, past: Bool) -> AgendaRow.Span {
        switch part.role {
        case .bullet: return .init(part.text, .calendar(line.calendar))
        case .summary where line.isBanner: return .init(" " + part.text + " ", .banner(line.calendar))
        case .time, .summary: return .init(part.text, past ? .dim : .plain)
        case .tentative, .location, .mark: return .init(part.text, .dim)
        case .space: return .init(part.text)
        }
    }

    func nowRule() -> AgendaRow {
        let text = "  ── now " + AgendaWords.clock(now, zone) + " "
        return AgendaRow(id: "now", kind: .nowRule, spans: [.init(text, .rule)], fill: "─")
    }

    func placeholder(_ id: String, _ why: String) -> AgendaRow {
        AgendaRow(id: id, kind: .placeholder, spans: [.init("  (" + why + ")", .dim)])
    }

    func gap(_ id: String) -> AgendaRow { AgendaRow(id: "g:" + id, kind: .gap, spans: []) }

    /// Eight cells, filled by the part of the event that has passed.
    static func progressBar(_ fraction: Double) -> String {
        let filled = max(0, min(8, Int((fraction * 8).rounded(.down))))
        return String(repeating: "▰", count: filled) + String(repeating: "▱", count: 8 - filled)
    }
}

extension AgendaLayout {
    /// The dates with at least one event of a calendar shown (the month grid's busy days).
    public func busyDates(_ model: FeedClientState.Model) -> Set<CivilDate> {
        Set(model.sections.compactMap { section in
            section.items.contains { $0.content.kind == .event && isShown($0.content) } ? CivilDate(iso: section.id) : nil
        })
    }
}

/// The months beside `watch`'s agenda at `minimumColumns` or more: each a title, the
/// weekdays from Monday (`agenda` has no first-weekday rule; ISO 8601's), and the days,
/// the window's on a background, busy ones bold, today underlined, the rest dimmed (the
/// copy knows nothing of them). The window's later months follow while they fit whole.
public struct MonthGrid: Sendable, Equatable {
    /// How a day of the grid is marked (`AgendaRow.Style.day`).
    public struct Marks: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// At least one event of a shown calendar.
        public static let busy = Marks(rawValue: 1)
        /// One of the dates the agenda shows.
        public static let window = Marks(rawValue: 2)
        public static let today = Marks(rawValue: 4)
    }

    /// Columns of every row: seven days of three (` dd`) and a margin.
    public static let width = 22
    /// The terminal's columns from which the grid is drawn (the agenda keeps 77).
    public static let minimumColumns = 100

    /// The window's first date and its number of dates.
    public var first: CivilDate
    public var days: Int
    public var today: CivilDate
    public var busy: Set<CivilDate>

    public init(first: CivilDate, days: Int, today: CivilDate, busy: Set<CivilDate>) {
        self.first = first
        self.days = max(1, days)
        self.today = today
        self.busy = busy
    }

    /// The window's last date.
    public var last: CivilDate { first.adding(days: days - 1) }

    /// At most `lines` rows, each exactly `width` columns: the first date's month (cut
    /// when it does not fit), then the window's next months, each after an empty row,
    /// only while one fits whole.
    public func rows(lines: Int) -> [[AgendaRow.Span]] {
        var rows: [[AgendaRow.Span]] = []
        var month = (year: first.year, month: first.month)
        while lines > rows.count {
            let block = monthRows(year: month.year, month: month.month)
            if rows.isEmpty {
                rows = Array(block.prefix(lines))
            } else if rows.count + 1 + block.count <= lines {
                rows += [[AgendaRow.Span(String(repeating: " ", count: Self.width))]] + block
            } else {
                break
            }
            month = month.month == 12 ? (month.year + 1, 1) : (month.year, month.month + 1)
            if CivilDate(year: month.year, month: month.month, day: 1) > last { break }
        }
        return rows
    }

    /// One month: its name and year, the weekdays, a row per week (Monday first).
    func monthRows(year: Int, month: Int) -> [[AgendaRow.Span]] {
        let title = AgendaWords.months[month - 1] + " \(year)"
        let left = (Self.width - title.count) / 2
        var rows: [[AgendaRow.Span]] = [[.init(String(repeating: " ", count: left)), .init(title, .bold),
                                         .init(String(repeating: " ", count: Self.width - left - title.count))]]
        rows.append([.init(" Mo Tu We Th Fr Sa Su ", .dim)])
        let start = CivilDate(year: year, month: month, day: 1)
        let lead = (start.weekday + 6) % 7
        let count = CivilDate.daysIn(month: month, year: year)
        for week in 0..<((lead + count + 6) / 7) {
            var row: [AgendaRow.Span] = []
            for column in 0..<7 {
                let day = week * 7 + column - lead + 1
                guard (1...count).contains(day) else {
                    row.append(.init("   "))
                    continue
                }
                let date = CivilDate(year: year, month: month, day: day)
                let marks = marks(date)
                // Consecutive days of the window join into one bar.
                let joined = column > 0 && day > 1 && marks.contains(.window) && self.marks(date.adding(days: -1)).contains(.window)
                row.append(.init(" ", joined ? .day(.window) : .plain))
                row.append(.init(day < 10 ? " \(day)" : "\(day)", .day(marks)))
            }
            row.append(.init(" "))
            rows.append(row)
        }
        return rows
    }

    /// How `date` is marked.
    public func marks(_ date: CivilDate) -> Marks {
        var marks: Marks = []
        if date >= first && date <= last { marks.insert(.window) }
        if busy.contains(date) { marks.insert(.busy) }
        if date == today { marks.insert(.today) }
        return marks
    }
}
