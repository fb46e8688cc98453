#!/usr/bin/env bash
# Open MPI reads the classic rules file `numacoll tune` writes, and runs the
# algorithm it names, for the broadcast, the allreduce, the barrier, the
# scatter, the reduce-scatter and the alltoall. Open MPI 4.1's release builds print nothing about their
# coll/tuned decisions, so the test watches the traffic instead:
# pml/monitoring counts the bytes and messages each rank sends each other
# rank. On 4 ranks, 10 calls of 1 KiB (per rank, or per block) from rank 0:
#   bcast linear: 0 sends 3 the 10 KiB (the root sends to all);
#   bcast pipeline: 2 sends 3 the 10 KiB, 0 never sends 3 (one chain);
#   allreduce ring: 3 sends 0 two times 3/4 of each vector, 0 never sends 2;
#   allreduce rabenseifner: 0 sends 2 half of each vector (recursive doubling sends it all);
#   allreduce linear: 0 sends 3 each result, 2 never sends 3;
#   barrier double-ring: 3 signals 0 twice per barrier, 0 never signals 3;
#   barrier recursive-doubling: 0 and 3 never signal each other;
#   scatter linear: 0 sends 3 its blocks, 2 never sends 3;
#   reduce_scatter ring: 3 sends 0 three blocks a call, 0 never sends 2;
#   reduce_scatter nonoverlapping: 0 sends 3 its block (the scatter after the reduce);
#   alltoall modified-bruck: 0 sends 1 two blocks a call (distance 1: blocks 1
#     and 3) and 3 none (its partners are 1 and 2);
#   alltoall linear, pairwise: 0 sends 3 its block, as each rank sends each;
# each against Open MPI's own choice here without the file (recursive
# doubling, a linear barrier, binomial broadcast and scatter, recursive
# halving for the reduce-scatter, where 0 and 3 never meet; for the
# alltoall the note below says which it looks like), so the file,
# not the default, made the difference. The harness's own barriers follow
# the file too; its other traffic stays below 1 KiB between those ranks.
# Then `numacoll tune --engine mpi` under mpirun: two processes for two
# nodes write one table; a world of the wrong size ends them all.
# Usage: ompi_rules_load_test.sh MPIEXEC NUMACOLL
set -u
mpiexec=$1 numacoll=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Bytes (field 4) or messages (field 6) rank $3 sent rank $4 in the monitoring files with prefix $2.
traffic() {
  cat "$2".*.prof 2>/dev/null |
    awk -v field="$1" -v from="$3" -v to="$4" '$1 == "E" && $2 == from && $3 == to { total += $field } END { print total + 0 }'
}
sent() { traffic 4 "$@"; }
messages() { traffic 6 "$@"; }

