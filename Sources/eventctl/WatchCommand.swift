import Foundation
import Agenda
import AgendaText
import EventStore
import CommandLineKit
import FeedClientKit
import FeedProtocol
import ICalendar
import TerminalAgenda

/// `eventctl watch [view options]`: the live agenda, full screen (TerminalAgenda).
struct WatchCommand: Subcommand {
    static let spec = CommandSpec(
        "eventctl watch", abstract: "Watch the live agenda in the terminal.",
        overview: "Show the agenda full screen and follow the daemon's feed as it changes.",
        discussion: """
        Sections by date as in agenda; changes arrive from eventd's feed and are animated in
        place. While eventd is down the last state stays on screen, marked stale with the time
        of the last update, and the watch reconnects by itself. Started while eventd is not
        running, it shows the agenda read from the database (live updates off) and goes live
        once eventd answers. Keys (? lists them all): arrows
        or j/k select, Enter shows details, g goes to a date (the forms --from takes), ] and [
        move the window a day, } and { a week, t back to today, + and - change the days, /
        searches every event (Enter on a result shows its date), c shows or hides calendars, Ctrl-L repaints, Ctrl-Z suspends, q or
        Ctrl-C quits. A TERM
        terminfo does not know is drawn as xterm-256color (else vt100), said on the key line.
        Needs a terminal: for pipes and scripts use agenda or subscribe. Each calendar is drawn in its own colour where eventd knows it
        (see calendars --color), else in one of a fixed palette; no colours under NO_COLOR.
        """,
        options: ViewOptions.declarations + [mouse],
        examples: [
            "eventctl watch",
            "eventctl watch --days 7 --calendar work --tz Europe/Berlin",
        ])

    static let mouse = Option.flag("--mouse", help: "Report the mouse to the watch (the wheel scrolls; selecting text then needs Shift).")

    var options: ViewOptions
    var mouse: Bool

    init(_ arguments: ParsedArguments) {
        options = ViewOptions(arguments)
        mouse = arguments[Self.mouse]
    }

    func run(_ env: CommandEnvironment) throws {
        guard isatty(0) != 0, isatty(1) != 0 else {
            throw UsageError("watch needs a terminal on standard input and output",
                             hint: "for pipes and scripts: eventctl agenda (once) or eventctl subscribe (the feed)")
        }
        let zone = options.tz ?? AgendaClock.systemZoneName(environment: env.environment)
        let status = (try? DaemonConnection.answer(to: .status, on: DaemonConnection.open(env), timeout: .seconds(2))).flatMap { FeedStatus($0) }
        let names = status?.calendarNames ?? []
        // Checked as agenda checks them (exit 65, the calendars named), before the screen is taken.
        try StoreAccess.requireCalendars(options.calendars, env) { status?.calendarNames }
        // `--from tomorrow` as a date, read against today in the view's zone.
        let base = options.resolved(environment: env.environment)
        let session = WatchSession(
            days: options.days ?? 14, from: base.from, pastDays: options.pastDays ?? 0, mouse: mouse, zoneName: zone, calendars: names, calendarCount: status?.calendars.map(Int.init),
            calendarColors: status?.calendarColors,
            view: { days, from in
                var view = base
                view.days = days
                view.from = from
                return view.fields
            },
            open: { [env] in try DaemonConnection.open(env) },
            local: { [env] days, from in
                var view = base
                view.days = days
                view.from = from
                return Self.databaseCopy(view, zone: zone, env)
            },
            search: { [env] text in Self.search(text, zone: zone, env) },
            details: { [env] calendar, uid, rid in Self.details(calendar: calendar, uid: uid, recurrenceID: rid, env) },
            status: { [env] in try DaemonConnection.answer(to: .status, on: DaemonConnection.open(env), timeout: .seconds(2)).flatMap { FeedStatus($0) } },
            editing: WatchEditing(
                calendars: { [env] in EventFileCommands.vdirCalendars(env) },
                perform: { [env] edit, standalone, handOver in
                    EventFileCommands.perform(edit, zone: zone, standalone: standalone, env, handOver: handOver)
                }),
            wallClock: { [clock = AgendaClock(environment: env.environment)] in clock.instant() },
            environment: env.environment)
        let outcome: WatchSession.Outcome
        do {
            // A `SubscriptionMachine.Failure` gets its status from the error table.
            outcome = try session.run()
        } catch let unsupported as CursesScreen.Unsupported {
            throw UsageError(unsupported.description, hint: "for pipes and scripts: eventctl agenda or eventctl subscribe")
        }
        if case .signal(let number) = outcome {
            signal(number, SIG_DFL)
            raise(number)
        }
    }

