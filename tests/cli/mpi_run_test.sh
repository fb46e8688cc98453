#!/usr/bin/env bash
# `numacoll run --engine mpi` as users start it, under mpirun on this one
# machine: a run of every size writes one verified row per point from rank 0
# only; bad starts end every process with one line and exit 2.
# Usage: mpi_run_test.sh MPIEXEC NUMACOLL
set -u
mpiexec=$1 numacoll=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run_mpi() { timeout 120 "$mpiexec" -np "$1" --oversubscribe "${@:2}"; }

# 4 nodes x 1 thread, three algorithms, 8 B to 1 MiB: 3 x 18 points.
if run_mpi 4 "$numacoll" run --engine mpi --nodes 4 --threads 1 --collective allreduce \
    --algorithm tree,tiled,dissemination --bytes 8B:1MiB -n 5 --warmup 1 -q -o "$scratch/run.csv" \
    --trace "$scratch/trace.csv" 2>"$scratch/err"; then
  rows=$(tail -n +2 "$scratch/run.csv" | wc -l)
  [[ $rows -eq 54 ]] || fail "expected 54 rows, got $rows"
  mpi_rows=$(awk -F, 'NR > 1 && $6 == "mpi" && $4 == 4 && $5 == 4' "$scratch/run.csv" | wc -l)
  [[ $mpi_rows -eq 54 ]] || fail "expected 54 rows of engine mpi, 4 ranks, 4 nodes; got $mpi_rows"
  grep -q "MPI_THREAD_MULTIPLE; 4 processes" "$scratch/run.csv" || fail "the provenance does not name the MPI library"
  [[ $(tail -n +2 "$scratch/trace.csv" | wc -l) -gt 0 ]] || fail "empty trace"
else
  fail "the 4-node run failed: $(cat "$scratch/err")"
fi

# Without --nodes, the node count is the job's size: one process per node.
if run_mpi 3 "$numacoll" run --engine mpi --threads 1 -c allreduce -b 8,64KiB -n 3 -q -o "$scratch/world.csv" \
    2>"$scratch/err"; then
  world_rows=$(awk -F, 'NR > 1 && $4 == 3 && $5 == 3' "$scratch/world.csv" | wc -l)
  [[ $world_rows -eq 2 ]] || fail "without --nodes, expected 2 rows of 3 ranks on 3 nodes, got $world_rows"
else
  fail "the run without --nodes failed: $(cat "$scratch/err")"
fi

# Without MPI_THREAD_MULTIPLE the main thread communicates for all: 3 nodes x 2 threads, verified.
if run_mpi 3 "$numacoll" run --engine mpi --mpi-thread funneled --nodes 3 --threads 2 --oversubscribe \
    -c allreduce -a tree,tiled,dissemination --bytes 8,1000,64KiB -n 5 -q -o "$scratch/funneled.csv" \
    2>"$scratch/err"; then
  grep -q "MPI_THREAD_FUNNELED (a communication thread); 3 processes" "$scratch/funneled.csv" ||
    fail "funneled: the provenance does not say so"
else
  fail "the funneled run failed: $(cat "$scratch/err")"
fi

# Ranks as MPI processes sharing memory: 3 processes as 1 node, then 4 as 2
# nodes of 2, every point verified, the rows saying which form ran.
if run_mpi 3 "$numacoll" run --engine mpi --ranks-as processes --oversubscribe -c allreduce \
    -a tree,tiled,dissemination --bytes 8,1000,64KiB -n 5 -q -o "$scratch/processes.csv" \
    --trace "$scratch/processes-trace.csv" 2>"$scratch/err"; then
  rows=$(awk -F, 'NR > 1 && $6 == "mpi" && $4 == 3 && $23 == "processes-sharing-memory"' "$scratch/processes.csv" | wc -l)
  [[ $rows -eq 9 ]] || fail "ranks as processes: expected 9 rows of 3 processes sharing memory (3 algorithms x 3 sizes), got $rows"
  grep -q "MPI_THREAD_SINGLE; 3 processes" "$scratch/processes.csv" || fail "ranks as processes: the provenance does not say so"
  [[ $(tail -n +2 "$scratch/processes-trace.csv" | wc -l) -gt 0 ]] || fail "ranks as processes: empty trace"
