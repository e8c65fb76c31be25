import Foundation

/// The option lists of the man pages, generated from the commands' declarations and
/// renewed in place between marker comments:
///
///     .\" BEGIN GENERATED OPTIONS: eventctl import
///     ...
///     .\" END GENERATED OPTIONS
///
/// Everything outside the markers is hand-written prose and stays as it is.
public enum ManPage {
    static let begin = ".\\\" BEGIN GENERATED OPTIONS: "
    static let end = ".\\\" END GENERATED OPTIONS"

    /// The `.TP` list of a command: its arguments and options; `-h, --help` only for a
    /// tool itself (a subcommand's help is described once, on the tool).
    public static func options(of spec: CommandSpec, isTool: Bool) -> String {
        var entries = spec.arguments.map { ".TP\n.I \(escape($0.name.trimmingCharacters(in: ["<", ">"])))\n" + body($0.help, $0.details) }
        let options = isTool ? spec.optionsWithHelp : spec.ownOptions
        entries += options.map { ".TP\n" + tag($0) + "\n" + body($0.help, $0.details) }
        return entries.joined(separator: "\n")
    }

    /// `page` with every generated block replaced by the list of the command it names
    /// (`tools` and their subcommands); a block naming an unknown command is kept.
    public static func renew(_ page: String, tools: [CommandSpec]) -> String {
        var output: [Substring] = []
        var skipping = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if skipping {
                guard line == end else { continue }
                skipping = false
            }
            output.append(line)
            guard line.hasPrefix(begin) else { continue }
            let name = line.dropFirst(begin.count)
            if let tool = tools.first(where: { $0.name == name }) {
                output.append(Substring(options(of: tool, isTool: true)))
                skipping = true
            } else if let command = tools.lazy.flatMap(\.subcommands).first(where: { $0.name == name }) {
                output.append(Substring(options(of: command, isTool: false)))
                skipping = true
            }
        }
        return output.joined(separator: "\n")
    }

    /// `.B \-\-json`, `.BI \-\-days " N"`, `.BR \-h ", " \-\-help`.
    static func tag(_ option: Option) -> String {
        if let short = option.short { return ".BR \(escape(short)) \", \" \(escape(option.name))" }
        if let value = option.value { return ".BI \(escape(option.name)) \" \(escape(value))\"" }
        return ".B \(escape(option.name))"
    }

    /// The help text, then the details, in roff: the same words as `--help`.
    static func body(_ help: String, _ details: String?) -> String {
        (help + (details.map { "\n" + $0 } ?? "")).split(separator: "\n").map { escape(String($0)) }.joined(separator: "\n")
    }

    /// Text as roff reads it: backslashes and dashes escaped, no line taken for a request.
    static func escape(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
