import Agenda
import CommandLineKit
import Diagnostics
import EventStore
import FeedClientKit
import FeedProtocol
import Foundation
import ICalendar
import LiveSources
import RuntimeDirectories

/// The one table from errors to exit statuses (docs/data-model.md), at the command
/// layer: the libraries throw their own typed errors and know nothing of processes;
/// eventctl, eventd and eventd-web end through this table. Its rows here are every
/// program's (the store, the parser, the client's socket); the servers add the rows of
/// their own errors (`ErrorTable.servers`, in ServerOptions), so that eventctl's table
/// imports no daemon or gateway module. A new error type that may end a program gets its
/// row in one of the two (and in `ExitStatusTests`).
public struct ErrorTable: Sendable {
    /// A program's own rows: the status of an error type, nil for any other.
    public typealias Rows = @Sendable (any Error) -> ExitStatus?

    private let programRows: Rows

    /// The shared rows, then `rows` for the errors only one program throws.
    public init(adding rows: @escaping Rows) { programRows = rows }

    /// eventctl's table: the shared rows alone.
    public static let commands = ErrorTable(adding: { _ in nil })

    /// The status of the error types the table knows; nil for any other.
    func row(_ error: any Error) -> ExitStatus? { Self.sharedRow(error) ?? programRows(error) }

    /// The rows every program shares.
    static func sharedRow(_ error: any Error) -> ExitStatus? {
        switch error {
        // The command layer's own errors (CommandLineKit's, the executables').
        case let error as any ExitStatusProviding: return error.exitStatus
        // The input is not iCalendar.
        case is ICalendarSyntaxError: return .dataError
        // A bad calendar name comes from the command line (64); the rest is the data (65).
        case let error as StoreError:
            switch error {
            case .invalidCalendarName, .invalidColor: return .usage
            default: return .dataError
            }
        case let error as ImportError:
            if case .invalidCalendarName = error { return .usage }
            return .dataError
        // Busy or I/O 74, not a database 65, anything else 70 (a bug in a statement).
        case let error as SQLiteError:
            if error.isBusy || error.isIOError { return .ioError }
            return error.isNotADatabase ? .dataError : .software
        // The path adds words, not a class.
        case let error as DatabaseFailure: return sharedRow(error.underlying) ?? systemStatus(error.underlying) ?? .software
        // A source named twice or not at all: the input names something wrong.
        case is LiveSourceError: return .dataError
        // A vdir event file that could not be written, read or deleted.
        case is VdirEventFile.Failure: return .ioError
        // A view comes from the command line's options (a zone, a range); a calendar the
        // database does not have is the data (65, in every command).
        case let error as ViewError: return error.unknownCalendar == nil ? .usage : .dataError
        // The daemon refused a subscription: by its code, as a view of ours is (a calendar
        // it does not have 65, any other view 64); any other refusal, or no daemon, 69.
        case let failure as SubscriptionMachine.Failure:
            guard case .refused(let error) = failure, error.code == .invalidView else { return .unavailable }
            return error.unknownCalendar == nil ? .usage : .dataError
        // A scheme eventd does not fetch is a usage error; a missing or unusable target
        // is missing input.
        case let error as SourcePlanner.Problem:
            if case .unsupported = error { return .usage }
            return .noInput
        // eventd refuses a squattable directory as an I/O error; eventctl's daemon
        // commands report it as `CommandFailure.daemonUnavailable` instead (69).
        case is UnsafeDirectoryError: return .ioError
        // A daemon that cannot be reached or trusted.
        case is FeedSocket.Unavailable, is FeedSocket.UntrustedPeer: return .unavailable
        default: return nil
        }
    }

    /// The exit status for `error`: its row, then the system's errors, else 70.
    public func status(for error: any Error) -> ExitStatus {
        row(error) ?? Self.systemStatus(error) ?? .software
    }

    /// Whether `error` is one a program expects (a row of the table, or a system error
    /// with a status of its own), rather than a bug: 70 from anything else is an
    /// internal error.
    public func isExpected(_ error: any Error) -> Bool {
        row(error) != nil || (Self.systemStatus(error) ?? .software) != .software
    }

    /// The one-line message for `error` (after `PROGRAM: `): the error's own text, its
    /// hint for usage errors, and "internal error" for what nothing expected.
    public func message(for error: any Error) -> String {
        let text: String
        if let usage = error as? UsageError {
            text = usage.line
        } else if !isExpected(error) {
            text = "internal error: \(error)"
        } else {
            text = "\(error)"
        }
        // One line, always (docs/data-model.md): messages may quote multi-line SQL or input.
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// POSIX errors 74; Foundation's file errors: missing or unreadable input 66, other
    /// file I/O 74. (Checked by domain: on Linux any NSError casts to CocoaError.)
    private static func systemStatus(_ error: any Error) -> ExitStatus? {
        if error is POSIXError { return .ioError }
        let error = error as NSError
        guard error.domain == NSCocoaErrorDomain else { return nil }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile, .fileReadNoPermission: return .noInput
        case .fileReadUnknown, .fileWriteUnknown, .fileWriteNoPermission, .fileWriteOutOfSpace, .fileWriteVolumeReadOnly: return .ioError
        default: return nil
        }
    }
}

extension ExitStatus {
    /// The exit status for `error` in eventctl's table (`ErrorTable.commands`).
    public static func `for`(_ error: any Error) -> ExitStatus { ErrorTable.commands.status(for: error) }

    /// The one-line message for `error` (`ErrorTable.commands`).
    public static func message(for error: any Error) -> String { ErrorTable.commands.message(for: error) }
}

extension CommandSpec {
    /// The start of a daemon's `main`: parses the process's arguments and returns what
    /// `configure` makes of them. `--help`, `--version` and `__man` print and exit 0; a
    /// usage or configuration error exits through `fail(with:table:)`.
    public func configure<Configuration>(table: ErrorTable, _ configure: (ParsedArguments) throws -> Configuration) -> Configuration {
        let parsed: (command: CommandSpec, arguments: ParsedArguments)?
        do { parsed = try dispatch(Array(CommandLine.arguments.dropFirst())) } catch { fail(with: error, table: table) }
        guard let arguments = parsed?.arguments else { Foundation.exit(ExitStatus.success.rawValue) }
        do { return try configure(arguments) } catch { fail(with: error, table: table) }
    }

    /// Writes `error` as one line (`PROGRAM: message`, after `linePrefix`, such as a
    /// journal level) on standard error and exits with its status in `table`.
    public func fail(with error: any Error, table: ErrorTable, linePrefix: String = "") -> Never {
        FileHandle.standardError.write(Data("\(linePrefix)\(name): \(table.message(for: error))\n".utf8))
        Foundation.exit(table.status(for: error).rawValue)
    }
}
