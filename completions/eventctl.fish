# fish completion for eventctl, generated from its option declarations.
# Installed as share/fish/vendor_completions.d/eventctl.fish; `eventctl completions fish`
# prints it. To load it by hand: eventctl completions fish | source

# Calendar names from `eventctl calendars`, with the global options given so far.
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

set -l subcommands import agenda calendars remove export subscribe watch remind status source new edit delete completions
set -l none "not __fish_seen_subcommand_from $subcommands"

complete -c eventctl -f

# Options of every command.
complete -c eventctl -s h -l help -d 'Show help information'
complete -c eventctl -l db -r -F -d 'Database'
complete -c eventctl -l socket -r -F -d 'Daemon socket'
complete -c eventctl -n $none -l version -d 'Show the version'

# Subcommands.
complete -c eventctl -n $none -a import -d 'Import iCalendar files into a calendar'
complete -c eventctl -n $none -a agenda -d 'Show the date-sectioned agenda'
complete -c eventctl -n $none -a calendars -d 'List calendars with their event counts and sources'
complete -c eventctl -n $none -a remove -d 'Delete a calendar and its events'
complete -c eventctl -n $none -a export -d 'Write calendars as iCalendar to standard output'
complete -c eventctl -n $none -a subscribe -d 'Follow the live agenda feed'
complete -c eventctl -n $none -a watch -d 'Watch the live agenda in the terminal'
complete -c eventctl -n $none -a remind -d 'Show desktop notifications before events'
complete -c eventctl -n $none -a status -d 'Show the running daemon\'s status'
complete -c eventctl -n $none -a source -d 'Follow calendars that update themselves (ICS URLs, vdirs, files)'
complete -c eventctl -n $none -a new -d 'Write a new event into a vdir calendar'
complete -c eventctl -n $none -a edit -d 'Edit an event of a vdir calendar in $EDITOR'
complete -c eventctl -n $none -a delete -d 'Delete an event of a vdir calendar'
complete -c eventctl -n $none -a completions -d 'Print a shell completion script'

# eventctl import <file>... [--calendar NAME] [--replace] [--strict] [--json]
complete -c eventctl -n '__fish_seen_subcommand_from import' -x -a '(__fish_complete_suffix .ics)'
complete -c eventctl -n '__fish_seen_subcommand_from import' -l calendar -x -a '(__eventctl_calendars)' -d 'Target calendar'
complete -c eventctl -n '__fish_seen_subcommand_from import' -l replace -d 'Make the calendar hold exactly these files\' events'
complete -c eventctl -n '__fish_seen_subcommand_from import' -l strict -d 'Treat warnings as errors'
complete -c eventctl -n '__fish_seen_subcommand_from import' -l json -d 'Print the per-file counts as JSON'

# eventctl agenda [--from DATE] [--days N] [--past-days N] [--tz ZONE] [--calendar NAME]... [--empty-days omit|placeholder] [--json]
complete -c eventctl -n '__fish_seen_subcommand_from agenda' -l from -x -d 'First date'
complete -c eventctl -n '__fish_seen_subcommand_from agenda' -l days -x -d 'Number of dates, 1-3660'
complete -c eventctl -n '__fish_seen_subcommand_from agenda' -l past-days -x -d 'Start N days before today, 0-366'
complete -c eventctl -n '__fish_seen_subcommand_from agenda' -l tz -x -a '(__eventctl_zones)' -d 'IANA time zone, any case'
complete -c eventctl -n '__fish_seen_subcommand_from agenda' -l calendar -x -a '(__eventctl_calendars)' -d 'Only this calendar'
complete -c eventctl -n '__fish_seen_subcommand_from agenda' -l empty-days -x -a 'omit placeholder' -d 'omit or placeholder'
complete -c eventctl -n '__fish_seen_subcommand_from agenda' -l json -d 'Print the snapshot as JSON'

# eventctl calendars [--json] [--calendar NAME] [--color COLOUR]
complete -c eventctl -n '__fish_seen_subcommand_from calendars' -l json -d 'Print JSON'
complete -c eventctl -n '__fish_seen_subcommand_from calendars' -l calendar -x -a '(__eventctl_calendars)' -d 'With --color: the calendar to colour'
complete -c eventctl -n '__fish_seen_subcommand_from calendars' -l color -x -d 'Give the calendar this colour'

# eventctl remove --calendar NAME
complete -c eventctl -n '__fish_seen_subcommand_from remove' -l calendar -x -a '(__eventctl_calendars)' -d 'The calendar to delete'

# eventctl export [--calendar NAME]...
complete -c eventctl -n '__fish_seen_subcommand_from export' -l calendar -x -a '(__eventctl_calendars)' -d 'Export this calendar'

