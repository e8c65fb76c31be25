import ICalendar

/// A key as the watch understands it, decoded from the terminal by the screen.
public enum WatchKey: Sendable, Equatable {
    case up, down, pageUp, pageDown, home, end, enter, escape, backspace
    case character(Character)
    /// The mouse wheel (where the terminal reports it).
    case wheelUp, wheelDown
    /// Ctrl-C as a key (the terminal in raw mode).
    case interrupt
    /// Ctrl-L: paint the whole screen again.
    case repaint
    /// Ctrl-Z: stop as a shell's job (the terminal in raw mode sends it as a key).
    case suspend
}

/// A change to a vdir calendar's event file that the session carries out.
public enum WatchEdit: Sendable, Equatable {
    /// A new event in `calendar` (through `$EDITOR` on a template).
    case new(calendar: String)
    /// The event's own file in `$EDITOR`.
    case edit(calendar: String, uid: String)
    case delete(calendar: String, uid: String)
}

/// What the keys do to the watch, as a pure state machine: the selection (kept on the
/// same item while rows come and go), scrolling, details, the search, calendars
/// shown or hidden, the window (its first date and number of days). The session turns
/// its `Action`s into effects.
public struct WatchState: Sendable {
    /// What the body shows.
    public enum Mode: Sendable, Equatable {
        case list
        /// One event's details (by row id).
        case details(String)
        /// Typing a search of the database (the text so far).
        case search(String)
        /// The search's results; the cursor's index.
        case results(Int)
        /// Choosing calendars; the cursor's index.
        case calendars(Int)
        /// The keys, over the agenda.
        case help
        /// Typing a date to go to (the text so far).
        case goTo(String)
        /// Asking whether to delete the event of this row (`y`: yes).
        case confirmDelete(String)
    }

    /// What the session must do after a key.
    public enum Action: Sendable, Equatable {
        case redraw
        /// Lay the rows out again (the calendars shown changed).
        case relayout
        /// Search every event in the database for the text, then `show(results:)`.
        case search(String)
        /// Subscribe again to the window `days` and `from` now describe.
        case changeView
        /// Clear the terminal and paint every cell again.
        case repaint
        /// Give the terminal back and stop (SIGTSTP); once continued, take it again and
        /// paint every cell.
        case suspend
        /// Write a vdir calendar's event file (the terminal given to `$EDITOR` for new and
        /// edit), then say how it went in `notice`.
        case edit(WatchEdit)
        case quit
    }

    public var mode = Mode.list
    /// The selected row's id.
    public internal(set) var selected: String?
    /// The first content line shown.
    public internal(set) var top = 0
    /// The text last searched for, and what it found.
    public internal(set) var searched = ""
    public internal(set) var results: [WatchSearchResult] = []
    var searchFailed = false
    public var hiddenCalendars: Set<String> = []
    public var days: Int
    /// The window's first date; nil: it slides with today (less `pastDays`).
    public var from: CivilDate?
    /// Days before today the sliding window starts (`--past-days`).
    public var pastDays = 0
    /// Today in the view's zone (the session keeps it with the clock).
    public var today = CivilDate(year: 1970, month: 1, day: 1)
    /// Dates with events of shown calendars (the month grid's busy days).
    public var busyDays: Set<CivilDate> = []
    /// Said once in the footer, in place of the keys, until the next key.
    public var notice: String?
    /// Why the date typed at the Go to prompt was refused.
    public var promptError: String?
    /// Every calendar known (eventd's status, and the items seen), in name order.
    public var calendars: [String] = []
    /// The calendars whose source is a vdir: their events can be edited (n, e, d).
    public var editableCalendars: Set<String> = []
    /// The view's zone, named in details.
    public var zoneName = "UTC"
    /// What the database adds to the details shown (by row id); nil until read.
    public internal(set) var extra: (id: String, details: WatchDetails?)?
    /// The first line of the details shown (they scroll).
    public internal(set) var detailsTop = 0
    /// Terminal lines and columns.
    public var size: (lines: Int, columns: Int) = (24, 80) {
        didSet {
            clampTop()
            reveal()
        }
    }
    /// The rows the keys act on (the layout the animation ends at).
    public private(set) var rows: [AgendaRow] = []
    private var selectedLine = 0

