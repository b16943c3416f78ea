#!/usr/bin/env bash
# One throughput run (docs/operations.md, "Throughput and memory"): a fresh `papan serve` on
# SQLite in a temporary data directory, the abuse limits off, driven by papan_loadtest with hot-seat
# games; prints one JSON line with the load tool's figures, the server's CPU time per
# acknowledged move (user + system, /proc/PID/stat), its resident memory before, at the end of
# play and after the rooms left memory (with --unload S: the server's --idle-unload, waited for
# until /healthz counts no room), and the machine's load average at the start and the end.
#
#   loadtest/scripts/throughput.sh --bin build/release/papan --loadtest build/release/papan_loadtest \
#       --games 4000 --think 1000 --duration 40 [--rate 500] [--threads 1] [--unload 5]
#       [--server-env "LD_PRELOAD=..."] [--perf FILE]   (perf record of the server during play)
set -euo pipefail

bin=build/release/papan
loadtest=build/release/papan_loadtest
games=200
think=0
duration=30
rate=500
threads=1
unload=0
server_env=""
perf_out=""
while [ $# -gt 0 ]; do
    case "$1" in
    --bin) bin=$2; shift 2 ;;
    --loadtest) loadtest=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --think) think=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --unload) unload=$2; shift 2 ;;
    --server-env) server_env=$2; shift 2 ;;
    --perf) perf_out=$2; shift 2 ;;
    *) echo "throughput.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

work=$(mktemp -d)
pid=""
cleanup() {
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    [ -n "${KEEP:-}" ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT

idle_unload=()
if [ "$unload" != 0 ]; then
    idle_unload=(--idle-unload "$unload")
fi
env $server_env "$bin" serve --port 0 --data "$work" --egdb "$work/none" --ws-rate 0 \
    --max-connections-per-ip 0 --creates-per-ip 0 --max-open-games 0 "${idle_unload[@]}" \
    >"$work/out" 2>"$work/err" &
pid=$!
until grep -q "listening on" "$work/out" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || { cat "$work/err" >&2; exit 1; }
    sleep 0.05
done
port=$(grep -o 'listening on http://[^ ]*' "$work/out" | sed 's/.*://')
hz=$(getconf CLK_TCK)
cpu_ms() { awk -v hz="$hz" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$pid/stat"; }
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
load() { cut -d' ' -f1 /proc/loadavg; }

load_start=$(load)
rss_before=$(rss_kb)
# The server's CPU time every 0.2 s: the run's share is read between the start of the load tool
# and the end of play (the store check afterwards is not play).
(while kill -0 "$pid" 2>/dev/null; do echo "$(date +%s%3N) $(cpu_ms)"; sleep 0.2; done) \
    >"$work/cpu" 2>/dev/null &
sampler=$!
started_ms=$(date +%s%3N)
perf_pid=""
if [ -n "$perf_out" ]; then
    perf record -e cpu-clock -F 499 -g -p "$pid" -o "$perf_out" >/dev/null 2>&1 &
    perf_pid=$!
fi
"$loadtest" --url "ws://127.0.0.1:$port/ws" --games "$games" --rate "$rate" \
    --duration "$duration" --think "$think" --threads "$threads" --max-errors 1000000 --json \
    >"$work/report" 2>"$work/loadtest.err" || true
if [ -n "$perf_pid" ]; then
    kill -INT "$perf_pid" 2>/dev/null || true
    wait "$perf_pid" 2>/dev/null || true
fi
rss_end=$(rss_kb)
load_end=$(load)
rss_unloaded=null
if [ "$unload" != 0 ]; then
    # The sockets are closed: every room may leave memory after --idle-unload.
    for _ in $(seq 1 $((unload * 10 + 200))); do
        rooms=$(curl -s "http://127.0.0.1:$port/healthz" | sed -n 's/.*"rooms":\([0-9]*\).*/\1/p')
        [ "$rooms" = 0 ] && break
        sleep 0.1
    done
    sleep $((unload + 2))  # housekeeping after the last unload (memory handed back)
    rss_unloaded=$(rss_kb)
fi
kill "$sampler" 2>/dev/null || true
report=$(tail -n 1 "$work/report")
moves=$(echo "$report" | jq -r '.moves // empty')
elapsed_s=$(echo "$report" | jq -r '.elapsed_s // empty')
[ -n "$moves" ] || { echo "throughput.sh: no report" >&2; cat "$work/loadtest.err" >&2; exit 1; }
ended_ms=$(awk -v s="$started_ms" -v e="$elapsed_s" 'BEGIN {printf "%.0f", s + e * 1000}')
cpu=$(awk -v s="$started_ms" -v e="$ended_ms" '
    NR == 1 || $1 <= s {first = $2} $1 <= e {last = $2} END {print last - first}' "$work/cpu")
echo "{\"games\": $games, \"think_ms\": $think, \"server_cpu_ms\": $cpu," \
    "\"server_cpu_ms_per_move\": $(awk -v c="$cpu" -v m="$moves" 'BEGIN {printf "%.4f", (m > 0 ? c / m : 0)}')," \
    "\"rss_kb\": {\"before\": $rss_before, \"end\": $rss_end, \"unloaded\": $rss_unloaded}," \
    "\"load\": [$load_start, $load_end], \"report\": $report}"