    /// `/`'s search: every event in the database (read only) whose text has `text`,
    /// dated in the view's zone (nil: no database to read, or it cannot be read).
    static func search(_ text: String, zone zoneName: String, _ env: CommandEnvironment) -> [WatchSearchResult]? {
        guard FileManager.default.fileExists(atPath: env.paths.database),
              let store = try? EventStore(path: env.paths.database, readOnly: true) else { return nil }
        let zone = Zone.system(zoneName) ?? .utc
        guard let hits = try? store.search(text, floatingZone: zone) else { return nil }
        return hits.map { hit in
            let local = zone.local(atUTC: hit.start.instant(zones: ZoneRegistry.shared, floatingZone: zone))
            return WatchSearchResult(date: local.date, time: hit.start.isDate ? nil : AgendaWords.two(local.hour) + ":" + AgendaWords.two(local.minute),
                                     summary: hit.summary ?? "(no title)", location: hit.location, calendar: hit.calendar,
                                     repeats: hit.recurring)
        }
    }

    /// What the details add from the database (read only), in words.
    static func details(calendar: String, uid: String, recurrenceID: String?, _ env: CommandEnvironment) -> WatchDetails? {
        guard FileManager.default.fileExists(atPath: env.paths.database),
              let store = try? EventStore(path: env.paths.database, readOnly: true),
              let found = try? store.details(calendar: calendar, uid: uid, recurrenceID: recurrenceID) else { return nil }
        func person(_ p: EventDetails.Person) -> String {
            (p.name.map { "\($0) <\(p.address)>" } ?? p.address) + (p.participation.map { " (\($0))" } ?? "")
        }
        return WatchDetails(description: found.description, organizer: found.organizer.map(person),
                            attendees: found.attendees.map(person),
                            recurrence: found.rule.map { AgendaWords.recurrence($0, extraDates: found.extraDates) }
                                ?? (found.extraDates ? "on other dates too" : nil),
                            source: found.source)
    }

    /// The view as `agenda` builds it from the database, in the form eventd's snapshot
    /// takes (nil: no database to read, or it cannot be read).
    static func databaseCopy(_ options: ViewOptions, zone: String, _ env: CommandEnvironment) -> FeedClientState? {
        // Read only: eventd, when it starts, is the database's writer.
        guard FileManager.default.fileExists(atPath: env.paths.database),
              let store = try? EventStore(path: env.paths.database, readOnly: true),
              let view = try? options.view(defaultZone: zone, knownCalendars: nil),
              let snapshot = try? SnapshotBuilder.build(view, store: store, now: AgendaClock(environment: env.environment).now())
        else { return nil }
        let line = FeedMessage.snapshot(digest: snapshot.digest, epoch: "database", seq: 0, view: snapshot.view.fields,
                                        protocolVersion: snapshot.view.digestVersion.rawValue,
                                        reserving: snapshot.sectionsSize + 512) { snapshot.writeSections(into: &$0) }
        guard case .snapshot(let message)? = try? FeedMessage.decode(line.last == 10 ? line.dropLast() : line[...]) else { return nil }
        return try? FeedClientState(snapshot: message)
    }
}
