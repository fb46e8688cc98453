# Sourced by the benchmarks that take a cluster of scripts/cluster.sh up of
# their own (cluster_links.sh, cluster_validate.sh), from the project's root:
# sets numacoll (NUMACOLL, or the build's) and cluster, and refuses with one
# line when numacoll is not built, the machine cannot hold a cluster, or one
# is up already (the benchmark would take it down).
# Usage: . bench/cluster_bench.sh NAME
cluster_bench_name=$1
numacoll=${NUMACOLL:-$PWD/build/cli/numacoll}
[[ -x $numacoll ]] || { echo "$cluster_bench_name: no $numacoll (build first, or set NUMACOLL)" >&2; exit 1; }
cluster=scripts/cluster.sh
"$cluster" can > /dev/null
! "$cluster" status > /dev/null 2>&1 ||
  { echo "$cluster_bench_name: a cluster is up: take it down first (scripts/cluster.sh down)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
