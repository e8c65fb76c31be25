import Diagnostics

/// The help overlay (every key) and the key line at the bottom, shortened to fit.
extension WatchState {
    /// Every key of the watch, as the help lists them.
    static let helpKeys: [(keys: String, does: String)] = [
        ("↑ ↓  j k", "select the previous or next event"),
        ("PgUp PgDn", "a page up or down"),
        ("Home  End  G", "the first or last event"),
        ("Enter", "details of the selected event (PgDn/PgUp scroll, Esc: back)"),
        ("g", "go to date: YYYY-MM-DD, today, tomorrow, a weekday, +3d, -1w"),
        ("]  [", "the window a day later or earlier"),
        ("}  {", "the window a week later or earlier"),
        ("t", "today (the window back at today)"),
        ("+ =  -", "one day more or fewer in the window"),
        ("/", "search every event (Enter on a result shows its date)"),
        ("c", "show or hide calendars (space or x, a: all)"),
        ("n  e  d", "new, edit or delete an event of a vdir calendar ($EDITOR; d asks y/n)"),
        ("Ctrl-L", "repaint the whole screen"),
        ("Ctrl-Z", "suspend (the shell's fg brings the watch back)"),
        ("wheel", "scroll (with --mouse)"),
        ("?", "this help (? or Esc closes it)"),
        ("q  Ctrl-C", "quit"),
    ]

    /// The help's lines, in place of the agenda.
    var helpRows: [AgendaRow] {
        var rows = [AgendaRow(id: "", kind: .header, spans: [.init("  Keys", .bold), .init("   ? or Esc: back to the agenda", .dim)]),
                    AgendaRow(id: "", kind: .gap, spans: [])]
        for (keys, does) in Self.helpKeys {
            rows.append(AgendaRow(id: "", kind: .event, spans: [.init("  " + keys.padding(15), .bold), .init(does)]))
        }
        return rows
    }

    /// The list's keys in the footer, in order; `keep` ones are never left out.
    static let keyLine: [(text: String, keep: Bool)] = [
        ("↑↓ select", false), ("Enter details", false), ("g go to date", false), ("[ ] day", false),
        ("{ } week", false), ("t today", false), ("+/- days", false), ("/ search", false),
        ("c calendars", false), ("? help", true), ("q quit", true),
    ]
    /// The order keys are left out in when the line is too narrow: the least needed first.
    static let leftOutFirst = ["{ } week", "[ ] day", "+/- days", "c calendars", "/ search", "t today",
                               "Enter details", "↑↓ select", "g go to date"]

    /// The key line as wide as `columns` allows, `? help` and `q quit` always in it.
    static func keys(fitting columns: Int) -> String {
        var shown = keyLine.map(\.text)
        func text() -> String { " " + shown.joined(separator: "  ") }
        for name in leftOutFirst where DisplayWidth.of(text()) > columns {
            shown.removeAll { $0 == name }
        }
        return text()
    }

    /// The Go to prompt's footer: what is typed, then why it was refused or what to do.
    func goToFooter(_ text: String) -> [AgendaRow.Span] {
        var spans: [AgendaRow.Span] = [.init(" Go to: ", .bold), .init(text.terminalSafe), .init("▏", .dim)]
        if let promptError {
            spans.append(.init("  " + promptError, .warning))
        } else {
            spans.append(.init("  Enter: go  Esc: cancel  (YYYY-MM-DD, today, monday, +3d, -1w)", .dim))
        }
        return spans
    }
}
