import AgendaText
import Diagnostics
import FeedClientKit
import FeedProtocol
import ICalendar
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// What watch's n/e/d need from outside: the vdir calendars, and the writing of their
/// event files (`VdirEventFile`, through eventctl).
public struct WatchEditing: Sendable {
    /// The calendars whose source is a vdir.
    public var calendars: @Sendable () -> Set<String>
    /// Carries the edit out and says how it went; `handOver` runs just before `$EDITOR`
    /// starts (the terminal is the editor's until `perform` returns). `standalone`: eventd
    /// is not running, so the change is synchronised into the database here.
    public var perform: @Sendable (_ edit: WatchEdit, _ standalone: Bool, _ handOver: () -> Void) -> String

    public init(calendars: @escaping @Sendable () -> Set<String>,
                perform: @escaping @Sendable (_ edit: WatchEdit, _ standalone: Bool, _ handOver: () -> Void) -> String) {
        self.calendars = calendars
        self.perform = perform
    }
}

/// `eventctl watch`'s loop on the main thread: it sleeps in `poll` on the keyboard,
/// the feed thread's wake-ups and signals until the next animation frame or the turn
/// of the minute; lays the local copy out, animates the change and lets curses send
/// the cells that differ. The terminal is restored however the loop ends.
public final class WatchSession {
    /// How the watch ended.
    public enum Outcome: Sendable, Equatable {
        case quit
        /// SIGTERM or SIGHUP (the terminal is restored; the caller dies of it).
        case signal(Int32)
    }

    /// The view for a number of days from a first date (nil: today, sliding).
    let view: @Sendable (Int, CivilDate?) -> ViewFields
    /// Mouse reporting (the wheel scrolls; selecting text then needs Shift).
    let mouse: Bool
    let open: @Sendable () throws -> FeedSocket
    /// The view built from the database here (nil: none to read), shown while eventd
    /// cannot be reached, until its first snapshot replaces it.
    let local: (@Sendable (Int, CivilDate?) -> FeedClientState?)?
    /// `/`'s search of every event in the database (nil: it cannot be read).
    let search: @Sendable (String) -> [WatchSearchResult]?
    /// The database's details of an event (calendar, UID, RECURRENCE-ID); nil: none to read.
    let details: @Sendable (String, String, String?) -> WatchDetails?
    /// One status request on a connection of its own (for `calendar_colors`).
    let status: @Sendable () throws -> FeedStatus?
    /// n/e/d (nil: no database, nothing to edit).
    let editing: WatchEditing?
    /// The wall clock (EVENTD_FAKE_NOW moves it, as the daemon's).
    let wallClock: @Sendable () -> WallInstant
    let environment: [String: String]
    var state: WatchState
    var layout: AgendaLayout
    var animator = RowAnimator()
    var feed: FeedClientState?
    /// `feed` is `local`'s copy, not eventd's: no live updates until eventd answers.
    var isLocal = false
    var forwarder: FeedForwarder?
    var colorReader: CalendarColorReader?
    /// Calendars whose colour was asked for since the last snapshot.
    var colorsAsked: Set<String> = []
    /// Live, or why not and since when.
    var lostReason: String? = "connecting to eventd"
    var lastUpdate: WallInstant?
    var palette: CalendarPalette
    /// Rows of the dates the minute does not change (see `AgendaLayout.Cache`).
    var rowCache = AgendaLayout.Cache()

