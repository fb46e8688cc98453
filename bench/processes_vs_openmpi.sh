#!/usr/bin/env bash
# numacoll's collectives with ranks as MPI processes sharing memory against
# the MPI library's own, on NP processes of this machine, interleaved
# collective by collective, size by size and round by round (the machine's
# speed drifts over minutes), timed alike (OSU-style: an MPI barrier, then
# every process times its own part; an iteration is the slowest process's):
# - numacoll: mpirun -np NP numacoll run --engine mpi --ranks-as processes
#   (allreduce tree, tiled and dissemination; bcast tree; reduce tree;
#   barrier tree and dissemination), every result verified; bcast tree also
#   with --single-copy (the root's input read through the kernel, one copy
#   where the segment takes two), as "tree+single-copy";
# - native:   mpirun -np NP numacoll baseline, the library's MPI_Allreduce,
#   MPI_Bcast, MPI_Reduce, MPI_Barrier with its own choice of algorithm.
# Processes are not bound by mpirun (--bind-to none): numacoll pins each to
# its rank's PU, and the library's processes run where the system puts them.
#
# Usage: bench/processes_vs_openmpi.sh [ROUNDS=3] [ITERATIONS=200] [NP=2]
#        (NUMACOLL_BENCH_COLLECTIVES="bcast" limits the collectives)
# Prints, per collective and size: the median over rounds of each per-round
# median (ns), the spread over rounds, and numacoll / native.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
iterations=${2:-200}
processes=${3:-2}
build=${NUMACOLL_BUILD_DIR:-build}
[[ -x "$build/cli/numacoll" ]] || scripts/setup.sh
numacoll=$build/cli/numacoll
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
oversubscribe=()
((processes > $(nproc))) && oversubscribe=(--oversubscribe)
mpirun=(mpirun --bind-to none "${oversubscribe[@]}" -np "$processes")

declare -A algorithms=([allreduce]=tree,tiled,dissemination [bcast]=tree [reduce]=tree [barrier]=tree,dissemination)
sizes=(8 64 1024 16384 65536 262144 1048576 4194304)
results=$work/results
for round in $(seq 1 "$rounds"); do
  for collective in ${NUMACOLL_BENCH_COLLECTIVES:-allreduce bcast reduce barrier}; do
    for bytes in "${sizes[@]}"; do
      [[ $collective == barrier ]] && { ((bytes == 8)) || continue; bytes=0; }
      n=$iterations; ((bytes >= 1048576)) && n=$((iterations / 4 > 10 ? iterations / 4 : 10))
      common=(-c "$collective" --bytes "$bytes" --iterations "$n" --warmup 10 -q -o -)
      "${mpirun[@]}" "$numacoll" run --engine mpi --ranks-as processes "${oversubscribe[@]}" \
        -a "${algorithms[$collective]}" "${common[@]}" </dev/null |
        awk -F, -v c="$collective" -v b="$bytes" 'NR > 1 {print c, $2, b, $7}' >> "$results"
      if [[ $collective == bcast ]]; then
        "${mpirun[@]}" "$numacoll" run --engine mpi --ranks-as processes --single-copy "${oversubscribe[@]}" \
          -a tree "${common[@]}" </dev/null |
          awk -F, -v c="$collective" -v b="$bytes" 'NR > 1 {print c, $2 "+single-copy", b, $7}' >> "$results"
      fi
      "${mpirun[@]}" "$numacoll" baseline "${common[@]}" </dev/null |
        awk -F, -v c="$collective" -v b="$bytes" 'NR > 1 {print c, "native", b, $7}' >> "$results"
    done
    echo "round $round/$rounds: $collective" >&2
  done
done

python3 - "$results" "$rounds" "$processes" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    collective, who, size, ns = line.split()
    runs[(collective, who, int(size))].append(float(ns))
print(f"{sys.argv[3]} processes, rounds: {sys.argv[2]}; medians over rounds of per-round medians, ns; "
      "spread = min-max over rounds")
print(f"{'collective':>10} {'algorithm':>14} {'bytes':>8} | {'numacoll':>9} {'spread':>15} | {'native':>9} "
      f"{'spread':>15} | {'numacoll/native':>15}")
for collective, who, size in sorted(runs, key=lambda k: (k[0], k[2], k[1] == "native", k[1])):
    if who == "native":
        continue
    mine, native = runs[(collective, who, size)], runs[(collective, "native", size)]
    m, n = statistics.median(mine), statistics.median(native)
    print(f"{collective:>10} {who:>14} {size:>8} | {m:9.0f} {min(mine):7.0f}-{max(mine):<7.0f} | {n:9.0f} "
          f"{min(native):7.0f}-{max(native):<7.0f} | {m / n:15.2f}")
PY
