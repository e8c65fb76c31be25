import Foundation

/// The roff that `ManPage` writes: option lists, synopses, and text escaped so that
/// roff prints it as `--help` does.
extension ManPage {
    /// The `.TP` list of a command: its arguments and options; `-h, --help` only for a
    /// tool itself (a subcommand's help is described once, on the tool).
    public static func options(of spec: CommandSpec, isTool: Bool) -> String {
        var entries = spec.arguments.map {
            ".TP\n.I \(escape($0.name.trimmingCharacters(in: ["<", ">"])))\n" + body($0.help, $0.details)
        }
        let options = isTool ? spec.optionsWithHelp : spec.ownOptions
        entries += options.map { ".TP\n" + tag($0) + "\n" + body($0.help, $0.details) }
        return entries.joined(separator: "\n")
    }

    /// `.B \-\-json`, `.BI \-\-days " N"`, `.BR \-h ", " \-\-help`.
    static func tag(_ option: Option) -> String {
        if let short = option.short { return ".BR \(escape(short)) \", \" \(escape(option.name))" }
        if let value = option.value { return ".BI \(escape(option.name)) \" \(escape(value))\"" }
        return ".B \(escape(option.name))"
    }

    /// The help text, then the details, in roff: the same words as `--help`.
    static func body(_ help: String, _ details: String?) -> String {
        guard let details else { return escapeLines(help) }
        // The details are sentences after the help's: end the help as one.
        return escapeLines(help + (help.hasSuffix(".") ? "\n" : ".\n") + details)
    }

    /// Lines of plain text as roff lines.
    static func escapeLines(_ text: String) -> String {
        text.split(separator: "\n").map { escape(String($0)) }.joined(separator: "\n")
    }

    /// Text as roff reads it: backslashes and dashes escaped, other than ASCII as
    /// `\[u00E9]` for é (troff reads bytes), no line taken for a request.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
            default: escaped += "\\[u" + String(format: "%04X", scalar.value) + "]"
            }
        }
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// A command line of EXAMPLES: escaped, with straight quotes (`\(aq`).
    static func exampleLine(_ text: String) -> String {
        escape(text).replacingOccurrences(of: "'", with: "\\(aq")
    }

    /// A one-line description as NAME shows it: lower case first (unless an acronym),
    /// no final period.
    static func phrase(_ text: String) -> String {
        var text = text.hasSuffix(".") ? String(text.dropLast()) : text
        if let first = text.first, !(text.dropFirst().first?.isUppercase ?? false) { text = first.lowercased() + text.dropFirst() }
        return text
    }

    /// Synopsis units (`[--days N]`, `<file>...`, `add|list`) in roff with inline fonts:
    /// options and literal words bold, placeholders italic, brackets and bars roman.
    static func synopsisLine(_ units: [String]) -> String {
        units.flatMap { $0.split(separator: " ") }.map { synopsisWord(String($0)) }.joined(separator: " ")
    }

    private static func synopsisWord(_ word: String) -> String {
        var core = Substring(word)
        var lead = ""
        var trail = ""
        while core.first == "[" { lead += "["; core = core.dropFirst() }
        while true {
            if core.hasSuffix("...") { trail = "..." + trail; core = core.dropLast(3) }
            else if core.hasSuffix("]") { trail = "]" + trail; core = core.dropLast() }
            else { break }
        }
        let parts = core.split(separator: "|", omittingEmptySubsequences: false).map { part -> String in
            if part.hasPrefix("<"), part.hasSuffix(">") { return "\\fI" + escape(String(part.dropFirst().dropLast())) + "\\fR" }
            // NAME, EPOCH:SEQ, URL: a placeholder; --days, add, ndjson: typed as shown.
            let isPlaceholder = !part.hasPrefix("-") && part.contains(where: \.isLetter) && part == part.uppercased()
            return (isPlaceholder ? "\\fI" : "\\fB") + escape(String(part)) + "\\fR"
        }
        return lead + parts.joined(separator: "|") + trail
    }
}
