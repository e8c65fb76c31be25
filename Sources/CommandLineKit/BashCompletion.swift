/// The bash completion script of a tool, generated from its declaration.
public enum BashCompletion {
    /// The whole script (`eventctl completions bash`).
    public static func script(for tool: CommandSpec) -> String {
        let model = CompletionModel(tool: tool)
        let fn = "_" + model.identifier
        var parts = [header(tool.name)]
        if model.usesCalendars { parts.append(calendars(model)) }
        if model.usesZones { parts.append(zones(fn)) }
        parts.append(main(model, fn))
        parts.append("complete -F \(fn) \(tool.name)")
        return parts.joined(separator: "\n\n")
    }

    static func header(_ name: String) -> String {
        """
        # bash completion for \(name), generated from its option declarations.
        # Installed as share/bash-completion/completions/\(name); `\(name) completions bash`
        # prints it. To load it by hand: source <(\(name) completions bash)
        """
    }

    /// `--db | --socket`
    static func pattern(_ options: [Option]) -> String { options.map(\.name).joined(separator: " | ") }

    static func calendars(_ model: CompletionModel) -> String {
        let globals = pattern(model.globalValueOptions)
        return #"""
        # Calendar names from `\#(model.tool.name) calendars`, with the \#(globals.replacingOccurrences(of: " | ", with: "/")) given so far.
        _\#(model.identifier)_calendars()
        {
            local -a args=()
            local i word
            for ((i = 1; i < COMP_CWORD; i++)); do
                word=${COMP_WORDS[i]}
                case $word in
                    \#(globals))
                        if [[ ${COMP_WORDS[i + 1]} == = ]]; then ((i++)); fi
                        args+=("$word" "${COMP_WORDS[i + 1]/#\~/$HOME}")
                        ((i++))
                        ;;
                esac
            done
            command \#(model.tool.name) "${args[@]}" calendars 2>/dev/null | awk 'NR > 1 && NF >= 2 { print $1 }'
        }
        """#
    }

    static func zones(_ fn: String) -> String {
        """
        # IANA time zone names.
        \(fn)_zones()
        {
            echo UTC
            awk '!/^#/ { print $3 }' /usr/share/zoneinfo/zone1970.tab 2>/dev/null
        }
        """
    }

    /// The commands that fill COMPREPLY with what `completion` offers for "$cur".
    static func reply(_ completion: Completion, _ fn: String) -> String {
        switch completion {
        case .none: return ""
        case .file(let ext?):
            let glob = CompletionModel.caseInsensitiveGlob(ext)
            return "compopt -o filenames 2>/dev/null\nmapfile -t COMPREPLY < <(compgen -f -X '!\(glob)' -- \"$cur\"; compgen -d -- \"$cur\")"
        case .file(nil): return "compopt -o filenames 2>/dev/null\nmapfile -t COMPREPLY < <(compgen -f -- \"$cur\")"
        case .directory: return "compopt -o filenames 2>/dev/null\nmapfile -t COMPREPLY < <(compgen -d -- \"$cur\")"
        case .calendar: return "mapfile -t COMPREPLY < <(compgen -W \"$(\(fn)_calendars)\" -- \"$cur\")"
        case .timeZone: return "mapfile -t COMPREPLY < <(compgen -W \"$(\(fn)_zones)\" -- \"$cur\")"
        case .choices(let words): return "mapfile -t COMPREPLY < <(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")"
        }
    }

    static func indent(_ text: String, _ spaces: Int) -> String {
        let pad = String(repeating: " ", count: spaces)
        return text.split(separator: "\n").map { pad + $0 }.joined(separator: "\n")
    }

    /// One `case $prev` arm per distinct completion of option values.
    static func valueCases(_ model: CompletionModel, _ fn: String) -> String {
        var groups: [(Completion, [Option])] = []
        for option in model.valueOptions {
            if let i = groups.firstIndex(where: { $0.0 == option.completion }) { groups[i].1.append(option) } else { groups.append((option.completion, [option])) }
        }
        return groups.map { completion, options in
            let body = reply(completion, fn)
            return indent(pattern(options) + ")\n" + (body.isEmpty ? "" : indent(body, 4) + "\n") + "    return\n    ;;", 8)
        }.joined(separator: "\n")
    }

    static func main(_ model: CompletionModel, _ fn: String) -> String {
        let tool = model.tool
        let rootWords = tool.optionsWithHelp.map(\.name).joined(separator: " ")
        let names = tool.subcommands.map(\.commandName)
        let arms = tool.subcommands.map { command in
            "        \(command.commandName)) options=\"\(model.options(of: command).map(\.name).joined(separator: " "))\" ;;"
        }.joined(separator: "\n")
        let positionalArms = tool.subcommands.compactMap { command -> String? in
            guard let argument = command.arguments.first, argument.completion != .none else { return nil }
            return "    \(command.commandName))\n" + indent(reply(argument.completion, fn), 8) + "\n        ;;"
        }.joined(separator: "\n")
        return #"""
        \#(fn)()
        {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
            # --option=value is split at "=" (COMP_WORDBREAKS): complete the value.
            if [[ $cur == = ]]; then
                cur=
            elif [[ $prev == = ]]; then
                prev=${COMP_WORDS[COMP_CWORD - 2]}
            fi
            COMPREPLY=()

            case $prev in
        \#(valueCases(model, fn))
            esac

            # The subcommand: the first word that is neither an option nor an option's value.
            local subcommand= i
            for ((i = 1; i < COMP_CWORD; i++)); do
                case ${COMP_WORDS[i]} in
                    \#(pattern(tool.options.filter(\.takesValue))))
                        if [[ ${COMP_WORDS[i + 1]} == = ]]; then ((i++)); fi
                        ((i++))
                        ;;
                    -*) ;;
                    *)
                        subcommand=${COMP_WORDS[i]}
                        break
                        ;;
                esac
            done

            if [[ -z $subcommand ]]; then
                if [[ $cur == -* ]]; then
                    mapfile -t COMPREPLY < <(compgen -W "\#(rootWords)" -- "$cur")
                else
                    mapfile -t COMPREPLY < <(compgen -W "\#(names.joined(separator: " "))" -- "$cur")
                fi
                return
            fi

            local options
            case $subcommand in
        \#(arms)
                *) return ;;
            esac

            if [[ $cur == -?* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
                return
            fi
            case $subcommand in
        \#(indent(positionalArms, 4))
            esac
        }
        """#
    }
}
