import Foundation
import EventStore
import Support

/// `eventctl export [--calendar NAME]...`
struct ExportCommand: Subcommand {
    static let name = "export"
    static let abstract = "Write calendars as iCalendar to standard output."
    static let help = """
    OVERVIEW: Write calendars as one iCalendar document to standard output.

    The events are written as they were imported, with the VTIMEZONEs they use, so
    importing the export into the same calendar changes nothing.

    USAGE: eventctl export [--calendar NAME]...

    OPTIONS:
      --calendar NAME   Export this calendar (repeatable; default: all).
      -h, --help        Show help information.

    EXAMPLES:
      eventctl export --calendar work > work.ics
    """

    var calendars: [String] = []

    init(parsing arguments: [String]) throws(UsageError) {
        var scanner = ArgumentScanner(arguments, command: "eventctl export")
        while let token = scanner.next() {
            switch token {
            case .option("--calendar", let inline): calendars.append(try scanner.value(for: "--calendar", inline: inline))
            case .option(let name, _): throw scanner.unknown(name)
            case .positional(let p): throw UsageError("unexpected argument '\(p)'", hint: "see 'eventctl export --help'")
            }
        }
    }

    func run(_ env: CommandEnvironment) throws -> ExitStatus {
        let store = try StoreAccess.openExisting(env)
        do {
            let text = try store.exportICalendar(calendars: calendars)
            FileHandle.standardOutput.write(Data(text.utf8))
            return .success
        } catch StoreError.unknownCalendar(let name) {
            throw CommandFailure(status: .dataError, message: "no calendar named \"\(name)\"; see `eventctl calendars`")
        } catch let e as SQLiteError {
            throw StoreAccess.failure(e, path: store.path)
        }
    }
}
