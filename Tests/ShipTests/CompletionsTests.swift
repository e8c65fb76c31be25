import Foundation
import Testing

/// `eventctl completions SHELL` prints exactly the scripts in completions/ (which
/// `make install` installs; `make completions` writes them from the binary), and the
/// scripts cover every subcommand.
@Suite struct CompletionsTests {
    static let files = ["bash": "completions/eventctl.bash", "zsh": "completions/_eventctl", "fish": "completions/eventctl.fish"]

    @Test(arguments: ["bash", "zsh", "fish"])
    func printsTheFileInCompletions(shell: String) throws {
        let r = try Ship.product("eventctl", ["completions", shell])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let file = try Ship.read(Self.files[shell]!)
        #expect(r.stdout == file,
                "`eventctl completions \(shell)` differs from \(Self.files[shell]!): run `make completions` and commit the result")
    }

    @Test func unknownShellIsAUsageError() throws {
        for arguments in [["completions", "ksh"], ["completions"], ["completions", "bash", "zsh"], ["completions", "--bogus"]] {
            let r = try Ship.product("eventctl", arguments)
            #expect(r.status == 64, "\(arguments)")
            #expect(r.stdout.isEmpty, "\(arguments)")
            #expect(r.stderrLines.count == 1, "\(arguments): \(r.stderr)")
            #expect(r.stderr.hasPrefix("eventctl: "), "\(arguments): \(r.stderr)")
        }
        let r = try Ship.product("eventctl", ["completions", "ksh"])
        for shell in ["bash", "zsh", "fish"] {
            #expect(r.stderr.contains(shell), "\(r.stderr)")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func coversEverySubcommandAndItsOptions(shell: String) throws {
        let script = try Ship.read(Self.files[shell]!)
        // fish names long options without their dashes (`-l days`).
        func mentions(_ option: String) -> Bool {
            shell == "fish" ? script.contains("-l \(option.dropFirst(2))") : script.contains(option)
        }
        let global = HelpTests.options(in: try Ship.product("eventctl", ["--help"]).stdout)
        #expect(global.contains("--db"))
        for option in global where option != "-h" {
            #expect(mentions(option), "\(shell) completion lacks \(option)")
        }
        for command in try HelpTests.subcommands() {
            #expect(script.contains(command), "\(shell) completion lacks the subcommand \(command)")
            let help = try Ship.product("eventctl", [command, "--help"]).stdout
            for option in HelpTests.options(in: help) where option != "-h" {
                #expect(mentions(option), "\(shell) completion lacks \(command) \(option)")
            }
        }
        for value in ["ndjson", "pretty", "omit", "placeholder"] {
            #expect(script.contains(value), "\(shell) completion lacks the value \(value)")
        }
    }

    @Test func bashScriptParses() throws {
        let bash = try #require(Ship.which("bash"))
        let r = try Ship.run(bash, ["-n", Ship.source(Self.files["bash"]!).path])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test(.enabled(if: Ship.which("zsh") != nil, "zsh is not installed: not checking that _eventctl parses"))
    func zshScriptParses() throws {
        let r = try Ship.run(Ship.which("zsh")!, ["-n", Ship.source(Self.files["zsh"]!).path])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test(.enabled(if: Ship.which("fish") != nil, "fish is not installed: not checking that eventctl.fish parses"))
    func fishScriptParses() throws {
        let r = try Ship.run(Ship.which("fish")!, ["-n", Ship.source(Self.files["fish"]!).path])
        #expect(r.status == 0, "\(r.stderr)")
    }
}
