import Foundation
import CommandErrors
import CommandLineKit
import Diagnostics

/// The eventctl tool: its declaration and the dispatch to its subcommands.
enum EventCTL {
    static let commands: [any Subcommand.Type] = [
        ImportCommand.self, AgendaCommand.self, CalendarsCommand.self,
        RemoveCommand.self, ExportCommand.self, SubscribeCommand.self, WatchCommand.self, RemindCommand.self, StatusCommand.self,
        SourceCommand.self, EventFileCommands.New.self, EventFileCommands.Edit.self, EventFileCommands.Delete.self, CompletionsCommand.self,
    ]

    /// The tool: its global options and its subcommands.
    static let spec = CommandSpec(
        "eventctl", abstract: "Manage eventd calendars and watch the live agenda feed.",
        overview: "Manage eventd calendars and watch the live agenda feed.",
        usage: "eventctl [--db PATH] [--socket PATH] <subcommand> [options]",
        options: [PathOptions.database, PathOptions.socket, Option.version,
                  Option("--help", short: "-h", help: "Show help information.",
                         details: "After a subcommand, that subcommand's help.")],
        examples: [
            "eventctl import work.ics",
            "eventctl agenda --days 7",
            "eventctl subscribe --format pretty",
            "eventctl --db /var/lib/eventd/events.db --socket /run/eventd/feed.sock status",
        ],
        subcommands: commands.map { $0.spec })

    static func main(_ argv: [String]) -> Int32 {
        do {
            guard let (command, arguments) = try spec.dispatch(argv),
                  let type = commands.first(where: { $0.spec.name == command.name }) else { return ExitStatus.success.rawValue }
            let env = CommandEnvironment(environment: ProcessInfo.processInfo.environment,
                                         database: arguments[PathOptions.database], socket: arguments[PathOptions.socket])
            try type.init(arguments).run(env)
            return ExitStatus.success.rawValue
        } catch {
            printError(ExitStatus.message(for: error))
            return ExitStatus.for(error).rawValue
        }
    }
}
