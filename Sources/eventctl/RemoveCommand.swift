import Foundation
import CommandLineKit
import EventStore
import Diagnostics

/// `eventctl remove --calendar NAME`
struct RemoveCommand: Subcommand {
    static let spec = CommandSpec(
        "eventctl remove", abstract: "Delete a calendar and its events.",
        overview: "Delete a calendar with all its events and sources.",
        options: [calendar],
        examples: ["eventctl remove --calendar holidays"],
        strayPositionalOption: calendar)

    static let calendar = Option.value("--calendar", "NAME", help: "The calendar to delete.", completion: .calendar, required: true)

    var calendar: String

    init(_ arguments: ParsedArguments) {
        calendar = arguments[Self.calendar] ?? ""
    }

    func run(_ env: CommandEnvironment) throws {
        let store = try StoreAccess.openExisting(env)
        do {
            let removed = try store.removeCalendar(calendar)
            print("removed calendar \(calendar.terminalSafe) (\(removed) event\(removed == 1 ? "" : "s"))")
            DaemonNotifier.requestRefresh(env)
        } catch StoreError.unknownCalendar(let name) {
            throw StoreAccess.unknownCalendar(name, known: (try? store.calendarNames()) ?? [])
        } catch let e as SQLiteError {
            throw DatabaseFailure(path: store.path, underlying: e)
        }
    }
}
