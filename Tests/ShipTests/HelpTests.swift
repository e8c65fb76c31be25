import Diagnostics
import Foundation
import Testing

/// Golden properties of the help texts, versions and usage errors (docs/data-model.md),
/// and the man pages' agreement with the help texts.
@Suite struct HelpTests {
    static let expectedSubcommands = ["import", "agenda", "calendars", "remove", "export", "subscribe", "watch", "remind", "status", "source", "new", "edit", "delete", "completions"]

    /// The subcommands `eventctl --help` lists.
    static func subcommands() throws -> [String] {
        let help = try Ship.product("eventctl", ["--help"]).stdout
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        var names: [String] = []
        for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { break }
            guard let word = line.split(separator: " ").first, word != "See" else { break }
            names.append(String(word))
        }
        return names
    }

    /// The options named in a help text's OPTIONS section (`--db`, `-h`, ...).
    static func options(in help: String) -> [String] {
        guard let start = help.range(of: "\nOPTIONS:\n") else { return [] }
        let section = help[start.upperBound...]
        var result: [String] = []
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.isEmpty, !line.hasPrefix(" ") { break }  // the next section
            let trimmed = line.drop(while: { $0 == " " })
            guard line.hasPrefix("  "), !line.hasPrefix("                "), trimmed.hasPrefix("-") else { continue }
            for word in trimmed.split(separator: " ") {
                let name = word.trimmingCharacters(in: CharacterSet(charactersIn: ","))
                guard name.hasPrefix("-") else { break }
                result.append(name)
            }
        }
        return result
    }

    static func checkSections(_ r: Ship.Result, _ what: String) {
        #expect(r.status == 0, "\(what)")
        #expect(r.stderr.isEmpty, "\(what): \(r.stderr)")
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "EXAMPLES:"] {
            #expect(r.stdout.contains(section), "\(what) lacks \(section)")
        }
    }

    @Test func eventctlListsItsSubcommands() throws {
        #expect(try Self.subcommands() == Self.expectedSubcommands)
    }

    @Test func everyHelpHasTheFourSections() throws {
        Self.checkSections(try Ship.product("eventctl", ["--help"]), "eventctl --help")
        Self.checkSections(try Ship.product("eventctl", ["-h"]), "eventctl -h")
        for command in try Self.subcommands() {
            Self.checkSections(try Ship.product("eventctl", [command, "--help"]), "eventctl \(command) --help")
            Self.checkSections(try Ship.product("eventctl", [command, "-h"]), "eventctl \(command) -h")
        }
        Self.checkSections(try Ship.product("eventd", ["--help"]), "eventd --help")
        Self.checkSections(try Ship.product("eventd", ["-h"]), "eventd -h")
        Self.checkSections(try Ship.product("eventd-web", ["--help"]), "eventd-web --help")
    }

    @Test func versions() throws {
        let ctl = try Ship.product("eventctl", ["--version"])
        #expect(ctl.status == 0)
        #expect(ctl.stdout == "eventctl \(ProductVersion.number)\n")
        let d = try Ship.product("eventd", ["--version"])
        #expect(d.status == 0)
        #expect(d.stdout == "eventd \(ProductVersion.number)\n")
        let web = try Ship.product("eventd-web", ["--version"])
        #expect(web.status == 0)
        #expect(web.stdout == "eventd-web \(ProductVersion.number)\n")
    }

    /// Exit 64, nothing on standard output, one line on standard error that starts with
    /// the program's name and ends with a hint in parentheses.
    static func checkUsageError(_ program: String, _ arguments: [String]) throws {
        let r = try Ship.product(program, arguments, environment: ["EVENTD_DB": "/nonexistent/events.db",
                                                                   "EVENTD_SOCKET": "/nonexistent/feed.sock"])
        let what = "\(program) \(arguments.joined(separator: " "))"
        #expect(r.status == 64, "\(what): status \(r.status)")
        #expect(r.stdout.isEmpty, "\(what): \(r.stdout)")
        #expect(r.stderr.hasSuffix("\n"), "\(what)")
        #expect(r.stderrLines.count == 1, "\(what): \(r.stderr)")
        let line = r.stderrLines.first ?? ""
        #expect(line.hasPrefix("\(program): "), "\(what): \(line)")
        #expect(line.contains(" (") && line.hasSuffix(")"), "\(what): no hint in \(line)")
    }

    @Test func eventctlUsageErrors() throws {
        let cases: [[String]] = [
            ["--bogus"],                       // unknown global option
            ["agenda", "--bogus"],             // unknown option of a subcommand
            ["import", "--replace=yes", "--bogus"],
            ["--db"],                          // missing argument
            ["agenda", "--days"],
            ["subscribe", "--format"],
            ["import"],                        // missing <file>
            ["remove"],                        // missing --calendar
            ["bogus"],                         // unknown subcommand
            [],                                // missing subcommand
        ]
        for arguments in cases { try Self.checkUsageError("eventctl", arguments) }
    }

    @Test func eventdUsageErrors() throws {
        for arguments in [["--bogus"], ["--db"], ["--interval"], ["serve"]] {
            try Self.checkUsageError("eventd", arguments)
        }
    }

    @Test func eventdWebUsageErrors() throws {
        for arguments in [["--bogus"], ["--listen"], ["--max-streams", "0"], ["serve"], ["--no-auth"],
                          ["--no-auth", "--listen", "[::1]:8787"], ["--no-auth", "--listen", "unix:/x.sock", "--token-file", "/x"]] {
            try Self.checkUsageError("eventd-web", arguments)
        }
        // A bad address: one line that says what is expected.
        let r = try Ship.product("eventd-web", ["--listen", "localhost:80"])
        #expect(r.status == 64)
        #expect(r.stderrLines == ["eventd-web: invalid value 'localhost:80' for --listen: expected 127.0.0.1:PORT, [::1]:PORT or unix:PATH"])
    }

    // MARK: - Man pages

    /// `--name` as roff writes it (`\-\-name`).
    static func roff(_ option: String) -> String { option.replacingOccurrences(of: "-", with: "\\-") }

    @Test func eventctlManPageDocumentsEverySubcommandAndOption() throws {
        let page = try Ship.read("man/eventctl.1")
        for option in Self.options(in: try Ship.product("eventctl", ["--help"]).stdout) {
            #expect(page.contains(Self.roff(option)), "man/eventctl.1 lacks \(option)")
        }
        for command in try Self.subcommands() {
            #expect(page.contains(".SS \"\(command)"), "man/eventctl.1 has no section for \(command)")
            for option in Self.options(in: try Ship.product("eventctl", [command, "--help"]).stdout) where option != "-h" {
                #expect(page.contains(Self.roff(option)), "man/eventctl.1 lacks \(command) \(option)")
            }
        }
    }

    @Test(arguments: [("eventd", 10), ("eventd-web", 7)])
    func daemonManPagesDocumentEveryOption(program: String, atLeast: Int) throws {
        let page = try Ship.read("man/\(program).1")
        let options = Self.options(in: try Ship.product(program, ["--help"]).stdout)
        #expect(options.count > atLeast)
        for option in options {
            #expect(page.contains(Self.roff(option)), "man/\(program).1 lacks \(option)")
        }
    }

    /// The committed pages are what the binaries generate now from their declarations
    /// and man/fragments/PROGRAM/ (`make man` writes them).
    @Test(arguments: ["eventd", "eventctl", "eventd-web"])
    func manPagesAreGenerated(program: String) throws {
        let page = "man/\(program).1"
        let committed = try Ship.read(page)
        let binary = Ship.productsDirectory.appendingPathComponent(program).path
        let r = try Ship.run(binary, ["__man", Ship.source("man/fragments/\(program)").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == committed, "\(page) differs from what \(program) generates: run `make man` and commit the result")
    }

    @Test(arguments: ["man/eventd.1", "man/eventctl.1"])
    func manPagesHaveTheSections(page: String) throws {
        let text = try Ship.read(page)
        var sections = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "SEE ALSO"]
        if page.hasSuffix("eventd.1") { sections.append("SIGNALS") } else { sections.append("SUBCOMMANDS") }
        for section in sections {
            #expect(text.contains(".SH \(section)\n") || text.contains(".SH \"\(section)\"\n"), "\(page) lacks \(section)")
        }
        let environment = text.components(separatedBy: ".SH ENVIRONMENT\n").dropFirst().first?
            .components(separatedBy: "\n.SH ").first ?? ""
        for variable in ["EVENTD_DB", "EVENTD_SOCKET", "STATE_DIRECTORY", "RUNTIME_DIRECTORY", "XDG_STATE_HOME",
                         "XDG_RUNTIME_DIR", "NO_COLOR", "NOTIFY_SOCKET", "LISTEN_FDS"] {
            #expect(environment.contains(variable), "\(page) ENVIRONMENT lacks \(variable)")
        }
        for status in ["0", "64", "65", "66", "69", "70", "74"] {
            #expect(text.contains(".B \(status)\n"), "\(page) EXIT STATUS lacks \(status)")
        }
    }
}
