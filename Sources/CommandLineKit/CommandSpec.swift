/// A command declared once, in the style of swift-argument-parser: what it takes and
/// how to describe it. `parse`, `helpText`, the completion scripts and the man pages'
/// option lists are generated from it.
public struct CommandSpec: Sendable {
    /// The full name (`eventctl agenda`).
    public var name: String
    /// One line for the parent's SUBCOMMANDS list and completion menus.
    public var abstract: String
    /// The OVERVIEW line of `--help`.
    public var overview: String
    /// Paragraphs after the overview, if any.
    public var discussion: String?
    /// The synopsis after `USAGE:`; generated from the arguments and options when nil.
    public var usage: String?
    /// Positional arguments.
    public var arguments: [Positional]
    /// Options, without `-h, --help` (every command has it).
    public var options: [Option]
    /// EXAMPLES lines (a `#` comment may follow the command).
    public var examples: [String]
    /// Subcommands (for the root of a tool).
    public var subcommands: [CommandSpec]
    /// The name of the option whose value a stray positional probably is (`remove work`
    /// for `remove --calendar work`): the usage error suggests it. Given as the option's
    /// key, so it names a declared option.
    public var strayPositionalOption: String?

    /// Declares a command; see the properties for the meaning of each argument.
    public init(_ name: String, abstract: String, overview: String, discussion: String? = nil, usage: String? = nil,
                arguments: [Positional] = [], options: [any OptionDeclaring], examples: [String],
                subcommands: [CommandSpec] = [], strayPositionalOption: (any OptionDeclaring)? = nil) {
        self.name = name
        self.abstract = abstract
        self.overview = overview
        self.discussion = discussion
        self.usage = usage
        self.arguments = arguments
        self.options = options.map(\.option)
        self.examples = examples
        self.subcommands = subcommands
        self.strayPositionalOption = strayPositionalOption?.option.name
    }

    /// The last word of the name (`agenda`).
    public var commandName: String { String(name.split(separator: " ").last ?? "") }

    /// The options inherited by subcommands (`--db`, `--socket`).
    public var inheritedOptions: [Option] { options.filter(\.isInherited) }

    /// The options with `-h, --help` (declared, or the standard one).
    public var optionsWithHelp: [Option] {
        options.contains { $0.name == Option.help.name } ? options : options + [.help]
    }

    /// The options other than `-h, --help` and the inherited ones: what is the
    /// command's own.
    public var ownOptions: [Option] { options.filter { !$0.isInherited && $0.name != Option.help.name } }

    /// The subcommand called `name`.
    public func subcommand(_ name: String) -> CommandSpec? { subcommands.first { $0.commandName == name } }

    /// The hint of most usage errors.
    var helpHint: String { "see '\(name) --help'" }

    /// The synopsis: `usage`, or the name, the arguments and the options.
    public var synopsis: String { ([name] + synopsisUnits).joined(separator: " ") }

    /// The synopsis after the name, in units that a line break must not split.
    var synopsisUnits: [String] {
        if let usage { return usage.dropFirst(name.count).split(separator: " ").map(String.init) }
        return arguments.map(\.synopsis) + ownOptions.filter { $0.name != Option.version.name }.map(\.synopsis)
    }
}

/// What `CommandSpec.parse` found: option values, and positionals. Every value has
/// passed its option's validation. Options are read by their typed keys
/// (`arguments[ViewOptions.days]`), never by name.
public struct ParsedArguments: Sendable, Equatable {
    /// The positional arguments, in order.
    public var positionals: [String] = []
    /// The values given for each option (long name), in order; a flag's value is "".
    var values: [String: [String]] = [:]

    /// An empty result (no options, no positionals).
    public init() {}

    /// The option's value, of the key's type.
    public subscript<Value>(key: OptionKey<Value>) -> Value { key.read(values[key.option.name] ?? []) }

    /// Whether the option was given at all.
    public func has(_ declaration: some OptionDeclaring) -> Bool { values[declaration.option.name] != nil }
}

/// The defaults of `--db` and `--socket` (`RuntimePaths.resolve`) as help texts and man
/// pages list them: eventctl and eventd resolve the paths alike, so they say it alike.
/// The man pages show the same text (`ManPage` derives roff from help texts).
public enum PathDefaults {
    /// For `--help`: two lines, the second to be indented under the first.
    public static let databaseHelp = """
        $EVENTD_DB, $STATE_DIRECTORY/events.db,
        $XDG_STATE_HOME/eventd/events.db, ~/.local/state/eventd/events.db
        """

    /// For `--help`: two lines, the second to be indented under the first.
    public static let socketHelp = """
        $EVENTD_SOCKET, $RUNTIME_DIRECTORY/feed.sock,
        $XDG_RUNTIME_DIR/eventd/feed.sock, /tmp/eventd-$UID/feed.sock
        """

    /// For the man page, after either list: how the list is read.
    public static let firstApplies = "The first that applies is used."

    /// For the man page of a client's `--db`: the list, and why it matches eventd's.
    public static let databaseDetails = firstApplies + " The rules are eventd(1)'s, so with no options the two meet."
}

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
