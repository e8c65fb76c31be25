import Foundation
import EventStore
import Support

/// `eventctl remove --calendar NAME`
struct RemoveCommand: Subcommand {
    static let name = "remove"
    static let abstract = "Delete a calendar and its events."
    static let help = """
    OVERVIEW: Delete a calendar with all its events and sources.

    USAGE: eventctl remove --calendar NAME

    OPTIONS:
      --calendar NAME   The calendar to delete.
      -h, --help        Show help information.

    EXAMPLES:
      eventctl remove --calendar holidays
    """

    var calendar: String

    init(parsing arguments: [String]) throws(UsageError) {
        var scanner = ArgumentScanner(arguments, command: "eventctl remove")
        var calendar: String?
        while let token = scanner.next() {
            switch token {
            case .option("--calendar", let inline): calendar = try scanner.value(for: "--calendar", inline: inline)
            case .option(let name, _): throw scanner.unknown(name)
            case .positional(let p):
                throw UsageError("unexpected argument '\(p)'", hint: "did you mean 'eventctl remove --calendar \(p)'?")
            }
        }
        guard let calendar else { throw UsageError("missing --calendar NAME", hint: "usage: eventctl remove --calendar NAME") }
        self.calendar = calendar
    }

    func run(_ env: CommandEnvironment) throws -> ExitStatus {
        let store = try StoreAccess.openExisting(env)
        do {
            let removed = try store.removeCalendar(calendar)
            print("removed calendar \(calendar) (\(removed) event\(removed == 1 ? "" : "s"))")
            DaemonNotifier.requestRefresh(socketPath: env.paths.socket)
            return .success
        } catch StoreError.unknownCalendar(let name) {
            let known = (try? store.calendarNames()) ?? []
            let hint = known.isEmpty ? "" : "; calendars: " + known.joined(separator: ", ")
            throw CommandFailure(status: .dataError, message: "no calendar named \"\(name)\"\(hint)")
        } catch let e as SQLiteError {
            throw StoreAccess.failure(e, path: store.path)
        }
    }
}
