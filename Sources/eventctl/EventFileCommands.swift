import Foundation
import Agenda
import CommandLineKit
import EventStore
import ICalendar
import LiveSources
import TerminalAgenda
import Threads

/// `eventctl new`, `edit` and `delete`: one event's `.ics` file in a vdir-backed
/// calendar (`VdirEventFile` writes it; watch's n/e/d do the same). eventd shows the
/// change through its vdir watcher; without eventd the source is synchronised here, so
/// that `agenda` shows it too.
enum EventFileCommands {
    /// `eventctl new --calendar NAME --summary TEXT --start WHEN [--end WHEN | --duration D]`
    struct New: Subcommand {
        static let spec = CommandSpec(
            "eventctl new", abstract: "Write a new event into a vdir calendar.",
            overview: "Write one new event as its own .ics file into the directory of a vdir-backed calendar, and print its UID.",
            discussion: """
            WHEN is a date (the forms --from takes: YYYY-MM-DD, today, tomorrow, a weekday, +3d,
            -1w) and a time (HH:MM), in the system's time zone: "tomorrow 12:30",
            "2027-01-04 09:00". Without a time, or with --all-day, the event takes whole days.
            It ends at --end, or --duration after the start (default: 1 hour, or 1 day).
            """,
            options: [calendar, summary, start, end, duration, location, allDay],
            examples: [
                "eventctl new --calendar personal --summary \"Lunch with Kim\" --start \"tomorrow 12:30\" --duration 45m",
                "eventctl new --calendar personal --summary Holiday --start 2027-08-02 --end 2027-08-14 --all-day",
            ])

        static let calendar = Option.value("--calendar", "NAME", help: "The vdir calendar to write to.", completion: .calendar, required: true)
        static let summary = Option.value("--summary", "TEXT", help: "The event's title.", required: true)
        static let start = Option.value("--start", "WHEN", help: "Date and time it starts (\"tomorrow 12:30\").",
                                        validation: .custom { When($0) == nil ? When.invalid($0, "--start") : nil }, required: true)
        static let end = Option.value("--end", "WHEN", help: "Date and time it ends (a time alone: the start's date).",
                                      validation: .custom { When($0) == nil ? When.invalid($0, "--end") : nil })
        static let duration = Option.value("--duration", "DURATION", help: "How long it lasts (45m, 2h, 1d, PT1H30M).",
                                           validation: .custom { DurationText.seconds($0) == nil
                                               ? "invalid value '\($0)' for --duration: expected a duration such as 45m or PT1H" : nil })
        static let location = Option.value("--location", "TEXT", help: "Where it takes place.")
        static let allDay = Option.flag("--all-day", help: "Whole days (the times are ignored).")

        var calendar: String
        var summary: String
        var start: When
        var end: When?
        var duration: Int64?
        var location: String?
        var allDay: Bool

        init(_ arguments: ParsedArguments) throws {
            calendar = arguments[Self.calendar] ?? ""
            summary = arguments[Self.summary] ?? ""
            start = arguments[Self.start].flatMap(When.init) ?? When("today")!
            end = arguments[Self.end].flatMap(When.init)
            duration = arguments[Self.duration].flatMap(DurationText.seconds)
            location = arguments[Self.location]
            allDay = arguments[Self.allDay] || start.time == nil
            if end != nil, duration != nil { throw UsageError("give --end or --duration, not both") }
            if !arguments.positionals.isEmpty { throw UsageError("new takes no argument", hint: "see 'eventctl new --help'") }
        }

