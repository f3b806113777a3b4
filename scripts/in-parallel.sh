#!/usr/bin/env bash
# Runs two commands side by side (a CPU-light browser suite beside the proof suite) and fails when either fails;
# each one's output is kept apart and printed when it ends, so the two logs do not interleave.
# Usage: bash scripts/in-parallel.sh "command one" "command two"
set -uo pipefail
LOGS=$(mktemp -d /tmp/slk-parallel.XXXXXX)
trap 'rm -rf "$LOGS"' EXIT
bash -c "$1" >"$LOGS/1" 2>&1 &
FIRST=$!
bash -c "$2" >"$LOGS/2" 2>&1 &
SECOND=$!
wait "$FIRST"; ONE=$?
echo "== $1 (exit $ONE)"; cat "$LOGS/1"
wait "$SECOND"; TWO=$?
echo "== $2 (exit $TWO)"; cat "$LOGS/2"
[ "$ONE" -eq 0 ] && [ "$TWO" -eq 0 ]