else
  fail "the run of ranks as processes failed: $(cat "$scratch/err")"
fi
if ! run_mpi 4 "$numacoll" run --engine mpi --ranks-as processes --nodes 2 --oversubscribe -c reduce \
    -a tree,binomial --root 3 --datatype int16 --op bxor --bytes 2,2000 -n 5 -q -o "$scratch/two-nodes.csv" 2>"$scratch/err"; then
  fail "ranks as processes on 2 nodes failed: $(cat "$scratch/err")"
fi

# Single copy: the roots' inputs read through the kernel, verified, the rows saying so.
if run_mpi 3 "$numacoll" run --engine mpi --ranks-as processes --single-copy --oversubscribe -c bcast \
    -a tree,binomial --root 1 --bytes 8,70000 -n 5 -q -o "$scratch/single-copy.csv" 2>"$scratch/err"; then
  rows=$(awk -F, 'NR > 1 && $23 == "processes-sharing-memory+single-copy"' "$scratch/single-copy.csv" | wc -l)
  [[ $rows -eq 4 ]] || fail "single copy: expected 4 rows of processes-sharing-memory+single-copy, got $rows"
else
  fail "the single-copy run failed: $(cat "$scratch/err")"
fi
# ... and simulated beside, with params that give its costs (the generic
# set, with figures of this test's own for the kernel's work).
python3 - "$(dirname "$0")/../../costs/params/generic.json" "$scratch/single-copy-params.json" <<'PY'
import json, sys
params = json.load(open(sys.argv[1]))
params["single_copy"] = {"call_ns": {"value": 2000, "source": "mpi_run_test.sh"},
                         "page_ns": {"value": 100, "source": "mpi_run_test.sh"}}
json.dump(params, open(sys.argv[2], "w"))
PY
if run_mpi 2 "$numacoll" validate --engine mpi --ranks-as processes --single-copy --params "$scratch/single-copy-params.json" \
    -c bcast -a tree --bytes 64KiB -n 5 --rounds 1 -q -o "$scratch/validate-single-copy" >/dev/null 2>"$scratch/err"; then
  grep -q "single-copy" "$scratch/validate-single-copy/validation.csv" ||
    fail "validate --single-copy: the rows do not say which form ran"
else
  fail "validate --engine mpi --ranks-as processes --single-copy failed: $(cat "$scratch/err")"
fi

# validate with ranks as processes: the process form measured between 2 processes and simulated.
if run_mpi 2 "$numacoll" validate --engine mpi --ranks-as processes --params generic -a tree --bytes 64,4KiB -n 5 \
    --rounds 1 -q -o "$scratch/validate-processes" >/dev/null 2>"$scratch/err"; then
  rows=$(tail -n +2 "$scratch/validate-processes/validation.csv" | wc -l)
  [[ $rows -eq 2 ]] || fail "validate --ranks-as processes: expected 2 rows, got $rows"
else
  fail "validate --engine mpi --ranks-as processes failed: $(cat "$scratch/err")"
fi

# The library's own collective, forced to Open MPI's binomial broadcast.
if run_mpi 2 "$numacoll" baseline -c bcast --ompi-algorithm binomial --bytes 8,64KiB -n 5 -q \
    -o "$scratch/native.csv" 2>"$scratch/err"; then
  rows=$(awk -F, 'NR > 1 && $6 == "mpi-native" && $2 == "binomial"' "$scratch/native.csv" | wc -l)
  [[ $rows -eq 2 ]] || fail "baseline: expected 2 mpi-native rows of binomial, got $rows"
else
  fail "baseline failed: $(cat "$scratch/err")"
fi

# The network measured between two processes, on top of a bundled set.
if run_mpi 2 "$numacoll" calibrate --network-only --quick --base generic -q -o "$scratch/net.json" 2>"$scratch/err"; then
  python3 - "$scratch/net.json" <<'PY' || fail "calibrate --network-only: the file does not say what it measured"
import json, sys
p = json.load(open(sys.argv[1]))
for level in ("network", "nic"):
    assert p["levels"][level]["bandwidth_bytes_per_ns"]["source"].startswith("calibrated on"), level
    assert p["levels"][level]["bandwidth_bytes_per_ns"]["value"] > 0, level
