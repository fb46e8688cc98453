#!/usr/bin/env bash
# scripts/cluster.sh: a cluster of network namespaces comes up with the rate
# asked for, MPI runs numacoll across it over TCP (run --engine mpi on three
# nodes; baseline, the process form, tune --engine mpi, overlap --engine mpi
# and the interposition library in an MPI application on two), one node's
# processes killed end the job on every node within 30 s, and down leaves
# nothing behind; bad input and a name someone else holds are refused with
# one line and change nothing. Skipped (77) with one line where the machine
# does not allow namespaces, or while a cluster of the user's is up.
# Usage: cluster_test.sh CLUSTER_SH NUMACOLL APPLICATION INTERPOSITION_LIBRARY
set -u
cluster=$1 numacoll=$2 application=$3 library=$4
state=/run/numacoll-cluster
if ! why=$("$cluster" can 2>&1); then
  echo "skipped: ${why#cluster.sh: }"
  exit 77
fi
if [[ -e $state ]]; then
  echo "skipped: a cluster is up ($cluster status): this test would take it down"
  exit 77
fi
scratch=$(mktemp -d)
trap '"$cluster" down > /dev/null 2>&1; ip link delete ncl-v2 2> /dev/null; rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# One line on stderr, the exit status expected, and no cluster left.
refused() {  # what, status, expected words, command...
  local what=$1 expected=$2 words=$3
  shift 3
  "$@" > "$scratch/out" 2> "$scratch/err"
  local status=$?
  [[ $status -eq $expected ]] || fail "$what: exit $status, expected $expected"
  [[ $(wc -l < "$scratch/err") -eq 1 ]] || { fail "$what: not one line"; cat "$scratch/err"; }
  grep -q -- "$words" "$scratch/err" || { fail "$what: no '$words'"; cat "$scratch/err"; }
  [[ ! -e $state ]] || fail "$what: left a cluster's state"
}
# Nothing of a cluster left: namespaces, interfaces (their qdiscs go with them), cgroups, state.
nothing_left() {  # when
  ip netns list | grep -q "^numacoll-node" && fail "$1: a namespace is left: $(ip netns list | grep numacoll-node | head -1)"
  ip -o link show | grep -q ": ncl-" && fail "$1: an interface is left: $(ip -o link show | grep ': ncl-' | head -1)"
  ls -d /sys/fs/cgroup/cpuset/numacoll-node* /sys/fs/cgroup/numacoll-node* > /dev/null 2>&1 && fail "$1: a cgroup is left"
  [[ ! -e $state ]] || fail "$1: the state folder is left"
}

refused "up without a count" 2 "needs a node count" "$cluster" up
refused "up 1" 2 "expected 2 to 64" "$cluster" up 1
refused "up 1000" 2 "expected 2 to 64" "$cluster" up 1000
refused "a rate without a unit" 2 "expected a number and bit" "$cluster" up 2 --rate 5
refused "an absurd rate" 2 "out of range" "$cluster" up 2 --rate 999999999gbit
refused "a bad delay" 2 "expected a number and us or ms" "$cluster" up 2 --delay soon
refused "a node rate for no node" 2 "no node 3 in 2" "$cluster" up 2 --node-rate 3=1gbit
refused "an unknown option" 2 "unknown option" "$cluster" up 2 --fast
refused "an unknown command" 2 "unknown command" "$cluster" sideways
refused "up without root" 1 "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups "$cluster" up 2
refused "mpirun without a cluster" 1 "no cluster is up" "$cluster" mpirun -np 2 true

# An interface of the name the cluster would give its second link, made by someone else.
ip link add ncl-v2 type veth peer name nctest-peer
refused "up over another's interface" 1 "is not this cluster's" "$cluster" up 3
ip link show ncl-v2 > /dev/null 2>&1 || fail "up removed an interface it did not create"
ip link delete ncl-v2
nothing_left "a refused up"

# --- three nodes at 5 Gbit/s, numacoll's MPI engine across them -----------
"$cluster" up 3 --rate 5gbit > "$scratch/up.out" 2> "$scratch/up.err" || { fail "up 3 failed"; cat "$scratch/up.err"; }
[[ $(grep -c "^  node [123]: .*5000 Mbit/s.*qdisc tbf" "$scratch/up.out") -eq 3 ]] ||
  { fail "up 3 does not show three nodes shaped to 5 Gbit/s"; cat "$scratch/up.out"; }
for k in 1 2 3; do
  tc -n numacoll-node$k qdisc show dev eth0 | grep -q "tbf .*rate 5Gbit" || fail "node $k's link is not shaped to 5 Gbit/s"
  tc qdisc show dev ncl-v$k | grep -q "tbf .*rate 5Gbit" || fail "the link into node $k is not shaped to 5 Gbit/s"
done
[[ $("$cluster" mpirun -np 3 hostname 2> /dev/null | sort | paste -sd' ') == "numacoll-node1 numacoll-node2 numacoll-node3" ]] ||
  fail "mpirun -np 3 did not start one process on each node"
"$cluster" mpirun -np 3 "$numacoll" run --engine mpi --nodes 3 -p 1 -c allreduce -a tree,ring --bytes 8B,64KiB,1MiB \
  -n 5 --warmup 1 -o "$scratch/run.csv" > /dev/null 2> "$scratch/run.err" || { fail "run --engine mpi --nodes 3 failed"; cat "$scratch/run.err"; }
[[ $(grep -c "verified" "$scratch/run.err") -eq 6 ]] || { fail "run --engine mpi --nodes 3 did not verify six points"; cat "$scratch/run.err"; }
[[ $(grep -c "; 3 processes$" "$scratch/run.csv") -eq 6 ]] || fail "run.csv does not say 3 processes on every row"

