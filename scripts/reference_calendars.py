#!/usr/bin/env python3
"""Print the directory of the test calendars bundled with recurring_ical_events.

Usage: reference_calendars.py [--icalendar]

Run it with the interpreter of the reference virtualenv, e.g.
    .venv/bin/python scripts/reference_calendars.py
It prints one absolute path (recurring_ical_events/test/calendars inside
site-packages) and exits 0, or prints an error to standard error and exits 1
when the package or the directory is missing. With --icalendar it prints the
icalendar package's own test calendar directory (icalendar/tests/calendars)
instead. The package is located without importing it.
"""

import importlib.util
import os
import sys

TARGETS = {
    "recurring_ical_events": ("test", "calendars"),
    "icalendar": ("tests", "calendars"),
}


def main(argv):
    package = "icalendar" if "--icalendar" in argv else "recurring_ical_events"
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        print(f"reference_calendars: package {package} is not installed", file=sys.stderr)
        return 1
    for location in spec.submodule_search_locations:
        path = os.path.join(location, *TARGETS[package])
        if os.path.isdir(path):
            print(os.path.abspath(path))
            return 0
    print(f"reference_calendars: no calendar directory in {package}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
