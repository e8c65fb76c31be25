import Foundation
import CommandLineKit
import EventStore
import CanonicalJSON
import Diagnostics

/// `eventctl calendars [--json]`
struct CalendarsCommand: JSONOutputCommand {
    static let json = Option.flag("--json", help: "Print JSON.")
    static let spec = declare("calendars", abstract: "List calendars with their event counts and sources.", overview: "List calendars with their event counts and source files.",
                              examples: ["eventctl calendars", "eventctl calendars --json | jq '.calendars[].name'"])

    var json: Bool

    func run(_ env: CommandEnvironment) throws {
        let store = try StoreAccess.openExisting(env)
        let calendars: [CalendarInfo]
        do { calendars = try store.calendars() } catch let e as SQLiteError { throw DatabaseFailure(path: store.path, underlying: e) }
        if json {
            let value = JSONValue.object(["calendars": .array(calendars.map { c in
                .object(["name": .string(c.name), "events": .int(Int64(c.events)),
                         "sources": .array(c.sources.map { .string($0) })])
            })])
            print(value.canonicalString())
        } else if calendars.isEmpty {
            print("no calendars; import one with `eventctl import FILE`")
        } else {
            let width = max(8, calendars.map(\.name.terminalSafe.count).max() ?? 0)
            print("NAME".padding(toLength: width, withPad: " ", startingAt: 0) + "  EVENTS  SOURCES")
            for c in calendars {
                let count = String(c.events)
                print(c.name.terminalSafe.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                      + String(repeating: " ", count: max(0, 6 - count.count)) + count + "  "
                      + c.sources.joined(separator: ", ").terminalSafe)
            }
        }
    }
}