    /// `calendarColors`: status's `calendar_colors` when the caller has it already.
    /// `from`, `pastDays`: the window's start as the options give it.
    public init(days: Int, from: CivilDate? = nil, pastDays: Int = 0, mouse: Bool = false,
                zoneName: String, calendars: [String], calendarCount: Int?, calendarColors: [String: String]? = nil,
                view: @escaping @Sendable (Int, CivilDate?) -> ViewFields, open: @escaping @Sendable () throws -> FeedSocket,
                local: (@Sendable (Int, CivilDate?) -> FeedClientState?)? = nil,
                search: @escaping @Sendable (String) -> [WatchSearchResult]? = { _ in nil },
                details: @escaping @Sendable (String, String, String?) -> WatchDetails? = { _, _, _ in nil },
                status: @escaping @Sendable () throws -> FeedStatus?, editing: WatchEditing? = nil,
                wallClock: @escaping @Sendable () -> WallInstant, environment: [String: String]) {
        self.view = view
        self.mouse = mouse
        self.open = open
        self.local = local
        self.search = search
        self.details = details
        self.status = status
        self.editing = editing
        self.wallClock = wallClock
        self.environment = environment
        state = WatchState(days: days)
        state.zoneName = zoneName
        state.from = from
        state.pastDays = pastDays
        layout = AgendaLayout(now: wallClock().unixSeconds, zone: Zone.system(zoneName) ?? .utc)
        state.today = layout.zone.local(atUTC: layout.now).date
        layout.days = days
        layout.from = from
        layout.calendarCount = calendarCount
        palette = CalendarPalette(names: calendars)
        palette.own = CalendarPalette.colors(from: calendarColors)
        state.calendars = palette.names
    }

    /// Runs until `q`, Ctrl-C or a signal; throws why the subscription ended otherwise
    /// (the daemon refused the view, or its socket is not to be trusted).
    public func run() throws -> Outcome {
        let signals = TerminalRestore.watchSignals()
        let wake = try WakePipe()
        let mailbox = Mailbox<FeedNews>(wake: { wake.wake() })
        // The threads are services (signals stay `TerminalRestore`'s: the loop reads
        // them); however the loop ends, they are stopped and joined once the terminal is
        // restored (within a second in all: a stuck one is left to the process's exit).
        let services = Lifecycle(shutdownDeadline: .seconds(1), takingSignals: false)
        defer { _ = services.stopServices() }
        let screen = try CursesScreen(environment: environment, palette: palette, mouse: mouse)
        defer { screen.end() }
        state.size = screen.size
        state.notice = screen.substitute.map { "TERM '\($0.asked)' unknown to terminfo: drawn as \($0.used)" }
        let reader = CalendarColorReader(status: status, mailbox: mailbox)
        try services.start(reader)
        colorReader = reader
        forwarder = try Self.startForwarder(view: view(state.days, state.from), open: open, mailbox: mailbox, in: services)
        colorReader?.refresh()
        relayout(animated: false)
        screen.draw(compose())
        while true {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
            let due = animator.nextChange(after: monotonic())
            _ = poll(&fds, nfds_t(fds.count), timeoutMilliseconds())
            var dirty = due.map { monotonic() >= $0 } ?? false
            for signal in TerminalRestore.take(from: signals) {
                switch signal {
                case SIGWINCH:
                    screen.resize()
                    state.size = screen.size
                    dirty = true
                case SIGINT: return .quit
                default: return .signal(signal)
                }
            }
            for key in screen.keys() {
                switch state.handle(key) {
                case .quit: return .quit
                case .redraw: dirty = true
                case .relayout:
                    relayout(animated: true)
                    dirty = true
                case .search(let text):
                    state.show(results: search(text))
                    dirty = true
                case .repaint:
                    screen.repaint()
                    dirty = true
                case .edit(let edit):
                    perform(edit, on: screen)
                    dirty = true
                case .suspend:
                    screen.suspend()
                    // Stopped here until SIGCONT (a shell's `fg`); where nothing can
                    // continue the job (an orphaned process group) the kernel drops the
                    // signal and the watch carries on at once.
                    signal(SIGTSTP, SIG_DFL)
                    raise(SIGTSTP)
                    screen.resume()
                    state.size = screen.size
                    dirty = true
                case .changeView:
                    // The old one ends at once (joined with the others at the end).
                    forwarder?.requestStop()
                    let days = state.days
                    forwarder = try Self.startForwarder(view: view(days, state.from), open: open, mailbox: mailbox, in: services)
                    layout.days = days
                    layout.from = state.from
                    if isLocal {
                        // Still without eventd: the new window from the database at once
                        // (or, if it cannot be read now, the placeholder).
                        feed = nil
                        isLocal = false
                        readLocal()
                        if feed == nil { relayout(animated: false) }
                    } else {
                        lostReason = "subscribing to \(days) day\(days == 1 ? "" : "s")"
                            + (state.from.map { " from " + AgendaWords.shortDate($0, today: state.today) } ?? "")
                    }
                    dirty = true
                }
            }
            wake.drain()
            for news in mailbox.takeAll() {
                try take(news)
                dirty = true
            }
            if wallClock().unixSeconds / 60 != layout.now / 60 {
                // As the dashboard: colours set meanwhile show within the minute.
                colorReader?.refresh()
                relayout(animated: true)
                dirty = true
            }
            if let wanted = state.detailsWanted {
                // Once per event shown: a read of one row, on the loop (a local file).
                state.show(details: details(wanted.calendar, wanted.uid, wanted.recurrenceID), for: wanted.id)
                dirty = true
            }
            if dirty {
                screen.palette = palette
                screen.draw(compose())
            }
        }
    }

