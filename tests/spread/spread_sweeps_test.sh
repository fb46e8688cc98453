#!/usr/bin/env bash
# A sweep spread over MPI processes, split into shards and merged, or stopped
# and resumed writes the files one whole run writes (provenance apart: the
# date, the folder's own path):
# - tune (sim and model engines) on 1 process, and under mpirun on 1, 2 and 3;
# - three shards merged; and merge's refusals (another sweep's shard, a
#   shard that did not finish, a shard count that does not match, a missing
#   or doubled shard), each one line and exit 2;
# - a run interrupted (SIGINT) and one whose MPI process was killed, then
#   --resume into the same folder; the killed job ends within 10 s;
# - whatif and reproduce on 1 and 2 processes, and in two shards merged;
# - sim on 1, 2 and 3 processes (its --trace refused on 2); validate --engine
#   mpi, whose simulations spread, simulating what sim does;
# - docs/usage.md's Slurm array script, as printed, as its three tasks, merged.
# Usage: spread_sweeps_test.sh MPIEXEC NUMACOLL SOURCE
set -u
mpiexec=$1 numacoll=$2 source=$3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# A job that stops answering fails its step within 5 minutes (each takes
# seconds, a minute under the sanitizers), not the whole test at ctest's limit.
mpirun_() { timeout -k 10 300 "$mpiexec" --oversubscribe --bind-to none "$@"; }

tune=(tune -t westmere --params westmere -c bcast,reduce --nodes 1,2 --bytes 8B:64KiB --no-plots -q)
whatif=(whatif -t westmere --params westmere --vary nodes=1,2 --vary levels.other_socket.bandwidth_bytes_per_ns=3,12
        -c bcast -a binomial,chain,linear --bytes 64,4KiB,256KiB --no-plots -q)

# The files of a folder with what differs between runs of one sweep taken out:
# dates, and the folder's own path (ompi-mca.txt names it).
normalised() {
  local folder=$1
  for file in $(cd "$folder" && ls | sort); do
    echo "== $file"
    sed -e "s|$folder|FOLDER|g" -e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9][T ][0-9:]*Z\{0,1\}/DATE/g' "$folder/$file"
  done
}
same_files() {  # what, reference folder, folder
  if [[ ! -s "$3/selection.csv" && ! -s "$3/whatif-map.csv" ]]; then fail "$1: $3 holds no tables"; return; fi
  diff <(normalised "$2") <(normalised "$3" | sed "s|$3|FOLDER|g") > "$scratch/diff" ||
    { fail "$1: the files differ from one whole run's"; head -20 "$scratch/diff"; }
}
# One line on stderr and exit status 2.
refused() {  # what, expected words, command...
  local what=$1 words=$2
  shift 2
  "$@" > "$scratch/out" 2> "$scratch/err"
  local status=$?
  [[ $status -eq 2 ]] || fail "$what: exit $status, expected 2"
  [[ $(wc -l < "$scratch/err") -eq 1 ]] || { fail "$what: not one line"; cat "$scratch/err"; }
  grep -q -- "$words" "$scratch/err" || { fail "$what: no '$words'"; cat "$scratch/err"; }
}

# --- tune: one process, then 1, 2 and 3 MPI processes ---------------------
"$numacoll" "${tune[@]}" -o "$scratch/one" > /dev/null || fail "tune alone failed"
[[ -s "$scratch/one/ompi-rules.conf" ]] || fail "tune alone wrote no rules"
[[ ! -e "$scratch/one/sweep-points.tsv" ]] || fail "a whole run keeps its journal"
for np in 1 2 3; do
  mpirun_ -np $np "$numacoll" "${tune[@]}" -o "$scratch/np$np" > "$scratch/np$np.out" 2> "$scratch/np$np.err" ||
    { fail "tune on $np processes failed"; cat "$scratch/np$np.err"; }
  same_files "tune on $np processes" "$scratch/one" "$scratch/np$np"
  [[ $(grep -c "points chosen" "$scratch/np$np.out") -eq 1 ]] || fail "tune on $np processes: not one summary"
done
"$numacoll" "${tune[@]}" --engine model -o "$scratch/model-one" > /dev/null || fail "tune --engine model failed"
mpirun_ -np 2 "$numacoll" "${tune[@]}" --engine model -o "$scratch/model-np2" > /dev/null 2>&1 ||
  fail "tune --engine model on 2 processes failed"
same_files "tune --engine model on 2 processes" "$scratch/model-one" "$scratch/model-np2"

# --- shards, merged ---------------------------------------------------------
for k in 1 2 3; do
  "$numacoll" "${tune[@]}" --shard $k/3 -o "$scratch/part-$k" > "$scratch/part-$k.out" ||
    fail "shard $k of 3 failed"
  [[ -s "$scratch/part-$k/sweep-points.tsv" && ! -e "$scratch/part-$k/selection.csv" ]] ||
    fail "shard $k: its folder holds other than its points"
