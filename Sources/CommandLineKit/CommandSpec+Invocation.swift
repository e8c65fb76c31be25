import Foundation
import Diagnostics

/// What a tool's command line asks for.
public enum Invocation: Sendable {
    /// Print this help text and exit 0.
    case help(String)
    /// Print the version and exit 0.
    case version
    /// Hidden `__man DIR`: write the tool's whole man page, with the hand-written
    /// fragments in DIR (`make man`; `ManPage`).
    case manual(fragments: String)
    /// Run `command` (the tool itself, or one of its subcommands) with these arguments
    /// (the global options given before the subcommand included).
    case run(CommandSpec, ParsedArguments)
}

extension CommandSpec {
    /// The word that asks for `Invocation.manual`, followed by the fragments' directory.
    public static let manualWord = "__man"

    /// Resolves a tool's arguments: global options, then the subcommand (when the tool
    /// has subcommands) and its options. `-h`/`--help` anywhere after the subcommand
    /// shows its help, as swift-argument-parser does.
    public func resolve(_ argv: [String]) throws(UsageError) -> Invocation {
        if argv.count == 2, argv[0] == Self.manualWord { return .manual(fragments: argv[1]) }
        guard !subcommands.isEmpty else { return try resolveLeaf(argv, inherited: []) }
        var scanner = ArgumentScanner(argv, command: name)
        var global = ParsedArguments()
        while let token = scanner.next() {
            switch token {
            case .option("-h", _), .option("--help", _):
                return .help(helpText)
            case .option("--version", _) where options.contains { $0.name == "--version" }:
                return .version
            case .option(let given, let inline):
                try record(given, inline: inline, among: options, from: &scanner, into: &global)
            case .positional(let word):
                guard let command = subcommand(word) else {
                    let nearest = Self.nearest(word, among: subcommands.map(\.commandName))
                    throw UsageError("unknown subcommand '\(word)'", hint: nearest.map { "did you mean '\($0)'?" } ?? helpHint)
                }
                switch try command.resolveLeaf(scanner.remaining, inherited: inheritedOptions) {
                case .run(let command, var parsed):
                    for (key, values) in global.values { parsed.values[key, default: []].insert(contentsOf: values, at: 0) }
                    return .run(command, parsed)
                case let other:
                    return other
                }
            }
        }
        throw UsageError("missing subcommand", hint: helpHint)
    }

    private func resolveLeaf(_ argv: [String], inherited: [Option]) throws(UsageError) -> Invocation {
        if argv.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help(helpText) }
        let parsed = try parse(argv, inherited: inherited)
        if parsed.values[Option.version.name] != nil { return .version }
        return .run(self, parsed)
    }
}

extension CommandSpec {
    /// Resolves `argv` and answers what needs no command: prints the help, the version
    /// (`NAME VERSION`, the one `ProductVersion`) or, for `__man DIR`, the whole man
    /// page. Returns the command to run and its arguments otherwise.
    public func dispatch(_ argv: [String]) throws(UsageError) -> (command: CommandSpec, arguments: ParsedArguments)? {
        switch try resolve(argv) {
        case .help(let text):
            print(text)
        case .version:
            print("\(name) \(ProductVersion.number)")
        case .manual(let directory):
            do {
                print(ManPage.page(for: self, fragments: try ManPage.fragments(in: directory)), terminator: "")
            } catch {
                throw UsageError("cannot read the man page fragments in \(directory): \(error)")
            }
        case .run(let command, let arguments):
            return (command, arguments)
        }
        return nil
    }
}
