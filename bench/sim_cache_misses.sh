#!/usr/bin/env bash
# Instructions and cache misses per simulated task as a westmere cluster
# grows: whether a larger cluster costs more per task because it executes
# more per task or because its memory accesses miss the caches more often.
# The same tree allreduce as bench/sim_scale.sh's section (b), under
# valgrind's cachegrind with its last-level cache modelled at LL_BYTES
# (the first level is the machine's, as cachegrind reads it).
#
# Prints per node count and process: instructions, first-level data misses
# and last-level misses, each in all and per task, and per task against the
# first node count. Two processes per command: the parent (topology,
# generation, planning, then reading the timeline back) and the simulating
# child it forks, whose counts include everything the parent did before
# the fork (cachegrind counts per address space).
#
# About 25 times slower than a plain run: 4,096 nodes at 1 MiB take
# 6-10 minutes on a 2-core machine.
#
# Usage: bench/sim_cache_misses.sh [NUMACOLL=build/cli/numacoll]
#          [LL_BYTES=33554432] [BYTES=1MiB] [NODES...=512 4096]
set -euo pipefail
cd "$(dirname "$0")/.."
numacoll=${1:-build/cli/numacoll}
ll_bytes=${2:-33554432}
bytes=${3:-1MiB}
shift $(($# < 3 ? $# : 3))
node_counts=("$@")
((${#node_counts[@]})) || node_counts=(512 4096)

[[ -x $numacoll ]] || {
  echo "no numacoll at $numacoll (build it first: cmake --build build)" >&2
  exit 2
}
# cachegrind needs a power of two of sets (16 ways of 64-byte lines).
[[ $ll_bytes =~ ^[0-9]+$ ]] && ((ll_bytes >= 65536 && ll_bytes <= 1 << 40 && ll_bytes % 1024 == 0 &&
  ((ll_bytes / 1024) & (ll_bytes / 1024 - 1)) == 0)) || {
  echo "LL_BYTES must be a power of two of bytes from 65536 to 2^40: $ll_bytes" >&2
  exit 2
}
for nodes in "${node_counts[@]}"; do
  [[ $nodes =~ ^[0-9]+$ ]] && ((nodes >= 1)) || {
    echo "node counts must be positive integers: $nodes" >&2
    exit 2
  }
done

command -v valgrind > /dev/null || {
  echo "valgrind is not installed (apt-get install valgrind)" >&2
  exit 1
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export NUMACOLL_PROGRESS=0

# summary LOG NAME: the value of cachegrind's summary line NAME in LOG.
summary() {
  awk -v name="$2" 'index($0, name ":") { sub(/.*: +/, ""); sub(/ .*/, ""); gsub(/,/, ""); print; exit }' "$1"
}

echo "cachegrind: last-level cache modelled at $ll_bytes bytes; tree allreduce on westmere at $bytes"
printf '%7s %9s %8s %16s %9s %14s %7s %13s %7s %9s %9s\n' \
  nodes tasks process instructions "per task" "D1 misses" "/task" "LL misses" "/task" "Ir/task x" "LL/task x"
declare -A first_ir_per_task=() first_ll_per_task=()
for nodes in "${node_counts[@]}"; do
  rm -f "$scratch"/vg.* "$scratch"/cg.*
  valgrind --tool=cachegrind --cache-sim=yes --LL="$ll_bytes,16,64" \
    --cachegrind-out-file="$scratch/cg.%p" --log-file="$scratch/vg.%p" \
    "$numacoll" sim --topology westmere --nodes "$nodes" --bytes "$bytes" -q -o "$scratch/row.csv" &
  parent=$!
  wait "$parent" || {
    echo "failed: numacoll sim --topology westmere --nodes $nodes --bytes $bytes" >&2
    cat "$scratch"/vg.* >&2
    exit 1
  }
  tasks=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; ++i) if ($i == "tasks") c = i} NR == 2 {print $c}' "$scratch/row.csv")
  for log in "$scratch/vg.$parent" $(ls "$scratch"/vg.* | grep -v "/vg.$parent\$"); do
    process=child
    [[ $log == "$scratch/vg.$parent" ]] && process=parent
    ir=$(summary "$log" "I   refs")
    d1=$(summary "$log" "D1  misses")
    ll=$(summary "$log" "LL misses")
    [[ -n $ir && -n $d1 && -n $ll ]] || {
      echo "no cachegrind summary in $log" >&2
      cat "$log" >&2
      exit 1
    }
    ir_per_task=$(awk -v a="$ir" -v t="$tasks" 'BEGIN { printf "%.0f", a / t }')
    ll_per_task=$(awk -v a="$ll" -v t="$tasks" 'BEGIN { printf "%.2f", a / t }')
    : "${first_ir_per_task[$process]:=$ir_per_task}" "${first_ll_per_task[$process]:=$ll_per_task}"
    printf '%7s %9s %8s %16s %9s %14s %7.1f %13s %7s %9.2f %9.2f\n' "$nodes" "$tasks" "$process" "$ir" "$ir_per_task" \
      "$d1" "$(awk -v a="$d1" -v t="$tasks" 'BEGIN { print a / t }')" "$ll" "$ll_per_task" \
      "$(awk -v a="$ir_per_task" -v b="${first_ir_per_task[$process]}" 'BEGIN { print a / b }')" \
      "$(awk -v a="$ll_per_task" -v b="${first_ll_per_task[$process]}" 'BEGIN { print a / b }')"
  done
done