# A second up takes the first cluster down before it makes its own.
"$cluster" up 2 --rate 1gbit > /dev/null 2> "$scratch/up.err" || { fail "a second up failed"; cat "$scratch/up.err"; }
grep -q "taking the running cluster down first" "$scratch/up.err" || fail "a second up did not say it took the first down"
ip netns list | grep -q "^numacoll-node3" && fail "a second up of 2 nodes left the first cluster's node 3"
tc -n numacoll-node1 qdisc show dev eth0 | grep -q "rate 1Gbit" || fail "the second up's link is not at 1 Gbit/s"

# --- numacoll's other multi-node paths across two nodes ----------------------
short=(-n 5 --warmup 1)
"$cluster" mpirun -np 2 "$numacoll" baseline -c allreduce --bytes 8,64KiB "${short[@]}" -o "$scratch/baseline.csv" \
  > /dev/null 2> "$scratch/baseline.err" && [[ $(grep -c verified "$scratch/baseline.err") -eq 2 ]] ||
  { fail "baseline across two nodes"; cat "$scratch/baseline.err"; }
"$cluster" mpirun -np 2 "$numacoll" run --engine mpi --ranks-as processes --nodes 2 -c allreduce --bytes 8,64KiB \
  "${short[@]}" -o "$scratch/processes.csv" > /dev/null 2> "$scratch/processes.err" &&
  [[ $(grep -c "sharing memory, 2 nodes: .*verified" "$scratch/processes.err") -eq 2 ]] ||
  { fail "the process form across two nodes"; cat "$scratch/processes.err"; }
"$cluster" mpirun -np 2 "$numacoll" tune --engine mpi -t live --ranks 1 -c bcast -a binomial,chain --bytes 8,64KiB \
  "${short[@]}" --no-plots -q -o "$scratch/tune" > /dev/null 2> "$scratch/tune.err" &&
  [[ $(tail -n +2 "$scratch/tune/selection.csv" | wc -l) -eq 2 ]] || { fail "tune --engine mpi across two nodes"; cat "$scratch/tune.err"; }
"$cluster" mpirun -np 2 "$numacoll" overlap --engine mpi -t live --nodes 2 --ranks 1 -a tree --progress manual --bytes 8 \
  "${short[@]}" --no-plots -o "$scratch/overlap" > /dev/null 2> "$scratch/overlap.err" &&
  [[ $(grep -c ",mpi," "$scratch/overlap/overlap.csv") -ge 1 ]] || { fail "overlap --engine mpi across two nodes"; cat "$scratch/overlap.err"; }
# The interposition library in an MPI application across the nodes: its
# report says numacoll served the world's allreduce, on 2 nodes of 1 rank.
preload=$library
asan_runtime=$(ldd "$library" 2> /dev/null | awk '/libasan/ { print $3 }')
[[ -z $asan_runtime ]] || preload="$asan_runtime:$library"
"$cluster" mpirun -np 2 -x LD_PRELOAD="$preload" -x NUMACOLL_MPI_REPORT="$scratch/report.csv" "$application" \
  > "$scratch/application.out" 2>&1 &&
  awk -F, 'NR > 1 && $1 == "world" && $3 == 2 && $6 == "allreduce" && $7 != "native" && $10 > 0 { found = 1 } END { exit !found }' \
    "$scratch/report.csv" || { fail "the interposed application across two nodes"; cat "$scratch/application.out"; }

# --- one node's processes killed mid-run: the job ends on every node ------------
"$cluster" mpirun -np 2 "$numacoll" run --engine mpi --nodes 2 -p 1 -c allreduce -a tree --bytes 1MiB -n 100000 \
  --warmup 1 -o "$scratch/killed.csv" > /dev/null 2> "$scratch/killed.err" &
launcher=$!
for _ in $(seq 300); do  # until both nodes run numacoll (or 30 s)
  (( $(ip netns pids numacoll-node1 | wc -l) >= 2 && $(ip netns pids numacoll-node2 | wc -l) >= 2 )) && break
  sleep 0.1
done
sleep 1
survivors=$(ip netns pids numacoll-node1)
killed_at=$(date +%s)
ip netns pids numacoll-node2 | xargs -r kill -KILL
wait $launcher
status=$?
for _ in $(seq 300); do
  alive=0
  for pid in $survivors; do kill -0 "$pid" 2> /dev/null && alive=1; done
  ((alive)) || break
  sleep 0.1
done
ended_in=$(( $(date +%s) - killed_at ))
[[ $status -ne 0 ]] || fail "the job with a node killed ended with 0"
(( ended_in <= 30 )) || fail "the job took ${ended_in}s to end after a node's processes were killed"
for pid in $survivors; do kill -0 "$pid" 2> /dev/null && fail "process $pid on the surviving node still runs"; done
# What says what happened is Open MPI's: a banner from the surviving node's
# TCP transport, from mpirun about the lost daemon, or about the killed process.
grep -q "peer process has unexpectedly disconnected\|lost communication with a remote daemon\|unable to reliably start\|exited on signal 9" \
  "$scratch/killed.err" || { fail "the killed job did not say a process was killed"; cat "$scratch/killed.err"; }

"$cluster" down || fail "down failed"
nothing_left "down"
"$cluster" down || fail "a second down failed"
refused "status without a cluster" 1 "no cluster" "$cluster" status

if ((failures)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "cluster: up, MPI across it, a killed node, down: as expected"
