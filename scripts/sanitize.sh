#!/usr/bin/env bash
# The whole test suite built with AddressSanitizer + UndefinedBehaviorSanitizer
# (build-asan/), then the tests of the thread engine and of planning beside
# generation with ThreadSanitizer (build-tsan/). Any report fails the run.
# The folders are kept, so a later run rebuilds only what changed.
# Usage: scripts/sanitize.sh [asan] [tsan]     (both when none is named)
set -euo pipefail
cd "$(dirname "$0")/.."
NUMACOLL_PACKAGES_ONLY=1 scripts/setup.sh

# No leak is suppressed: the one third-party report (hwloc's PCI plugin
# leaving libpciaccess's memory behind when it is unloaded at exit) is
# avoided by keeping libpciaccess resident (topologies/CMakeLists.txt).
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=0:check_initialization_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

configure() {  # folder, sanitizers
  # -O1 with line tables: a third faster to build than -O2 -g on CI's two
  # cores, and reports still name the line.
  cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" -DNUMACOLL_SANITIZE="$2" >/dev/null
}

run_asan() {
  echo "numacoll sanitize: the test suite under AddressSanitizer + UndefinedBehaviorSanitizer" >&2
  configure build-asan address,undefined
  cmake --build build-asan -j "$(nproc)"
  # Open MPI's own allocations outlive MPI_Finalize by design: the MPI-labelled
  # tests check addresses and undefined behaviour, not leaks.
  # The proofs on hwloc's reference machines (up to 64 ranks a node) run the
  # checker's code that the bundled machines' proofs already run here, for
  # twenty times the time under the sanitizers: scripts/test.sh runs them.
  # So are the proofs on the four bundled machines and on seven one-core
  # sockets: each took 300-470 s here (2026-11-29); and on four sockets of
  # two LLCs (64 cores), where the alltoalls' p^2 blocks took 7.6 s of its
  # 27 s without the sanitizers (2026-12-01). Every generator and the
  # checker run the same code on the other synthetic shapes and this
  # machine, whose proofs stay (an odd socket count, one core).
  # So does it run the demo, a chain of commands (calibrate, validate, sim,
  # plot) whose own tests run here.
  # So does it run calibrate's microbenchmarks, whose timings mean nothing
  # under the sanitizers, the documents' commands (docs.commands: the
  # commands' own tests run here) and the pictures' layout test (plots.layout:
  # matplotlib's layout of pictures that commands tested here draw).
  # The examples built against the install are programs built elsewhere,
  # without the sanitizers' runtime, and cannot load a library built with
  # it; the Python one runs the program.
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE mpi \
    -E '^(AlgorithmProofsOnSharedXml\.|Machines/AlgorithmProofs\.EveryAlgorithmHoldsForEveryShape/(westmere|magnycours|opteron8218|haswell|synthetic_Package_7_Core_1|synthetic_Package_4_L3Cache_2_Core_8)( |$)|Cli\.DemoRunsTheWholeChain$|Cli\.CalibrateWritesParamsThatSimulationsRead$|docs\.commands$|plots\.layout$|examples\.(cmake|pkgconfig)$)'
  # The interposition library is checked in the application built here; the
  # programs built elsewhere (MPICH's test suite, Debian's hpcc) cannot load
  # a library built with the sanitizers, and MPICH's run is the release's.
  ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0 ctest --test-dir build-asan --output-on-failure -L mpi \
    -E '^(mpi_mpich_test_suite_|mpi_interposed_debian_application$|mpi_interposed_application_mpich$)'
}

run_tsan() {
  echo "numacoll sanitize: the thread engine's and the planning thread's tests under ThreadSanitizer" >&2
  configure build-tsan thread
  cmake --build build-tsan -j "$(nproc)" --target numacoll_exec_tests numacoll_planning_tests
  build-tsan/tests/exec/numacoll_exec_tests --gtest_brief=1
  build-tsan/tests/sim/numacoll_planning_tests --gtest_brief=1
}

steps=("$@")
((${#steps[@]})) || steps=(asan tsan)
for step in "${steps[@]}"; do
  case $step in
    asan) run_asan ;;
    tsan) run_tsan ;;
    *) echo "scripts/sanitize.sh: unknown step '$step' (expected asan or tsan)" >&2; exit 2 ;;
  esac
done
