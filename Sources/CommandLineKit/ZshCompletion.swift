import Foundation

/// The zsh completion function of a tool, generated from its declaration.
public enum ZshCompletion {
    /// The whole script (`eventctl completions zsh`), an autoloadable `_eventctl`.
    public static func script(for tool: CommandSpec) -> String {
        let model = CompletionModel(tool: tool)
        let fn = "_" + model.identifier
        var parts = [header(tool.name), subcommands(model, fn)]
        if model.usesCalendars { parts.append(calendars(model, fn)) }
        parts.append(main(model, fn))
        parts.append("""
        if [[ $funcstack[1] == \(fn) ]]; then
          \(fn) "$@"
        else
          compdef \(fn) \(tool.name)
        fi
        """)
        return parts.joined(separator: "\n\n")
    }

    static func header(_ name: String) -> String {
        """
        #compdef \(name)
        # zsh completion for \(name), generated from its option declarations.
        # Installed as share/zsh/site-functions/_\(name); `\(name) completions zsh` prints it.
        # To load it by hand: source <(\(name) completions zsh)
        """
    }

    /// Text inside single quotes.
    static func quoted(_ text: String) -> String { text.replacingOccurrences(of: "'", with: #"'"'"'"#) }

    /// A summary as zsh shows it: lower case first (unless an acronym), no final period,
    /// brackets escaped.
    static func describe(_ summary: String) -> String {
        var text = summary.hasSuffix(".") ? String(summary.dropLast()) : summary
        if let first = text.first, text.dropFirst().first?.isLowercase ?? true {
            text = first.lowercased() + text.dropFirst()
        }
        return text.replacingOccurrences(of: "[", with: #"\["#).replacingOccurrences(of: "]", with: #"\]"#)
    }

    static func action(_ completion: Completion, _ fn: String) -> String {
        switch completion {
        case .none: return " "
        case .file(let ext?): return "_files -g \"*.(#i)\(ext)(-.)\""
        case .file(nil): return "_files"
        case .directory: return "_files -/"
        case .calendar: return fn + "_calendars"
        case .timeZone: return "_time_zone"
        case .choices(let words): return "(" + words.joined(separator: " ") + ")"
        }
    }

    /// `'*--calendar=[only this calendar]:name:_eventctl_calendars'`
    static func spec(_ option: Option, _ fn: String) -> String {
        let prefix = option.isRepeatable ? "*" : ""
        // A short alias is brace-expanded outside the quotes: '*'{-h,--help}'[...]'.
        let head = option.short.map { "'\(prefix)'{\($0),\(option.name)}'" } ?? "'\(prefix)\(option.name)"
        guard let value = option.value else { return "\(head)[\(quoted(describe(option.summary)))]'" }
        let message = value.lowercased().replacingOccurrences(of: ":", with: #"\:"#)
        return "\(head)=[\(quoted(describe(option.summary)))]:\(message):\(quoted(action(option.completion, fn)))'"
    }

    static func spec(_ argument: Positional, _ fn: String) -> String {
        let message = argument.name.trimmingCharacters(in: ["<", ">"])
        return "'\(argument.isRepeatable ? "*" : ""):\(message):\(quoted(action(argument.completion, fn)))'"
    }

    static func subcommands(_ model: CompletionModel, _ fn: String) -> String {
        let rows = model.tool.subcommands.map { "    '\($0.commandName):\(quoted(describe($0.abstract)))'" }
        return """
        \(fn)_subcommands() {
          local -a subcommands
          subcommands=(
        \(rows.joined(separator: "\n"))
          )
          _describe -t subcommands '\(model.tool.name) subcommand' subcommands
        }
        """
    }

    static func calendars(_ model: CompletionModel, _ fn: String) -> String {
        let globals = model.globalValueOptions.map(\.name).joined(separator: " ")
        return #"""
        # Calendar names from `\#(model.tool.name) calendars`, with the global options given so far.
        \#(fn)_calendars() {
          local -a args names expl
          local option value
          for option in \#(globals); do
            value=${opt_args[$option]:-${\#(fn)_global[$option]}}
            [[ -n $value ]] && args+=($option "${${(Q)value}/#\~/$HOME}")
          done
          names=(${(f)"$(command \#(model.tool.name) "${args[@]}" calendars 2>/dev/null)"})
          names=(${${names[2,-1]}%% *})
          _wanted calendars expl 'calendar' compadd -a names
        }
        """#
    }

    static func main(_ model: CompletionModel, _ fn: String) -> String {
        let tool = model.tool
        let globals = tool.inheritedOptions.map { "    " + spec($0, fn) }.joined(separator: "\n")
        let own = tool.ownOptions.map { "    '(- *)\($0.name)[\(quoted(describe($0.summary)))]' \\" }
        let arms = tool.subcommands.map { command in
            let specs = command.ownOptions.map { spec($0, fn) } + command.arguments.map { spec($0, fn) }
            let lines = ["      _arguments -S $common"] + specs.map { "        " + $0 }
            return "    \(command.commandName))\n" + lines.joined(separator: " \\\n") + " && ret=0\n      ;;"
        }.joined(separator: "\n")
        return #"""
        \#(fn)() {
          local curcontext=$curcontext state state_descr line ret=1
          typeset -A opt_args
          local -a global_options
          global_options=(
        \#(globals)
          )

          _arguments -C -S -A '-*' \
            $global_options \
        \#(own.joined(separator: "\n"))
            '(- *)'{-h,--help}'[show help information]' \
            ':subcommand:\#(fn)_subcommands' \
            '*:: :->subcommand' && ret=0
          [[ $state == subcommand ]] || return ret

          local -A \#(fn)_global
          \#(fn)_global=(${(kv)opt_args})
          local -a common
          common=($global_options '(- *)'{-h,--help}'[show help information]')
          curcontext=${curcontext%:*:*}:\#(tool.name)-$words[1]:
          case $words[1] in
        \#(arms)
          esac
          return ret
        }
        """#
    }
}
