#!/usr/bin/env python3
"""Links eventd, eventctl and eventd-web into one multi-call binary (make release-static).

    scripts/link-multicall.py SCRATCH OUT_DIR

SCRATCH is the scratch path of the static release build (.build-static), after
`swift build --product` of each of the three. Their link commands (SwiftPM's manifest,
SCRATCH/release.yaml) name every object file and library; this links the union of those
objects with scripts/multicall.c, which picks the program by argv[0], into
OUT_DIR/eventd, and makes OUT_DIR/eventctl and OUT_DIR/eventd-web links to it. The
Swift runtime, Foundation and ICU, most of each program's size, are then there once.
"""
import json
import os
import subprocess
import sys

PROGRAMS = {"eventd": "eventd_main", "eventctl": "eventctl_main", "eventd-web": "eventd_web_main"}


def link_commands(manifest):
    """The swiftc argument list that links each program, by program."""
    found = {}
    with open(manifest, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not (line.startswith("args: [") and "--defsym" in line):
                continue
            args = json.loads(line[len("args: "):])
            for program, entry in PROGRAMS.items():
                if f"main={entry}" in args:
                    found[program] = args
    missing = sorted(set(PROGRAMS) - set(found))
    if missing:
        sys.exit(f"link-multicall.py: no link command for {', '.join(missing)} in {manifest}; build them first")
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: link-multicall.py SCRATCH OUT_DIR")
    scratch, out_dir = sys.argv[1], sys.argv[2]
    commands = link_commands(os.path.join(scratch, "release.yaml"))
    os.makedirs(out_dir, exist_ok=True)
    objects, libraries = [], []
    for program in PROGRAMS:
        for arg in commands[program]:
            if arg.startswith("@"):
                with open(arg[1:], encoding="utf-8") as f:
                    objects += [o for o in f.read().split("\n") if o and o not in objects]
            elif arg.startswith("-l") and arg not in libraries:
                libraries.append(arg)
    swiftc = commands["eventd"][0]
    clang = os.path.join(os.path.dirname(swiftc), "clang")
    dispatcher = os.path.join(out_dir, "multicall.o")
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([clang, "-O2", "-c", os.path.join(here, "multicall.c"), "-o", dispatcher], check=True)
    object_list = os.path.join(out_dir, "Objects.LinkFileList")
    with open(object_list, "w", encoding="utf-8") as f:
        f.write("\n".join(objects + [dispatcher]) + "\n")
    # eventd's command without its output, its entry alias and its object list.
    base, args, skip = commands["eventd"], [], 0
    for i, arg in enumerate(base[1:], start=1):
        if skip:
            skip -= 1
        elif arg == "-o":
            skip = 1
        elif arg == "-Xlinker" and base[i + 1] == "--defsym":
            skip = 3
        elif arg.startswith("@") or arg.startswith("-l"):
            pass
        else:
            args.append(arg)
    output = os.path.join(out_dir, "eventd")
    subprocess.run([swiftc] + libraries + args + ["-o", output, "@" + object_list], check=True)
    for name in ("eventctl", "eventd-web"):
        link = os.path.join(out_dir, name)
        if os.path.lexists(link):
            os.remove(link)
        os.symlink("eventd", link)
    print(output)


if __name__ == "__main__":
    main()
