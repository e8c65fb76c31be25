import CommandLineKit
import Testing

@Suite struct HelpTextTests {
    @Test func subcommandHelpLayout() {
        #expect(SampleTool.list.helpText == """
        OVERVIEW: List the things.

        USAGE: tool list [--days N] [--format plain|json] [--calendar NAME]... [--json]

        OPTIONS:
          --days N          Number of days, 1-10.
          --format FORMAT   plain or json.
          --calendar NAME   Only this calendar
                            (repeatable).
          --json            Print JSON.
          -h, --help        Show help information.

        EXAMPLES:
          tool list --days 3
        """)
    }

    @Test func toolHelpListsSubcommands() {
        let text = SampleTool.spec.helpText
        #expect(text.contains("SUBCOMMANDS:\n  list        List things.\n  remove      Remove a thing.\n"))
        #expect(text.contains("  --db PATH    The database.\n  --version    Show the version.\n  -h, --help   Show help information."))
        #expect(text.contains("USAGE: tool [--db PATH]\n") == false)
    }

    @Test func longSynopsesWrapUnderTheFirstWord() {
        let options = (1...8).map { Option("--option-\($0)", value: "VALUE", help: "") }
        let text = CommandSpec("t sub", abstract: "", overview: "", options: options, examples: []).helpText
        let usage = text.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasPrefix("USAGE:") }.prefix { !$0.isEmpty }
        #expect(usage.count > 1)
        for line in usage {
            #expect(line.count <= 80)
            if !line.hasPrefix("USAGE:") { #expect(line.hasPrefix(String(repeating: " ", count: "USAGE: t sub ".count) + "[")) }
        }
    }
}
