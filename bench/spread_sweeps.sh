#!/usr/bin/env bash
# Sweeps spread over MPI processes against the same sweep in one process,
# interleaved round by round in this one script (the machine's speed drifts
# over minutes):
# - tune:   numacoll tune -t westmere -c bcast,reduce --nodes 1,2,4,8 --bytes 8B:16MiB
# - whatif: numacoll whatif up to a 256-core node of 8 packages (2, 4, 8
#           packages of 8, 16, 32 cores), allreduce, every algorithm, 8B:16MiB
# each on 1 process (no MPI) and under mpirun on each process count asked
# for. Every run's files are compared with the first one-process run's
# (dates and folder paths apart): a speed-up with different files is no
# speed-up.
# The baseline beside them is the machine's own ceiling: as many
# independent one-process copies of the sweep as processes, started side by
# side ("copies"); their speed-up is N x one copy's time over the time the N
# took together, what N processes could give if spreading cost nothing.
#
# Usage: bench/spread_sweeps.sh [ROUNDS=3] [PROCESS COUNTS=2] [SWEEPS="tune whatif"]
#   e.g. bench/spread_sweeps.sh 3 "2 4 8 16"   (on a 16-core machine)
# Prints, per sweep and process count: the median wall time over rounds,
# its spread (min-max), the speed-up over one process, and the same for
# the copies.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
counts=${2:-2}
sweeps=${3:-tune whatif}
for sweep in $sweeps; do
  [[ $sweep == tune || $sweep == whatif ]] ||
    { echo "usage: bench/spread_sweeps.sh [ROUNDS] [PROCESS COUNTS] [SWEEPS: tune, whatif or both]" >&2; exit 2; }
done
build=${NUMACOLL_BUILD_DIR:-build}
[[ -x "$build/cli/numacoll" ]] || scripts/setup.sh
numacoll=$(realpath "$build/cli/numacoll")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

tune=(tune -t westmere --params westmere -c bcast,reduce --nodes 1,2,4,8 --bytes 8B:16MiB --no-plots -q)
whatif=(whatif -t "synthetic:Package:8 NUMANode:1 L3Cache:1 Core:32" --params generic --vary packages=2,4,8
        --vary cores_per_llc=8,16,32 -c allreduce --bytes 8B:16MiB --no-plots -q)

normalised() {  # a folder's files, its own and the reference's paths as FOLDER
  for file in $(cd "$1" && ls | sort); do
    sed -e "s|$work/[A-Za-z0-9-]*|FOLDER|g" -e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9][T ][0-9:]*Z\{0,1\}/DATE/g' "$1/$file"
  done
}
same_as_reference() {  # sweep name, how it ran, folder
  [[ -d "$work/$1-reference" ]] || cp -r "$3" "$work/$1-reference"
  cmp -s <(normalised "$work/$1-reference") <(normalised "$3") ||
    { echo "bench: $1 ($2) wrote other files than one process" >&2; exit 1; }
  rm -rf "$3"
}
timed() {  # sweep name, processes, command...
  local name=$1 np=$2 folder="$work/$1-$2-$round"
  shift 2
  local start end
  start=$(date +%s.%N)
  if [[ $np == 1 ]]; then
    "$numacoll" "$@" -o "$folder" > /dev/null
  else
    mpirun --oversubscribe --bind-to none -np "$np" "$numacoll" "$@" -o "$folder" > /dev/null
  fi
  end=$(date +%s.%N)
  echo "$name $np $(echo "$end - $start" | bc)" >> "$work/times"
  same_as_reference "$name" "$np processes" "$folder"
}
timed_copies() {  # sweep name, copies, command...: the copies side by side
  local name=$1 copies=$2 start end pids=() copy pid
  shift 2
  start=$(date +%s.%N)
  for copy in $(seq 1 "$copies"); do
    "$numacoll" "$@" -o "$work/$name-copy$copy-$round" > /dev/null &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  end=$(date +%s.%N)
  echo "$name-copies $copies $(echo "$end - $start" | bc)" >> "$work/times"
  for copy in $(seq 1 "$copies"); do same_as_reference "$name" "copy $copy" "$work/$name-copy$copy-$round"; done
}
for round in $(seq 1 "$rounds"); do
  for np in 1 $counts; do
    for sweep in $sweeps; do
      declare -n command=$sweep
      timed "$sweep" "$np" "${command[@]}"
      [[ $np == 1 ]] || timed_copies "$sweep" "$np" "${command[@]}"
    done
    echo "round $round/$rounds: $np process(es)" >&2
  done
done

python3 - "$work/times" "$rounds" "$(nproc)" $sweeps <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    sweep, np, seconds = line.split()
    runs[(sweep, int(np))].append(float(seconds))
print(f"rounds: {sys.argv[2]}, interleaved; {sys.argv[3]} cores; wall seconds, median (min-max) over rounds")
print("copies: N independent one-process runs side by side; their speed-up is N x one run over the N together")
print(f"{'sweep':>13} {'procs':>5} {'median s':>9} {'spread':>15} {'speed-up':>9}")
for sweep in sys.argv[4:]:
    alone = statistics.median(runs[(sweep, 1)])
    for name in (sweep, sweep + "-copies"):
        for np in sorted(n for s, n in runs if s == name):
            times = runs[(name, np)]
            med = statistics.median(times)
            factor = np if name.endswith("-copies") else 1
            print(f"{name:>13} {np:>5} {med:>9.2f} {min(times):>7.2f}-{max(times):<7.2f} {factor * alone / med:>8.2f}x")
PY