done
"$numacoll" merge "$scratch/part-1" "$scratch/part-2" "$scratch/part-3" -o "$scratch/merged" -q > /dev/null ||
  fail "merge failed"
same_files "three shards merged" "$scratch/one" "$scratch/merged"

"$numacoll" tune -t westmere --params westmere -c bcast --nodes 1 --bytes 8B:1KiB --no-plots -q --shard 2/3 \
  -o "$scratch/other-2" > /dev/null || fail "another sweep's shard failed"
"$numacoll" "${tune[@]}" --shard 2/2 -o "$scratch/half-2" > /dev/null || fail "shard 2 of 2 failed"
cp -r "$scratch/part-3" "$scratch/torn-3"
head -n -3 "$scratch/part-3/sweep-points.tsv" > "$scratch/torn-3/sweep-points.tsv"
refused "merge of another sweep's shard" "different sweeps" \
  "$numacoll" merge "$scratch/part-1" "$scratch/other-2" "$scratch/part-3" -o "$scratch/bad"
refused "merge of a shard that did not finish" "did not finish" \
  "$numacoll" merge "$scratch/part-1" "$scratch/part-2" "$scratch/torn-3" -o "$scratch/bad"
refused "merge of shards split differently" "split it alike" \
  "$numacoll" merge "$scratch/part-1" "$scratch/half-2" -o "$scratch/bad"
refused "merge with a shard missing" "shard 3 of 3 missing" \
  "$numacoll" merge "$scratch/part-1" "$scratch/part-2" -o "$scratch/bad"
refused "merge with a shard twice" "both shard 2 of 3" \
  "$numacoll" merge "$scratch/part-1" "$scratch/part-2" "$scratch/part-2" -o "$scratch/bad"
refused "merge of a folder that is no shard" "not a shard's folder" \
  "$numacoll" merge "$scratch/one" -o "$scratch/bad"
[[ ! -e "$scratch/bad" ]] || fail "a refused merge left a folder"
# (mpirun adds its own banner about the exit code: numacoll's line is one of them.)
mpirun_ -np 2 "$numacoll" "${tune[@]}" --shard 1/2 -o "$scratch/bad" > /dev/null 2> "$scratch/err"
status=$?
[[ $status -eq 2 ]] || fail "--shard under mpirun: exit $status, expected 2"
[[ $(grep -c "^numacoll: " "$scratch/err") -eq 1 ]] && grep -q "leave --shard out" "$scratch/err" ||
  { fail "--shard under mpirun: not one line of numacoll's"; cat "$scratch/err"; }
refused "--shard with a measuring engine" "measures one point at a time" \
  "$numacoll" tune --engine threads -c bcast --shard 1/2 -o "$scratch/bad"
refused "a malformed --shard" "expected K/N" "$numacoll" "${tune[@]}" --shard 4/3 -o "$scratch/bad"

# --- interrupted, then resumed ----------------------------------------------
big=(tune -t westmere --params westmere -c bcast,reduce --nodes 1,2,4 --bytes 8B:1MiB --no-plots -q)
resume=("${big[@]:0:${#big[@]}-1}" --resume)  # without -q: the line that says what it took
"$numacoll" "${big[@]}" -o "$scratch/big-one" > /dev/null || fail "the larger tune failed"
journal_lines() { cat "$1"/.numacoll-run-*/sweep-points.tsv 2>/dev/null | wc -l; }
wait_for_points() {  # folder: until its journal holds some points (or 60 s)
  for _ in $(seq 600); do
    (( $(journal_lines "$1") > 40 )) && return 0
    sleep 0.1
  done
  return 1
}

"$numacoll" "${big[@]}" -o "$scratch/interrupted" > /dev/null 2>&1 &
runner=$!
wait_for_points "$scratch/interrupted" || fail "the interrupted run never journalled a point"
kill -TERM $runner  # (a background job of a script ignores SIGINT)
wait $runner
ls -d "$scratch"/interrupted/unfinished-* > /dev/null 2>&1 || fail "an interrupted run left no unfinished folder"
"$numacoll" "${resume[@]}" -o "$scratch/interrupted" > /dev/null 2> "$scratch/resume.err" ||
  { fail "--resume after an interruption failed"; cat "$scratch/resume.err"; }
grep -q "already finished" "$scratch/resume.err" || fail "--resume took no finished point"
same_files "interrupted and resumed" "$scratch/big-one" "$scratch/interrupted"
! ls -d "$scratch"/interrupted/unfinished-* > /dev/null 2>&1 || fail "the resumed run left the unfinished folder"

