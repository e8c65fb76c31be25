# bash completion for eventctl, generated from its option declarations.
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
        --db | --socket | --url-file)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return
            ;;
        --calendar)
            mapfile -t COMPREPLY < <(compgen -W "$(_eventctl_calendars)" -- "$cur")
            return
            ;;
        --from | --days | --past-days | --color | --resume | --template | --soon | --before | --every | --summary | --start | --end | --duration | --location)
            return
            ;;
        --tz)
            mapfile -t COMPREPLY < <(compgen -W "$(_eventctl_zones)" -- "$cur")
            return
            ;;
        --empty-days)
            mapfile -t COMPREPLY < <(compgen -W "omit placeholder" -- "$cur")
            return
            ;;
        --format)
            mapfile -t COMPREPLY < <(compgen -W "ndjson pretty waybar i3bar line" -- "$cur")
            return
            ;;
        --all-day)
            mapfile -t COMPREPLY < <(compgen -W "when-free always" -- "$cur")
            return
            ;;
        --notify)
            mapfile -t COMPREPLY < <(compgen -W "auto dbus notify-send" -- "$cur")
            return
            ;;
        --state)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -X '!*.[jJ][sS][oO][nN]' -- "$cur"; compgen -d -- "$cur")
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
            mapfile -t COMPREPLY < <(compgen -W "import agenda calendars remove export subscribe watch remind status source new edit delete completions" -- "$cur")
        fi
        return
    fi

    local options
    case $subcommand in
        import) options="--calendar --replace --strict --json --db --socket --help" ;;
        agenda) options="--from --days --past-days --tz --calendar --empty-days --json --db --socket --help" ;;
        calendars) options="--json --calendar --color --db --socket --help" ;;
        remove) options="--calendar --db --socket --help" ;;
        export) options="--calendar --db --socket --help" ;;
        subscribe) options="--from --days --past-days --tz --calendar --empty-days --resume --format --template --soon --all-day --db --socket --help" ;;
        watch) options="--from --days --past-days --tz --calendar --empty-days --mouse --db --socket --help" ;;
        remind) options="--before --calendar --tz --notify --state --db --socket --help" ;;
        status) options="--json --db --socket --help" ;;
        source) options="--calendar --every --url-file --json --db --socket --help" ;;
        new) options="--calendar --summary --start --end --duration --location --all-day --db --socket --help" ;;
        edit) options="--db --socket --help" ;;
        delete) options="--db --socket --help" ;;
        completions) options="--db --socket --help" ;;
        *) return ;;
    esac

    if [[ $cur == -?* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
        return
    fi
    case $subcommand in
        import)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -X '!*.[iI][cC][sS]' -- "$cur"; compgen -d -- "$cur")
            ;;
        source)
            mapfile -t COMPREPLY < <(compgen -W "add list remove sync" -- "$cur")
            ;;
        completions)
            mapfile -t COMPREPLY < <(compgen -W "bash zsh fish" -- "$cur")
            ;;
    esac
}

complete -F _eventctl eventctl
