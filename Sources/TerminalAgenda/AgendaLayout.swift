import FeedProtocol
import ICalendar
import UpcomingEvents
import Diagnostics

/// Lays a view's local copy out as rows, the way `agenda` and the dashboard do: Today
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
    /// Shown only when summary, location or calendar contains this (case-insensitive).
    public var filter: String = ""
    /// The number of dates of the view (for the empty view's sentence).
    public var days: Int = 14
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
    /// relayout lays out one date. Empty it when the copy, the filter, the calendars
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
        for section in model.sections {
            guard let date = CivilDate(iso: section.id) else { continue }
            let dense = date >= today.adding(days: 7)
            if dense && !inLater {
                if !rows.isEmpty { rows.append(gap("later")) }
                rows.append(AgendaRow(id: "h:later", kind: .header, spans: [.init("Later", .bold)]))
                inLater = true
            }
            if !dense && !rows.isEmpty { rows.append(gap(section.id)) }
            if date != today, let known = cache.sections[section.id] {
                rows += known
                continue
            }
            let laid = sectionRows(section, date: date, today: today, dense: dense)
            if date != today { cache.sections[section.id] = laid }
            rows += laid
        }
        if model.sections.isEmpty {
            let why = calendarCount == 0 ? "no calendars yet: eventctl import FILE.ics, or eventctl source add"
                : "nothing in the next \(days) day\(days == 1 ? "" : "s")"
            rows.append(placeholder("p:view", why))
        } else if rows.allSatisfy({ !$0.selectable }) && inLater {
            rows.append(placeholder("p:later", hiddenReason))
        }
        return rows
    }

    /// One date's rows: its header and events (with the now rule today), or for a date
    /// past the week its events alone, dense.
    func sectionRows(_ section: FeedClientState.Model.Section, date: CivilDate, today: CivilDate, dense: Bool) -> [AgendaRow] {
        let events = section.items.map(\.content).filter { $0.kind == .event }
        let shown = events.filter(isShown)
        if dense { return shown.map { eventRow($0, date: date, dense: true, today: false) } }
        let label = section.content.label
        var rows = [AgendaRow(id: "h:" + section.id, kind: .header,
                              spans: [.init(Self.header(date, label: label, today: today), .bold)])]
        if shown.isEmpty {
            return rows + [placeholder("p:" + section.id, events.isEmpty ? "nothing on this day" : hiddenReason)]
        }
        var ruled = date != today
        for item in shown {
            let row = eventRow(item, date: date, dense: false, today: date == today)
            if !ruled, row.kind == .event, let start = BarEvent(item: item)?.start, start > now {
                rows.append(nowRule())
                ruled = true
            }
            rows.append(row)
        }
        if !ruled { rows.append(nowRule()) }
        return rows
    }

    /// Why shown events are missing: the filter or hidden calendars.
    var hiddenReason: String {
        if !filter.isEmpty { return "nothing matches “\(filter.terminalSafeFilter)”" }
        return "only events of hidden calendars"
    }

    func isShown(_ item: FeedItem) -> Bool {
        if hiddenCalendars.contains(item.calendar ?? "") { return false }
        guard !filter.isEmpty else { return true }
        let needle = filter.lowercased()
        return [item.summary, item.location, item.calendar].contains { text in
            text?.lowercased().contains(needle) ?? false
        }
    }

    func eventRow(_ item: FeedItem, date: CivilDate, dense: Bool, today: Bool) -> AgendaRow {
        let calendar = item.calendar ?? ""
        let allDay = item.allDay
        let from = item.continuesFromPreviousDay
        let to = item.continuesToNextDay
        let event = BarEvent(item: item)
        let underWay = today && !allDay && event.map { $0.start <= now && now < $0.end } ?? false
        let past = today && !allDay && event.map { $0.end <= now } ?? false
        var spans: [AgendaRow.Span] = []
        if dense { spans.append(.init("  " + Self.shortDate(date) + " ", .dim)) }
        spans.append(.init(underWay ? "▶ " : "  ", .progress))
        let banner = allDay || from || to
        var time: String
        if allDay {
            time = (from ? "← " : "  ") + "all day" + (to ? " →" : "  ")
        } else {
            time = (from ? "←" : Self.clock(item.start)) + "–" + (to ? "→" : Self.clock(item.end))
        }
        time += String(repeating: " ", count: max(0, 11 - DisplayWidth.of(time)))
        spans.append(.init(time, past ? .dim : .plain))
        spans.append(.init(" ● ", .calendar(calendar)))
        let summary = AgendaRow.text(item.summary ?? "(no title)",
                                     banner ? .banner(calendar) : past ? .dim : .plain)
        spans.append(banner ? AgendaRow.Span(" " + summary.text + " ", summary.style) : summary)
        if item.status == "tentative" { spans.append(.init(" (tentative)", .dim)) }
        if underWay, let event {
            let done = Double(now - event.start) / Double(max(1, event.end - event.start))
            spans.append(.init("  " + Self.progressBar(done), .progress))
        }
        if let location = item.location, !location.isEmpty {
            spans.append(.init("  "))
            spans.append(AgendaRow.text(location, .dim))
        }
        return AgendaRow(id: item.id, kind: banner ? .banner : .event, spans: spans,
                         item: item, past: past)
    }

    func nowRule() -> AgendaRow {
        let local = zone.local(atUTC: now)
        let text = "  ── now " + Self.two(local.hour) + ":" + Self.two(local.minute) + " "
        return AgendaRow(id: "now", kind: .nowRule, spans: [.init(text, .rule)], fill: "─")
    }

    func placeholder(_ id: String, _ why: String) -> AgendaRow {
        AgendaRow(id: id, kind: .placeholder, spans: [.init("  (" + why + ")", .dim)])
    }

    func gap(_ id: String) -> AgendaRow { AgendaRow(id: "g:" + id, kind: .gap, spans: []) }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                         "September", "October", "November", "December"]

    /// `Today, Sunday 29 November` (the year when it is not this year's).
    static func header(_ date: CivilDate, label: String?, today: CivilDate) -> String {
        var text = "\(weekdays[date.weekday]) \(date.day) \(months[date.month - 1])"
        if date.year != today.year { text += " \(date.year)" }
        if let label { text = label.prefix(1).uppercased() + label.dropFirst() + ", " + text }
        return text
    }

    /// `Mon 7 Dec`, for the dense list (always 10 columns).
    static func shortDate(_ date: CivilDate) -> String {
        let text = "\(weekdays[date.weekday].prefix(3)) \(date.day) \(months[date.month - 1].prefix(3))"
        return text + String(repeating: " ", count: max(0, 10 - text.count))
    }

    /// `HH:MM` of an RFC 3339 time in the view's zone.
    static func clock(_ rfc3339: String?) -> String {
        guard let s = rfc3339, s.utf8.count >= 16 else { return "??:??" }
        return String(s.dropFirst(11).prefix(5))
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// Eight cells, filled by the part of the event that has passed.
    static func progressBar(_ fraction: Double) -> String {
        let filled = max(0, min(8, Int((fraction * 8).rounded(.down))))
        return String(repeating: "▰", count: filled) + String(repeating: "▱", count: 8 - filled)
    }
}

extension String {
    /// The filter as typed, made inert and short for a placeholder.
    var terminalSafeFilter: String { String(terminalSafe.prefix(40)) }
}
