#!/usr/bin/env bash
# Processes that disagree: every command that runs under MPI, started by
# mpirun's MPMD syntax with one option changed between its two processes
# (collective, sizes, iterations, root, algorithm, segment, threads, engine,
# params file, output path), or with a command line that fails on one
# process only. Each must end every process within 10 s, with exit 2, one
# line of numacoll's own naming what differs, and leave nothing behind.
# Usage: mpi_agreement_test.sh MPIEXEC NUMACOLL
set -u
mpiexec=$1 numacoll=$(realpath "$2")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" || exit 1
failures=0
cases=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# disagree WHAT PATTERN -- ARGS OF PROCESS 0 -- [-x VAR=VALUE] ARGS OF PROCESS 1
disagree() {
  local what=$1 pattern=$2; shift 2
  [[ $1 == -- ]] || { echo "usage: disagree WHAT PATTERN -- A -- B"; exit 2; }
  shift
  local first=() second=()
  while [[ $1 != -- ]]; do first+=("$1"); shift; done
  shift
  local environment=()
  [[ $1 == -x ]] && { environment=(-x "$2"); shift 2; }
  second=("$@")
  cases=$((cases + 1))
  mkdir -p "$scratch/case" && cd "$scratch/case" || exit 1
  local started=$SECONDS
  timeout 30 "$mpiexec" --oversubscribe -np 1 "$numacoll" "${first[@]}" : -np 1 "${environment[@]}" "$numacoll" "${second[@]}" \
    >"$scratch/out" 2>&1
  local status=$? took=$((SECONDS - started))
  cd "$scratch" || exit 1
  [[ $status -eq 2 ]] || fail "$what: exit $status, expected 2: $(tail -n 20 "$scratch/out")"
  [[ $took -le 10 ]] || fail "$what: took $took s (at most 10)"
  local lines
  lines=$(grep -c "^numacoll: " "$scratch/out")
  [[ $lines -eq 1 ]] || fail "$what: $lines lines from numacoll, expected 1: $(cat "$scratch/out")"
  grep -q -- "$pattern" "$scratch/out" || fail "$what: no '$pattern' in: $(grep '^numacoll: ' "$scratch/out")"
  grep -q "MPI_ABORT" "$scratch/out" && fail "$what: ended through MPI_Abort"
  local left
  left=$(ls -A "$scratch/case")
  [[ -z $left ]] || fail "$what: left behind: $left"
  rm -rf "$scratch/case"
}

quick=(-n 5 --warmup 1 -q)
disagree "baseline: collective" "--collective is 'allreduce' on rank 0 and 'bcast' on rank 1" \
  -- baseline -c allreduce -b 8 "${quick[@]}" -o b.csv -- baseline -c bcast -b 8 "${quick[@]}" -o b.csv
disagree "baseline: sizes" "--bytes is '8,16' on rank 0 and '8'" \
  -- baseline -b 8,16 "${quick[@]}" -o b.csv -- baseline -b 8 "${quick[@]}" -o b.csv
disagree "baseline: iterations" "--iterations is '10' on rank 0 and '20'" \
  -- baseline -b 8 -n 10 -q -o b.csv -- baseline -b 8 -n 20 -q -o b.csv
disagree "baseline: root" "--root is '0' on rank 0 and '1'" \
  -- baseline -c bcast --root 0 -b 8 "${quick[@]}" -o b.csv -- baseline -c bcast --root 1 -b 8 "${quick[@]}" -o b.csv
disagree "baseline: Open MPI's algorithm" "--ompi-algorithm is 'binomial' on rank 0 and 'linear'" \
  -- baseline -c bcast --ompi-algorithm binomial -b 8 "${quick[@]}" -o b.csv \
  -- baseline -c bcast --ompi-algorithm linear -b 8 "${quick[@]}" -o b.csv
disagree "baseline: a size only one process can read" "'7x' is not a size" \
  -- baseline -b 8 "${quick[@]}" -o b.csv -- baseline -b 7x "${quick[@]}" -o b.csv
run=(run --engine mpi --nodes 2 --threads 1 -b 8 "${quick[@]}")
disagree "run: engine" "--engine is 'mpi' on rank 0 and 'threads'" \
  -- "${run[@]}" -o r.csv -- run --engine threads --nodes 2 --threads 1 -b 8 "${quick[@]}" -o r.csv
disagree "run: threads" "--threads is '1' on rank 0 and '2'" \
  -- "${run[@]}" -o r.csv -- run --engine mpi --nodes 2 --threads 2 -b 8 "${quick[@]}" -o r.csv
disagree "run: segment" "--segment is '4KiB' on rank 0 and '8KiB'" \
  -- "${run[@]}" -c bcast -a pipeline --segment 4KiB -o r.csv -- "${run[@]}" -c bcast -a pipeline --segment 8KiB -o r.csv
disagree "run: output path" "--output is 'a.csv' on rank 0 and 'b.csv'" \
  -- "${run[@]}" -o a.csv -- "${run[@]}" -o b.csv
disagree "run: the environment" "NUMACOLL_MAX_TASKS is not set on rank 0 and '1000'" \
  -- "${run[@]}" -o r.csv -- -x NUMACOLL_MAX_TASKS=1000 "${run[@]}" -o r.csv
tune=(tune --engine mpi --nodes 2 --ranks 1 -c allreduce -a tree "${quick[@]}" -o t)
disagree "tune: sizes" "--bytes is '64' on rank 0 and '64,128'" -- "${tune[@]}" -b 64 -- "${tune[@]}" -b 64,128
validate=(validate --engine mpi --threads 1 -a tree -b 64 "${quick[@]}" --rounds 1 -o v)
echo '{"name": "a params file that does not parse"' >"$scratch/p.json"
disagree "validate: params file" "--params is 'generic' on rank 0 and '$scratch/p.json'" \
  -- "${validate[@]}" --params generic -- "${validate[@]}" --params "$scratch/p.json"
overlap=(overlap --engine mpi -t live --nodes 2 --ranks 1 -b 64 "${quick[@]}" -o o)
disagree "overlap: algorithm" "--algorithm is 'tree' on rank 0 and 'tiled'" -- "${overlap[@]}" -a tree -- "${overlap[@]}" -a tiled
disagree "calibrate: output path" "--output is 'a.json' on rank 0 and 'b.json'" \
  -- calibrate --quick -q -o a.json -- calibrate --quick -q -o b.json
disagree "two commands" "the command is 'baseline' on rank 0 and 'run'" \
  -- baseline -b 8 "${quick[@]}" -o b.csv -- "${run[@]}" -o b.csv

[[ $cases -ge 12 ]] || fail "only $cases disagreements tried"
[[ $failures -eq 0 ]] && echo "ok: $cases disagreements, each ended by every process with one line"
exit $((failures > 0))
