#!/bin/sh
# Runs the reliability (fault-injection) tests at stress scale and prints what they
# measured (used by `make stress`).
#
#   scripts/stress.sh [extra `swift test` arguments]
#
# Environment:
#   EVENTD_STRESS_SCALE   how much longer/larger than `make test` (default 20: 100 import
#                         kills, 1000 subscribers for 10 minutes, 200,000 connections ...)
#   EVENTD_STRESS_SEED    repeat a run's random choices (each test prints its seed)
#   SWIFT                 the swift driver (default: swift)
#   SCRATCH               build directory (default: .build)
#
# The tests need root for the disk-full and read-only cases (tmpfs and bind mounts);
# without it those fall back to RLIMIT_FSIZE or are skipped, and say so.
set -eu

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SCRATCH=${SCRATCH:-.build}
EVENTD_STRESS_SCALE=${EVENTD_STRESS_SCALE:-20}
export EVENTD_STRESS_SCALE

report=$(mktemp "${TMPDIR:-/tmp}/eventd-stress-XXXXXX")
trap 'rm -f "$report"' EXIT INT TERM
EVENTD_RELIABILITY_REPORT=$report
export EVENTD_RELIABILITY_REPORT

echo "stress: building (scratch path $SCRATCH)"
"$SWIFT" build --build-tests --scratch-path "$SCRATCH"
echo "stress: running ReliabilityTests at EVENTD_STRESS_SCALE=$EVENTD_STRESS_SCALE"
started=$(date +%s)
status=0
"$SWIFT" test --skip-build --scratch-path "$SCRATCH" --filter ReliabilityTests "$@" || status=$?
elapsed=$(( $(date +%s) - started ))

echo
echo "stress: figures (EVENTD_STRESS_SCALE=$EVENTD_STRESS_SCALE, ${elapsed} s):"
cat "$report"
if [ "$status" -eq 0 ]; then
    echo "stress: PASSED"
else
    echo "stress: FAILED (swift test exit $status)"
fi
exit "$status"
