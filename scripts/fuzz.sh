#!/usr/bin/env bash
# Fuzzes each reader of untrusted input with libFuzzer (clang), built with
# AddressSanitizer + UndefinedBehaviorSanitizer in build-fuzz/: hwloc XML
# topologies, params, schedule text and schedule JSON (fuzz/*.cpp say what
# each checks). Seeds: fuzz/corpus/READER and the project's own files (the
# bundled topologies and params). Each reader runs for NUMACOLL_FUZZ_SECONDS
# (60 by default); any crash, hang (an input taking more than 20 s), leak,
# memory use past 2 GB or sanitizer report fails the run, and the input that
# caused it is left in build-fuzz/findings/READER/: copy it into
# fuzz/corpus/READER, and ctest replays it from then on.
# The fuzzer's seed is NUMACOLL_FUZZ_SEED, 1 by default, so that a run
# explores the inputs the same run explored before (CI's run can be
# repeated); 0 draws one, for longer runs that look further.
# Usage: scripts/fuzz.sh [READER...]   (all four when none is named)
set -euo pipefail
cd "$(dirname "$0")/.."
NUMACOLL_EXTRA_PACKAGES="clang libclang-rt-14-dev" NUMACOLL_PACKAGES_ONLY=1 scripts/setup.sh

seconds=${NUMACOLL_FUZZ_SECONDS:-60}
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "scripts/fuzz.sh: NUMACOLL_FUZZ_SECONDS must be a positive number of seconds" >&2; exit 2; }
seed=${NUMACOLL_FUZZ_SEED:-1}
[[ "$seed" =~ ^[0-9]+$ ]] || { echo "scripts/fuzz.sh: NUMACOLL_FUZZ_SEED must be a whole number (0: drawn)" >&2; exit 2; }
readers=("$@")
((${#readers[@]})) || readers=(topology_xml params schedule_text schedule_json)

cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DNUMACOLL_FUZZ=ON -DNUMACOLL_SANITIZE=address,undefined >/dev/null
targets=()
for reader in "${readers[@]}"; do
  [[ -f fuzz/$reader.cpp ]] || { echo "scripts/fuzz.sh: no reader '$reader' (expected topology_xml, params, schedule_text or schedule_json)" >&2; exit 2; }
  targets+=(--target "numacoll_fuzz_$reader")
done
cmake --build build-fuzz -j "$(nproc)" "${targets[@]}"

export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for reader in "${readers[@]}"; do
  corpus=build-fuzz/corpus/$reader findings=build-fuzz/findings/$reader
  mkdir -p "$corpus" "$findings"
  cp fuzz/corpus/"$reader"/* "$corpus"/
  case $reader in
    topology_xml) cp topologies/bundled/*.xml "$corpus"/ ;;
    params) cp costs/params/*.json "$corpus"/ ;;
  esac
  dictionary=()
  [[ -f fuzz/$reader.dict ]] && dictionary=(-dict="fuzz/$reader.dict")
  # The XML reader runs hwloc, whose own leaks on files it rejects are named in
  # fuzz/lsan.supp; naming them needs the slow unwinder (hwloc has no frame pointers).
  leak_options=""
  [[ $reader == topology_xml ]] && leak_options=suppressions=$PWD/fuzz/lsan.supp:fast_unwind_on_malloc=0:print_suppressions=0
  echo "numacoll fuzz: $reader for $seconds s, seed $seed" >&2
  if ! LSAN_OPTIONS=$leak_options build-fuzz/fuzz/numacoll_fuzz_"$reader" "$corpus" "${dictionary[@]}" -max_total_time="$seconds" -seed="$seed" -timeout=20 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" 2> "build-fuzz/$reader.log"; then
    tail -n 60 "build-fuzz/$reader.log" >&2
    echo "numacoll fuzz: $reader: a finding, kept in $findings/" >&2
    exit 1
  fi
  grep -E "^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+ +DONE" "build-fuzz/$reader.log" | sed "s/^/numacoll fuzz: $reader: /" >&2
done
