import Foundation
import EventStore
import Support

/// A failure that ends the command with an exit status and a one-line message.
struct CommandFailure: Error {
    var status: ExitStatus
    var message: String
}

/// The shape every subcommand has (swift-argument-parser style).
protocol Subcommand {
    static var name: String { get }
    static var abstract: String { get }
    static var help: String { get }
    init(parsing arguments: [String]) throws(UsageError)
    func run(_ env: CommandEnvironment) throws -> ExitStatus
}

/// What a command may read from the process: environment, paths, streams.
struct CommandEnvironment {
    var environment: [String: String]
    var database: String?
    var socket: String?

    var paths: RuntimePaths {
        RuntimePaths.resolve(database: database, socket: socket, environment: environment, uid: getuid())
    }
}

enum EventCTL {
    static let version = "0.1.0"
    nonisolated(unsafe) static let commands: [any Subcommand.Type] = [
        ImportCommand.self, AgendaCommand.self, CalendarsCommand.self,
        RemoveCommand.self, ExportCommand.self, SubscribeCommand.self, StatusCommand.self,
        CompletionsCommand.self,
    ]

    static var overview: String {
        let list = commands.map { "  " + $0.name.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.abstract }
            .joined(separator: "\n")
        return """
        OVERVIEW: Manage eventd calendars and watch the live agenda feed.

        USAGE: eventctl [--db PATH] [--socket PATH] <subcommand> [options]

        OPTIONS:
          --db PATH       Database (default: $EVENTD_DB, $STATE_DIRECTORY/events.db,
                          $XDG_STATE_HOME/eventd/events.db, ~/.local/state/eventd/events.db)
          --socket PATH   Daemon socket (default: $EVENTD_SOCKET, $RUNTIME_DIRECTORY/feed.sock,
                          $XDG_RUNTIME_DIR/eventd/feed.sock, /tmp/eventd-$UID/feed.sock)
          --version       Show the version.
          -h, --help      Show help information.

        SUBCOMMANDS:
        \(list)

          See 'eventctl <subcommand> --help' for detailed help.

        EXAMPLES:
          eventctl import work.ics
          eventctl agenda --days 7
          eventctl subscribe --format pretty
          eventctl --db /var/lib/eventd/events.db --socket /run/eventd/feed.sock status
        """
    }

    static func main(_ argv: [String]) -> Int32 {
        var env = CommandEnvironment(environment: ProcessInfo.processInfo.environment)
        var args = argv[...]
        // Global options before the subcommand.
        while let first = args.first, first.hasPrefix("-") {
            args = args.dropFirst()
            switch first {
            case "-h", "--help": print(overview); return 0
            case "--version": print("eventctl \(version)"); return 0
            case "--db", "--socket":
                guard let v = args.first else { return usage(UsageError("missing value for \(first)", hint: "see 'eventctl --help'")) }
                args = args.dropFirst()
                if first == "--db" { env.database = v } else { env.socket = v }
            default:
                if first.hasPrefix("--db=") { env.database = String(first.dropFirst(5)); continue }
                if first.hasPrefix("--socket=") { env.socket = String(first.dropFirst(9)); continue }
                return usage(UsageError("unknown option '\(first)'", hint: "see 'eventctl --help'"))
            }
        }
        guard let name = args.first else {
            return usage(UsageError("missing subcommand", hint: "see 'eventctl --help'"))
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            return usage(UsageError("unknown subcommand '\(name)'", hint: "see 'eventctl --help'"))
        }
        var rest = Array(args.dropFirst())
        if rest.contains(where: { $0 == "--help" || $0 == "-h" }) {
            print(command.help)
            return 0
        }
        // --db/--socket are accepted after the subcommand too.
        do {
            rest = try extractPaths(rest, into: &env, command: "eventctl \(name)")
            let parsed = try command.init(parsing: rest)
            return try parsed.run(env).rawValue
        } catch let error as UsageError {
            return usage(error)
        } catch let failure as CommandFailure {
            printError(failure.message)
            return failure.status.rawValue
        } catch {
            printError("internal error: \(error)")
            return ExitStatus.software.rawValue
        }
    }

    static func extractPaths(_ args: [String], into env: inout CommandEnvironment, command: String) throws(UsageError) -> [String] {
        var out: [String] = []
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" { out.append(contentsOf: args[i...]); break }
            if a == "--db" || a == "--socket" {
                guard i + 1 < args.count else { throw UsageError("missing value for \(a)", hint: "see '\(command) --help'") }
                if a == "--db" { env.database = args[i + 1] } else { env.socket = args[i + 1] }
                i += 2
                continue
            }
            if a.hasPrefix("--db=") { env.database = String(a.dropFirst(5)); i += 1; continue }
            if a.hasPrefix("--socket=") { env.socket = String(a.dropFirst(9)); i += 1; continue }
            out.append(a)
            i += 1
        }
        return out
    }

    static func usage(_ error: UsageError) -> Int32 {
        printError(error.message + (error.hint.map { " (\($0))" } ?? ""))
        return ExitStatus.usage.rawValue
    }
}

/// Writes `eventctl: MESSAGE` to standard error.
func printError(_ message: String) {
    // One line, always (SPEC.md section 5): messages may quote multi-line SQL or input.
    let line = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    FileHandle.standardError.write(Data(("eventctl: " + line + "\n").utf8))
}

/// Writes a line to standard error, without the prefix.
func printStandardError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
