import Foundation
import EventStore
import Support

/// `eventctl calendars [--json]`
struct CalendarsCommand: Subcommand {
    static let name = "calendars"
    static let abstract = "List calendars with their event counts and sources."
    static let help = """
    OVERVIEW: List calendars with their event counts and source files.

    USAGE: eventctl calendars [--json]

    OPTIONS:
      --json       Print JSON.
      -h, --help   Show help information.

    EXAMPLES:
      eventctl calendars
      eventctl calendars --json | jq '.calendars[].name'
    """

    var json = false

    init(parsing arguments: [String]) throws(UsageError) {
        var scanner = ArgumentScanner(arguments, command: "eventctl calendars")
        while let token = scanner.next() {
            switch token {
            case .option("--json", nil): json = true
            case .option(let name, .some) where ["--json"].contains(name): throw scanner.noValue(name)
            case .option(let name, _): throw scanner.unknown(name)
            case .positional(let p): throw UsageError("unexpected argument '\(p)'", hint: "see 'eventctl calendars --help'")
            }
        }
    }

    func run(_ env: CommandEnvironment) throws -> ExitStatus {
        let store = try StoreAccess.openExisting(env)
        let calendars: [CalendarInfo]
        do { calendars = try store.calendars() } catch let e as SQLiteError { throw StoreAccess.failure(e, path: store.path) }
        if json {
            let value = JSONValue.object(["calendars": .array(calendars.map { c in
                .object(["name": .string(c.name), "events": .int(Int64(c.events)),
                         "sources": .array(c.sources.map { .string($0) })])
            })])
            print(value.canonicalString())
        } else if calendars.isEmpty {
            print("no calendars; import one with `eventctl import FILE`")
        } else {
            let width = max(8, calendars.map(\.name.count).max() ?? 0)
            print("NAME".padding(toLength: width, withPad: " ", startingAt: 0) + "  EVENTS  SOURCES")
            for c in calendars {
                let count = String(c.events)
                print(c.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                      + String(repeating: " ", count: max(0, 6 - count.count)) + count + "  "
                      + c.sources.joined(separator: ", "))
            }
        }
        return .success
    }
}
