import CommandLineKit

/// A subcommand whose one option is `--json` (`calendars`, `status`).
protocol JSONOutputCommand: Subcommand {
    /// Whether `--json` was given.
    init(json: Bool)
}

extension JSONOutputCommand {
    init(_ arguments: ParsedArguments) {
        self.init(json: arguments.has("--json"))
    }

    /// The declaration of such a command: `--json` described by `json`.
    static func declare(_ name: String, abstract: String, overview: String, json: String, examples: [String]) -> CommandSpec {
        CommandSpec("eventctl " + name, abstract: abstract, overview: overview,
                    options: [Option("--json", help: json)], examples: examples)
    }
}
