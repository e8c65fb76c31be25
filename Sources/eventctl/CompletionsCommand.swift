import CommandLineKit

/// `eventctl completions bash|zsh|fish`: prints the shell completion script, generated
/// from the commands' declarations (`make completions` writes them to completions/).
struct CompletionsCommand: Subcommand {
    static let shells = ["bash", "zsh", "fish"]

    static let spec = CommandSpec(
        "eventctl completions", abstract: "Print a shell completion script.",
        overview: "Print the completion script for bash, zsh or fish.",
        discussion: """
        The scripts complete subcommands, options and their values (--format, --empty-days,
        --tz, calendar names from the database) and .ics files for import. `make install`
        installs them where each shell looks; to load one by hand, see EXAMPLES.
        """,
        arguments: [Positional("<shell>", help: "bash, zsh or fish.", completion: .choices(shells))],
        options: [],
        examples: [
            "source <(eventctl completions bash)        # in ~/.bashrc",
            "source <(eventctl completions zsh)         # in ~/.zshrc, after compinit",
            "eventctl completions fish > ~/.config/fish/completions/eventctl.fish",
            "eventctl completions bash > ~/.local/share/bash-completion/completions/eventctl",
        ])

    var shell: String

    init(_ arguments: ParsedArguments) throws {
        shell = arguments.positionals[0]
        guard Self.shells.contains(shell) else {
            throw UsageError("unknown shell '\(shell)'", hint: "expected one of: " + Self.shells.joined(separator: ", "))
        }
    }

    func run(_ env: CommandEnvironment) throws {
        switch shell {
        case "bash": print(BashCompletion.script(for: EventCTL.spec))
        case "zsh": print(ZshCompletion.script(for: EventCTL.spec))
        default: print(FishCompletion.script(for: EventCTL.spec))
        }
    }
}