# eventctl subscribe [--from DATE] [--days N] [--past-days N] [--tz ZONE] [--calendar NAME]... [--empty-days omit|placeholder] [--resume EPOCH:SEQ] [--format FORMAT] [--template TEMPLATE] [--soon DURATION] [--all-day when-free|always]
complete -c eventctl -n '__fish_seen_subcommand_from subscribe' -l from -x -d 'First date'
complete -c eventctl -n '__fish_seen_subcommand_from subscribe' -l days -x -d 'Number of dates, 1-3660'
complete -c eventctl -n '__fish_seen_subcommand_from subscribe' -l past-days -x -d 'Start N days before today, 0-366'
complete -c eventctl -n '__fish_seen_subcommand_from subscribe' -l tz -x -a '(__eventctl_zones)' -d 'IANA time zone, any case'
complete -c eventctl -n '__fish_seen_subcommand_from subscribe' -l calendar -x -a '(__eventctl_calendars)' -d 'Only this calendar'
complete -c eventctl -n '__fish_seen_subcommand_from subscribe' -l empty-days -x -a 'omit placeholder' -d 'omit or placeholder'
complete -c eventctl -n '__fish_seen_subcommand_from subscribe' -l resume -x -d 'Resume from a state seen before'
complete -c eventctl -n '__fish_seen_subcommand_from subscribe' -l format -x -a 'ndjson pretty waybar i3bar line' -d 'ndjson, pretty, or for status bars waybar, i3bar or line'
complete -c eventctl -n '__fish_seen_subcommand_from subscribe' -l template -x -d 'Status bar text with fields {summary} {start} {end} {location} {calendar} {minutes_until} {minutes_left}'
complete -c eventctl -n '__fish_seen_subcommand_from subscribe' -l soon -x -d 'Status bars: an event starting within this is \'soon\''
complete -c eventctl -n '__fish_seen_subcommand_from subscribe' -l all-day -x -a 'when-free always' -d 'Status bars: when-free or always'

# eventctl watch [--from DATE] [--days N] [--past-days N] [--tz ZONE] [--calendar NAME]... [--empty-days omit|placeholder] [--mouse]
complete -c eventctl -n '__fish_seen_subcommand_from watch' -l from -x -d 'First date'
complete -c eventctl -n '__fish_seen_subcommand_from watch' -l days -x -d 'Number of dates, 1-3660'
complete -c eventctl -n '__fish_seen_subcommand_from watch' -l past-days -x -d 'Start N days before today, 0-366'
complete -c eventctl -n '__fish_seen_subcommand_from watch' -l tz -x -a '(__eventctl_zones)' -d 'IANA time zone, any case'
complete -c eventctl -n '__fish_seen_subcommand_from watch' -l calendar -x -a '(__eventctl_calendars)' -d 'Only this calendar'
complete -c eventctl -n '__fish_seen_subcommand_from watch' -l empty-days -x -a 'omit placeholder' -d 'omit or placeholder'
complete -c eventctl -n '__fish_seen_subcommand_from watch' -l mouse -d 'Report the mouse to the watch'

# eventctl remind [--before DURATION]... [--calendar NAME]... [--tz ZONE] [--notify auto|dbus|notify-send] [--state FILE]
complete -c eventctl -n '__fish_seen_subcommand_from remind' -l before -x -d 'Remind this long before the start'
complete -c eventctl -n '__fish_seen_subcommand_from remind' -l calendar -x -a '(__eventctl_calendars)' -d 'Only this calendar'
complete -c eventctl -n '__fish_seen_subcommand_from remind' -l tz -x -a '(__eventctl_zones)' -d 'IANA time zone of the times shown'
complete -c eventctl -n '__fish_seen_subcommand_from remind' -l notify -x -a 'auto dbus notify-send' -d 'auto, dbus or notify-send'
complete -c eventctl -n '__fish_seen_subcommand_from remind' -l state -x -a '(__fish_complete_suffix .json)' -d 'Where shown reminders are remembered'

# eventctl status [--json]
complete -c eventctl -n '__fish_seen_subcommand_from status' -l json -d 'Print the daemon\'s status message as JSON'

# eventctl source add|list|remove|sync [<target>...] [--calendar NAME] [--every DURATION] [--json]
complete -c eventctl -n '__fish_seen_subcommand_from source' -x -a 'add list remove sync'
complete -c eventctl -n '__fish_seen_subcommand_from source' -l calendar -x -a '(__eventctl_calendars)' -d 'add: the source\'s name and calendar'
complete -c eventctl -n '__fish_seen_subcommand_from source' -l every -x -d 'add: how often a URL is fetched'
complete -c eventctl -n '__fish_seen_subcommand_from source' -l url-file -r -F -d 'add: read the URL from the first line of this file'
complete -c eventctl -n '__fish_seen_subcommand_from source' -l json -d 'Print the result as JSON'

# eventctl new --calendar NAME --summary TEXT --start WHEN [--end WHEN] [--duration DURATION] [--location TEXT] [--all-day]
complete -c eventctl -n '__fish_seen_subcommand_from new' -l calendar -x -a '(__eventctl_calendars)' -d 'The vdir calendar to write to'
complete -c eventctl -n '__fish_seen_subcommand_from new' -l summary -x -d 'The event\'s title'
complete -c eventctl -n '__fish_seen_subcommand_from new' -l start -x -d 'Date and time it starts'
complete -c eventctl -n '__fish_seen_subcommand_from new' -l end -x -d 'Date and time it ends'
complete -c eventctl -n '__fish_seen_subcommand_from new' -l duration -x -d 'How long it lasts'
complete -c eventctl -n '__fish_seen_subcommand_from new' -l location -x -d 'Where it takes place'
complete -c eventctl -n '__fish_seen_subcommand_from new' -l all-day -d 'Whole days'

# eventctl edit <uid>

# eventctl delete <uid>

# eventctl completions <shell>
complete -c eventctl -n '__fish_seen_subcommand_from completions' -x -a 'bash zsh fish'
