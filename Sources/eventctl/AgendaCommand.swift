import Foundation
import Agenda
import EventStore
import ICalendar
import Support

/// The view options shared by `agenda` and `subscribe`.
struct ViewOptions {
    var from: CivilDate?
    var days: Int?
    var pastDays: Int?
    var tz: String?
    var calendars: [String] = []
    var emptyDays: View.EmptyDays?

    /// Consumes a view option; false when `token` is not one.
    mutating func take(_ token: ArgumentScanner.Token, _ scanner: inout ArgumentScanner) throws(UsageError) -> Bool {
        switch token {
        case .option("--from", let inline):
            let text = try scanner.value(for: "--from", inline: inline)
            guard let d = CivilDate(iso: text) else { throw UsageError("invalid date '\(text)' for --from: expected YYYY-MM-DD") }
            from = d
        case .option("--days", let inline): days = try scanner.int(for: "--days", inline: inline, in: View.daysRange)
        case .option("--past-days", let inline): pastDays = try scanner.int(for: "--past-days", inline: inline, in: View.pastDaysRange)
        case .option("--tz", let inline): tz = try scanner.value(for: "--tz", inline: inline)
        case .option("--calendar", let inline): calendars.append(try scanner.value(for: "--calendar", inline: inline))
        case .option("--empty-days", let inline):
            let text = try scanner.value(for: "--empty-days", inline: inline)
            guard let mode = View.EmptyDays(rawValue: text) else {
                throw UsageError("invalid value '\(text)' for --empty-days: expected omit or placeholder")
            }
            emptyDays = mode
        default:
            return false
        }
        return true
    }

    /// The view these options describe (defaults filled in by `View.parse`).
    func view(defaultZone: String, knownCalendars: Set<String>?) throws(ViewError) -> View {
        var object: [String: JSONValue] = [:]
        if let tz { object["tz"] = .string(tz) }
        if let from { object["from"] = .string(from.iso) }
        if let days { object["days"] = .int(Int64(days)) }
        if let pastDays { object["past_days"] = .int(Int64(pastDays)) }
        if !calendars.isEmpty { object["calendars"] = .array(calendars.map { .string($0) }) }
        if let emptyDays { object["empty_days"] = .string(emptyDays.rawValue) }
        return try View.parse(.object(object), defaultZone: defaultZone, knownCalendars: knownCalendars)
    }

    static let help = """
      --from DATE               First date, YYYY-MM-DD (default: today; the window slides).
      --days N                  Number of dates, 1-3660 (default: 14).
      --past-days N             Start N days before today, 0-366 (default: 0).
      --tz ZONE                 IANA time zone (default: the system's).
      --calendar NAME           Only this calendar (repeatable; default: all).
      --empty-days MODE         omit (default) or placeholder.
    """
}

/// `eventctl agenda [view options] [--json]`
struct AgendaCommand: Subcommand {
    static let name = "agenda"
    static let abstract = "Show the date-sectioned agenda."
    static let help = """
    OVERVIEW: Show the agenda: one section per date, events in order.

    With --json, prints exactly the snapshot a subscriber of the same view receives:
    {"view": ..., "digest": ..., "sections": [...]}.

    USAGE: eventctl agenda [--from DATE] [--days N] [--past-days N] [--tz ZONE]
                           [--calendar NAME]... [--empty-days omit|placeholder] [--json]

    OPTIONS:
    \(ViewOptions.help)
      --json                    Print the snapshot as JSON.
      -h, --help                Show help information.

    EXAMPLES:
      eventctl agenda
      eventctl agenda --days 7 --calendar work --tz Europe/Berlin
      eventctl agenda --json | jq '.sections[].items[].summary'
    """

    var options = ViewOptions()
    var json = false

    init(parsing arguments: [String]) throws(UsageError) {
        var scanner = ArgumentScanner(arguments, command: "eventctl agenda")
        while let token = scanner.next() {
            if try options.take(token, &scanner) { continue }
            switch token {
            case .option("--json", nil): json = true
            case .option(let name, .some) where ["--json"].contains(name): throw scanner.noValue(name)
            case .option(let name, _): throw scanner.unknown(name)
            case .positional(let p): throw UsageError("unexpected argument '\(p)'", hint: "see 'eventctl agenda --help'")
            }
        }
    }

    func run(_ env: CommandEnvironment) throws -> ExitStatus {
        let store = try StoreAccess.openExisting(env)
        do {
            let known = Set(try store.calendarNames())
            let view: View
            do {
                view = try options.view(defaultZone: AgendaClock.systemZoneName(environment: env.environment), knownCalendars: known)
            } catch {
                throw CommandFailure(status: .usage, message: error.description)
            }
            let snapshot = try SnapshotBuilder.build(view, store: store, now: AgendaClock(environment: env.environment).now())
            if json {
                FileHandle.standardOutput.write(Data(snapshot.agendaJSON + [10]))
            } else {
                let color = isatty(1) != 0 && (env.environment["NO_COLOR"] ?? "").isEmpty
                print(AgendaFormatter(color: color).render(snapshot))
            }
            return .success
        } catch let e as SQLiteError {
            throw StoreAccess.failure(e, path: store.path)
        } catch let e as ViewError {
            // The data makes the window too large (SnapshotEngine.maxItems).
            throw CommandFailure(status: .dataError, message: e.description)
        }
    }
}
