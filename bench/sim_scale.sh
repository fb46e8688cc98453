#!/usr/bin/env bash
# How numacoll's simulation scales, each row interleaved with its baseline,
# round by round (the machine's speed drifts over minutes):
#  (a) tree allreduce on one 1024-core node (synthetic 16 x 64 cores,
#      generic params, 64-byte strips) at about 10k, 100k and 1M tasks;
#  (b) tree allreduce on westmere clusters of 64, 512 and 4,096 nodes at
#      8 B and 1 MiB;
#      baseline of (a) and (b): the same command with SimGrid's own detach
#      and platform lookups (NUMACOLL_SIMGRID_ATTACHED_COMMS=0), skipped
#      where it would run for minutes (4,096 nodes);
#  (c) SMPI (smpicc/smpirun from libsimgrid-dev) running one MPI_Allreduce
#      on 256 and 1,024 ranks of a cluster platform (one rank per host,
#      10 GBps and 1 us links, a 100 GBps backbone; smpi/simulate-computation:no,
#      -no-privatize) at 8 B, 64 KiB and 1 MiB, against numacoll simulating
#      the same rank counts (tree allreduce, 16-core nodes: synthetic
#      Package:2 Core:8, generic params, 16 and 64 nodes).
# Every figure is the whole command: generation, platform and simulation.
# Prints per row: numacoll's median wall time and spread over rounds, tasks
# per second, peak memory (the largest process), the baseline's median,
# spread and peak memory, and baseline / numacoll for time and memory.
#
# Usage: bench/sim_scale.sh [ROUNDS=3] [NUMACOLL=build/cli/numacoll] [SECTIONS=abc]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
numacoll=${2:-build/cli/numacoll}
sections=${3:-abc}
export NUMACOLL_PROGRESS=0

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
results=$scratch/results

# measure LABEL WHO TASKS_FROM_CSV command...: appends "label who seconds kib tasks".
measure() {
  local label=$1 who=$2 tasks_from_csv=$3
  shift 3
  # Wall time from bash's microsecond clock (time's %e counts in 10 ms, too
  # coarse for the 8-byte rows); peak memory from time's %M.
  local started=$EPOCHREALTIME
  /usr/bin/time -f "%M" -o "$scratch/time" "$@" > "$scratch/out" 2> "$scratch/err" || {
    echo "failed: $*" >&2
    cat "$scratch/err" >&2
    exit 1
  }
  local ended=$EPOCHREALTIME
  local seconds
  seconds=$(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.4f", b - a }')
  local tasks=-
  [[ $tasks_from_csv == yes ]] && tasks=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; ++i) if ($i == "tasks") c = i} NR == 2 {print $c}' "$scratch/out")
  echo "$label $who $seconds $(tail -n 1 "$scratch/time") $tasks" >> "$results"
}

sim_row() {  # label with_baseline numacoll-arguments...
  local label=$1 with_baseline=$2
  shift 2
  local first=numacoll second=baseline
  ((round % 2)) || { first=baseline; second=numacoll; }
  for who in $first $second; do
    if [[ $who == numacoll ]]; then
      measure "$label" numacoll yes "$numacoll" sim -q -o - "$@"
    elif [[ $with_baseline == yes ]]; then
      measure "$label" baseline yes env NUMACOLL_SIMGRID_ATTACHED_COMMS=0 "$numacoll" sim -q -o - "$@"
    fi
  done
}

if [[ $sections == *c* ]]; then
  command -v smpicc > /dev/null || { echo "bench/sim_scale.sh: section c needs smpicc (libsimgrid-dev)" >&2; exit 2; }
  smpicc -O2 -o "$scratch/smpi_allreduce" bench/smpi_allreduce.c 2> /dev/null
  # The floor of both sides: a program that only loads SimGrid's library and returns.
  echo 'int main(void) { return 0; }' | cc -x c - -o "$scratch/load_simgrid_only" -Wl,--no-as-needed -lsimgrid
  for ranks in 256 1024; do
    cat > "$scratch/cluster$ranks.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-$((ranks - 1))" speed="1Gf" bw="10GBps" lat="1us" bb_bw="100GBps" bb_lat="1us"/>