# Runs 10 calls of collective $2 (1 KiB; a barrier moves none) on 4 ranks,
# with the rules file $3 when given; monitoring prefix $1.
collective() {
  local prefix=$1 name=$2 rules=${3:-} bytes=1KiB
  [[ $name == barrier ]] && bytes=0
  local args=(--mca pml_monitoring_enable 1 --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$prefix")
  [[ -n $rules ]] && args+=(--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "$rules")
  timeout 120 "$mpiexec" -np 4 --oversubscribe "${args[@]}" "$numacoll" baseline -c "$name" --bytes "$bytes" -n 10 \
    --warmup 0 -q -o "$scratch/baseline.csv" >/dev/null 2>"$scratch/err"
}

# Tunes $1 with only algorithm $2 on 4 simulated ranks, then runs it under
# the rules; sets `mon` to the monitoring prefix.
under_rules() {
  local name=$1 algorithm=$2 folder="$scratch/tune-$1-$2" prefix="$scratch/mon-$1-$2"
  mon=$prefix
  if ! "$numacoll" tune -t "synthetic:Package:1 Core:4" --params generic -c "$name" -a "$algorithm" --bytes 8,1KiB \
      --engine sim --no-plots -q -o "$folder" >/dev/null 2>"$scratch/err"; then
    fail "tune -c $name -a $algorithm failed: $(cat "$scratch/err")"
    return 1
  fi
  grep -q "# $algorithm, chosen at" "$folder/ompi-rules.conf" || fail "the $name rules file does not name $algorithm"
  if ! collective "$prefix" "$name" "$folder/ompi-rules.conf"; then
    fail "$name under $algorithm's rules failed: $(cat "$scratch/err")"
    return 1
  fi
}

expect() {  # description, condition (an arithmetic expression)
  (($2)) || fail "$1"
}

if under_rules bcast linear; then
  expect "bcast linear: rank 0 sent rank 3 only $(sent "$mon" 0 3) bytes" "$(sent "$mon" 0 3) >= 10240"
fi
if under_rules bcast pipeline; then
  expect "bcast pipeline: rank 2 sent rank 3 only $(sent "$mon" 2 3) bytes" "$(sent "$mon" 2 3) >= 10240"
  expect "bcast pipeline: rank 0 sent rank 3 $(sent "$mon" 0 3) bytes (not a chain)" "$(sent "$mon" 0 3) < 1024"
fi
if under_rules allreduce ring; then
  expect "allreduce ring: rank 3 sent rank 0 only $(sent "$mon" 3 0) bytes" "$(sent "$mon" 3 0) >= 15360"
  expect "allreduce ring: rank 0 sent rank 2 $(sent "$mon" 0 2) bytes (not a ring)" "$(sent "$mon" 0 2) < 1024"
fi
if under_rules allreduce rabenseifner; then
  expect "allreduce rabenseifner: rank 0 sent rank 2 $(sent "$mon" 0 2) bytes, not half of 10 KiB" \
    "$(sent "$mon" 0 2) >= 5120 && $(sent "$mon" 0 2) < 5120 + 1024"
fi
if under_rules allreduce linear; then
  expect "allreduce linear: rank 0 sent rank 3 only $(sent "$mon" 0 3) bytes" "$(sent "$mon" 0 3) >= 10240"
  expect "allreduce linear: rank 2 sent rank 3 $(sent "$mon" 2 3) bytes" "$(sent "$mon" 2 3) < 1024"
fi
if under_rules barrier double-ring; then
  expect "barrier double-ring: rank 3 signalled rank 0 only $(messages "$mon" 3 0) times" "$(messages "$mon" 3 0) >= 20"
  expect "barrier double-ring: rank 0 signalled rank 3 $(messages "$mon" 0 3) times" "$(messages "$mon" 0 3) == 0"
fi
if under_rules barrier recursive-doubling; then
  expect "barrier recursive-doubling: ranks 0 and 3 exchanged $(messages "$mon" 0 3) and $(messages "$mon" 3 0) messages" \
    "$(messages "$mon" 0 3) + $(messages "$mon" 3 0) == 0"
fi
if under_rules scatter linear; then
  expect "scatter linear: rank 0 sent rank 3 only $(sent "$mon" 0 3) bytes" "$(sent "$mon" 0 3) >= 10240"
  expect "scatter linear: rank 2 sent rank 3 $(sent "$mon" 2 3) bytes" "$(sent "$mon" 2 3) < 1024"
fi
if under_rules reduce_scatter ring; then
  expect "reduce_scatter ring: rank 3 sent rank 0 only $(sent "$mon" 3 0) bytes" "$(sent "$mon" 3 0) >= 30720"
  expect "reduce_scatter ring: rank 0 sent rank 2 $(sent "$mon" 0 2) bytes (not a ring)" "$(sent "$mon" 0 2) < 1024"
fi
if under_rules reduce_scatter nonoverlapping; then
  expect "reduce_scatter nonoverlapping: rank 0 sent rank 3 only $(sent "$mon" 0 3) bytes" "$(sent "$mon" 0 3) >= 10240"
fi
if under_rules alltoall modified-bruck; then
  expect "alltoall modified-bruck: rank 0 sent rank 3 $(sent "$mon" 0 3) bytes" "$(sent "$mon" 0 3) < 1024"
  expect "alltoall modified-bruck: rank 0 sent rank 1 only $(sent "$mon" 0 1) bytes, not two blocks a call" \
    "$(sent "$mon" 0 1) >= 20480"
fi
for algorithm in linear pairwise; do
  if under_rules alltoall $algorithm; then
    expect "alltoall $algorithm: rank 0 sent rank 3 only $(sent "$mon" 0 3) bytes" "$(sent "$mon" 0 3) >= 10240"
    expect "alltoall $algorithm: rank 0 sent rank 1 $(sent "$mon" 0 1) bytes, more than a block a call" \
      "$(sent "$mon" 0 1) < 10240 + 1024"
  fi
done

# Without a rules file Open MPI picks its own, whose traffic differs from what the files asked for.
for name in bcast allreduce barrier scatter reduce_scatter alltoall; do
  collective "$scratch/mon-default-$name" "$name" || fail "$name without rules failed: $(cat "$scratch/err")"
done
mon="$scratch/mon-default"
(( $(sent "$mon-bcast" 0 3) < 1024 && $(sent "$mon-bcast" 2 3) < 1024 )) ||
  echo "note: Open MPI's default broadcast here looks like linear or pipeline; the checks above still hold"
(( $(sent "$mon-allreduce" 3 0) < 1024 && $(sent "$mon-allreduce" 0 3) < 1024 )) ||
  echo "note: Open MPI's default allreduce here looks like ring or linear; the checks above still hold"
(( $(messages "$mon-barrier" 0 3) > 0 )) ||
  echo "note: Open MPI's default barrier here looks like double-ring or recursive doubling; the checks above still hold"
(( $(sent "$mon-scatter" 0 3) < 1024 )) ||
  echo "note: Open MPI's default scatter here looks linear; the checks above still hold"
(( $(sent "$mon-reduce_scatter" 3 0) < 1024 && $(sent "$mon-reduce_scatter" 0 3) < 1024 )) ||
  echo "note: Open MPI's default reduce-scatter here looks like ring or nonoverlapping; the checks above still hold"
(( $(sent "$mon-alltoall" 0 3) < 1024 )) ||
  echo "note: Open MPI's default alltoall here sends a block to every rank, as linear and pairwise do; the modified-bruck check above still holds"

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
