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
