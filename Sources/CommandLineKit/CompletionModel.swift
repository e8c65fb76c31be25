import Foundation

/// What the completion generators share: the options of a tool seen together, and the
/// helper functions the scripts call for calendar names and time zones.
struct CompletionModel {
    let tool: CommandSpec

    /// The tool's name as a shell identifier part (`eventctl`).
    var identifier: String { tool.name.replacingOccurrences(of: "-", with: "_") }

    /// Every option that takes a value, once per name (the first declaration wins).
    var valueOptions: [Option] {
        var seen = Set<String>()
        return (tool.options + tool.subcommands.flatMap(\.options)).filter { $0.takesValue && seen.insert($0.name).inserted }
    }

    /// The global options that take a value (`--db`, `--socket`): passed on to the
    /// `calendars` call that lists calendar names.
    var globalValueOptions: [Option] { tool.inheritedOptions.filter(\.takesValue) }

    /// The options a subcommand accepts: its own, the inherited ones, `--help`.
    func options(of command: CommandSpec) -> [Option] {
        command.ownOptions + tool.inheritedOptions + [.help]
    }

    /// Whether any option or argument completes calendar names.
    var usesCalendars: Bool { all.contains(.calendar) }
    /// Whether any option or argument completes time zones.
    var usesZones: Bool { all.contains(.timeZone) }

    private var all: [Completion] {
        let commands = [tool] + tool.subcommands
        return commands.flatMap { $0.options.map(\.completion) + $0.arguments.map(\.completion) }
    }

    /// `*.[iI][cC][sS]`: a case-insensitive glob for files with `ext`.
    static func caseInsensitiveGlob(_ ext: String) -> String {
        "*." + ext.map { c in c.isLetter ? "[\(c.lowercased())\(c.uppercased())]" : String(c) }.joined()
    }
}
