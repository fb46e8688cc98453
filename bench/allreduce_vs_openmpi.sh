#!/usr/bin/env bash
# numacoll's tree allreduce (and, for comparison, its tiled allreduce) on
# 2 pinned threads against Open MPI's MPI_Allreduce on 2 ranks and against
# a hand-written 2-thread reference
# (bench/handwritten_allreduce.c: each thread sums both inputs, inputs
# rewritten before each call), all four interleaved size by size and round
# by round in this one script (the machine's speed drifts over minutes).
#
# Usage: bench/allreduce_vs_openmpi.sh [ROUNDS=3] [ITERATIONS=200]
# Prints, per size: the medians of the per-round medians, numacoll's and
# Open MPI's spread over rounds, and the ratios (tree and tiled).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
iterations=${2:-200}
build=${NUMACOLL_BUILD_DIR:-build}

missing=()
for package in libopenmpi-dev openmpi-bin; do
  [[ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)" == "install ok installed" ]] || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "installing ${missing[*]}" >&2
  sudo_cmd=(); [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[[ -x "$build/cli/numacoll" ]] || scripts/setup.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/mpi_allreduce" bench/mpi_allreduce.c
cc -O3 -pthread -o "$work/handwritten_allreduce" bench/handwritten_allreduce.c
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=cma

sizes=(8 64 1024 16384 65536 262144 1048576 4194304 16777216)
declare -A ours tiled theirs reference
for round in $(seq 1 "$rounds"); do
  for bytes in "${sizes[@]}"; do
    n=$iterations; ((bytes >= 1048576)) && n=$((iterations / 4 > 10 ? iterations / 4 : 10))
    mine=$("$build/cli/numacoll" run --threads 2 --bytes "$bytes" --iterations "$n" --warmup 10 -q | awk -F, 'NR==2 {print $7}')
    tile=$("$build/cli/numacoll" run --threads 2 -a tiled --bytes "$bytes" --iterations "$n" --warmup 10 -q | awk -F, 'NR==2 {print $7}')
    mpi=$(mpirun --bind-to core -np 2 "$work/mpi_allreduce" "$bytes" "$n" 10 | cut -d, -f2)
    ref=$("$work/handwritten_allreduce" "$bytes" "$n" 10 | cut -d, -f2)
    ours[$bytes]+="$mine "; tiled[$bytes]+="$tile "; theirs[$bytes]+="$mpi "; reference[$bytes]+="$ref "
    echo "round $round/$rounds $bytes B: numacoll tree $mine ns, tiled $tile ns, Open MPI $mpi ns, hand-written $ref ns" >&2
  done
done

python3 - "$rounds" "${sizes[@]}" <<PY
import statistics, sys
ours = {$(for b in "${sizes[@]}"; do printf '%s: [%s], ' "$b" "$(echo ${ours[$b]} | tr ' ' ',')"; done)}
tiled = {$(for b in "${sizes[@]}"; do printf '%s: [%s], ' "$b" "$(echo ${tiled[$b]} | tr ' ' ',')"; done)}
theirs = {$(for b in "${sizes[@]}"; do printf '%s: [%s], ' "$b" "$(echo ${theirs[$b]} | tr ' ' ',')"; done)}
reference = {$(for b in "${sizes[@]}"; do printf '%s: [%s], ' "$b" "$(echo ${reference[$b]} | tr ' ' ',')"; done)}
print(f"rounds: {sys.argv[1]}; each figure is the median over rounds of per-round medians (ns); spread = min-max over rounds")
print(f"{'bytes':>9} {'tree':>10} {'spread':>17} {'tiled':>10} {'Open MPI':>10} {'spread':>17} {'hand-written':>12} "
      f"{'MPI/tree':>9} {'tree/ref':>9} {'MPI/tiled':>9} {'tiled/ref':>9}")
for size in [int(s) for s in sys.argv[2:]]:
    a, t, b, r = (statistics.median(x[size]) for x in (ours, tiled, theirs, reference))
    print(f"{size:>9} {a:10.0f} {min(ours[size]):8.0f}-{max(ours[size]):<8.0f} {t:10.0f} {b:10.0f} "
          f"{min(theirs[size]):8.0f}-{max(theirs[size]):<8.0f} {r:12.0f} {b / a:9.2f} {a / r:9.2f} {b / t:9.2f} {t / r:9.2f}")
PY