    static func startForwarder(view: ViewFields, open: @escaping @Sendable () throws -> FeedSocket, mailbox: Mailbox<FeedNews>,
                               in services: Lifecycle) throws -> FeedForwarder {
        let forwarder = FeedForwarder(view: view, open: open, mailbox: mailbox)
        try services.start(forwarder)
        return forwarder
    }

    func take(_ news: FeedNews) throws {
        switch news {
        case .colors(let colors):
            palette.own = colors
        case .calendars(let names, let colors):
            palette.own = colors
            palette.follow(names)
            state.calendars = palette.names
            // Lines drawn in the old colours are cached with them.
            rowCache = AgendaLayout.Cache()
            relayout(animated: false)
        case .state(let next, let snapshot):
            if let tz = next.view.tz, tz != state.zoneName, let zone = Zone.system(tz) {
                layout.zone = zone
                state.zoneName = tz
            }
            // The first copy is painted as it is; later ones (diffs, a resync, eventd's
            // over the database's) animate.
            let first = feed == nil
            feed = next
            isLocal = false
            rowCache = AgendaLayout.Cache()
            let shown = Set(next.model.sections.flatMap { $0.items.compactMap(\.content.calendar) })
            palette.learn(shown)
            // Colours again after a (re)subscription, and for a calendar without one.
            if snapshot { colorsAsked = [] }
            let unasked = shown.filter { palette.own[$0] == nil && !colorsAsked.contains($0) }
            if snapshot || !unasked.isEmpty {
                colorsAsked.formUnion(shown)
                colorReader?.refresh()
            }
            state.calendars = palette.names
            if let editing { state.editableCalendars = editing.calendars() }
            lostReason = nil
            lastUpdate = wallClock()
            relayout(animated: !first, highlight: true)
        case .heard:
            // Back after a reconnect (the resume brings what changed); a first connection
            // is live only once its snapshot is in.
            if feed == nil || isLocal {
                lostReason = "waiting for the view"
            } else {
                lostReason = nil
                lastUpdate = wallClock()
            }
        case .lost(let reason):
            // The socket's error (a path, errno's words) says less than this at a glance.
            lostReason = reason.contains("closed") ? "eventd closed the connection" : "eventd unreachable"
            if feed == nil { readLocal() }
        case .ended(let error):
            throw error
        }
    }

    /// n/e/d: the edit carried out with the terminal lent to `$EDITOR` (taken back and
    /// painted whole after it), said in the footer. Without eventd the database is read
    /// again at once (eventd's vdir watcher brings the change otherwise).
    func perform(_ edit: WatchEdit, on screen: CursesScreen) {
        guard let editing else {
            state.notice = "no database: nothing to edit"
            return
        }
        var lent = false
        state.notice = editing.perform(edit, isLocal) {
            screen.suspend()
            lent = true
        }
        if lent {
            screen.resume()
            state.size = screen.size
        }
        state.editableCalendars = editing.calendars()
        if isLocal { readLocal() }
    }