        func run(_ env: CommandEnvironment) throws {
            let store = try StoreAccess.openExisting(env)
            let source = try store.vdirForNewEvent(calendar: calendar)
            let zoneName = AgendaClock.systemZoneName(environment: env.environment)
            let zone = Zone.system(zoneName) ?? .utc
            let now = AgendaClock(environment: env.environment).instant()
            let today = zone.local(atUTC: now.unixSeconds).date
            let first = start.resolved(today: today, allDay: allDay)
            var last: CivilDateTime
            if let end {
                last = end.resolved(today: today, allDay: allDay, sameDayAs: first.date)
                // An all-day event's --end is its last day; DTEND is the day after.
                if allDay { last = CivilDateTime(date: last.date.adding(days: 1)) }
            } else if allDay {
                last = CivilDateTime(date: first.date.adding(days: max(1, Int((duration ?? 86_400) / 86_400))))
            } else {
                last = zone.local(atUTC: zone.instant(forLocal: first) + (duration ?? 3600))
            }
            guard last > first else { throw UsageError("the event ends before it starts") }
            let draft = VdirEventFile.Draft(summary: summary, start: first, end: last, allDay: allDay, location: location, zone: zoneName)
            let text = VdirEventFile.text(draft, now: now)
            let path = VdirEventFile.path(forUID: draft.uid, in: source.location)
            try VdirEventFile.write(Array(text.utf8), to: path, exclusive: true)
            print(draft.uid)
            EventFileCommands.syncWithoutDaemon(source, store: store, env)
        }
    }

    /// `eventctl edit UID`
    struct Edit: Subcommand {
        static let spec = CommandSpec(
            "eventctl edit", abstract: "Edit an event of a vdir calendar in $EDITOR.",
            overview: "Open the event's own .ics file (a copy) in $EDITOR, and write the result back.",
            discussion: """
            The result is written back only if it is one valid event and the file still holds
            what was read; if the file changed meanwhile, both are kept (the edit beside it).
            An invalid result writes nothing and says where the text was kept. Events of
            imported calendars and URL sources are read-only (exit 65).
            """,
            arguments: [Positional("<uid>", help: "The event's UID (see agenda --json).")],
            options: [],
            examples: ["EDITOR=nano eventctl edit 0f8e4c3a-…"])

        var uid: String

        init(_ arguments: ParsedArguments) throws { uid = try EventFileCommands.oneUID(arguments, command: "edit") }

        func run(_ env: CommandEnvironment) throws {
            let store = try StoreAccess.openExisting(env)
            let path = try store.editableFile(uid: uid, calendar: nil)
            let outcome = try VdirEventFile.edit(path, environment: env.environment)
            guard !outcome.failed else { throw CommandFailure.badData(outcome.description) }
            print(outcome.description)
            if let source = try store.origins(ofUID: uid).first?.liveSource { EventFileCommands.syncWithoutDaemon(source, store: store, env) }
        }
    }

    /// `eventctl delete UID`
    struct Delete: Subcommand {
        static let spec = CommandSpec(
            "eventctl delete", abstract: "Delete an event of a vdir calendar.",
            overview: "Delete the event's own .ics file from its vdir.",
            discussion: "Events of imported calendars and URL sources are read-only (exit 65).",
            arguments: [Positional("<uid>", help: "The event's UID (see agenda --json).")],
            options: [],
            examples: ["eventctl delete 0f8e4c3a-…"])

        var uid: String

        init(_ arguments: ParsedArguments) throws { uid = try EventFileCommands.oneUID(arguments, command: "delete") }

        func run(_ env: CommandEnvironment) throws {
            let store = try StoreAccess.openExisting(env)
            let path = try store.editableFile(uid: uid, calendar: nil)
            let source = try store.origins(ofUID: uid).first?.liveSource
            try VdirEventFile.delete(path)
            print(VdirEventFile.Outcome.deleted(path: path).description)
            if let source { EventFileCommands.syncWithoutDaemon(source, store: store, env) }
        }
    }

    /// The one UID `edit` and `delete` take.
    static func oneUID(_ arguments: ParsedArguments, command: String) throws -> String {
        guard arguments.positionals.count == 1 else { throw UsageError("\(command) takes one UID", hint: "usage: eventctl \(command) UID") }
        return arguments.positionals[0]
    }

    /// Without a daemon (its vdir watcher would see the change), the source is
    /// synchronised here, so that the database holds the change at once.
    static func syncWithoutDaemon(_ source: LiveSource, store: EventStore, _ env: CommandEnvironment) {
        guard (try? DaemonConnection.open(env)) == nil else { return }
        _ = SourceSyncer(store: store).syncInProcess([source])
    }

