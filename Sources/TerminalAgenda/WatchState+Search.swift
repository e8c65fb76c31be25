import AgendaText
import Diagnostics
import ICalendar

/// An event the `/` search found in the database, as the results list it.
public struct WatchSearchResult: Sendable, Equatable {
    /// Its (first) date in the view's zone: Enter starts the window there.
    public var date: CivilDate
    /// `HH:MM` in the view's zone; nil for an all-day event.
    public var time: String?
    public var summary: String
    public var location: String?
    public var calendar: String
    /// A recurring event (the date is its first).
    public var repeats: Bool

    public init(date: CivilDate, time: String?, summary: String, location: String?, calendar: String, repeats: Bool) {
        (self.date, self.time, self.summary, self.location, self.calendar, self.repeats) = (date, time, summary, location, calendar, repeats)
    }
}

/// `/`: a prompt whose Enter searches every event in the database (the session runs the
/// search: `Action.search`), then the results with their dates; Enter on one starts the
/// window at its date.
extension WatchState {
    /// Keys at the search prompt: Enter searches, Escape cancels.
    mutating func searching(_ key: WatchKey, text: String) -> Action {
        switch key {
        case .enter:
            let typed = text.trimmingSpaces
            guard !typed.isEmpty else {
                mode = .list
                return .redraw
            }
            searched = typed
            return .search(typed)
        case .escape: mode = .list
        case .backspace: mode = text.isEmpty ? .list : .search(String(text.dropLast()))
        case .character(let c) where !c.isNewline && c.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }):
            if text.count < 100 { mode = .search(text + String(c)) }
        default: break
        }
        return .redraw
    }

    /// The search's results (nil: the database could not be read), listed from the first.
    public mutating func show(results found: [WatchSearchResult]?) {
        results = found ?? []
        searchFailed = found == nil
        mode = .results(0)
    }

    /// Keys over the results: choose one, Enter goes to its date, `/` searches again,
    /// Escape goes back to the agenda as it was.
    mutating func choosingResult(_ key: WatchKey, cursor: Int) -> Action {
        let last = max(0, results.count - 1)
        switch key {
        case .up, .character("k"): mode = .results(max(0, cursor - 1))
        case .down, .character("j"): mode = .results(min(last, cursor + 1))
        case .pageUp: mode = .results(max(0, cursor - (bodyLines - 1)))
        case .pageDown: mode = .results(min(last, cursor + bodyLines - 1))
        case .home: mode = .results(0)
        case .end, .character("G"): mode = .results(last)
        case .enter:
            guard results.indices.contains(cursor) else { return .redraw }
            mode = .list
            from = results[cursor].date
            return viewChanged()
        case .character("/"): mode = .search(searched)
        case .escape, .backspace: mode = .list
        case .character("q"): return .quit
        default: break
        }
        return .redraw
    }

    /// The results' lines: a heading, then a line per event with its date, the cursor's
    /// kept in sight.
    func resultLines(cursor: Int) -> [(row: AgendaRow, selected: Bool)] {
        let found = searchFailed ? "the database could not be read"
            : results.isEmpty ? "nothing found" : "\(results.count) found"
        var lines: [(AgendaRow, Bool)] = [(AgendaRow(id: "", kind: .header, spans: [
            .init("  Search “" + String(searched.terminalSafe.prefix(40)) + "”: ", .bold), .init(found, .bold),
            .init("   Enter: show the date  Esc: back", .dim)]), false)]
        let visible = max(0, bodyLines - 1)
        let first = max(0, min(cursor - visible + 1, results.count - visible))
        for (k, result) in results.enumerated().dropFirst(first).prefix(visible) {
            let date = AgendaWords.shortDate(result.date, today: today)
            var spans: [AgendaRow.Span] = [.init("  " + date.padding(17)), .init((result.time ?? "all day").padding(9), .dim),
                                           .init("● ", .calendar(result.calendar)), AgendaRow.text(result.summary)]
            if let location = result.location, !location.isEmpty { spans += [.init("  "), AgendaRow.text(location, .dim)] }
            if result.repeats { spans.append(.init("  (repeats)", .dim)) }
            lines.append((AgendaRow(id: "", kind: .event, spans: spans), k == cursor))
        }
        return lines
    }
}
