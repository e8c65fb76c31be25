extension CommandSpec {
    /// Parses `argv` (after the command's name) against the declared options and
    /// positionals, plus `inherited` options of the parent. Every problem is a
    /// one-line `UsageError` (exit status 64).
    public func parse(_ argv: [String], inherited: [Option] = []) throws(UsageError) -> ParsedArguments {
        let known = options + inherited
        var scanner = ArgumentScanner(argv, command: name)
        var parsed = ParsedArguments()
        while let token = scanner.next() {
            switch token {
            case .positional(let text):
                guard !self.arguments.isEmpty else { throw strayPositional(text) }
                if let last = self.arguments.last, !last.isRepeatable, parsed.positionals.count >= self.arguments.count {
                    throw UsageError("unexpected argument '\(text)'", hint: "usage: \(synopsis)")
                }
                parsed.positionals.append(text)
            case .option(let given, let inline):
                try record(given, inline: inline, among: known, from: &scanner, into: &parsed)
            }
        }
        if let missing = self.arguments.first, !missing.isOptional, parsed.positionals.isEmpty {
            throw UsageError("missing \(missing.name)", hint: "usage: \(synopsis)")
        }
        for option in options where option.isRequired && parsed.values[option.name] == nil {
            throw UsageError("missing \(option.name) \(option.value ?? "")", hint: "usage: \(synopsis)")
        }
        return parsed
    }

    /// Finds option `given` among `known`, reads and checks its value, and records it.
    func record(_ given: String, inline: String?, among known: [Option], from scanner: inout ArgumentScanner,
                into parsed: inout ParsedArguments) throws(UsageError) {
        guard let option = known.first(where: { $0.name == given || $0.short == given }) else {
            if let nearest = Self.nearest(given, among: known.map(\.name) + [Option.help.name]) {
                throw UsageError("unknown option '\(given)'", hint: "did you mean '\(nearest)'?")
            }
            throw scanner.unknown(given)
        }
        guard option.takesValue else {
            if inline != nil { throw scanner.noValue(given) }
            parsed.values[option.name, default: []].append("")
            return
        }
        let text = try scanner.value(for: option.name, inline: inline)
        try validate(text, for: option)
        parsed.values[option.name, default: []].append(text)
    }

    private func strayPositional(_ text: String) -> UsageError {
        if let option = strayPositionalOption {
            return UsageError("unexpected argument '\(text)'", hint: "did you mean '\(name) \(option) \(text)'?")
        }
        return UsageError("unexpected argument '\(text)'", hint: helpHint)
    }

    private func validate(_ text: String, for option: Option) throws(UsageError) {
        if let words = option.completion.choices, !words.contains(text) {
            throw UsageError("invalid value '\(text)' for \(option.name): expected \(Self.list(words))")
        }
        switch option.validation {
        case .any:
            break
        case .integer(let range):
            guard let n = Int(text), range.contains(n) else {
                throw UsageError("invalid value '\(text)' for \(option.name): expected an integer in \(range.lowerBound)...\(range.upperBound)",
                                 hint: helpHint)
            }
        case .seconds(let max):
            guard let n = Double(text), n > 0, n <= max else {
                throw UsageError("invalid value '\(text)' for \(option.name): expected seconds, more than 0", hint: helpHint)
            }
        case .custom(let check):
            if let message = check(text) { throw UsageError(message) }
        }
    }

    /// The word of `candidates` nearest `word`, as git suggests a command: the fewest
    /// edits (a swap of neighbours counts one), at most a third of the word's length (at
    /// least 1), and no other candidate as near. Nil when nothing is near enough.
    public static func nearest(_ word: String, among candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        let scored = candidates.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }.filter { $0.1 <= limit }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return scored.filter { $0.1 == best.1 && $0.0 != best.0 }.isEmpty ? best.0 : nil
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps
    /// of neighbours (`improt` is one from `import`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        guard !x.isEmpty else { return y.count }
        guard !y.isEmpty else { return x.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[x.count][y.count]
    }

    /// `a`, `a or b`, `a, b or c`.
    static func list(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}

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
