import Diagnostics

/// A failure a command reports itself, classified by what went wrong; the exit status
/// follows from the class (`exitStatus`), the message is printed as it is.
public enum CommandFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// An input file or the database is missing or unreadable (66).
    case missingInput(String)
    /// The input is not what it should be: not iCalendar, an unknown calendar (65).
    case badData(String)
    /// The daemon cannot be reached or did not answer (69).
    case daemonUnavailable(String)
    /// Reading or writing failed: disk full, read-only, locked (74).
    case ioFailure(String)

    public var description: String {
        switch self {
        case .missingInput(let m), .badData(let m), .daemonUnavailable(let m), .ioFailure(let m): return m
        }
    }
}

extension CommandFailure: ExitStatusProviding {
    /// The status of the failure's class.
    public var exitStatus: ExitStatus {
        switch self {
        case .missingInput: return .noInput
        case .badData: return .dataError
        case .daemonUnavailable: return .unavailable
        case .ioFailure: return .ioError
        }
    }
}

/// An error of the command layer (CommandLineKit's, an executable's own) that says its
/// own exit status; the libraries' errors get theirs from the executables' table
/// (`CommandErrors.ErrorTable`).
public protocol ExitStatusProviding: Error {
    /// The status a program exits with when this error ends it.
    var exitStatus: ExitStatus { get }
}

/// A usage error: exit status 64, one line, and a hint.
public struct UsageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong (`unknown option '--x'`).
    public var message: String
    /// Where to look next (`see 'eventctl agenda --help'`), shown in parentheses.
    public var hint: String?

    /// A usage error with an optional hint.
    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    public var description: String { message }

    /// The message and its hint, as printed after `PROGRAM: `.
    public var line: String { message + (hint.map { " (\($0))" } ?? "") }
}

extension UsageError: ExitStatusProviding {
    /// 64: the command line is wrong.
    public var exitStatus: ExitStatus { .usage }
}
