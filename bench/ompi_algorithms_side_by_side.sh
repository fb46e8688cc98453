#!/usr/bin/env bash
# numacoll's versions of Open MPI's coll/tuned algorithms against Open MPI's
# own of the same name, on NP processes of this machine, interleaved
# algorithm by algorithm, size by size and round by round (the machine's
# speed drifts over minutes), timed alike (OSU-style: an MPI barrier, then
# every process times its own part; an iteration is the slowest process's):
# - numacoll: mpirun -np NP numacoll run --engine mpi --ranks-as processes -a A
#   (processes sharing a segment of memory, every result verified);
# - Open MPI: mpirun -np NP numacoll baseline --ompi-algorithm A (Open MPI's
#   coll/tuned forced to the algorithm of that name, over its own transport).
# Processes are not bound by mpirun (--bind-to none): numacoll pins each to
# its rank's PU, and Open MPI's processes run where the system puts them.
#
# Usage: bench/ompi_algorithms_side_by_side.sh [ROUNDS=3] [ITERATIONS=200] [NP=2]
#        NUMACOLL_BENCH_PAIRS="allreduce:ring barrier:linear" chooses the algorithms
#        (default: allreduce ring, recursive-doubling, rabenseifner).
# Prints, per algorithm and size: the median over rounds of each per-round
# median (ns), the spread over rounds, and numacoll / Open MPI.
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

pairs=(${NUMACOLL_BENCH_PAIRS:-allreduce:ring allreduce:recursive-doubling allreduce:rabenseifner})
sizes=(8 1024 65536 1048576)
results=$work/results
for round in $(seq 1 "$rounds"); do
  for pair in "${pairs[@]}"; do
    collective=${pair%%:*} algorithm=${pair#*:}
    for bytes in "${sizes[@]}"; do
      [[ $collective == barrier ]] && { ((bytes == 8)) || continue; bytes=0; }
      n=$iterations; ((bytes >= 1048576)) && n=$((iterations / 4 > 10 ? iterations / 4 : 10))
      common=(-c "$collective" --bytes "$bytes" --iterations "$n" --warmup 10 -q -o -)
      "${mpirun[@]}" "$numacoll" run --engine mpi --ranks-as processes "${oversubscribe[@]}" -a "$algorithm" \
        "${common[@]}" </dev/null | awk -F, -v k="$pair" -v b="$bytes" 'NR > 1 {print k, "numacoll", b, $7}' >> "$results"
      "${mpirun[@]}" "$numacoll" baseline --ompi-algorithm "$algorithm" "${common[@]}" </dev/null |
        awk -F, -v k="$pair" -v b="$bytes" 'NR > 1 {print k, "openmpi", b, $7}' >> "$results"
    done
  done
  echo "round $round/$rounds" >&2
done

python3 - "$results" "$rounds" "$processes" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    pair, who, size, ns = line.split()
    runs[(pair, who, int(size))].append(float(ns))
print(f"{sys.argv[3]} processes, rounds: {sys.argv[2]}; medians over rounds of per-round medians, ns; "
      "spread = min-max over rounds; 'within' when the two spreads overlap")
print(f"{'algorithm':>30} {'bytes':>8} | {'numacoll':>9} {'spread':>17} | {'Open MPI':>9} {'spread':>17} | "
      f"{'ratio':>6} {'':>7}")
for pair, who, size in sorted(runs, key=lambda k: (k[0], k[2])):
    if who != "numacoll":
        continue
    mine, theirs = runs[(pair, "numacoll", size)], runs[(pair, "openmpi", size)]
    m, t = statistics.median(mine), statistics.median(theirs)
    within = "within" if min(mine) <= max(theirs) and min(theirs) <= max(mine) else ""
    print(f"{pair:>30} {size:>8} | {m:9.0f} {min(mine):8.0f}-{max(mine):<8.0f} | {t:9.0f} "
          f"{min(theirs):8.0f}-{max(theirs):<8.0f} | {m / t:6.2f} {within:>7}")
PY
