import Diagnostics
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
