#!/bin/sh
# Builds the libFuzzer harness over eventd's import path (fuzz/) and runs it.
#
#   scripts/fuzz.sh                 fuzz for $FUZZ_SECONDS (default 1800) seconds
#   FUZZ_SECONDS=600 scripts/fuzz.sh
#   scripts/fuzz.sh FILE...         replay inputs (a crash file, a directory) and stop
#
# Seeds: sample-calendars/, Tests/ICalendarTests/Fixtures/, the hostile corpus
# (Tests/HostileInputTests/Corpus/{malformed,fuzz-corpus,fuzz-crashes}). The working
# corpus grows in $FUZZ_WORK (default .build/fuzz-work, not committed). Every crash,
# timeout, leak or out-of-memory input is kept in
# Tests/HostileInputTests/Corpus/fuzz-crashes/ (committed: HostileInputTests replays
# them). `FUZZ_KEEP=1` also refreshes Tests/HostileInputTests/Corpus/fuzz-corpus/ with a
# merged (minimised) copy of the working corpus: up to $FUZZ_KEEP_MAX (120) inputs of 8 KiB
# or less (the tests replay each through eventctl, so the set stays small).
# Environment: FUZZ_JOBS (fuzzing processes in libFuzzer's fork mode, default 1), SWIFT,
# EVENTD_FUZZ_STORE=0 (skip the EventStore import inside the harness: faster),
# FUZZ_LIBICAL=1 (also instrument libical: scripts/build_fuzz_libical.sh builds it from
# the distribution's source package; libFuzzer then sees libical's branches and ASan
# checks its memory accesses).
set -eu

ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
SWIFT=${SWIFT:-swift}
SECONDS_TO_RUN=${FUZZ_SECONDS:-1800}
JOBS=${FUZZ_JOBS:-1}
SUFFIX=""
[ "${FUZZ_LIBICAL:-0}" = 1 ] && SUFFIX=-libical
WORK=${FUZZ_WORK:-$ROOT/.build/fuzz-work$SUFFIX}
CORPUS=$ROOT/Tests/HostileInputTests/Corpus
CRASHES=$CORPUS/fuzz-crashes
KEPT=$CORPUS/fuzz-corpus

command -v "$SWIFT" >/dev/null 2>&1 || { echo "fuzz.sh: swift not found (put /opt/swift/usr/bin on PATH)" >&2; exit 69; }

# libFuzzer supplies main(); SwiftPM links the executable with --defsym main=ImportFuzzer_main,
# which the harness defines (it calls LLVMFuzzerRunDriver). -parse-as-library: no top-level code.
SCRATCH=$ROOT/fuzz/.build
EXTRA=""
if [ "${FUZZ_LIBICAL:-0}" = 1 ]; then
    # libical itself instrumented (scripts/build_fuzz_libical.sh): its static archive is
    # linked whole, so its symbols win over the system's libical.so.
    LIB=$(sh "$ROOT/scripts/build_fuzz_libical.sh")
    SCRATCH=$ROOT/.build/fuzz-libical
    EXTRA="-Xlinker --whole-archive -Xlinker $LIB -Xlinker --no-whole-archive -Xlinker -licui18n -Xlinker -licuuc -Xlinker -licudata -Xlinker -lstdc++"
fi
echo "fuzz.sh: building the harness (release, -sanitize=fuzzer,address${EXTRA:+, instrumented libical})" >&2
"$SWIFT" build -c release --package-path "$ROOT/fuzz" --scratch-path "$SCRATCH" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library $EXTRA >&2
BIN=$("$SWIFT" build -c release --package-path "$ROOT/fuzz" --scratch-path "$SCRATCH" --show-bin-path)/ImportFuzzer

mkdir -p "$CRASHES" "$KEPT" "$WORK/corpus" "$WORK/seeds" "$WORK/artifacts"
FLAGS="-max_len=200000 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1"
# libFuzzer's leak detection reports ASan-visible leaks (libical's and ours) as crashes.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

if [ $# -gt 0 ]; then
    # Replay mode: run the given inputs once each (exit non-zero on the first finding).
    # Directories are expanded here: libFuzzer would write into a directory argument.
    find "$@" -type f ! -name '.*' ! -name '*.md' -print0 | xargs -0 "$BIN" $FLAGS
    exit $?
fi

# Seeds: copied flat so that libFuzzer can read them as one directory.
rm -f "$WORK/seeds"/*
i=0
for f in "$ROOT"/sample-calendars/*.ics "$ROOT"/Tests/ICalendarTests/Fixtures/*.ics \
         "$CORPUS"/malformed/* "$KEPT"/* "$CRASHES"/*; do
    [ -f "$f" ] || continue
    # Inputs over -max_len are truncated by libFuzzer anyway; keep them small.
    head -c 200000 "$f" > "$WORK/seeds/seed-$i"
    i=$((i + 1))
done
echo "fuzz.sh: $i seeds; fuzzing for $SECONDS_TO_RUN s with $JOBS job(s); findings go to $CRASHES" >&2

# Fork mode: a crash, timeout or OOM is saved and fuzzing goes on until the time is up.
status=0
{ rc=0; "$BIN" $FLAGS -max_total_time="$SECONDS_TO_RUN" -fork="$JOBS" \
      -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
      -artifact_prefix="$WORK/artifacts/" "$WORK/corpus" "$WORK/seeds" || rc=$?; echo $rc > "$WORK/status"; } 2>&1 \
    | tee "$WORK/fuzz.log"
status=$(cat "$WORK/status")

# Keep every finding as a regression input (named by libFuzzer: crash-, timeout-, leak-, oom-, slow-unit-).
found=0
for f in "$WORK"/artifacts/*; do
    [ -f "$f" ] || continue
    cp "$f" "$CRASHES/$(basename "$f").ics"
    found=$((found + 1))
done
rm -f "$WORK"/artifacts/*
echo "fuzz.sh: $found new finding(s) copied to $CRASHES" >&2

if [ "${FUZZ_KEEP:-0}" = 1 ]; then
    # A minimised corpus (what covers the same edges), small inputs only, < 2 MB.
    rm -rf "$WORK/merged"; mkdir -p "$WORK/merged"
    "$BIN" -merge=1 -max_len=8192 -timeout=20 -rss_limit_mb=2048 "$WORK/merged" "$WORK/corpus" "$WORK/seeds" >/dev/null 2>&1 || true
    rm -f "$KEPT"/*
    total=0
    kept=0
    # libFuzzer names inputs by their SHA-1: name order is a fair sample.
    for f in $(ls "$WORK/merged"); do
        size=$(wc -c < "$WORK/merged/$f")
        [ $((total + size)) -gt 1900000 ] && continue
        [ "$kept" -ge "${FUZZ_KEEP_MAX:-120}" ] && break
        cp "$WORK/merged/$f" "$KEPT/$f.ics"
        total=$((total + size))
        kept=$((kept + 1))
    done
    echo "fuzz.sh: kept $(ls "$KEPT" | wc -l) inputs ($total bytes) in $KEPT" >&2
fi
exit $status