m = p["messages"]
assert "shared-memory transport, no NIC" in m["network_send_overhead_ns"]["source"]
assert m["network_send_overhead_ns"]["value"] > 0 and m["process_receive_overhead_ns"]["value"] > 0
PY
else
  fail "calibrate --network-only failed: $(cat "$scratch/err")"
fi

# validate on the MPI engine with those params: node 0 writes the folder.
if run_mpi 2 "$numacoll" validate --engine mpi --threads 1 --params "$scratch/net.json" -a tree,dissemination \
    --bytes 64,4KiB -n 5 --rounds 1 -q -o "$scratch/validate" >/dev/null 2>"$scratch/err"; then
  rows=$(tail -n +2 "$scratch/validate/validation.csv" | wc -l)
  [[ $rows -eq 4 ]] || fail "validate --engine mpi: expected 4 rows, got $rows"
  grep -q "engine mpi" "$scratch/validate/summary.txt" || fail "validate --engine mpi: the summary does not say so"
else
  fail "validate --engine mpi failed: $(cat "$scratch/err")"
fi

# Overlap over MPI: the application's loop around tree allreduce on 2
# processes, manual progress with and without tests, beside its simulation
# and the library's own MPI_Iallreduce; every measured row verified and
# written by node 0.
if run_mpi 2 "$numacoll" overlap --engine sim,mpi,mpi-native -t live --params generic --nodes 2 --ranks 1 -a tree \
    --bytes 64,64KiB --progress manual --test-every never,1/4 -n 5 --warmup 1 -q -o "$scratch/overlap" \
    >/dev/null 2>"$scratch/err"; then
  rows=$(tail -n +2 "$scratch/overlap/overlap.csv" | wc -l)
  [[ $rows -eq 12 ]] || fail "overlap --engine sim,mpi,mpi-native: expected 12 rows, got $rows"
  mpi_rows=$(awk -F, 'NR > 1 && $6 == "mpi" && $5 == 2' "$scratch/overlap/overlap.csv" | wc -l)
  [[ $mpi_rows -eq 4 ]] || fail "overlap: expected 4 rows of engine mpi on 2 nodes, got $mpi_rows"
  native_rows=$(awk -F, 'NR > 1 && $6 == "mpi-native" && $2 == "default"' "$scratch/overlap/overlap.csv" | wc -l)
  [[ $native_rows -eq 4 ]] || fail "overlap: expected 4 rows of MPI_Iallreduce (engine mpi-native), got $native_rows"
  grep -q "MPI_THREAD_MULTIPLE; 2 processes" "$scratch/overlap/overlap.csv" || fail "overlap: the provenance does not name the MPI library"
  [[ -f "$scratch/overlap/overlap.png" ]] || fail "overlap: no picture"
else
  fail "overlap --engine sim,mpi failed: $(cat "$scratch/err")"
fi

# Each bad start: exit 2, and exactly one line of numacoll's own.
expect_usage_error() {
  local what=$1; shift
  "$@" >"$scratch/out" 2>&1
  local status=$?
  [[ $status -eq 2 ]] || fail "$what: exit $status, expected 2"
  local lines
  lines=$(grep -c "^numacoll: " "$scratch/out")
  [[ $lines -eq 1 ]] || fail "$what: $lines lines from numacoll, expected 1: $(cat "$scratch/out")"
}
expect_usage_error "several nodes without mpirun" "$numacoll" run --engine mpi --nodes 2 -b 8 -o "$scratch/x.csv"
expect_usage_error "a world of 2 for 3 nodes" run_mpi 2 "$numacoll" run --engine mpi --nodes 3 -b 8 -o "$scratch/x.csv"
expect_usage_error "more ranks than PUs" run_mpi 2 "$numacoll" run --engine mpi --nodes 2 --threads 64 -b 8 \
  -o "$scratch/x.csv"
expect_usage_error "an unwritable output" run_mpi 2 "$numacoll" run --engine mpi --nodes 2 --threads 1 -b 8 \
  -o "$scratch/missing/x.csv"
