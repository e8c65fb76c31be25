import CommandLineKit
import Foundation
import Testing

@Suite struct GeneratedTextTests {
    @Test func manPageListsAreRenewedBetweenMarkers() {
        let page = """
        .SH OPTIONS
        .\\" BEGIN GENERATED OPTIONS: tool
        stale
        .\\" END GENERATED OPTIONS
        .SS list
        .\\" BEGIN GENERATED OPTIONS: tool list
        .\\" END GENERATED OPTIONS
        .\\" BEGIN GENERATED OPTIONS: unknown
        kept
        .\\" END GENERATED OPTIONS
        """
        let renewed = ManPage.renew(page, tools: [SampleTool.spec])
        #expect(!renewed.contains("stale"))
        #expect(renewed.contains("kept"))
        #expect(renewed.contains(".TP\n.BI \\-\\-db \" PATH\"\nThe database.\n"))
        #expect(renewed.contains(".TP\n.BR \\-h \", \" \\-\\-help\nShow help information.\n"))
        #expect(renewed.contains(".TP\n.B \\-\\-json\nPrint JSON.\n"))
        // A subcommand's list names neither the inherited options nor --help.
        let list = renewed.components(separatedBy: "GENERATED OPTIONS: tool list\n")[1]
        #expect(!list.prefix(while: { $0 != "u" }).contains("\\-\\-db"))
        #expect(ManPage.renew(renewed, tools: [SampleTool.spec]) == renewed)
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
