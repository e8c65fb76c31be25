#!/usr/bin/env python3
"""Normalise iCalendar files in place: CRLF line endings, folded content lines.

Usage: ics_fold.py [--check] FILE...

Each file is first unfolded (a line break followed by one space or tab joins
the two lines), then every content line is re-folded so that no physical line
is longer than 75 octets, excluding the CRLF (RFC 5545, section 3.1). Folds
never split a UTF-8 sequence. The operation is idempotent, so the sample
calendars can be edited by hand with any editor and then run through this.

With --check, nothing is written; the exit status is 1 when a file would change.
Only the standard library is used.
"""

import sys

LIMIT = 75


def fold_line(line: bytes) -> list[bytes]:
    """Split one logical content line into physical lines of <= 75 octets."""
    parts = []
    limit = LIMIT
    while len(line) > limit:
        cut = limit
        # Do not cut inside a UTF-8 multi-byte sequence (continuation bytes
        # are 0b10xxxxxx).
        while cut > 0 and (line[cut] & 0xC0) == 0x80:
            cut -= 1
        parts.append(line[:cut])
        line = line[cut:]
        limit = LIMIT - 1  # continuation lines start with one space
    parts.append(line)
    return [parts[0]] + [b" " + p for p in parts[1:]]


def normalise(data: bytes) -> bytes:
    text = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    # unfold
    logical = []
    for raw in text.split(b"\n"):
        if raw[:1] in (b" ", b"\t") and logical:
            logical[-1] += raw[1:]
        else:
            logical.append(raw)
    while logical and logical[-1] == b"":
        logical.pop()
    out = []
    for line in logical:
        if line == b"":
            continue  # blank lines are not allowed in iCalendar
        out.extend(fold_line(line))
    return b"\r\n".join(out) + b"\r\n"


def main(argv: list[str]) -> int:
    check = False
    files = []
    for arg in argv:
        if arg == "--check":
            check = True
        else:
            files.append(arg)
    if not files:
        print(__doc__, file=sys.stderr)
        return 64
    status = 0
    for name in files:
        with open(name, "rb") as f:
            data = f.read()
        new = normalise(data)
        if new != data:
            if check:
                print(f"{name}: not normalised", file=sys.stderr)
                status = 1
            else:
                with open(name, "wb") as f:
                    f.write(new)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
