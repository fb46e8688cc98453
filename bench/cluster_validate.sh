#!/usr/bin/env bash
# The network model against a network of known rate: a cluster of
# scripts/cluster.sh, calibrated across its links (`numacoll calibrate --quick`
# under `cluster.sh mpirun`, which adds the network level, MPI's overheads and
# the stream's bandwidth), then `numacoll validate --engine mpi` of allreduce,
# bcast and reduce with those params, one process per node: the simulation and
# the models against what the same schedules measure over TCP between the
# nodes. Prints each collective's summary (median error per algorithm, and at
# how many sizes the simulation picks the measured best) and leaves the
# folders in OUT.
#
# Usage: sudo bench/cluster_validate.sh [NODES=2] [RATE=5gbit] [OUT=cluster-validate] [BYTES=8B:4MiB]
# Takes a cluster of its own up and down: it refuses while one is up.
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=${1:-2} rate=${2:-5gbit} out=${3:-cluster-validate} bytes=${4:-8B:4MiB}
[[ $nodes =~ ^[2-8]$ ]] || { echo "usage: bench/cluster_validate.sh [NODES: 2 to 8] [RATE] [OUT] [BYTES]" >&2; exit 2; }
. bench/cluster_bench.sh bench/cluster_validate.sh
mkdir -p "$out"
trap '"$cluster" down > /dev/null 2>&1' EXIT
"$cluster" up "$nodes" --rate "$rate" > /dev/null

"$cluster" mpirun -np "$nodes" "$numacoll" calibrate --quick -q -o "$out/params.json" > /dev/null
# Flat algorithms only: one process of one thread per node (a node here has
# one core), so a hierarchical schedule is its flat one.
declare -A algorithms=(
  [allreduce]=tree,recursive-doubling,ring,rabenseifner
  [bcast]=binomial,chain,linear,scatter-allgather
  [reduce]=binomial,chain,linear,rabenseifner
)
for collective in allreduce bcast reduce; do
  "$cluster" mpirun -np "$nodes" "$numacoll" validate --engine mpi --threads 1 --params "$out/params.json" \
    -c "$collective" -a "${algorithms[$collective]}" -b "$bytes" -q -o "$out/$collective" > /dev/null
  echo "== $collective on $nodes nodes at $rate"
  grep -E "^(  simulation picks|[a-z_]+ [a-z-]+ \(|  simulated  median)" "$out/$collective/summary.txt" || cat "$out/$collective/summary.txt"
done
