/// A usage error: exit status 64, one line, and a hint.
public struct UsageError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: String
    public var hint: String?

    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    public var description: String { message }
}

/// Reads command-line arguments the way swift-argument-parser does: `--name value`,
/// `--name=value`, flags, repeated options, positionals, and `--` to end options.
public struct ArgumentScanner: Sendable {
    private var arguments: [String]
    private var index = 0
    /// The command name used in error hints (`eventctl import`).
    public let command: String

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

    /// An integer value in `range`.
    public mutating func int(for name: String, inline: String?, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        let text = try value(for: name, inline: inline)
        guard let v = Int(text), range.contains(v) else {
            throw UsageError("invalid value '\(text)' for \(name): expected an integer in \(range.lowerBound)...\(range.upperBound)",
                             hint: "see '\(command) --help'")
        }
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
