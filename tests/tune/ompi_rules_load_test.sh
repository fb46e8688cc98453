#!/usr/bin/env bash
# Open MPI reads the classic rules file `numacoll tune` writes, and runs the
# broadcast algorithm it names. Open MPI 4.1's release builds print nothing
# about their coll/tuned decisions, so the test watches the traffic instead:
# pml/monitoring counts the bytes each rank sends each other rank. On 4
# ranks, 10 broadcasts of 1 KiB from rank 0 move 10 KiB
#   - from rank 0 to rank 3 with the linear algorithm (the root sends to all),
#   - from rank 2 to rank 3 and never from 0 to 3 with the pipeline (one chain),
#   - from rank 1 to rank 3 with Open MPI's default here (binomial), so the
#     file, not the default, made the difference.
# Then `numacoll tune --engine mpi` under mpirun: two processes for two
# nodes write one table; a world of the wrong size ends them all.
# Usage: ompi_rules_load_test.sh MPIEXEC NUMACOLL
set -u
mpiexec=$1 numacoll=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Bytes rank $2 sent rank $3 in the monitoring files with prefix $1 (0 when none).
sent() {
  cat "$1".*.prof 2>/dev/null | awk -v from="$2" -v to="$3" '$1 == "E" && $2 == from && $3 == to { total += $4 } END { print total + 0 }'
}

# Runs 10 broadcasts of 1 KiB on 4 ranks, with the rules file $2 when given; monitoring prefix $1.
broadcast() {
  local prefix=$1 rules=${2:-}
  local args=(--mca pml_monitoring_enable 1 --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$prefix")
  [[ -n $rules ]] && args+=(--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "$rules")
  timeout 120 "$mpiexec" -np 4 --oversubscribe "${args[@]}" "$numacoll" baseline -c bcast --bytes 1KiB -n 10 \
    --warmup 0 -q -o "$scratch/baseline.csv" >/dev/null 2>"$scratch/err"
}

for algorithm in linear pipeline; do
  folder="$scratch/tune-$algorithm"
  if ! "$numacoll" tune -t "synthetic:Package:1 Core:4" --params generic -c bcast -a "$algorithm" --bytes 8,1KiB \
      --engine sim --no-plots -q -o "$folder" >/dev/null 2>"$scratch/err"; then
    fail "tune -a $algorithm failed: $(cat "$scratch/err")"
    continue
  fi
  grep -q "# $algorithm, chosen at" "$folder/ompi-rules.conf" || fail "the rules file does not name $algorithm"
  if ! broadcast "$scratch/mon-$algorithm" "$folder/ompi-rules.conf"; then
    fail "the broadcast under $algorithm's rules failed: $(cat "$scratch/err")"
    continue
  fi
  root_to_last=$(sent "$scratch/mon-$algorithm" 0 3)
  chain_to_last=$(sent "$scratch/mon-$algorithm" 2 3)
  case $algorithm in
    linear) ((root_to_last >= 10240)) || fail "linear: rank 0 sent rank 3 only $root_to_last bytes" ;;
    pipeline)
      ((chain_to_last >= 10240)) || fail "pipeline: rank 2 sent rank 3 only $chain_to_last bytes"
      ((root_to_last < 1024)) || fail "pipeline: rank 0 sent rank 3 $root_to_last bytes (not a chain)" ;;
  esac
done

# Without a rules file Open MPI picks its own broadcast, whose traffic differs from both.
if broadcast "$scratch/mon-default"; then
  ((  $(sent "$scratch/mon-default" 0 3) < 1024 && $(sent "$scratch/mon-default" 2 3) < 1024 )) ||
    echo "note: Open MPI's default broadcast here looks like linear or pipeline; the checks above still hold"
else
  fail "the broadcast without rules failed: $(cat "$scratch/err")"
fi

# The same tables from measurements: two MPI processes standing for two nodes.
if timeout 120 "$mpiexec" -np 2 --oversubscribe "$numacoll" tune --engine mpi --nodes 2 --ranks 1 -c bcast \
    -a binomial,linear --bytes 8,4KiB -n 5 --warmup 1 --no-plots -q -o "$scratch/tune-mpi" >/dev/null 2>"$scratch/err"; then
  rows=$(awk -F, 'NR > 1 && $1 == "bcast" && $2 == 2 && $4 == 2' "$scratch/tune-mpi/selection.csv" | wc -l)
  [[ $rows -eq 2 ]] || fail "tune --engine mpi: expected 2 rows for 2 nodes, got $rows"
  grep -q '"engine": "mpi"' "$scratch/tune-mpi/selection.json" || fail "tune --engine mpi: the table does not say mpi"
else
  fail "tune --engine mpi failed: $(cat "$scratch/err")"
fi
# A world that does not match --nodes ends every process with one line and exit 2.
timeout 120 "$mpiexec" -np 2 --oversubscribe "$numacoll" tune --engine mpi --nodes 3 -c bcast --bytes 8 -q \
  -o "$scratch/tune-bad" >/dev/null 2>"$scratch/err"
status=$?
((status != 0 && status != 124)) || fail "a mismatched world: status $status"
grep -q "needs 3 MPI processes" "$scratch/err" || fail "a mismatched world: $(cat "$scratch/err")"

((failures == 0)) && echo "ompi rules load test: passed"
exit $((failures > 0))