    /// Without any copy yet (eventd not running): the view built from the database, if
    /// there is one to read.
    func readLocal() {
        guard let local, let copy = local(state.days, state.from) else { return }
        feed = copy
        isLocal = true
        rowCache = AgendaLayout.Cache()
        let shown = Set(copy.model.sections.flatMap { $0.items.compactMap(\.content.calendar) })
        palette.learn(shown)
        state.calendars = palette.names
        if let editing { state.editableCalendars = editing.calendars() }
        relayout(animated: false)
    }

    /// Lays the local copy out again, now, with the calendars the keys show; rows the
    /// feed changed are highlighted (`highlight`), not those the clock or a key changed.
    func relayout(animated: Bool, highlight: Bool = false) {
        layout.now = wallClock().unixSeconds
        state.today = layout.zone.local(atUTC: layout.now).date
        if layout.hiddenCalendars != state.hiddenCalendars { rowCache = AgendaLayout.Cache() }
        layout.hiddenCalendars = state.hiddenCalendars
        guard let feed else {
            let waiting = AgendaRow(id: "p:waiting", kind: .placeholder, spans: [
                .init("  (no agenda yet: waiting for eventd; start it with `eventd` or `systemctl --user start eventd`)", .dim)])
            animator = RowAnimator(rows: [waiting])
            state.update(rows: [waiting])
            state.busyDays = []
            return
        }
        let rows = layout.rows(feed.model, cache: &rowCache)
        if animated {
            animator.transition(to: rows, at: monotonic(), highlight: highlight)
        } else {
            animator = RowAnimator(rows: rows)
        }
        state.update(rows: rows)
        state.busyDays = layout.busyDates(feed.model)
    }

    func compose() -> [ScreenLine] {
        state.screen(title: title, frame: animator.drawFrame(at: monotonic()))
    }

    /// The first line: the view, and live or stale since when.
    var title: [AgendaRow.Span] {
        var spans: [AgendaRow.Span] = [.init(" eventd watch", .bold),
                                       .init("  \(state.days) day\(state.days == 1 ? "" : "s")"
                                             + (state.from.map { " from " + AgendaWords.shortDate($0, today: state.today) } ?? "")
                                             + " · \(state.zoneName)  ")]
        let updated = lastUpdate.map { clock($0.unixSeconds) } ?? "never"
        if isLocal {
            let why = lostReason == "waiting for the view" ? "eventd answering" : "eventd not running"
            spans.append(.init("○ " + why + " · from the database, live updates off (retrying)", .warning))
        } else if let lostReason {
            let stale = feed == nil ? "" : "stale · last update " + updated + " · "
            spans.append(.init("○ " + stale + lostReason.terminalSafe + " (retrying)", .warning))
        } else {
            spans.append(.init("● live · updated " + updated, .progress))
        }
        return spans
    }

    /// `HH:MM:SS` in the view's zone.
    func clock(_ seconds: Int64) -> String {
        let local = layout.zone.local(atUTC: seconds)
        return [local.hour, local.minute, local.second].map(AgendaWords.two).joined(separator: ":")
    }

    /// Until the next frame of an animation or the turn of the minute.
    func timeoutMilliseconds() -> Int32 {
        let now = wallClock()
        let minute = now.unixSeconds - (now.unixSeconds % 60 + 60) % 60
        var wait = WallInstant(unixSeconds: minute + 60) - now
        if let next = animator.nextChange(after: monotonic()) { wait = min(wait, next - monotonic()) }
        return min(60_000, wait.pollMilliseconds)
    }

    func monotonic() -> MonotonicInstant { .now() }
}
