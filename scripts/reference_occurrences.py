#!/usr/bin/env python3
"""Reference occurrence expansion for differential tests of eventd.

Usage:
    reference_occurrences.py --from YYYY-MM-DD --to YYYY-MM-DD
                             [--floating-tz ZONE] [--ignore-x-wr-timezone]
                             [--engine recurring-ical-events|ics-query|both]
                             [--extra] [--timings] [--fork-per-file] FILE...

Loads each FILE with icalendar, expands its VEVENTs with
``recurring_ical_events.of(cal).between(from, to)`` and prints ONE JSON object:

    {"files": {FILE: {"ok": true, "occurrences": [...]}
                     | {"ok": false, "error": "..."}}}

Each occurrence is {"uid": str, "start": S, "end": E}:
  - DATE values:                   "YYYYMMDD"
  - time-zone-aware date-times:    UTC instant "YYYYMMDDTHHMMSSZ"
  - floating (naive) date-times:   "YYYYMMDDTHHMMSS" (no Z)
Occurrences are sorted by (uid, start, end). A missing UID is "".
An event without DTEND and DURATION gets whatever end the library returns
(for timed events the start, i.e. zero duration; for dates start + 1 day).

With --engine ics-query, the occurrences are those of ics-query's own query
(ics_query.cli.JoinedCalendars, as `ics-query between` computes them: every
VCALENDAR of the file, x_wr_timezone applied, bad series skipped); with
--engine both, each file's object also holds "ics_query": {"ok": ..., ...}.
icalendar keeps the first VTIMEZONE it sees for a TZID for the whole process, which
makes false disagreements between files: with --fork-per-file each file is read in a
child process of its own (forked after the libraries are imported, so each starts
from the same clean state without paying for the imports again).

Options:
  --from/--to            the window, passed to between() as dates (midnight,
                         floating; the library compares floating window
                         bounds with aware events in the event's own zone).
  --floating-tz ZONE     interpret floating results in ZONE and print them as
                         UTC instants ("...Z") instead of floating strings.
  --ignore-x-wr-timezone remove X-WR-TIMEZONE before expansion. Without it,
                         recurring_ical_events.of() applies
                         x_wr_timezone.to_standard(), which moves UTC and
                         floating times into that zone BEFORE expanding
                         (so UTC series keep their wall-clock time across DST
                         and floating times become zoned).
  --extra                add "recurrence_id", "status" and "summary" to each
                         occurrence ("recurrence_id" as the original start in
                         the same format as start -- for instances moved by a
                         RANGE=THISANDFUTURE override it is recomputed as
                         start minus that override's shift, because the
                         library repeats the override's own RECURRENCE-ID;
                         "status" upper-case or null).
                         The library does NOT drop STATUS:CANCELLED
                         occurrences; use this to filter them.
  --timings              add "seconds" (wall time spent) to each file's object.
  --ignore-date-tzid     give the reference eventd's documented reading of a TZID on
                         a DATE value (docs/data-model.md: ignored, the event stays
                         all-day) by removing such TZID parameters before parsing;
                         the libraries otherwise turn the date into midnight in
                         that zone. Other lines are left as they are.

A file that cannot be read, parsed or expanded is reported with ok:false; the
other files are still processed. Exit status: 0 when every file was ok,
1 when at least one failed, 64 on usage errors.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import sys
import time
import traceback
import zoneinfo

import icalendar
import recurring_ical_events

UTC = dt.timezone.utc


def fmt(value, floating_tz):
    """Format a DTSTART/DTEND/RECURRENCE-ID value as described above."""
    if value is None:
        return None
    if hasattr(value, "dt"):  # a vDDDTypes property
        value = value.dt
    if isinstance(value, dt.datetime):
        if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
            if floating_tz is None:
                return value.strftime("%Y%m%dT%H%M%S")
            value = value.replace(tzinfo=floating_tz)
        return value.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    if isinstance(value, dt.date):
        return value.strftime("%Y%m%d")
    if isinstance(value, dt.timedelta):  # should not happen for DTSTART/DTEND
        return f"duration:{value}"
    return str(value)


DATE_LINE = re.compile(rb"^([A-Za-z0-9-]+)((?:;[^:]*)?):(\d{8}(?:,\d{8})*)(\r?)$")
TZID_PARAM = re.compile(rb';TZID=(?:"[^"]*"|[^;:]*)', re.I)


def without_date_tzid(data):
    """`data` with the TZID parameters of DATE values removed (see --ignore-date-tzid)."""
    if not re.search(rb"TZID=[^\r\n]*:\d{8}\r?$", re.sub(rb"\r?\n[ \t]", b"", data), re.M | re.I):
        return data
    out = []
    for line in re.sub(rb"\r?\n[ \t]", b"", data).split(b"\n"):
        m = DATE_LINE.match(line)
        if m and b"VALUE=DATE-TIME" not in m.group(2).upper() and TZID_PARAM.search(m.group(2)):
            line = m.group(1) + TZID_PARAM.sub(b"", m.group(2)) + b":" + m.group(3) + m.group(4)
        out.append(line)
    return b"\n".join(out)


def occurrences_of(path, start, stop, args, floating_tz, engine="recurring-ical-events"):
    with open(path, "rb") as f:
        data = f.read()
    if args.ignore_date_tzid:
        data = without_date_tzid(data)
    if engine == "ics-query":
        from ics_query.cli import JoinedCalendars

        calendars = icalendar.Calendar.from_ical(data, multiple=True)
        query = JoinedCalendars(calendars, "", ["VEVENT"])
        return collect(query.between(start, stop), calendars, args, floating_tz)
    cal = icalendar.Calendar.from_ical(data)
    if args.ignore_x_wr_timezone and "X-WR-TIMEZONE" in cal:
        del cal["X-WR-TIMEZONE"]
    return collect(recurring_ical_events.of(cal).between(start, stop), [cal], args, floating_tz)


def collect(components, calendars, args, floating_tz):
    # RANGE=THISANDFUTURE: the library copies the modification's RECURRENCE-ID
    # into every later occurrence it governs; remember how far each such
    # modification moved its instances so --extra can report each instance's
    # own original start.
    shifts = {}
    if args.extra:
        for ev in (e for cal in calendars for e in cal.walk("VEVENT")):
            rid = ev.get("RECURRENCE-ID")
            if rid is not None and rid.params.get("RANGE") == "THISANDFUTURE":
                try:
                    shifts[(str(ev.get("UID", "")), fmt(rid, floating_tz))] = (
                        ev.decoded("DTSTART") - rid.dt
                    )
                except (TypeError, KeyError):  # date vs date-time, no DTSTART
                    pass
    result = []
    for comp in components:
        uid = comp.get("UID")
        occ = {
            "uid": "" if uid is None else str(uid),
            "start": fmt(comp.get("DTSTART"), floating_tz),
            "end": fmt(comp.get("DTEND"), floating_tz),
        }
        if args.extra:
            status = comp.get("STATUS")
            summary = comp.get("SUMMARY")
            rid = comp.get("RECURRENCE-ID")
            rid_text = fmt(rid, floating_tz)
            shift = shifts.get((occ["uid"], rid_text))
            if shift is not None:
                try:
                    rid_text = fmt(comp.decoded("DTSTART") - shift, floating_tz)
                except TypeError:
                    pass
            occ["recurrence_id"] = rid_text
            occ["status"] = None if status is None else str(status).upper()
            occ["summary"] = None if summary is None else str(summary)
        result.append(occ)
    result.sort(key=lambda o: (o["uid"], o["start"] or "", o["end"] or ""))
    return result


def parse_date(text):
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date YYYY-MM-DD: {text!r}")


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Expand VEVENTs with recurring_ical_events and print JSON."
    )
    parser.add_argument("--from", dest="start", required=True, type=parse_date)
    parser.add_argument("--to", dest="stop", required=True, type=parse_date)
    parser.add_argument("--floating-tz", default=None)
    parser.add_argument("--ignore-x-wr-timezone", action="store_true")
    parser.add_argument("--extra", action="store_true")
    parser.add_argument("--engine", default="recurring-ical-events",
                        choices=["recurring-ical-events", "ics-query", "both"])
    parser.add_argument("--timings", action="store_true")
    parser.add_argument("--ignore-date-tzid", action="store_true")
    parser.add_argument("--fork-per-file", action="store_true")
    parser.add_argument("files", nargs="+", metavar="FILE")
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return 64 if e.code else 0
    floating_tz = None
    if args.floating_tz:
        if args.floating_tz.upper() == "UTC":
            floating_tz = UTC
        else:
            try:
                floating_tz = zoneinfo.ZoneInfo(args.floating_tz)
            except Exception as e:  # noqa: BLE001
                print(f"reference_occurrences: unknown zone: {e}", file=sys.stderr)
                return 64
    files = {}
    all_ok = True
    engines = ["recurring-ical-events", "ics-query"] if args.engine == "both" else [args.engine]
    if args.fork_per_file:
        # Imported here, in the parent, so every child starts with them loaded.
        import ics_query.cli  # noqa: F401
    for path in args.files:
        if args.fork_per_file:
            read_end, write_end = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: one file, then exit without cleanup
                os.close(read_end)
                entry = file_entry(path, engines, args, floating_tz)
                with os.fdopen(write_end, "w") as out:
                    json.dump(entry, out)
                os._exit(0)
            os.close(write_end)
            with os.fdopen(read_end) as pipe:
                text = pipe.read()
            os.waitpid(pid, 0)
            try:
                files[path] = json.loads(text)
            except ValueError:
                files[path] = {"ok": False, "error": "the child process for this file failed"}
            all_ok = all_ok and files[path].get("ok", False)
            continue
        files[path] = file_entry(path, engines, args, floating_tz)
        all_ok = all_ok and files[path]["ok"]
    json.dump({"files": files}, sys.stdout, ensure_ascii=True, sort_keys=True)
    sys.stdout.write("\n")
    return 0 if all_ok else 1


def file_entry(path, engines, args, floating_tz):
    """The JSON object of one file: the first engine's result, the second under "ics_query"."""
    entries = []
    for engine in engines:
        t0 = time.perf_counter()
        try:
            entry = {
                "ok": True,
                "occurrences": occurrences_of(
                    path, args.start, args.stop, args, floating_tz, engine
                ),
            }
        except Exception as e:  # noqa: BLE001 - one bad file must not stop the rest
            message = f"{type(e).__name__}: {e}"
            entry = {"ok": False, "error": message}
            if os.environ.get("REFERENCE_DEBUG"):
                traceback.print_exc()
        if args.timings:
            entry["seconds"] = round(time.perf_counter() - t0, 4)
        entries.append(entry)
    result = entries[0]
    if len(entries) > 1:
        result["ics_query"] = entries[1]
    return result


if __name__ == "__main__":
    sys.exit(main())
