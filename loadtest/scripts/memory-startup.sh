#!/usr/bin/env bash
# Resident memory and start-up time of `papan serve` on a filled store (docs/operations.md,
# "Memory and start-up"): copies DB (made by papan_fill_store) into a fresh data directory, starts
# the server on it and prints the seconds from exec to its "listening on" line, the games it
# resumed, the CPU time it used until then, and VmRSS / VmHWM (kB, /proc/PID/status) at once and SETTLE seconds later.
#   loadtest/scripts/memory-startup.sh build/release/papan /tmp/fill/papan.db [SETTLE]
set -euo pipefail
bin=$1 db=$2 settle=${3:-10}
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
cp "$db" "$work/papan.db"
start=$(date +%s%N)
"$bin" serve --port 0 --data "$work" --egdb "$work/none" --no-build-endgames >"$work/out" 2>"$work/err" &
pid=$!
until grep -q "listening on" "$work/out" 2>/dev/null; do
    kill -0 "$pid" || { cat "$work/err"; exit 1; }
    sleep 0.01
done
ready=$(date +%s%N)
cpu_ms=$(awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$pid/stat")
rss() { awk '/VmRSS|VmHWM/ {printf "%s %s kB  ", $1, $2}' "/proc/$pid/status"; }
echo "start-up: $(( (ready - start) / 1000000 )) ms wall, ${cpu_ms} ms CPU (user + system); $(grep -h 'resumed' "$work/err" || echo 'resumed none')"
echo "at start:        $(rss)"
sleep "$settle"
echo "after ${settle} s:   $(rss)"
