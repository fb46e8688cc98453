#!/usr/bin/env bash
# numacoll's interposition library against the MPI library's own collectives,
# inside one MPI program (bench/interposed_vs_native.cpp: MPI_* is the
# library's, PMPI_* the MPI library's, interleaved block by block), on NP
# processes of this machine, as an application would run: mpirun's own
# binding (Open MPI binds 2 processes to cores, more to packages), or
# none with --oversubscribe when NP exceeds the cores.
#
# Usage: bench/interposed_vs_native.sh [ROUNDS=5] [ITERATIONS=200] [NP=2] [VAR=VALUE...]
#        (VAR=VALUE: settings for the library, e.g. NUMACOLL_MPI_ALGORITHM=allreduce:tree;
#         NUMACOLL_BENCH_COLLECTIVES=allreduce,bcast limits the collectives)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
iterations=${2:-200}
processes=${3:-2}
shift $(( $# < 3 ? $# : 3 ))
build=${NUMACOLL_BUILD_DIR:-build}
library=$build/interpose/libnumacoll_mpi_openmpi.so
program=$build/bench/numacoll_bench_interposed
[[ -x "$program" && -f "$library" ]] || cmake --build "$build" --target numacoll_bench_interposed numacoll_mpi_openmpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
binding=()
((processes > $(nproc))) && binding=(--oversubscribe --bind-to none)
settings=(-x LD_PRELOAD="$PWD/$library")
for setting in "$@"; do settings+=(-x "$setting"); done
echo "# $(date -u '+%F %H:%M UTC'), $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores, $*"
mpirun "${binding[@]}" -np "$processes" "${settings[@]}" "$program" "$rounds" "$iterations" \
  "${NUMACOLL_BENCH_COLLECTIVES:-allreduce,bcast,reduce,barrier}"