    public static let dayRange = 1...3660

    public init(days: Int) { self.days = days }

    /// Lines for rows: all but the title and the footer.
    public var bodyLines: Int { max(1, size.lines - 2) }

    /// Takes a new layout: the selection stays on its item, or goes to the nearest
    /// selectable row where it was; the selection stays in sight.
    public mutating func update(rows new: [AgendaRow]) {
        rows = new
        if let id = selected, let line = new.firstIndex(where: { $0.id == id }) {
            selectedLine = line
        } else if selected == nil, let now = new.firstIndex(where: { $0.kind == .nowRule }),
                  let next = new[now...].firstIndex(where: \.selectable) {
            select(next)
        } else {
            let candidates = new.indices.filter { new[$0].selectable }
            if let nearest = candidates.min(by: { abs($0 - selectedLine) < abs($1 - selectedLine) }) {
                select(nearest)
            } else {
                selected = nil
            }
        }
        if case .details(let id) = mode, !new.contains(where: { $0.id == id }) { mode = .list }
        clampTop()
        reveal()
    }

    /// Handles one key.
    public mutating func handle(_ key: WatchKey) -> Action {
        if key == .interrupt { return .quit }
        notice = nil
        if key == .repaint { return .repaint }
        // In any mode, and the mode stays: the watch comes back as it was left.
        if key == .suspend { return .suspend }
        switch mode {
        case .help: return help(key)
        case .goTo(let text): return goingTo(key, text: text)
        case .list: return list(key)
        case .details: return details(key)
        case .search(let text): return searching(key, text: text)
        case .results(let cursor): return choosingResult(key, cursor: cursor)
        case .calendars(let cursor): return choosing(key, cursor: cursor)
        case .confirmDelete(let id): return confirmingDelete(key, id: id)
        }
    }

    mutating func list(_ key: WatchKey) -> Action {
        switch key {
        case .up, .character("k"): move(by: -1)
        case .down, .character("j"): move(by: 1)
        case .pageUp: move(by: -bodyLines)
        case .pageDown: move(by: bodyLines)
        case .home: move(by: -rows.count)
        case .end, .character("G"): move(by: rows.count)
        case .wheelUp: scroll(by: -3)
        case .wheelDown: scroll(by: 3)
        case .enter: if let selected { mode = .details(selected); detailsTop = 0 }
        case .character("t"):
            if from != nil {
                from = nil
                return viewChanged()
            }
            showToday()
        case .character("?"): mode = .help
        case .character("g"):
            mode = .goTo("")
            promptError = nil
        case .character("]"): return shift(by: 1)
        case .character("["): return shift(by: -1)
        case .character("}"): return shift(by: 7)
        case .character("{"): return shift(by: -7)
        case .character("+"), .character("="): return changeDays(by: 1)
        case .character("-"): return changeDays(by: -1)
        case .character("/"): mode = .search("")
        case .character("c"): mode = .calendars(0)
        case .character("n"): return newEvent()
        case .character("e"), .character("d"):
            guard let item = rows.first(where: { $0.id == selected })?.item, let uid = item.uid else { break }
            guard let calendar = item.calendar, editableCalendars.contains(calendar) else {
                notice = "read-only: calendar \(item.calendar ?? "?") is not a vdir; only vdir calendars are edited"
                break
            }
            if key == .character("e") { return .edit(.edit(calendar: calendar, uid: uid)) }
            mode = .confirmDelete(selected ?? "")
        case .character("q"): return .quit
        default: break
        }
        return .redraw
    }

    /// `n`: into the selected event's calendar if it is a vdir, else the only vdir one.
    mutating func newEvent() -> Action {
        let selectedCalendar = rows.first(where: { $0.id == selected })?.item?.calendar
        if let selectedCalendar, editableCalendars.contains(selectedCalendar) { return .edit(.new(calendar: selectedCalendar)) }
        switch editableCalendars.count {
        case 0: notice = "no vdir calendar to write to (add one: eventctl source add DIR)"
        case 1: return .edit(.new(calendar: editableCalendars.first!))
        default: notice = "which calendar? select an event of " + editableCalendars.sorted().joined(separator: ", ")
        }
        return .redraw
    }

