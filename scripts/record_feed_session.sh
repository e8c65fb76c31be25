#!/bin/sh
# Records one real feed session as NDJSON (Tests/FeedProtocolTests/Fixtures/feed-session-v2.ndjson):
# hello, a snapshot, diffs (an update, moves within and between days, an insertion,
# deletions), a heartbeat, then eventd restarts: resync and a fresh snapshot.
# `eventctl subscribe` asks for protocol 2 (per-section digests), so the session is of
# protocol 2; feed-session.ndjson is the protocol 1 session, recorded before it existed.
# Usage: scripts/record_feed_session.sh [OUT] (after `swift build`).
set -eu
bin=$(swift build --show-bin-path)
out=${1:-Tests/FeedProtocolTests/Fixtures/feed-session-v2.ndjson}
dir=$(mktemp -d)
trap 'kill $sub $daemon 2>/dev/null || true; rm -rf "$dir"' EXIT
export EVENTD_DB="$dir/events.db" EVENTD_SOCKET="$dir/run/feed.sock"
d0=$(date -u +%Y%m%d); d1=$(date -u -d tomorrow +%Y%m%d); d2=$(date -u -d '2 days' +%Y%m%d)

event() { # UID DTSTART DTEND SUMMARY
    printf 'BEGIN:VEVENT\r\nUID:%s@record\r\nDTSTAMP:20260101T000000Z\r\nDTSTART%s\r\nDTEND%s\r\nSUMMARY:%s\r\nEND:VEVENT\r\n' "$@"
}
calendar() { # the events, as one import of the calendar "work"
    { printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//record//EN\r\n'; cat; printf 'END:VCALENDAR\r\n'; } > "$dir/work.ics"
    "$bin/eventctl" import "$dir/work.ics" > /dev/null
    sleep 0.5
}
standup() { event standup ":${1}T${2}0000Z" ":${1}T${3}0000Z" Standup; }
review() { event review ":${d0}T110000Z" ":${d0}T120000Z" "$1"; }
talk() { event talk ":${1}T${2}0000Z" ":${1}T${3}0000Z" "Lunch talk"; }
holiday() { event holiday ";VALUE=DATE:$d1" ";VALUE=DATE:$d2" Holiday; }

{ standup "$d0" 09 10; review Review; talk "$d1" 14 15; holiday; } | calendar
"$bin/eventd" --heartbeat 1 --tz UTC --log-level warning & daemon=$!
sleep 1
"$bin/eventctl" subscribe --days 3 --tz UTC > "$out" & sub=$!
sleep 1
{ standup "$d0" 09 10; review "Review (room 4)"; talk "$d1" 14 15; holiday; } | calendar        # updated
{ standup "$d0" 13 14; review "Review (room 4)"; talk "$d1" 14 15; holiday; } | calendar        # moved within a day
{ standup "$d0" 13 14; review "Review (room 4)"; talk "$d0" 08 09; holiday; } | calendar        # moved to another day
{ standup "$d0" 13 14; review "Review (room 4)"; talk "$d0" 08 09; event retro ":${d2}T100000Z" ":${d2}T110000Z" Retro; } | calendar
sleep 2                                                                                         # a heartbeat
kill $daemon; wait $daemon || true
"$bin/eventd" --heartbeat 30 --tz UTC --log-level warning & daemon=$!
sleep 2
kill $sub