mpirun_ -np 2 "$numacoll" "${big[@]}" -o "$scratch/killed" > /dev/null 2> "$scratch/killed.err" &
launcher=$!
wait_for_points "$scratch/killed" || fail "the MPI run never journalled a point"
# The job's numacoll processes: children of mpirun, below the background job and timeout.
parents=$launcher
for _ in 1 2 3; do
  for child in $(pgrep -P "$parents"); do [[ ,$parents, == *,$child,* ]] || parents+=",$child"; done
done
# The ranks, not the short-lived children a rank forks for each simulation:
# killing one of those is a failed point, not a killed process.
ranks=""
for pid in $(pgrep -x numacoll -P "$parents"); do
  parent=$(ps -o ppid= -p "$pid") || continue
  parent=${parent// /}
  [[ $(ps -o comm= -p "$parent") == numacoll ]] || ranks+="$pid "
done
victim=$(echo $ranks | tr " " "\n" | tail -1)
[[ -n "$victim" ]] || fail "no process of the MPI job found"
killed_at=$(date +%s)
kill -KILL "$victim"
wait $launcher
status=$?
# The launcher is gone; its other processes end on its SIGTERM, keeping their points.
for _ in $(seq 100); do
  alive=0
  for rank in $ranks; do kill -0 "$rank" 2> /dev/null && alive=1; done
  ((alive)) || break
  sleep 0.1
done
ended_in=$(( $(date +%s) - killed_at ))
[[ $status -ne 0 ]] || fail "the job with a killed process ended with 0"
(( ended_in <= 10 )) || fail "the job took ${ended_in}s to end after a process was killed"
for rank in $ranks; do kill -0 "$rank" 2> /dev/null && fail "process $rank of the killed job is still running"; done
"$numacoll" "${resume[@]}" -o "$scratch/killed" > /dev/null 2> "$scratch/resume-killed.err" ||
  { fail "--resume after a killed process failed"; cat "$scratch/resume-killed.err"; }
grep -q "already finished" "$scratch/resume-killed.err" || fail "--resume took none of the killed job's points"
same_files "killed and resumed" "$scratch/big-one" "$scratch/killed"

"$numacoll" "${tune[@]}" -o "$scratch/foreign" > /dev/null 2>&1 || fail "tune into a fresh folder failed"
mkdir -p "$scratch/foreign/unfinished-1"
cp "$scratch/part-1/sweep-points.tsv" "$scratch/foreign/unfinished-1/"
sed -i 's/^version\t.*/version\t0.0.0-another/' "$scratch/foreign/unfinished-1/sweep-points.tsv"
refused "--resume over another sweep's points" "another sweep" \
  "$numacoll" "${tune[@]}" -o "$scratch/foreign" --resume

# --- whatif -----------------------------------------------------------------
"$numacoll" "${whatif[@]}" -o "$scratch/whatif-one" > /dev/null || fail "whatif alone failed"
mpirun_ -np 2 "$numacoll" "${whatif[@]}" -o "$scratch/whatif-np2" > /dev/null 2> "$scratch/whatif.err" ||
  { fail "whatif on 2 processes failed"; cat "$scratch/whatif.err"; }
same_files "whatif on 2 processes" "$scratch/whatif-one" "$scratch/whatif-np2"
for k in 1 2; do
  "$numacoll" "${whatif[@]}" --shard $k/2 -o "$scratch/whatif-part-$k" > /dev/null || fail "whatif shard $k failed"
done
"$numacoll" merge "$scratch/whatif-part-1" "$scratch/whatif-part-2" -o "$scratch/whatif-merged" -q > /dev/null ||
  fail "whatif merge failed"
same_files "whatif shards merged" "$scratch/whatif-one" "$scratch/whatif-merged"

# --- reproduce ----------------------------------------------------------------
reproduce=(reproduce hpdc13 --no-plots -q)
"$numacoll" "${reproduce[@]}" -o "$scratch/reproduce-one" > /dev/null || fail "reproduce alone failed"
mpirun_ -np 2 "$numacoll" "${reproduce[@]}" -o "$scratch/reproduce-np2" > /dev/null 2> "$scratch/reproduce.err" ||
  { fail "reproduce on 2 processes failed"; cat "$scratch/reproduce.err"; }
for k in 1 2; do
  "$numacoll" "${reproduce[@]}" --shard $k/2 -o "$scratch/reproduce-part-$k" > /dev/null || fail "reproduce shard $k failed"
done
"$numacoll" merge "$scratch/reproduce-part-1" "$scratch/reproduce-part-2" -o "$scratch/reproduce-merged" -q > /dev/null ||
  fail "reproduce merge failed"
for folder in reproduce-np2 reproduce-merged; do
  for file in reproduce.csv figures.csv figure_marks.csv; do
    cmp -s "$scratch/reproduce-one/$file" "$scratch/$folder/$file" || fail "reproduce: $folder/$file differs from one whole run's"
  done
done

# --- sim ----------------------------------------------------------------------
sim=(sim -t westmere --params westmere --nodes 2 -c bcast -a binomial,linear,tree --bytes 8B:64KiB -q)
dated() { sed 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9][T ][0-9:]*Z\{0,1\}/DATE/g' "$1"; }
"$numacoll" "${sim[@]}" -o "$scratch/sim-one.csv" || fail "sim alone failed"
[[ $(wc -l < "$scratch/sim-one.csv") -gt 20 ]] || fail "sim alone wrote too few rows"
mpirun_ -np 2 "$numacoll" "${sim[@]}" -o "$scratch/sim-np2.csv" 2> "$scratch/sim.err" ||
  { fail "sim on 2 processes failed"; cat "$scratch/sim.err"; }
mpirun_ -np 3 "$numacoll" "${sim[@]}" > "$scratch/sim-np3.csv" 2> "$scratch/sim.err" ||
  { fail "sim on 3 processes to standard output failed"; cat "$scratch/sim.err"; }
for rows in sim-np2.csv sim-np3.csv; do
  cmp -s <(dated "$scratch/sim-one.csv") <(dated "$scratch/$rows") || fail "sim: $rows differs from one process's rows"
done
mpirun_ -np 2 "$numacoll" "${sim[@]}" --trace "$scratch/trace.csv" -o "$scratch/bad.csv" > /dev/null 2> "$scratch/err"
status=$?
[[ $status -eq 2 ]] || fail "sim --trace on 2 processes: exit $status, expected 2"
grep -q "trace in one process" "$scratch/err" || { fail "sim --trace on 2 processes: no refusal"; cat "$scratch/err"; }
[[ ! -e "$scratch/bad.csv" && ! -e "$scratch/trace.csv" ]] || fail "a refused sim left a file"

# --- validate --engine mpi: its simulations spread, the same as sim's ---------
mpirun_ -np 2 "$numacoll" validate --engine mpi --threads 1 --params generic -c bcast -a binomial,linear \
  --bytes 64,4KiB,64KiB --trace-bytes 4KiB -n 3 --warmup 1 --rounds 1 -q -o "$scratch/validated" > /dev/null \
  2> "$scratch/validate.err" || { fail "validate --engine mpi on 2 processes failed"; cat "$scratch/validate.err"; }
"$numacoll" sim -t live --params generic --nodes 2 -p 1 -c bcast -a binomial,linear --bytes 64,4KiB,64KiB \
  -q -o "$scratch/validated-sim.csv" || fail "sim of validate's points failed"
python3 - "$scratch/validated/validation.csv" "$scratch/validated-sim.csv" <<'PY' || fail "validate's simulated times are not sim's"
import csv, sys
validated = {(r["algorithm"], r["bytes"]): float(r["simulated_ns"]) for r in csv.DictReader(open(sys.argv[1]))}
simulated = {(r["algorithm"], r["bytes"]): float(r["time_ns"]) for r in csv.DictReader(open(sys.argv[2]))}
assert len(validated) == 6 and validated.keys() == simulated.keys(), (validated, simulated)
for point, ns in validated.items():
    assert ns > 0 and abs(ns - simulated[point]) <= 1e-3 * ns, (point, ns, simulated[point])
PY

# --- docs/usage.md's Slurm array script, as printed --------------------------
awk '/^```bash$/ {block = ""; inside = 1; next} /^```$/ {if (inside && block ~ /tune-array.sh/) print block; inside = 0}
     inside {block = block $0 "\n"}' "$source/docs/usage.md" | sed '/^$/d' > "$scratch/tune-array.sh"
grep -q -- "--shard" "$scratch/tune-array.sh" || fail "docs/usage.md has no array script"
array_tasks=$(sed -n 's/^#SBATCH --array=1-\([0-9]*\)$/\1/p' "$scratch/tune-array.sh")
mkdir -p "$scratch/bin" "$scratch/slurm"
ln -s "$numacoll" "$scratch/bin/numacoll"
for k in $(seq 1 "${array_tasks:-0}"); do
  (cd "$scratch/slurm" && PATH="$scratch/bin:$PATH" SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=$array_tasks \
    bash "$scratch/tune-array.sh" > /dev/null) || fail "array task $k of the docs' script failed"
done
(cd "$scratch/slurm" && "$numacoll" merge tune-part-* -o tuned -q > /dev/null) || fail "merging the docs' array tasks failed"
whole=$(sed -n 's/^numacoll \(tune .*\) \\$/\1/p' "$scratch/tune-array.sh")
"$numacoll" $whole -o "$scratch/slurm-whole" > /dev/null || fail "the docs' sweep as one run failed"
same_files "the docs' array tasks merged" "$scratch/slurm-whole" "$scratch/slurm/tuned"

if ((failures)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "spread sweeps: every way gives one whole run's files"
