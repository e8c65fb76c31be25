import CommandLineKit
import Diagnostics
import Foundation
import Testing

@Suite struct GeneratedTextTests {
    @Test func manPageIsGeneratedFromDeclarationsAndFragments() {
        let fragments: ManPage.Fragments = [
            "description": ".B tool\ndoes things.",
            "subcommands/list": "Lists the things.",
            "exit-status/69": "The thing is away.",
            "see-also": ".BR other (1)",
        ]
        let page = ManPage.page(for: SampleTool.spec, fragments: fragments)
        #expect(page.contains(".TH TOOL 1 \"\(ProductVersion.month)\" \"eventd \(ProductVersion.number)\" \"User Commands\"\n"))
        #expect(page.contains(".SH NAME\ntool \\- a tool\n"))
        #expect(page.contains(".SH DESCRIPTION\n.B tool\ndoes things.\n"))
        #expect(page.contains(".TP\n.BI \\-\\-db \" PATH\"\nThe database.\n"))
        #expect(page.contains(".TP\n.BR \\-h \", \" \\-\\-help\nShow help information.\n"))
        // A subcommand: its heading and synopsis, its fragment (or its overview), its own options.
        #expect(page.contains(".SS \"list [\\fB\\-\\-days\\fR \\fIN\\fR] [\\fB\\-\\-format\\fR \\fBplain\\fR|\\fBjson\\fR]"))
        #expect(page.contains("\nLists the things.\n.TP\n.BI \\-\\-days \" N\"\n"))
        #expect(page.contains(".SS \"remove \\fB\\-\\-name\\fR \\fINAME\\fR\"\nRemove one thing.\n"))
        #expect(page.contains(".SS \"load \\fIfile\\fR... [\\fB\\-\\-wait\\fR \\fISECONDS\\fR]\"\n"))
        let list = page.components(separatedBy: ".SS \"list")[1].components(separatedBy: ".SS ")[0]
        #expect(!list.contains("\\-\\-db"))
        // Every exit status with its meaning, and what the page adds.
        for status in ExitStatus.allCases {
            #expect(page.contains(".TP\n.B \(status.rawValue)\n"), "\(status)")
        }
        #expect(page.contains(".B 69\nUnavailable: a daemon or a socket cannot be reached, trusted or set up.\nThe thing is away.\n"))
        #expect(page.contains(".SH EXAMPLES\n.RS 4\n.EX\ntool list\n.EE\n.RE\n.PP\nList things.\n.PP\n.RS 4\n.EX\ntool list \\-\\-days 3\n"))
        #expect(page.hasSuffix(".SH SEE ALSO\n.BR other (1)\n"))
        #expect(!page.contains(".SH FILES"))
    }

    @Test func manPageTextIsEscaped() {
        let spec = CommandSpec("t", abstract: "T.", overview: "T.", options: [
            Option.flag("--x", help: ".starts with a dot\\ and has a back-slash", details: "'quoted"),
        ], examples: ["t --x 'a'"])
        let page = ManPage.page(for: spec, fragments: [:])
        #expect(page.contains(".B \\-\\-x\n\\&.starts with a dot\\e and has a back\\-slash.\n\\&'quoted\n"))
        #expect(page.contains(".EX\nt \\-\\-x \\(aqa\\(aq\n.EE"))
        #expect(ManPage.page(for: CommandSpec("t", abstract: "T.", overview: "a…b", options: [], examples: []), fragments: [:])
            .contains("\na\\[u2026]b\n"))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsNameEveryOptionAndChoice(shell: String) {
        let script: String
        switch shell {
        case "bash": script = BashCompletion.script(for: SampleTool.spec)
        case "zsh": script = ZshCompletion.script(for: SampleTool.spec)
        default: script = FishCompletion.script(for: SampleTool.spec)
        }
        for option in ["--days", "--format", "--calendar", "--json", "--name", "--wait", "--db", "--version"] {
            #expect(script.contains(shell == "fish" ? "-l " + option.dropFirst(2) : option), "\(shell): \(option)")
        }
        for word in ["list", "remove", "load", "plain json", "_calendars"] {
            #expect(script.contains(word), "\(shell): \(word)")
        }
    }

    @Test func bashScriptParses() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString).bash")
        try BashCompletion.script(for: SampleTool.spec).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-n", file.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
