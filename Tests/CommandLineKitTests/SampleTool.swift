import CommandLineKit

/// A small tool declared the way eventctl is: global options and two subcommands.
enum SampleTool {
    static let list = CommandSpec(
        "tool list", abstract: "List things.", overview: "List the things.",
        options: [
            Option("--days", value: "N", help: "Number of days, 1-10.", validation: .integer(1...10)),
            Option("--format", value: "FORMAT", help: "plain or json.", completion: .choices(["plain", "json"])),
            Option("--calendar", value: "NAME", help: "Only this calendar\n(repeatable).", completion: .calendar, repeatable: true),
            Option("--json", help: "Print JSON."),
        ],
        examples: ["tool list --days 3"])

    static let remove = CommandSpec(
        "tool remove", abstract: "Remove a thing.", overview: "Remove one thing.",
        options: [Option("--name", value: "NAME", help: "The thing.", required: true)],
        examples: ["tool remove --name x"], strayPositionalOption: "--name")

    static let load = CommandSpec(
        "tool load", abstract: "Load files.", overview: "Load files.",
        arguments: [Positional("<file>", help: "A file.", completion: .file(extension: "ics"), repeatable: true)],
        options: [Option("--wait", value: "SECONDS", help: "How long.", validation: .seconds(max: 60))],
        examples: ["tool load a.ics"])

    static let spec = CommandSpec(
        "tool", abstract: "A tool.", overview: "Do things.",
        options: [Option("--db", value: "PATH", help: "The database.", completion: .file(), inherited: true), .version],
        examples: ["tool list"], subcommands: [list, remove, load])
}
