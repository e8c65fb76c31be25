import CommandLineKit

/// A small tool declared the way eventctl is: global options and two subcommands.
enum SampleTool {
    static let days = Option.value("--days", "N", as: Int.self, help: "Number of days, 1-10.", validation: .integer(1...10))
    static let format = Option.value("--format", "FORMAT", help: "plain or json.", completion: .choices(["plain", "json"]))
    static let calendars = Option.values("--calendar", "NAME", help: "Only this calendar\n(repeatable).", completion: .calendar)
    static let json = Option.flag("--json", help: "Print JSON.")
    static let name = Option.value("--name", "NAME", help: "The thing.", required: true)
    static let wait = Option.value("--wait", "SECONDS", as: Double.self, help: "How long.", validation: .seconds(max: 60))
    static let database = Option.value("--db", "PATH", help: "The database.", completion: .file(), inherited: true)

    static let list = CommandSpec(
        "tool list", abstract: "List things.", overview: "List the things.",
        options: [days, format, calendars, json],
        examples: ["tool list --days 3"])

    static let remove = CommandSpec(
        "tool remove", abstract: "Remove a thing.", overview: "Remove one thing.",
        options: [name],
        examples: ["tool remove --name x"], strayPositionalOption: name)

    static let load = CommandSpec(
        "tool load", abstract: "Load files.", overview: "Load files.",
        arguments: [Positional("<file>", help: "A file.", completion: .file(extension: "ics"), repeatable: true)],
        options: [wait],
        examples: ["tool load a.ics"])

    static let spec = CommandSpec(
        "tool", abstract: "A tool.", overview: "Do things.",
        options: [database, Option.version],
        examples: ["tool list"], subcommands: [list, remove, load])
}
