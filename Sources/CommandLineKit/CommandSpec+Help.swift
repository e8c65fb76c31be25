extension CommandSpec {
    /// The `--help` text: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS, EXAMPLES.
    public var helpText: String {
        var blocks = ["OVERVIEW: " + overview]
        if let discussion { blocks.append(discussion) }
        blocks.append(Self.usageLines(synopsisUnits, name: name))
        let shown = optionsWithHelp
        let width = (arguments.map(\.name.count) + shown.map(\.label.count)).max()! + 3
        if !arguments.isEmpty {
            blocks.append("ARGUMENTS:\n" + arguments.map { Self.row($0.name, $0.help, width: width) }.joined(separator: "\n"))
        }
        blocks.append("OPTIONS:\n" + shown.map { Self.row($0.label, $0.help, width: width) }.joined(separator: "\n"))
        if !subcommands.isEmpty {
            let rows = subcommands.map { Self.row($0.commandName, $0.abstract, width: 12) }
            blocks.append("SUBCOMMANDS:\n" + rows.joined(separator: "\n")
                          + "\n\n  See '\(name) <subcommand> --help' for detailed help.")
        }
        blocks.append("EXAMPLES:\n" + examples.map { "  " + $0 }.joined(separator: "\n"))
        return blocks.joined(separator: "\n\n")
    }

    /// `  label   help`, continuation lines of the help indented to its column.
    static func row(_ label: String, _ help: String, width: Int) -> String {
        let pad = String(repeating: " ", count: 2 + width)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let first = "  " + label + String(repeating: " ", count: max(1, width - label.count)) + lines[0]
        return ([first] + lines.dropFirst().map { pad + $0 }).joined(separator: "\n")
    }

    /// `USAGE: name words...`, broken before a word that would pass column 80; the
    /// continuation lines start under the first word after the name.
    static func usageLines(_ units: [String], name: String) -> String {
        let prefix = "USAGE: " + name
        let indent = String(repeating: " ", count: prefix.count + 1)
        var lines: [String] = []
        var line = prefix
        for word in units {
            if line != prefix, line.count + 1 + word.count > 80 {
                lines.append(line)
                line = indent + word
            } else {
                line += " " + word
            }
        }
        return (lines + [line]).joined(separator: "\n")
    }
}
