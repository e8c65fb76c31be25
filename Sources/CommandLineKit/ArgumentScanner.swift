/// Reads command-line arguments the way swift-argument-parser does: `--name value`,
/// `--name=value`, flags, repeated options, positionals, and `--` to end options.
public struct ArgumentScanner: Sendable {
    private var arguments: [String]
    private var index = 0
    /// The command name used in error hints (`eventctl import`).
    public let command: String

    /// A scanner over `arguments` (without the program name) of `command`.
    public init(_ arguments: [String], command: String) {
        self.arguments = arguments
        self.command = command
    }

    /// One parsed token.
    public enum Token: Equatable, Sendable {
        case option(String, inlineValue: String?)
        case positional(String)
    }

    private var endOfOptions = false

    /// The next token, or nil at the end.
    public mutating func next() -> Token? {
        guard index < arguments.count else { return nil }
        let arg = arguments[index]
        index += 1
        if endOfOptions { return .positional(arg) }
        if arg == "--" {
            endOfOptions = true
            return next()
        }
        if arg.hasPrefix("--") {
            if let eq = arg.firstIndex(of: "=") {
                return .option(String(arg[..<eq]), inlineValue: String(arg[arg.index(after: eq)...]))
            }
            return .option(arg, inlineValue: nil)
        }
        if arg.hasPrefix("-"), arg.count > 1 {
            return .option(arg, inlineValue: nil)
        }
        return .positional(arg)
    }

    /// The arguments not read yet.
    public var remaining: [String] { Array(arguments[index...]) }

    /// The value of option `name`: its inline `=value`, else the next argument.
    public mutating func value(for name: String, inline: String?) throws(UsageError) -> String {
        if let inline { return inline }
        guard index < arguments.count else {
            throw UsageError("missing value for \(name)", hint: "see '\(command) --help'")
        }
        let v = arguments[index]
        index += 1
        return v
    }

    /// The error for an option this command does not have.
    public func unknown(_ name: String) -> UsageError {
        UsageError("unknown option '\(name)'", hint: "see '\(command) --help'")
    }

    /// The error for a flag given a value (`--json=yes`).
    public func noValue(_ name: String) -> UsageError {
        UsageError("option '\(name)' takes no value", hint: "see '\(command) --help'")
    }
}
