import CommandLineKit
import Testing

@Suite struct ParsingTests {
    func run(_ argv: [String]) throws -> (CommandSpec, ParsedArguments) {
        guard case .run(let command, let parsed) = try SampleTool.spec.resolve(argv) else {
            Issue.record("\(argv) did not resolve to a run")
            throw UsageError("no run")
        }
        return (command, parsed)
    }

    func usageError(_ argv: [String]) -> UsageError? {
        do {
            _ = try SampleTool.spec.resolve(argv)
            return nil
        } catch {
            return error
        }
    }

    @Test func valuesFlagsAndRepeats() throws {
        let (command, parsed) = try run(["--db", "a.db", "list", "--days=3", "--calendar", "x", "--calendar=y", "--json"])
        #expect(command.name == "tool list")
        #expect(parsed[SampleTool.database] == "a.db")
        #expect(parsed[SampleTool.days] == 3)
        #expect(parsed[SampleTool.calendars] == ["x", "y"])
        #expect(parsed[SampleTool.json])
        #expect(parsed[SampleTool.format] == nil)
        #expect(!parsed.has(SampleTool.format))
    }

    @Test func inheritedOptionsAfterTheSubcommand() throws {
        let (_, parsed) = try run(["list", "--db=b.db"])
        #expect(parsed[SampleTool.database] == "b.db")
    }

    @Test func positionalsAndEndOfOptions() throws {
        let (_, parsed) = try run(["load", "a.ics", "--", "--b.ics"])
        #expect(parsed.positionals == ["a.ics", "--b.ics"])
    }

    @Test func anOptionalPositionalMayBeLeftOut() throws {
        let files = Positional("FILE", help: "", repeatable: true, optional: true)
        let spec = CommandSpec("t", abstract: "", overview: "", arguments: [files], options: [], examples: [])
        #expect(try spec.parse([]).positionals.isEmpty)
        #expect(try spec.parse(["a", "b"]).positionals == ["a", "b"])
        #expect(files.synopsis == "[FILE...]")
        let required = CommandSpec("t", abstract: "", overview: "", arguments: [Positional("FILE", help: "")], options: [], examples: [])
        #expect(throws: UsageError.self) { try required.parse([]) }
    }

    @Test func helpAndVersion() throws {
        guard case .help(let text) = try SampleTool.spec.resolve(["list", "--days", "x", "-h"]) else {
            Issue.record("no help")
            return
        }
        #expect(text.hasPrefix("OVERVIEW: List the things."))
        guard case .version = try SampleTool.spec.resolve(["--version"]) else {
            Issue.record("no version")
            return
        }
        guard case .manual(let directory) = try SampleTool.spec.resolve(["__man", "man/fragments/tool"]),
              directory == "man/fragments/tool" else {
            Issue.record("no manual")
            return
        }
    }

    @Test func usageErrors() {
        let cases: [([String], String, String?)] = [
            ([], "missing subcommand", "see 'tool --help'"),
            (["bogus"], "unknown subcommand 'bogus'", "see 'tool --help'"),
            (["--bogus"], "unknown option '--bogus'", "see 'tool --help'"),
            (["list", "--bogus"], "unknown option '--bogus'", "see 'tool list --help'"),
            (["list", "--days"], "missing value for --days", "see 'tool list --help'"),
            (["list", "--days", "11"], "invalid value '11' for --days: expected an integer in 1...10", "see 'tool list --help'"),
            (["list", "--format", "xml"], "invalid value 'xml' for --format: expected plain or json", nil),
            (["list", "--json=yes"], "option '--json' takes no value", "see 'tool list --help'"),
            (["list", "extra"], "unexpected argument 'extra'", "see 'tool list --help'"),
            (["remove"], "missing --name NAME", "usage: tool remove --name NAME"),
            (["remove", "x"], "unexpected argument 'x'", "did you mean 'tool remove --name x'?"),
            (["load"], "missing <file>", "usage: tool load <file>... [--wait SECONDS]"),
            (["load", "a", "--wait", "0"], "invalid value '0' for --wait: expected seconds, more than 0", "see 'tool load --help'"),
        ]
        for (argv, message, hint) in cases {
            let error = usageError(argv)
            #expect(error?.message == message, "\(argv)")
            #expect(error?.hint == hint, "\(argv)")
        }
    }

    @Test func customValidation() throws {
        let even = Option.value("--even", "N", as: Int.self, help: "",
                                validation: .custom { (Int($0) ?? 1) % 2 == 0 ? nil : "'\($0)' is odd" })
        let spec = CommandSpec("t", abstract: "", overview: "", options: [even], examples: [])
        #expect(throws: UsageError("'3' is odd")) { try spec.parse(["--even", "3"]) }
        #expect(try spec.parse(["--even", "4"])[even] == 4)
    }
}

@Suite struct OptionDescriptionTests {
    /// Completion menus show the help's first sentence without its parentheses.
    @Test func summaryIsDerivedFromTheHelp() {
        let cases = [
            ("Number of dates, 1-3660 (default: 14).", "Number of dates, 1-3660"),
            ("Only this calendar (repeatable; default: all).", "Only this calendar"),
            ("ndjson (default: every line), pretty, or line.", "ndjson, pretty, or line"),
            ("Target calendar (default: the file's name;\n\"stdin\" for -). 1-64 characters", "Target calendar"),
            ("Database (default: $A,\n$B)", "Database"),
        ]
        for (help, summary) in cases {
            #expect(Option("--x", help: help).summary == summary, "\(help)")
        }
    }
}
