import Foundation
import Support

/// `eventctl completions bash|zsh|fish`: prints the shell completion script.
///
/// The scripts are embedded here so that the binary needs no files; `completions/` in
/// the repository holds the same scripts (installed by `make install`), and a test
/// checks that both are identical: edit them together.
struct CompletionsCommand: Subcommand {
    static let name = "completions"
    static let abstract = "Print a shell completion script."
    static let help = """
    OVERVIEW: Print the completion script for bash, zsh or fish.

    The scripts complete subcommands, options and their values (--format, --empty-days,
    --tz, calendar names from the database) and .ics files for import. `make install`
    installs them where each shell looks; to load one by hand, see EXAMPLES.

    USAGE: eventctl completions <shell>

    ARGUMENTS:
      <shell>      bash, zsh or fish.

    OPTIONS:
      -h, --help   Show help information.

    EXAMPLES:
      source <(eventctl completions bash)        # in ~/.bashrc
      source <(eventctl completions zsh)         # in ~/.zshrc, after compinit
      eventctl completions fish > ~/.config/fish/completions/eventctl.fish
      eventctl completions bash > ~/.local/share/bash-completion/completions/eventctl
    """

    static let shells = ["bash", "zsh", "fish"]

    var shell: String

    init(parsing arguments: [String]) throws(UsageError) {
        var scanner = ArgumentScanner(arguments, command: "eventctl completions")
        var shell: String?
        while let token = scanner.next() {
            switch token {
            case .option(let name, _): throw scanner.unknown(name)
            case .positional(let p):
                guard shell == nil else {
                    throw UsageError("unexpected argument '\(p)'", hint: "usage: eventctl completions bash|zsh|fish")
                }
                guard Self.shells.contains(p) else {
                    throw UsageError("unknown shell '\(p)'", hint: "expected one of: bash, zsh, fish")
                }
                shell = p
            }
        }
        guard let shell else {
            throw UsageError("missing <shell>", hint: "usage: eventctl completions bash|zsh|fish")
        }
        self.shell = shell
    }

    func run(_ env: CommandEnvironment) throws -> ExitStatus {
        let script: String
        switch shell {
        case "bash": script = Self.bash
        case "zsh": script = Self.zsh
        default: script = Self.fish
        }
        print(script)
        return .success
    }

    /// completions/eventctl.bash
    static let bash = #"""
# bash completion for eventctl, the command-line tool of eventd.
# Installed as share/bash-completion/completions/eventctl; `eventctl completions bash`
# prints it. To load it by hand: source <(eventctl completions bash)

# Calendar names from `eventctl calendars`, with the --db/--socket given so far.
_eventctl_calendars()
{
    local -a args=()
    local i word
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        case $word in
            --db | --socket)
                if [[ ${COMP_WORDS[i + 1]} == = ]]; then ((i++)); fi
                args+=("$word" "${COMP_WORDS[i + 1]/#\~/$HOME}")
                ((i++))
                ;;
        esac
    done
    command eventctl "${args[@]}" calendars 2>/dev/null | awk 'NR > 1 && NF >= 2 { print $1 }'
}

# IANA time zone names.
_eventctl_zones()
{
    echo UTC
    awk '!/^#/ { print $3 }' /usr/share/zoneinfo/zone1970.tab 2>/dev/null
}

