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
