#!/usr/bin/env bash
# A rank that throws on one node ends the whole MPI job: every process exits,
# non-zero, well within the timeout (124 would mean the others hung), and the
# failing node says why in one line.
# Usage: mpi_abort_test.sh MPIEXEC PROBE PROCESSES
set -u
mpiexec=$1 probe=$2 processes=$3
output=$(timeout 60 "$mpiexec" -np "$processes" --oversubscribe "$probe" 2>&1)
status=$?
last=$((processes - 1))
if [[ $status -eq 124 ]]; then echo "FAIL: the job hung (killed after 60 s)"; exit 1; fi
if [[ $status -eq 0 ]]; then echo "FAIL: the job exited 0"; echo "$output"; exit 1; fi
if ! grep -q "numacoll: node $last: deliberate failure in a rank's thread" <<<"$output"; then
  echo "FAIL: no line from node $last"; echo "$output"; exit 1
fi
echo "ok: exit status $status, node $last's line present"