expect_usage_error "an unknown Open MPI algorithm" run_mpi 2 "$numacoll" baseline -c bcast --ompi-algorithm tiled \
  -b 8 -o "$scratch/x.csv"
expect_usage_error "the network without mpirun" "$numacoll" calibrate --network-only -o "$scratch/x.csv"
expect_usage_error "overlap over MPI without mpirun" "$numacoll" overlap --engine mpi -t live --nodes 2 -o "$scratch/o"
expect_usage_error "overlap over a world of 2 for 3 nodes" run_mpi 2 "$numacoll" overlap --engine mpi -t live --nodes 3 \
  --bytes 8 -o "$scratch/o"
[[ ! -e "$scratch/o/overlap.csv" ]] || fail "a refused overlap left a table behind"
expect_usage_error "ranks as processes: 3 processes for 2 nodes" run_mpi 3 "$numacoll" run --engine mpi \
  --ranks-as processes --nodes 2 -b 8 -o "$scratch/x.csv"
expect_usage_error "ranks as processes: 3 processes for 2 nodes of 2" run_mpi 3 "$numacoll" run --engine mpi \
  --ranks-as processes --nodes 2 --threads 2 -b 8 -o "$scratch/x.csv"
expect_usage_error "ranks as processes with --mpi-thread" run_mpi 2 "$numacoll" run --engine mpi \
  --ranks-as processes --mpi-thread funneled -b 8 -o "$scratch/x.csv"
# A process its launcher bound to PU 1: the layout follows the binding, and
# the row says so; asked for the compact layout (rank 0 on PU 0) instead,
# it is refused rather than pinned against the launcher.
if [[ $(nproc) -ge 2 ]]; then
  if timeout 120 "$mpiexec" -np 1 --cpu-set 1 --bind-to core "$numacoll" run --engine mpi --ranks-as processes \
      -b 8 -n 5 -q -o "$scratch/launcher.csv" 2>"$scratch/err"; then
    placed=$(awk -F, 'NR > 1 {print $14 "," $21}' "$scratch/launcher.csv")
    [[ $placed == "launcher,yes" ]] || fail "a process bound to PU 1: placement and pinning '$placed'"
  else
    fail "a process bound by its launcher did not run where it was bound: $(cat "$scratch/err")"
  fi
  expect_usage_error "a process bound away from its PU" timeout 120 "$mpiexec" -np 1 --cpu-set 1 --bind-to core \
    "$numacoll" run --engine mpi --ranks-as processes --placement compact -b 8 -o "$scratch/x.csv"
  grep -q "bound by its launcher to PUs 1" "$scratch/out" || fail "a process bound away: $(cat "$scratch/out")"
fi
# Two processes bound to one PU: one rank per PU, refused with the count.
expect_usage_error "two processes bound to one PU" timeout 120 "$mpiexec" -np 2 --oversubscribe --cpu-set 0 \
  --bind-to core "$numacoll" run --engine mpi --ranks-as processes -b 8 -o "$scratch/x.csv"
grep -q "the launcher bound 2 processes to 1 PU" "$scratch/out" || fail "two processes on one PU: $(cat "$scratch/out")"

# What process 0 cannot write ends every process with exit 1 and its one
# line, agreed on, without MPI_Abort's banner.
"$mpiexec" -np 2 --oversubscribe "$numacoll" baseline -b 8 -n 5 -q -o /dev/full >"$scratch/out" 2>&1
status=$?
[[ $status -eq 1 ]] || fail "baseline -o /dev/full: exit $status, expected 1"
lines=$(grep -c "^numacoll: " "$scratch/out")
[[ $lines -eq 1 ]] || fail "baseline -o /dev/full: $lines lines from numacoll, expected 1: $(cat "$scratch/out")"
grep -q "No space left on device" "$scratch/out" || fail "baseline -o /dev/full: no reason given: $(cat "$scratch/out")"
grep -q "MPI_ABORT" "$scratch/out" && fail "baseline -o /dev/full: ended through MPI_Abort"
[[ ! -e "$scratch/x.csv" ]] || fail "a refused run left an output behind"

[[ $failures -eq 0 ]] && echo "ok: mpi run and its refusals"
exit $((failures > 0))
