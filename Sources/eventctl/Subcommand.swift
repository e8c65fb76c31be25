import CommandLineKit
import Diagnostics
import Foundation
import RuntimeDirectories

/// The shape every subcommand has (swift-argument-parser style): a declaration, an
/// initialiser from the parsed arguments, and the work.
protocol Subcommand: Sendable {
    /// Options, arguments and help, declared once.
    static var spec: CommandSpec { get }
    /// Takes the parsed arguments; throws `UsageError` for combinations the
    /// declaration cannot express.
    init(_ arguments: ParsedArguments) throws
    func run(_ env: CommandEnvironment) throws
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

/// `--db` and `--socket`: global options, accepted before or after the subcommand.
enum PathOptions {
    static let database = Option.value(
        "--db", "PATH", help: "Database (default: \(PathDefaults.databaseHelp))", details: PathDefaults.databaseDetails,
        completion: .file(), inherited: true)

    static let socket = Option.value(
        "--socket", "PATH", help: "Daemon socket (default: \(PathDefaults.socketHelp))", details: PathDefaults.firstApplies,
        completion: .file(), inherited: true)
}

/// A subcommand whose one option is `--json` (`calendars`, `status`).
protocol JSONOutputCommand: Subcommand {
    /// `--json`, described for this command.
    static var json: OptionKey<Bool> { get }
    /// Whether `--json` was given.
    init(json: Bool)
}

extension JSONOutputCommand {
    init(_ arguments: ParsedArguments) {
        self.init(json: arguments[Self.json])
    }

    /// The declaration of such a command: `--json` (`json`) its one option.
    static func declare(_ name: String, abstract: String, overview: String, examples: [String]) -> CommandSpec {
        CommandSpec("eventctl " + name, abstract: abstract, overview: overview, options: [json], examples: examples)
    }
}

/// Writes `eventctl: MESSAGE` to standard error.
func printError(_ message: String) {
    // One line, always (docs/data-model.md): messages may quote multi-line input.
    let line = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    // Messages quote calendar text (warnings name the file's content): made safe too.
    FileHandle.standardError.write(Data(("eventctl: " + line.terminalSafe + "\n").utf8))
}

/// Writes a line to standard error, without the prefix.
func printStandardError(_ message: String) {
    FileHandle.standardError.write(Data((message.terminalSafe + "\n").utf8))
}

/// The message for a daemon that cannot be reached, with how to start one.
enum DaemonHint {
    static func unavailable(_ path: String, _ reason: String) -> String {
        "no daemon is listening on \(path) (\(reason)); start it with `eventd` or `systemctl --user start eventd.socket`"
    }
}
