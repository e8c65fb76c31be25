import CommandLineKit

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