    mutating func confirmingDelete(_ key: WatchKey, id: String) -> Action {
        mode = .list
        guard key == .character("y"), let item = rows.first(where: { $0.id == id })?.item, let uid = item.uid,
              let calendar = item.calendar else {
            notice = "not deleted"
            return .redraw
        }
        return .edit(.delete(calendar: calendar, uid: uid))
    }

    mutating func details(_ key: WatchKey) -> Action {
        let page = max(1, bodyLines - 1)
        switch key {
        case .character("q"): return .quit
        case .escape, .enter, .backspace, .character("h"): mode = .list
        case .up, .character("k"):
            move(by: -1)
            if let selected { mode = .details(selected) }
            detailsTop = 0
        case .down, .character("j"):
            move(by: 1)
            if let selected { mode = .details(selected) }
            detailsTop = 0
        case .pageDown, .character(" "): detailsTop += page
        case .pageUp, .character("b"): detailsTop = max(0, detailsTop - page)
        case .wheelDown: detailsTop += 3
        case .wheelUp: detailsTop = max(0, detailsTop - 3)
        case .home: detailsTop = 0
        default: break
        }
        return .redraw
    }

    /// The database's part of the details of row `id` (the session reads it once per
    /// event shown).
    public mutating func show(details: WatchDetails?, for id: String) {
        extra = (id, details)
    }

    /// The event whose details are shown and not yet read from the database:
    /// its row id, calendar, UID and the occurrence's RECURRENCE-ID.
    public var detailsWanted: (id: String, calendar: String, uid: String, recurrenceID: String?)? {
        guard case .details(let id) = mode, extra?.id != id,
              let item = rows.first(where: { $0.id == id })?.item, let calendar = item.calendar, let uid = item.uid else { return nil }
        return (id, calendar, uid, item.recurrenceID)
    }

    mutating func choosing(_ key: WatchKey, cursor: Int) -> Action {
        switch key {
        case .up, .character("k"): mode = .calendars(max(0, cursor - 1))
        case .down, .character("j"): mode = .calendars(min(max(0, calendars.count - 1), cursor + 1))
        case .enter, .character(" "), .character("x"):
            guard calendars.indices.contains(cursor) else { return .redraw }
            let name = calendars[cursor]
            if hiddenCalendars.remove(name) == nil { hiddenCalendars.insert(name) }
            return .relayout
        case .character("a"):
            hiddenCalendars = []
            return .relayout
        case .character("q"): return .quit
        case .escape, .character("c"): mode = .list
        default: break
        }
        return .redraw
    }

    mutating func changeDays(by delta: Int) -> Action {
        let next = min(Self.dayRange.upperBound, max(Self.dayRange.lowerBound, days + delta))
        guard next != days else { return .redraw }
        days = next
        return .changeView
    }

    /// Moves the selection `delta` selectable rows (clamped at the ends).
    mutating func move(by delta: Int) {
        let selectable = rows.indices.filter { rows[$0].selectable }
        guard !selectable.isEmpty else { return }
        let current = selectable.firstIndex(of: selectedLine) ?? selectable.firstIndex { $0 >= selectedLine } ?? 0
        select(selectable[min(selectable.count - 1, max(0, current + delta))])
        reveal()
    }

    /// Selects today's first event, with today's header in sight.
    mutating func showToday() {
        guard let header = rows.firstIndex(where: { $0.kind == .header && $0.section == .today })
                ?? rows.firstIndex(where: { $0.kind == .header }) else { return }
        top = header
        if let first = rows[header...].firstIndex(where: \.selectable) { select(first) }
        clampTop()
        reveal()
    }

    mutating func scroll(by delta: Int) {
        top += delta
        clampTop()
    }

    mutating func select(_ line: Int) {
        selectedLine = line
        selected = rows[line].id
    }

    mutating func clampTop() {
        top = max(0, min(top, rows.count - bodyLines))
    }

    /// Scrolls so that the selected row is in sight.
    mutating func reveal() {
        guard selected != nil else { return }
        if selectedLine < top { top = selectedLine }
        if selectedLine >= top + bodyLines { top = selectedLine - bodyLines + 1 }
        clampTop()
    }
}
