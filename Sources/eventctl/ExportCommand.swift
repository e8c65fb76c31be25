import Foundation
import CommandLineKit
import Diagnostics
import EventStore

/// `eventctl export [--calendar NAME]...`
struct ExportCommand: Subcommand {
    static let spec = CommandSpec(
        "eventctl export", abstract: "Write calendars as iCalendar to standard output.",
        overview: "Write calendars as one iCalendar document to standard output.",
        discussion: """
        One VCALENDAR: the events as they were imported, after a VTIMEZONE for every TZID
        they use (the file's own, or the tz database's rules for the zone eventd read the
        name as), so other programs read the times as eventd does and importing the
        export into the same calendars changes nothing.
        On a terminal, control characters in calendar text are shown as `agenda` shows them
        (ESC as ^[), one line per content line; to a file or a pipe, the exact iCalendar.
        """,
        options: [calendars],
        examples: ["eventctl export --calendar work > work.ics"])

    static let calendars = Option.values("--calendar", "NAME", help: "Export this calendar (repeatable; default: all).",
                                         completion: .calendar)

    var calendars: [String]

    init(_ arguments: ParsedArguments) {
        calendars = arguments[Self.calendars]
    }

    func run(_ env: CommandEnvironment) throws {
        let store = try StoreAccess.openExisting(env)
        do {
            let text = try store.exportICalendar(calendars: calendars)
            // Whoever wrote the calendar chose its text: raw on a terminal, an escape
            // sequence would retitle or clear it. A file or a pipe gets the exact bytes.
            FileHandle.standardOutput.write(Data((isatty(1) != 0 ? Self.forTerminal(text) : text).utf8))
        } catch StoreError.unknownCalendar(let name) {
            throw StoreAccess.unknownCalendar(name, known: (try? store.calendarNames()) ?? [])
        } catch let e as SQLiteError {
            throw DatabaseFailure(path: store.path, underlying: e)
        }
    }

    /// The export as a terminal shows it: each content line made safe (`TerminalText`),
    /// ended by a plain line feed.
    static func forTerminal(_ text: String) -> String {
        text.split(separator: "\r\n", omittingEmptySubsequences: false).map { TerminalText.sanitized(String($0)) }
            .joined(separator: "\n")
    }
}
