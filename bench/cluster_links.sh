#!/usr/bin/env bash
# Two nodes of scripts/cluster.sh, at each rate asked for: what plain TCP
# moves between them (bench/tcp_link.c: a 1-byte ping-pong's half round
# trip, and a stream's rate), against what `numacoll calibrate
# --network-only` measures and fits through Open MPI across the same link
# (its latency L of t = L + m / BW, and BW). Rounds alternate the TCP and
# MPI measurements, so that the machine's drift falls on both.
#
# Usage: sudo bench/cluster_links.sh [RATES="1gbit 5gbit"] [ROUNDS=3]
# Takes a cluster of its own up and down: it refuses while one is up.
# Prints per rate: the medians (and min-max over rounds) of TCP's half
# round trip (both ends polling their socket, as MPI waits; and, beside it,
# sleeping in recv) and stream rate, calibrate's L and BW, and the ratios of
# BW and of the stream to the configured rate and of L to TCP's half round trip.
set -euo pipefail
cd "$(dirname "$0")/.."
rates=${1:-1gbit 5gbit}
rounds=${2:-3}
[[ $rounds =~ ^[1-9][0-9]?$ ]] || { echo "usage: bench/cluster_links.sh [RATES] [ROUNDS: 1 to 99]" >&2; exit 2; }
. bench/cluster_bench.sh bench/cluster_links.sh
scratch=$(mktemp -d)
trap '"$cluster" down > /dev/null 2>&1; rm -rf "$scratch"' EXIT
links=$scratch/tcp_link
cc -O2 -o "$links" bench/tcp_link.c
port=47011

summary() {  # numbers, one per line -> "median (min-max)"
  sort -g | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; printf "%.3g (%.3g-%.3g)", m, v[1], v[NR]}'
}
median() { sort -g | awk '{v[NR]=$1} END {print NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

printf '%-7s %-22s %-22s %-22s %-22s %-22s %s\n' rate "TCP half RTT (us)" "blocking (us)" "TCP stream (Gbit/s)" "calibrate L (us)" "calibrate BW (Gbit/s)" "BW/rate stream/rate L/TCP"
for rate in $rates; do
  "$cluster" up 2 --rate "$rate" > /dev/null
  configured=$(awk 'NR==1 {print $5}' /run/numacoll-cluster/nodes)
  # Two seconds of stream at the configured rate.
  stream_bytes=$((configured / 8 * 2))
  : > "$scratch/rtt"; : > "$scratch/rtt-blocking"; : > "$scratch/stream"; : > "$scratch/L"; : > "$scratch/bw"
  for round in $(seq "$rounds"); do
    "$cluster" exec 2 "$links" serve $port &
    server=$!
    "$cluster" exec 1 "$links" pingpong 198.18.77.2 $port 5000 3 | median >> "$scratch/rtt-blocking"
    "$cluster" exec 1 "$links" pingpong 198.18.77.2 $port 5000 3 spin | median >> "$scratch/rtt"
    "$cluster" exec 1 "$links" stream 198.18.77.2 $port $stream_bytes 1 >> "$scratch/stream"
    "$cluster" exec 1 "$links" quit 198.18.77.2 $port
    wait $server
    "$cluster" mpirun -np 2 "$numacoll" calibrate --network-only --base generic -q -o "$scratch/net.json" > /dev/null
    python3 - "$scratch/net.json" >> "$scratch/L" 2>> "$scratch/bw" <<'PY'
import json, re, sys
levels = json.load(open(sys.argv[1]))["levels"]
print(float(re.search(r"L = ([0-9.]+) ns", levels["network"]["latency_ns"]["source"]).group(1)) / 1000)
print(levels["network"]["bandwidth_bytes_per_ns"]["value"] * 8, file=sys.stderr)
PY
    echo "bench/cluster_links.sh: $rate round $round of $rounds done" >&2
  done
  "$cluster" down > /dev/null
  rate_gbit=$(awk -v b="$configured" 'BEGIN {print b / 1e9}')
  ratios=$(awk -v bw="$(median < "$scratch/bw")" -v s="$(median < "$scratch/stream")" -v l="$(median < "$scratch/L")" \
    -v t="$(median < "$scratch/rtt")" -v r="$rate_gbit" 'BEGIN {printf "%.2f %.2f %.2f", bw / r, s / r, l / t}')
  printf '%-7s %-22s %-22s %-22s %-22s %-22s %s\n' "$rate" "$(summary < "$scratch/rtt")" "$(summary < "$scratch/rtt-blocking")" \
    "$(summary < "$scratch/stream")" \
    "$(summary < "$scratch/L")" "$(summary < "$scratch/bw")" "$ratios"
done
