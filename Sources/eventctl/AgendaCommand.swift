import Foundation
import Agenda
import AgendaText
import CommandLineKit
import EventStore

/// `eventctl agenda [view options] [--json]`
struct AgendaCommand: Subcommand {
    static let spec = CommandSpec(
        "eventctl agenda", abstract: "Show the date-sectioned agenda.",
        overview: "Show the agenda: one section per date, events in order.",
        discussion: """
        With --json, prints exactly the snapshot a subscriber of the same view receives:
        {"view": ..., "digest": ..., "sections": [...]}.
        """,
        options: ViewOptions.declarations + [json],
        examples: [
            "eventctl agenda",
            "eventctl agenda --days 7 --calendar work --tz Europe/Berlin",
            "eventctl agenda --json | jq '.sections[].items[].summary'",
        ])

    static let json = Option.flag("--json", help: "Print the snapshot as JSON.")

    var options: ViewOptions
    var json: Bool

    init(_ arguments: ParsedArguments) {
        options = ViewOptions(arguments)
        json = arguments[Self.json]
    }

    func run(_ env: CommandEnvironment) throws {
        let store = try StoreAccess.openExisting(env)
        let options = options.resolved(environment: env.environment)
        do {
            try StoreAccess.requireCalendars(options.calendars, in: store)
            // An invalid zone is a usage error: ViewError.
            let view = try options.view(defaultZone: AgendaClock.systemZoneName(environment: env.environment), knownCalendars: nil)
            let snapshot: AgendaSnapshot
            do {
                snapshot = try SnapshotBuilder.build(view, store: store, now: AgendaClock(environment: env.environment).now())
            } catch let error as ViewError {
                // The data makes the window too large (SnapshotEngine.maxItems).
                throw CommandFailure.badData(error.description)
            }
            if json {
                FileHandle.standardOutput.write(Data(snapshot.agendaJSON + [10]))
            } else {
                let color = isatty(1) != 0 && (env.environment["NO_COLOR"] ?? "").isEmpty
                let colors = ((try? store.calendarColors()) ?? [:]).compactMapValues(CalendarColors.RGB.init(hex:))
                print(AgendaFormatter(color: color, calendarColors: colors).render(snapshot))
            }
        } catch let error as SQLiteError {
            throw DatabaseFailure(path: store.path, underlying: error)
        }
    }
}