_eventctl()
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
        --db | --socket)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return
            ;;
        --format)
            mapfile -t COMPREPLY < <(compgen -W "ndjson pretty" -- "$cur")
            return
            ;;
        --empty-days)
            mapfile -t COMPREPLY < <(compgen -W "omit placeholder" -- "$cur")
            return
            ;;
        --tz)
            mapfile -t COMPREPLY < <(compgen -W "$(_eventctl_zones)" -- "$cur")
            return
            ;;
        --calendar)
            mapfile -t COMPREPLY < <(compgen -W "$(_eventctl_calendars)" -- "$cur")
            return
            ;;
        --from | --days | --past-days | --resume)
            return
            ;;
    esac

    # The subcommand: the first word that is neither an option nor an option's value.
    local subcommand= i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --db | --socket)
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
            mapfile -t COMPREPLY < <(compgen -W "--db --socket --version --help" -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "import agenda subscribe calendars remove export status completions" -- "$cur")
        fi
        return
    fi

    local view="--from --days --past-days --tz --calendar --empty-days" options
    case $subcommand in
        import) options="--calendar --replace --strict --json" ;;
        agenda) options="$view --json" ;;
        subscribe) options="$view --resume --format" ;;
        calendars | status) options="--json" ;;
        remove | export) options="--calendar" ;;
        completions) options= ;;
        *) return ;;
    esac
    options="$options --db --socket --help"

    if [[ $cur == -?* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
    elif [[ $subcommand == import ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -X '!*.[iI][cC][sS]' -- "$cur"; compgen -d -- "$cur")
    elif [[ $subcommand == completions ]]; then
        mapfile -t COMPREPLY < <(compgen -W "bash zsh fish" -- "$cur")
    fi
}

complete -F _eventctl eventctl
"""#

    /// completions/_eventctl
    static let zsh = #"""
#compdef eventctl
# zsh completion for eventctl, the command-line tool of eventd.
# Installed as share/zsh/site-functions/_eventctl; `eventctl completions zsh` prints it.
# To load it by hand: source <(eventctl completions zsh)

_eventctl_subcommands() {
  local -a subcommands
  subcommands=(
    'import:Import iCalendar files into a calendar'
    'agenda:Show the date-sectioned agenda'
    'subscribe:Follow the live agenda feed'
    'calendars:List calendars with their event counts and sources'
    'remove:Delete a calendar and its events'
    'export:Write calendars as iCalendar to standard output'
    'status:Show the running daemon'"'"'s status'
    'completions:Print a shell completion script'
  )
  _describe -t subcommands 'eventctl subcommand' subcommands
}

# Calendar names from `eventctl calendars`, with the --db/--socket given so far.
_eventctl_calendars() {
  local -a args names expl
  local db=${opt_args[--db]:-$_eventctl_db} socket=${opt_args[--socket]:-$_eventctl_socket}
  [[ -n $db ]] && args+=(--db "${${(Q)db}/#\~/$HOME}")
  [[ -n $socket ]] && args+=(--socket "${${(Q)socket}/#\~/$HOME}")
  names=(${(f)"$(command eventctl "${args[@]}" calendars 2>/dev/null)"})
  names=(${${names[2,-1]}%% *})
  _wanted calendars expl 'calendar' compadd -a names
}

_eventctl() {
  local curcontext=$curcontext state state_descr line ret=1
  typeset -A opt_args
  local -a path_options
  path_options=(
    '--db=[database file]:database file:_files'
    '--socket=[daemon socket]:socket:_files'
  )

  _arguments -C -S -A '-*' \
    $path_options \
    '(- *)--version[show the version]' \
    '(- *)'{-h,--help}'[show help information]' \
    ':subcommand:_eventctl_subcommands' \
    '*:: :->subcommand' && ret=0
  [[ $state == subcommand ]] || return ret

  local _eventctl_db=${opt_args[--db]} _eventctl_socket=${opt_args[--socket]}
  local -a common view
  common=($path_options '(- *)'{-h,--help}'[show help information]')
  view=(
    '--from=[first date]:date (YYYY-MM-DD): '
    '--days=[number of dates, 1-3660]:number of dates: '
    '--past-days=[start this many days before today, 0-366]:number of days: '
    '--tz=[IANA time zone]:time zone:_time_zone'
    '*--calendar=[only this calendar (repeatable)]:calendar:_eventctl_calendars'
    '--empty-days=[dates without events]:mode:(omit placeholder)'
  )
  curcontext=${curcontext%:*:*}:eventctl-$words[1]:
  case $words[1] in
    import)
      _arguments -S $common \
        '--calendar=[target calendar (default: the file name)]:calendar:_eventctl_calendars' \
        '--replace[make the calendar hold exactly these files'"'"' events]' \
        '--strict[treat warnings as errors]' \
        '--json[print the per-file counts as JSON]' \
        '*:iCalendar file:_files -g "*.(#i)ics(-.)"' && ret=0
      ;;
    agenda)
      _arguments -S $common $view \
        '--json[print the snapshot as JSON]' && ret=0
      ;;
    subscribe)
      _arguments -S $common $view \
        '--resume=[resume from a state seen before]:epoch\:seq: ' \
        '--format=[output format]:format:((ndjson\:"every message line as received" pretty\:"human-readable changes"))' && ret=0
      ;;
    calendars)
      _arguments -S $common \
        '--json[print JSON]' && ret=0
      ;;
    status)
      _arguments -S $common \
        '--json[print the status message as JSON]' && ret=0
      ;;
    remove)
      _arguments -S $common \
        '--calendar=[the calendar to delete]:calendar:_eventctl_calendars' && ret=0
      ;;
    export)
      _arguments -S $common \
        '*--calendar=[export this calendar (repeatable)]:calendar:_eventctl_calendars' && ret=0
      ;;
    completions)
      _arguments -S $common \
        ':shell:(bash zsh fish)' && ret=0
      ;;
  esac
  return ret
}

if [[ $funcstack[1] == _eventctl ]]; then
  _eventctl "$@"
