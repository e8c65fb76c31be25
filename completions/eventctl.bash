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