</platform>
XML
    for ((h = 0; h < ranks; ++h)); do echo "h$h"; done > "$scratch/hosts$ranks"
  done
fi

for round in $(seq 1 "$rounds"); do
  if [[ $sections == *a* ]]; then
    for bytes in 192 1792 17792; do
      sim_row "a:1024-core:${bytes}B" yes --topology "synthetic:Package:16 L3Cache:1 Core:64" --params generic \
        --bytes "$bytes" --strip 64
    done
  fi
  if [[ $sections == *b* ]]; then
    for nodes in 64 512 4096; do
      for bytes in 8 1MiB; do
        baseline=yes; ((nodes < 4096)) || baseline=no
        sim_row "b:westmere-x$nodes:$bytes" $baseline --topology westmere --nodes "$nodes" --bytes "$bytes"
      done
    done
  fi
  if [[ $sections == *c* ]]; then
    for ranks in 256 1024; do
      for bytes in 8 65536 1048576; do
        label="c:$ranks-ranks:${bytes}B"
        run_numacoll() {
          measure "$label" numacoll yes "$numacoll" sim -q -o - --topology "synthetic:Package:2 Core:8" --params generic \
            --nodes $((ranks / 16)) --bytes "$bytes"
        }
        run_smpi() {
          measure "$label" baseline no smpirun -np "$ranks" -platform "$scratch/cluster$ranks.xml" \
            -hostfile "$scratch/hosts$ranks" --cfg=smpi/simulate-computation:no --log=root.thres:critical \
            -no-privatize "$scratch/smpi_allreduce" "$bytes"
        }
        if ((round % 2)); then run_numacoll; run_smpi; else run_smpi; run_numacoll; fi
      done
    done
    measure "c:process-start-floor" floor no "$scratch/load_simgrid_only"
  fi
done

echo "rounds: $rounds; baseline: (a), (b) SimGrid's own detach and lookups; (c) SMPI"
awk '
  { key = $1; who = $2; n = ++count[key, who]; secs[key, who, n] = $3; kib[key, who] = ($4 > kib[key, who] ? $4 : kib[key, who])
    if (who == "numacoll") tasks[key] = $5
    if (!(key in seen)) { seen[key] = 1; order[++rows] = key } }
  function median(key, who,    n, i, j, t, v) {
    n = count[key, who]; for (i = 1; i <= n; ++i) v[i] = secs[key, who, i]
    for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    low[key, who] = v[1]; high[key, who] = v[n]
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
  END {
    printf "%-26s %9s %8s %15s %10s %8s %11s %15s %8s %7s %7s\n", "row", "tasks", "s (med)", "spread", "tasks/s", "peak MB",
      "base s", "base spread", "base MB", "time x", "mem x"
    for (r = 1; r <= rows; ++r) {
      key = order[r]
      if (count[key, "floor"] > 0) {
        printf "%-26s %9s %8.3f %7.3f-%-7.3f  (a program that only loads libsimgrid and returns)\n", key, "-",
          median(key, "floor"), low[key, "floor"], high[key, "floor"]
        continue
      }
      m = median(key, "numacoll")
      line = sprintf("%-26s %9s %8.3f %7.3f-%-7.3f %10.0f %8.0f", key, tasks[key], m, low[key, "numacoll"], high[key, "numacoll"],
                     tasks[key] / m, kib[key, "numacoll"] / 1024)
      if (count[key, "baseline"] > 0) {
        b = median(key, "baseline")
        line = line sprintf(" %11.3f %7.3f-%-7.3f %8.0f %7.2f %7.2f", b, low[key, "baseline"], high[key, "baseline"],
                            kib[key, "baseline"] / 1024, b / m, kib[key, "baseline"] / kib[key, "numacoll"])
      } else line = line sprintf(" %11s %15s %8s %7s %7s", "-", "-", "-", "-", "-")
      print line
    }
  }' "$results"
