import Agenda
import CommandLineKit
import Diagnostics
import EventStore
import Feed
import FeedClientKit
import Foundation
import ICalendar
import LiveSources
import Reactor
import RedisClient
import RuntimeDirectories
import WebGateway

/// The one table from errors to exit statuses (docs/data-model.md), at the command
/// layer: the libraries throw their own typed errors and know nothing of processes;
/// eventctl, eventd and eventd-web end through this table. A new error type that may
/// end a program gets its row here (and in `ExitStatusTests`).
public enum ErrorTable {
    /// The status of the error types the table knows; nil for any other.
    static func row(_ error: any Error) -> ExitStatus? {
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
        case let error as DatabaseFailure: return status(for: error.underlying)
        // A source named twice or not at all: the input names something wrong.
        case is LiveSourceError: return .dataError
        // A view comes from the command line's options (an unknown calendar or zone).
        case is ViewError: return .usage
        // A scheme eventd does not fetch is a usage error; a missing or unusable target
        // is missing input.
        case let error as SourcePlanner.Problem:
            if case .unsupported = error { return .usage }
            return .noInput
        // eventd refuses a squattable directory as an I/O error; eventctl's daemon
        // commands report it as `CommandFailure.daemonUnavailable` instead (69).
        case is UnsafeDirectoryError: return .ioError
        // A daemon, a socket or a service that cannot be reached, trusted or set up; a
        // program that cannot poll its sockets cannot offer its service either.
        case is FeedSocket.Unavailable, is FeedSocket.UntrustedPeer, is SocketSetupError, is ListenError,
             is FeedConnector.Unavailable, is ReactorError, is RedisError:
            return .unavailable
        // The dashboard's files, or the Redis password file, are missing.
        case is StaticAssets.LoadError, is RedisPasswordError: return .noInput
        // A bad `--publish`/`--upstream` value.
        case is RedisURLError: return .usage
        default: return nil
        }
    }

    /// The exit status for `error`: its row, then the system's errors, else 70.
    public static func status(for error: any Error) -> ExitStatus {
        row(error) ?? systemStatus(error) ?? .software
    }

    /// Whether `error` is one a program expects (a row of the table, or a system error
    /// with a status of its own), rather than a bug: 70 from anything else is an
    /// internal error.
    public static func isExpected(_ error: any Error) -> Bool {
        row(error) != nil || (systemStatus(error) ?? .software) != .software
    }

    /// The one-line message for `error` (after `PROGRAM: `): the error's own text, its
    /// hint for usage errors, and "internal error" for what nothing expected.
    public static func message(for error: any Error) -> String {
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
    /// The exit status for `error` (`ErrorTable`).
    public static func `for`(_ error: any Error) -> ExitStatus { ErrorTable.status(for: error) }

    /// The one-line message for `error` (`ErrorTable`).
    public static func message(for error: any Error) -> String { ErrorTable.message(for: error) }
}

extension CommandSpec {
    /// The start of a daemon's `main`: parses the process's arguments and returns what
    /// `configure` makes of them. `--help`, `--version` and `__man` print and exit 0; a
    /// usage or configuration error exits through `fail(with:)`.
    public func configure<Configuration>(_ configure: (ParsedArguments) throws -> Configuration) -> Configuration {
        let parsed: (command: CommandSpec, arguments: ParsedArguments)?
        do { parsed = try dispatch(Array(CommandLine.arguments.dropFirst())) } catch { fail(with: error) }
        guard let arguments = parsed?.arguments else { Foundation.exit(ExitStatus.success.rawValue) }
        do { return try configure(arguments) } catch { fail(with: error) }
    }

    /// Writes `error` as one line (`PROGRAM: message`, after `linePrefix`, such as a
    /// journal level) on standard error and exits with its status.
    public func fail(with error: any Error, linePrefix: String = "") -> Never {
        FileHandle.standardError.write(Data("\(linePrefix)\(name): \(ErrorTable.message(for: error))\n".utf8))
        Foundation.exit(ErrorTable.status(for: error).rawValue)
    }
}
