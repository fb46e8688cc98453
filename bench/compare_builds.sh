#!/usr/bin/env bash
# Two numacoll binaries side by side, interleaved round by round (the
# machine's speed drifts over minutes): a restructuring that must not change
# what numacoll measures or how fast it simulates is checked against the
# build before it.
#
# Usage: bench/compare_builds.sh BASELINE_BINARY CANDIDATE_BINARY [ROUNDS=5] [ITERATIONS=300]
# Prints, per measured size: the median over rounds of each binary's
# per-round median (numacoll run, allreduce tree on 2 threads), the spread
# over rounds, and candidate / baseline; then the wall time of simulating a
# 100k-task DAG (tree allreduce on a 1024-core synthetic node, 64-byte strips)
# the same way; then the wall time of two short commands, whose cost is
# mostly the process's (start, topology, exit): simulating 1,024 ranks on 64
# synthetic nodes at 8 B, and --version (per round, the median of 8 runs).
set -euo pipefail
baseline=${1:?usage: bench/compare_builds.sh BASELINE_BINARY CANDIDATE_BINARY [ROUNDS] [ITERATIONS]}
candidate=${2:?usage: bench/compare_builds.sh BASELINE_BINARY CANDIDATE_BINARY [ROUNDS] [ITERATIONS]}
rounds=${3:-5}
iterations=${4:-300}
sizes=(8 64 1024 65536 1048576)

run_median() {  # binary bytes -> the median time_ns of one run
  "$1" run --threads 2 --bytes "$2" --iterations "$iterations" --warmup 20 -q -o - | awk -F, 'NR==2 {print $7}'
}
sim_seconds() {  # binary -> wall seconds of one simulation of the 100k-task DAG
  local start end
  start=$(date +%s%N)
  "$1" sim --topology "synthetic:Package:16 L3Cache:1 Core:64" --params generic --bytes 1792 --strip 64 -q -o /dev/null
  end=$(date +%s%N)
  awk -v ns=$((end - start)) 'BEGIN {printf "%.3f\n", ns / 1e9}'
}
command_ms() {  # binary sim|version -> the median wall ms of 8 runs of a short command
  local samples=() start end
  for _ in 1 2 3 4 5 6 7 8; do
    start=$EPOCHREALTIME
    if [[ $2 == version ]]; then
      "$1" --version > /dev/null
    else
      "$1" sim --topology "synthetic:Package:2 Core:8" --params generic --nodes 64 --bytes 8 -q -o /dev/null
    fi
    end=$EPOCHREALTIME
    samples+=("$(awk -v s="$start" -v e="$end" 'BEGIN {printf "%.3f", (e - s) * 1000}')")
  done
  printf '%s\n' "${samples[@]}" | sort -g | awk '{v[NR] = $1} END {printf "%.2f\n", (v[4] + v[5]) / 2}'
}

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for round in $(seq 1 "$rounds"); do
  for bytes in "${sizes[@]}"; do
    # Alternate which binary goes first, so that neither always runs on a warmer machine.
    for who in $( ((round % 2)) && echo "baseline candidate" || echo "candidate baseline"); do
      binary=$baseline; [[ $who == candidate ]] && binary=$candidate
      echo "run $who $bytes $(run_median "$binary" "$bytes")" >> "$results"
    done
  done
  for who in $( ((round % 2)) && echo "baseline candidate" || echo "candidate baseline"); do
    binary=$baseline; [[ $who == candidate ]] && binary=$candidate
    echo "sim $who 100k $(sim_seconds "$binary")" >> "$results"
  done
  for what in sim version; do
    for who in $( ((round % 2)) && echo "baseline candidate" || echo "candidate baseline"); do
      binary=$baseline; [[ $who == candidate ]] && binary=$candidate
      echo "cmd $who $what $(command_ms "$binary" "$what")" >> "$results"
    done
  done
  echo "round $round/$rounds done" >&2
done

python3 - "$results" "$rounds" <<'PY'
import collections, statistics, sys
figures = collections.defaultdict(list)
for line in open(sys.argv[1]):
    kind, who, point, value = line.split()
    figures[(kind, point, who)].append(float(value))
print(f"rounds: {sys.argv[2]}; each figure is the median over rounds (spread: min-max over rounds)")
print(f"{'what':<22} {'baseline':>12} {'spread':>21} {'candidate':>12} {'spread':>21} {'cand/base':>9}")
order = {"run": 0, "sim": 1, "cmd": 2}
points = sorted({(k, p) for (k, p, _) in figures},
                key=lambda kp: (order[kp[0]], float(kp[1].rstrip("k")) if kp[0] == "run" else 0, kp[1]))
labels = {"sim": "1,024 ranks 8 B (ms)", "version": "--version (ms)"}
for kind, point in points:
    base, cand = figures[(kind, point, "baseline")], figures[(kind, point, "candidate")]
    label = {"run": f"run 2 threads {point} B", "sim": f"sim {point} tasks (s)", "cmd": labels.get(point, point)}[kind]
    digits = {"run": 0, "sim": 3, "cmd": 1}[kind]
    unit = "{:12.%df}" % digits
    spread = lambda xs: f"{min(xs):.{digits}f}-{max(xs):.{digits}f}"
    print(f"{label:<22} {unit.format(statistics.median(base))} {spread(base):>21} "
          f"{unit.format(statistics.median(cand))} {spread(cand):>21} {statistics.median(cand) / statistics.median(base):9.3f}")
PY
