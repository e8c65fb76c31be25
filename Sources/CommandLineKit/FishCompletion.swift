import Foundation

/// The fish completion script of a tool, generated from its declaration.
public enum FishCompletion {
    /// The whole script (`eventctl completions fish`).
    public static func script(for tool: CommandSpec) -> String {
        let model = CompletionModel(tool: tool)
        let fn = "__" + model.identifier
        let c = "complete -c \(tool.name)"
        var parts = [header(tool.name)]
        if model.usesCalendars { parts.append(calendars(model, fn)) }
        if model.usesZones { parts.append(zones(fn)) }
        let names = tool.subcommands.map(\.commandName).joined(separator: " ")
        parts.append("""
        set -l subcommands \(names)
        set -l none "not __fish_seen_subcommand_from $subcommands"

        \(c) -f
        """)
        var common = ["# Options of every command.", "\(c)\(line(.help, fn))"]
        common += tool.inheritedOptions.map { c + line($0, fn) }
        common += tool.ownOptions.map { "\(c) -n $none" + line($0, fn) }
        parts.append(common.joined(separator: "\n"))
        parts.append((["# Subcommands."] + tool.subcommands.map {
            "\(c) -n $none -a \($0.commandName) -d \(quoted(phrase($0.abstract)))"
        }).joined(separator: "\n"))
        for command in tool.subcommands {
            let seen = "\(c) -n '__fish_seen_subcommand_from \(command.commandName)'"
            var lines = ["# \(command.synopsis)"]
            if let argument = command.arguments.first, argument.completion != .none {
                lines.append(seen + " -x -a " + values(argument.completion, fn))
            }
            lines += command.ownOptions.map { seen + line($0, fn) }
            parts.append(lines.joined(separator: "\n"))
        }
        return parts.joined(separator: "\n\n")
    }

    static func header(_ name: String) -> String {
        """
        # fish completion for \(name), generated from its option declarations.
        # Installed as share/fish/vendor_completions.d/\(name).fish; `\(name) completions fish`
        # prints it. To load it by hand: \(name) completions fish | source
        """
    }

    /// Text in fish's single quotes.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// The `-a` argument for what `completion` offers.
    static func values(_ completion: Completion, _ fn: String) -> String {
        switch completion {
        case .none: return "''"
        case .file(let ext?): return "'(__fish_complete_suffix .\(ext))'"
        case .file(nil): return "'(__fish_complete_path)'"
        case .directory: return "'(__fish_complete_directories)'"
        case .calendar: return "'(\(fn)_calendars)'"
        case .timeZone: return "'(\(fn)_zones)'"
        case .choices(let words): return quoted(words.joined(separator: " "))
        }
    }

    /// ` -s h -l help -d 'Show help information'`, ` -l tz -x -a '(...)' -d '...'`.
    static func line(_ option: Option, _ fn: String) -> String {
        var text = option.short.map { " -s " + $0.dropFirst() } ?? ""
        text += " -l " + option.name.dropFirst(2)
        if option.takesValue {
            switch option.completion {
            case .none: text += " -x"
            case .file(nil): text += " -r -F"
            default: text += " -x -a " + values(option.completion, fn)
            }
        }
        return text + " -d " + quoted(phrase(option.summary))
    }

    /// A description without its final period, as completion menus show them.
    static func phrase(_ text: String) -> String { text.hasSuffix(".") ? String(text.dropLast()) : text }

    static func calendars(_ model: CompletionModel, _ fn: String) -> String {
        let names = model.globalValueOptions.map(\.name)
        return """
        # Calendar names from `\(model.tool.name) calendars`, with the global options given so far.
        function \(fn)_calendars
            set -l tokens (commandline -opc)
            set -l args
            set -l i 2
            while test $i -le (count $tokens)
                switch $tokens[$i]
                    case \(names.joined(separator: " "))
                        set -l next (math $i + 1)
                        if test $next -le (count $tokens)
                            set -a args $tokens[$i] $tokens[$next]
                        end
                        set i $next
                    case \(names.map { "'\($0)=*'" }.joined(separator: " "))
                        set -a args $tokens[$i]
                end
                set i (math $i + 1)
            end
            command \(model.tool.name) $args calendars 2>/dev/null | awk 'NR > 1 && NF >= 2 { print $1 }'
        end
        """
    }

    static func zones(_ fn: String) -> String {
        """
        # IANA time zone names.
        function \(fn)_zones
            echo UTC
            awk '!/^#/ { print $3 }' /usr/share/zoneinfo/zone1970.tab 2>/dev/null
        end
        """
    }
}
