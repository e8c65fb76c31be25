import Foundation
import CommandLineKit
import EventStore
import ICalendar
import Reminders
import StatusBar
import AgendaText
import FeedProtocol
import Diagnostics

/// `eventctl remind [--before DURATION]... [--calendar NAME]... [--tz ZONE] [--notify WAY] [--state FILE]`
struct RemindCommand: Subcommand {
    static let spec = CommandSpec(
        "eventctl remind", abstract: "Show desktop notifications before events.",
        overview: "Follow the feed and show a desktop notification before each event.",
        discussion: """
        Notifications go to the desktop's notification server on the session bus
        (org.freedesktop.Notifications), or through notify-send when the bus cannot be
        reached. One per occurrence and offset, never again after a restart (what was
        shown is kept in the state file), none for cancelled events or events that have
        begun; one missed while nothing ran comes late if its event has not begun.
        Besides the --before offsets, each event's own VALARMs with ACTION:DISPLAY and a
        trigger before its start remind (read from the database at --db).
        While eventd is down, reminders come from the last events it sent.
        """,
        options: [befores, calendars, tz, way, state],
        examples: ["eventctl remind", "eventctl remind --before 10m --before 1h --calendar work"])

    static let befores = Option.values(
        "--before", "DURATION", help: "Remind this long before the start (repeatable; default: 10m).",
        validation: .custom { BarOptions.duration($0) == nil ? "invalid duration '\($0)' for --before: expected e.g. 10m, 1h, 90s" : nil })
    static let calendars = Option.values("--calendar", "NAME", help: "Only this calendar (repeatable; default: all).",
                                         completion: .calendar)
    static let tz = Option.value("--tz", "ZONE", help: "IANA time zone of the times shown (default: the system's).",
                                 completion: .timeZone)
    static let way = Option.value("--notify", "WAY", help: "auto (default: the session bus, else notify-send), dbus or notify-send.",
                                  completion: .choices(DesktopNotifier.Way.allCases.map(\.rawValue)))
    static let state = Option.value(
        "--state", "FILE", help: "Where shown reminders are remembered (default: $XDG_STATE_HOME/eventd/reminders.json).",
        completion: .file(extension: "json"))

    var befores: [Int64]
    var calendars: [String]
    var tz: String?
    var way: DesktopNotifier.Way
    var state: String?

    init(_ arguments: ParsedArguments) {
        befores = arguments[Self.befores].compactMap(BarOptions.duration)
        if befores.isEmpty { befores = [600] }
        calendars = arguments[Self.calendars]
        tz = arguments[Self.tz]
        way = arguments[Self.way].flatMap(DesktopNotifier.Way.init(rawValue:)) ?? .auto
        state = arguments[Self.state]
    }

    /// `$XDG_STATE_HOME/eventd/reminders.json`, else `~/.local/state/eventd/reminders.json`.
    static func defaultState(_ environment: [String: String]) -> String {
        if let s = environment["XDG_STATE_HOME"], s.hasPrefix("/") { return s + "/eventd/reminders.json" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/eventd/reminders.json"
    }

    func run(_ env: CommandEnvironment) throws {
        let view = ViewFields(tz: tz.map { Zone.ianaName(for: $0) ?? $0 }, days: 2, calendars: calendars)
        // The events' own VALARMs are in the database, not in the feed: read them where
        // this user may (the system service's database may not be readable; then only
        // --before offsets remind, and we say so once).
        let store: EventStore?
        do { store = try StoreAccess.openExisting(env) } catch {
            printError("the events' own alarms are not used: \(error)")
            store = nil
        }
        if let store { try StoreAccess.requireCalendars(calendars, in: store) }
        let handler = Run(planner: ReminderPlanner(befores: befores),
                          log: SentLog(path: state ?? Self.defaultState(env.environment)),
                          notifier: DesktopNotifier(way: way, environment: env.environment), store: store)
        try FeedFollower(view: view, resume: nil, waitForDaemon: true).run(env, handler)
    }

    /// The follower's handler: plan, record, then show.
    struct Run: FeedFollower.Handler {
        var planner: ReminderPlanner
        var log: SentLog
        let notifier: DesktopNotifier
        let store: EventStore?
        var events: [BarEvent] = []
        var alarms: [String: [Int64]] = [:]
        var alarmsFailing = false
        var zone = Zone.utc

        mutating func changed(_ events: [BarEvent], zone: Zone, now: Int64) throws {
            self.events = events
            self.zone = zone
            if let store {
                // A failed read keeps the alarms last read (the database may be mid-replace),
                // and says why once, not at every change.
                do {
                    alarms = try store.alarms(uids: events.map(\.uid))
                    alarmsFailing = false
                } catch {
                    if !alarmsFailing { printError("cannot read the events' alarms (keeping the last read): \(error)") }
                    alarmsFailing = true
                }
            }
            try fire(now)
        }

        mutating func wake(now: Int64) throws { try fire(now) }
        // While eventd is down the last known events still remind.
        mutating func lost(now: Int64) throws { try fire(now) }

        /// The next reminder's time, and at least once a minute (a missed wake-up, a
        /// suspended machine).
        func nextWake(after now: Int64) -> Int64 { min(planner.nextDue(events, alarms: alarms, after: now) ?? now + 60, now + 60) }

        private mutating func fire(_ now: Int64) throws {
            let plan = planner.plan(events, alarms: alarms, now: now, zone: zone, sent: log.sent)
            guard !plan.record.isEmpty else { return }
            // Recorded before shown: a crash in between loses one notification, never repeats one.
            do { try log.record(plan.record, now: now) } catch {
                throw CommandFailure.ioFailure("eventctl: cannot record reminders in \(log.path.terminalSafe): \(error)")
            }
            for reminder in plan.show {
                do { try notifier.show(reminder) } catch {
                    printError("reminder for \(reminder.title.terminalSafe) not shown: \(error)")
                }
            }
        }
    }
}