else
  compdef _eventctl eventctl
fi
"""#

    /// completions/eventctl.fish
    static let fish = #"""
# fish completion for eventctl, the command-line tool of eventd.
# Installed as share/fish/vendor_completions.d/eventctl.fish; `eventctl completions fish`
# prints it. To load it by hand: eventctl completions fish | source

# Calendar names from `eventctl calendars`, with the --db/--socket given so far.
function __eventctl_calendars
    set -l tokens (commandline -opc)
    set -l args
    set -l i 2
    while test $i -le (count $tokens)
        switch $tokens[$i]
            case --db --socket
                set -l next (math $i + 1)
                if test $next -le (count $tokens)
                    set -a args $tokens[$i] $tokens[$next]
                end
                set i $next
            case '--db=*' '--socket=*'
                set -a args $tokens[$i]
        end
        set i (math $i + 1)
    end
    command eventctl $args calendars 2>/dev/null | awk 'NR > 1 && NF >= 2 { print $1 }'
end

# IANA time zone names.
function __eventctl_zones
    echo UTC
    awk '!/^#/ { print $3 }' /usr/share/zoneinfo/zone1970.tab 2>/dev/null
end

set -l subcommands import agenda subscribe calendars remove export status completions
set -l none "not __fish_seen_subcommand_from $subcommands"

complete -c eventctl -f

# Options of every command.
complete -c eventctl -s h -l help -d 'Show help information'
complete -c eventctl -l db -r -F -d 'Database file'
complete -c eventctl -l socket -r -F -d 'Daemon socket'
complete -c eventctl -n $none -l version -d 'Show the version'

# Subcommands.
complete -c eventctl -n $none -a import -d 'Import iCalendar files into a calendar'
complete -c eventctl -n $none -a agenda -d 'Show the date-sectioned agenda'
complete -c eventctl -n $none -a subscribe -d 'Follow the live agenda feed'
complete -c eventctl -n $none -a calendars -d 'List calendars with their event counts and sources'
complete -c eventctl -n $none -a remove -d 'Delete a calendar and its events'
complete -c eventctl -n $none -a export -d 'Write calendars as iCalendar to standard output'
complete -c eventctl -n $none -a status -d "Show the running daemon's status"
complete -c eventctl -n $none -a completions -d 'Print a shell completion script'

# import FILE... [--calendar NAME] [--replace] [--strict] [--json]
set -l import '__fish_seen_subcommand_from import'
complete -c eventctl -n $import -F
complete -c eventctl -n $import -l calendar -x -a '(__eventctl_calendars)' -d 'Target calendar'
complete -c eventctl -n $import -l replace -d "Make the calendar hold exactly these files' events"
complete -c eventctl -n $import -l strict -d 'Treat warnings as errors'
complete -c eventctl -n $import -l json -d 'Print the per-file counts as JSON'

# agenda and subscribe: the view.
set -l view '__fish_seen_subcommand_from agenda subscribe'
complete -c eventctl -n $view -l from -x -d 'First date (YYYY-MM-DD)'
complete -c eventctl -n $view -l days -x -d 'Number of dates (1-3660)'
complete -c eventctl -n $view -l past-days -x -d 'Start this many days before today (0-366)'
complete -c eventctl -n $view -l tz -x -a '(__eventctl_zones)' -d 'IANA time zone'
complete -c eventctl -n $view -l calendar -x -a '(__eventctl_calendars)' -d 'Only this calendar (repeatable)'
complete -c eventctl -n $view -l empty-days -x -a 'omit placeholder' -d 'Dates without events'
complete -c eventctl -n '__fish_seen_subcommand_from agenda' -l json -d 'Print the snapshot as JSON'
complete -c eventctl -n '__fish_seen_subcommand_from subscribe' -l resume -x -d 'Resume from EPOCH:SEQ'
complete -c eventctl -n '__fish_seen_subcommand_from subscribe' -l format -x -a 'ndjson pretty' -d 'Output format'

# calendars, status, remove, export, completions.
complete -c eventctl -n '__fish_seen_subcommand_from calendars' -l json -d 'Print JSON'
complete -c eventctl -n '__fish_seen_subcommand_from status' -l json -d 'Print the status message as JSON'
complete -c eventctl -n '__fish_seen_subcommand_from remove' -l calendar -x -a '(__eventctl_calendars)' -d 'The calendar to delete'
complete -c eventctl -n '__fish_seen_subcommand_from export' -l calendar -x -a '(__eventctl_calendars)' -d 'Export this calendar (repeatable)'
complete -c eventctl -n '__fish_seen_subcommand_from completions' -x -a 'bash zsh fish' -d 'Shell'
"""#
}