    /// The calendars whose source is a vdir (watch's n/e/d); none without a database.
    static func vdirCalendars(_ env: CommandEnvironment) -> Set<String> {
        guard FileManager.default.fileExists(atPath: env.paths.database),
              let store = try? EventStore(path: env.paths.database, readOnly: true),
              let sources = try? store.liveSources() else { return [] }
        return Set(sources.filter { $0.kind == .vdir }.map(\.calendar))
    }

    /// Watch's n/e/d as these commands do them; a new event starts at the next full hour
    /// in the view's `zone`. Returns what to say in the footer.
    static func perform(_ edit: WatchEdit, zone zoneName: String, standalone: Bool, _ env: CommandEnvironment,
                        handOver: () -> Void) -> String {
        do {
            let store = try StoreAccess.openExisting(env)
            let source: LiveSource
            let outcome: VdirEventFile.Outcome
            switch edit {
            case .new(let calendar):
                source = try store.vdirForNewEvent(calendar: calendar)
                let zone = Zone.system(zoneName) ?? .utc
                let now = AgendaClock(environment: env.environment).instant()
                let local = zone.local(atUTC: now.unixSeconds)
                let start = zone.local(atUTC: zone.instant(forLocal: CivilDateTime(date: local.date, hour: local.hour)) + 3600)
                let end = zone.local(atUTC: zone.instant(forLocal: start) + 3600)
                let draft = VdirEventFile.Draft(summary: "New event", start: start, end: end, zone: zoneName)
                outcome = try VdirEventFile.create(in: source.location, template: VdirEventFile.text(draft, now: now),
                                                   environment: env.environment, handOver: handOver)
            case .edit(let calendar, let uid), .delete(let calendar, let uid):
                let path = try store.editableFile(uid: uid, calendar: calendar)
                guard let owner = try store.origins(ofUID: uid, calendar: calendar).first?.liveSource else { return "read-only" }
                source = owner
                if case .delete = edit {
                    try VdirEventFile.delete(path)
                    outcome = .deleted(path: path)
                } else {
                    outcome = try VdirEventFile.edit(path, environment: env.environment, handOver: handOver)
                }
            }
            if standalone { syncWithoutDaemon(source, store: store, env) }
            return outcome.description
        } catch {
            return "\(error)"
        }
    }

    /// A date as `--from` takes it, and an optional time: `tomorrow 12:30`.
    struct When: Sendable {
        var words: String?
        var time: (hour: Int, minute: Int)?

        init?(_ text: String) {
            var parts = text.split(separator: " ").map(String.init)
            if let last = parts.last, let time = Self.time(last) {
                self.time = time
                parts.removeLast()
            }
            words = parts.isEmpty ? nil : parts.joined(separator: " ")
            if words == nil, time == nil { return nil }
            if let words, CivilDate(words: words, today: CivilDate(year: 2000, month: 1, day: 1)) == nil { return nil }
        }

        /// The local date and time, dates read against `today`; no date: `sameDayAs`, else today.
        func resolved(today: CivilDate, allDay: Bool, sameDayAs: CivilDate? = nil) -> CivilDateTime {
            let date = words.flatMap { CivilDate(words: $0, today: today) } ?? sameDayAs ?? today
            guard !allDay, let time else { return CivilDateTime(date: date) }
            return CivilDateTime(date: date, hour: time.hour, minute: time.minute)
        }

        static func time(_ text: String) -> (hour: Int, minute: Int)? {
            let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count == 2, (1...2).contains(pieces[0].count), pieces[1].count == 2,
                  let hour = Int(pieces[0]), let minute = Int(pieces[1]), (0...23).contains(hour), (0...59).contains(minute)
            else { return nil }
            return (hour, minute)
        }

        static func invalid(_ text: String, _ option: String) -> String {
            "invalid value '\(text)' for \(option): expected a date (YYYY-MM-DD, today, tomorrow, a weekday, +3d, -1w) and a time HH:MM"
        }
    }
}
