#!/usr/bin/env bash
# The MPI engine against the thread engine and against the MPI library's own
# MPI_Allreduce, all on 2 ranks of this machine, interleaved size by size and
# round by round in this one script (the machine's speed drifts over minutes):
# - threads: numacoll run, 2 pinned threads in one process (tree, tiled, dissemination);
# - mpi:     mpirun -np 2 numacoll run --engine mpi --nodes 2 --threads 1 (the same
#            three; every hand-over between the two ranks is an MPI message);
# - native:  mpirun -np 2 numacoll baseline (MPI_Allreduce, the library's choice);
# - driver:  mpirun -np 2 bench/mpi_allreduce.c, the independent C driver that
#            numacoll baseline must agree with.
#
# Usage: bench/mpi_engines.sh [ROUNDS=3] [ITERATIONS=200]
# Prints, per size: the median over rounds of each per-round median (ns),
# the spread over rounds of the MPI engine's tree and of native, and the ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
iterations=${2:-200}
build=${NUMACOLL_BUILD_DIR:-build}
[[ -x "$build/cli/numacoll" ]] || scripts/setup.sh
numacoll=$build/cli/numacoll
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/mpi_allreduce" bench/mpi_allreduce.c
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --bind-to core -np 2)

sizes=(8 64 1024 16384 65536 262144 1048576 4194304)
results=$work/results
for round in $(seq 1 "$rounds"); do
  for bytes in "${sizes[@]}"; do
    n=$iterations; ((bytes >= 1048576)) && n=$((iterations / 4 > 10 ? iterations / 4 : 10))
    common=(-c allreduce -a tree,tiled,dissemination --bytes "$bytes" --iterations "$n" --warmup 10 -q -o -)
    "$numacoll" run --threads 2 "${common[@]}" | awk -F, -v b="$bytes" 'NR > 1 {print "threads-" $2, b, $7}' >> "$results"
    "${mpirun[@]}" "$numacoll" run --engine mpi --nodes 2 --threads 1 "${common[@]}" |
      awk -F, -v b="$bytes" 'NR > 1 {print "mpi-" $2, b, $7}' >> "$results"
    "${mpirun[@]}" "$numacoll" baseline -c allreduce --bytes "$bytes" --iterations "$n" --warmup 10 -q -o - |
      awk -F, -v b="$bytes" 'NR > 1 {print "native", b, $7}' >> "$results"
    "${mpirun[@]}" "$work/mpi_allreduce" "$bytes" "$n" 10 | awk -F, -v b="$bytes" '{print "driver", b, $2}' >> "$results"
    echo "round $round/$rounds: $bytes B" >&2
  done
done

python3 - "$results" "$rounds" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    who, size, ns = line.split()
    runs[(who, int(size))].append(float(ns))
sizes = sorted({size for _, size in runs})
med = lambda who, size: statistics.median(runs[(who, size)])
spread = lambda who, size: f"{min(runs[(who, size)]):.0f}-{max(runs[(who, size)]):.0f}"
print(f"rounds: {sys.argv[2]}; medians over rounds of per-round medians, ns; spread = min-max over rounds")
print(f"{'bytes':>8} | {'threads':>8} {'tiled':>8} {'dissem':>8} | {'mpi tree':>9} {'spread':>15} {'tiled':>8} "
      f"{'dissem':>8} | {'native':>8} {'spread':>15} {'driver':>8} | {'tree/nat':>8} {'tiled/nat':>9} "
      f"{'dis/nat':>8} {'mpi/thr':>8} {'nat/drv':>8}")
for size in sizes:
    t, tt, td = (med(f"threads-{a}", size) for a in ("tree", "tiled", "dissemination"))
    m, mt, md = (med(f"mpi-{a}", size) for a in ("tree", "tiled", "dissemination"))
    n, d = med("native", size), med("driver", size)
    print(f"{size:>8} | {t:8.0f} {tt:8.0f} {td:8.0f} | {m:9.0f} {spread('mpi-tree', size):>15} {mt:8.0f} {md:8.0f} | "
          f"{n:8.0f} {spread('native', size):>15} {d:8.0f} | {m / n:8.2f} {mt / n:9.2f} {md / n:8.2f} {m / t:8.2f} "
          f"{n / d:8.2f}")
PY
