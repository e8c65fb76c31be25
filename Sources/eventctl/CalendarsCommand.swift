import Foundation
import CommandLineKit
import EventStore
import CanonicalJSON
import Diagnostics

/// `eventctl calendars [--json]`, `eventctl calendars --calendar NAME --color '#rrggbb'`
struct CalendarsCommand: Subcommand {
    static let spec = CommandSpec(
        "eventctl calendars", abstract: "List calendars with their event counts and sources.",
        overview: "List calendars with their event counts, colours and source files, or give one a colour.",
        discussion: """
        A calendar's colour is the one given with --color, else its own from its files
        (COLOR or X-APPLE-CALENDAR-COLOR); eventd's status carries it to every dashboard.
        """,
        options: [json, calendar, color],
        examples: ["eventctl calendars", "eventctl calendars --json | jq '.calendars[].name'",
                   "eventctl calendars --calendar work --color '#1f77b4'"])

    static let json = Option.flag("--json", help: "Print JSON.")
    static let calendar = Option.value("--calendar", "NAME", help: "With --color: the calendar to colour.", completion: .calendar)
    static let color = Option.value("--color", "COLOUR", help: "Give the calendar this colour (#rgb or #rrggbb; \"\": its own again).")

    var json: Bool
    var calendar: String?
    var color: String?

    init(_ arguments: ParsedArguments) {
        json = arguments[Self.json]
        calendar = arguments[Self.calendar]
        color = arguments[Self.color]
    }

    func run(_ env: CommandEnvironment) throws {
        let store = try StoreAccess.openExisting(env)
        if let value = color {
            guard let name = calendar else { throw UsageError("--color needs --calendar NAME: eventctl calendars --calendar NAME --color '#rrggbb'") }
            do {
                try store.setCalendarColor(name, value.isEmpty ? nil : value)
            } catch let e as SQLiteError { throw DatabaseFailure(path: store.path, underlying: e) }
            print(value.isEmpty ? "calendar \(name.terminalSafe) has its own colour again" : "calendar \(name.terminalSafe) is \(value.terminalSafe)")
            DaemonNotifier.requestRefresh(env)
            return
        }
        if calendar != nil { throw UsageError("--calendar goes with --color") }
        let calendars: [CalendarInfo]
        do { calendars = try store.calendars() } catch let e as SQLiteError { throw DatabaseFailure(path: store.path, underlying: e) }
        if json {
            let value = JSONValue.object(["calendars": .array(calendars.map { c in
                .object(["name": .string(c.name), "events": .int(Int64(c.events)), "color": c.color.map { .string($0) } ?? .null,
                         "sources": .array(c.sources.map { .string($0) })])
            })])
            print(value.canonicalString())
        } else if calendars.isEmpty {
            print("no calendars; import one with `eventctl import FILE`")
        } else {
            let width = max(8, calendars.map(\.name.terminalSafe.count).max() ?? 0)
            print("NAME".padding(toLength: width, withPad: " ", startingAt: 0) + "  EVENTS  COLOUR   SOURCES")
            for c in calendars {
                let count = String(c.events)
                print(c.name.terminalSafe.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                      + String(repeating: " ", count: max(0, 6 - count.count)) + count + "  "
                      + (c.color ?? "-").terminalSafe.padding(toLength: 7, withPad: " ", startingAt: 0) + "  "
                      + Self.sourcesColumn(c.sources).terminalSafe)
            }
        }
    }

    /// More files than this from one directory (a vdir) show as the directory and a count.
    static let filesListed = 3

    /// The SOURCES column: files by name, but a directory's many files (a vdirsyncer
    /// collection of hundreds) as `DIR/ (N files)`, in the order first seen.
    static func sourcesColumn(_ sources: [String]) -> String {
        var directories: [String] = []
        var byDirectory: [String: [String]] = [:]
        for path in sources {
            let directory = path.hasPrefix("/") ? String(path[..<path.lastIndex(of: "/")!]) + "/" : ""
            if byDirectory[directory] == nil { directories.append(directory) }
            byDirectory[directory, default: []].append(path)
        }
        return directories.flatMap { directory -> [String] in
            let files = byDirectory[directory]!
            return directory.isEmpty || files.count <= filesListed ? files : ["\(directory) (\(files.count) files)"]
        }.joined(separator: ", ")
    }
}
