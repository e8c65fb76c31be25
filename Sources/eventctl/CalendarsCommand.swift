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
