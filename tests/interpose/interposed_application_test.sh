#!/bin/bash
# The interposition library inside an MPI application (mpi_application.cpp),
# preloaded: every result agrees with the MPI library's own on 2, 3 and 4
# processes; the report shows numacoll's schedules serving each collective
# and names why the rest went back to the MPI library; a wrong setting ends
# the job at MPI_Init with one line, or warns with NUMACOLL_MPI_ON_ERROR=native;
# the models' choices are tried against the MPI library's, unless asked not to.
# Usage: interposed_application_test.sh MPIEXEC APPLICATION LIBRARY [PROCESS COUNTS=2 3 4]
# (Open MPI's mpirun, or MPICH's Hydra: mpirun.mpich)
set -u
mpiexec=$1 application=$2 library=$3
counts=${4:-2 3 4}
# A library built with AddressSanitizer needs its runtime loaded first.
preload=$library
asan_runtime=$(ldd "$library" 2>/dev/null | awk '/libasan/ { print $3 }')
[ -z "$asan_runtime" ] || preload="$asan_runtime:$library"
hydra=0
"$mpiexec" --version 2>&1 | grep -qi hydra && hydra=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }
served_every() {  # served_every COLLECTIVE...: numacoll served each on the world, in $report
    for collective in "$@"; do
        awk -F, -v c="$collective" 'NR > 1 && $1 == "world" && $6 == c && $7 != "native" && $10 > 0 { found = 1 }
                                    END { exit !found }' "$report" ||
            fail "$np processes: numacoll served no $collective on the world"
    done
}
run() {  # run NP [VAR=VALUE...]: the application under mpirun, preloaded; output in $work/out
    # A launch that failed and printed nothing at all is the launcher's, not
    # the application's: Hydra, beside the other MPI tests on 2 cores, once
    # started nothing without a word (2026-12-01). It is tried once more.
    launch "$@"
    local code=$?
    if ((code != 0 && code != 124)) && [ ! -s "$work/out" ]; then
        launch "$@"
        code=$?
    fi
    return $code
}
launch() {
    local np=$1; shift
    local exports=() setting
    for setting in LD_PRELOAD="$preload" "$@"; do
        if ((hydra)); then exports+=(-genv "${setting%%=*}" "${setting#*=}"); else exports+=(-x "$setting"); fi
    done
    if ((hydra)); then
        timeout 600 "$mpiexec" -np "$np" "${exports[@]}" "$application" >"$work/out" 2>&1
    else
        timeout 600 "$mpiexec" --oversubscribe --bind-to none -np "$np" "${exports[@]}" "$application" >"$work/out" 2>&1
    fi
}

for np in $counts; do
    report=$work/report-$np.csv
    if ! run "$np" NUMACOLL_MPI_REPORT="$report"; then
        fail "$np processes: the application failed"; cat "$work/out"; continue
    fi
    [ -s "$report" ] || { fail "$np processes: no report"; continue; }
    head -1 "$report" | grep -q '^communicator,ranks,nodes,ranks_per_node,placement,collective,algorithm' ||
        fail "$np processes: the report's header: $(head -1 "$report")"
    # The models hand gathers and scatters back to the MPI library here (its
    # linear and binomial ones are predicted faster); the forced runs below serve them.
    served_every allreduce reduce bcast barrier
    # The models' choices were tried against the MPI library's own collectives.
    for reason in "user-defined operation" "derived datatype" "intercommunicator" "trial"; do
        grep -q ",$reason\$" "$report" || fail "$np processes: nothing handed back for '$reason'"
    done
    # Sub-communicators are reported from their rank 0.
    [ "$(awk -F, 'NR > 1 && $1 != "world" && $7 != "native"' "$report" | wc -l)" -gt 0 ] ||
        fail "$np processes: no sub-communicator served"
done
cp "$work/report-${counts##* }.csv" "${NUMACOLL_TEST_KEEP_REPORT:-/dev/null}" 2>/dev/null

# Without a trial, the models' choices serve from the first call.
report=$work/untried.csv np=2
run 2 NUMACOLL_MPI_TRIAL=0 NUMACOLL_MPI_REPORT="$report" || { fail "NUMACOLL_MPI_TRIAL=0: the application failed"; cat "$work/out"; }
served_every allreduce reduce bcast barrier
! grep -q ",trial$" "$report" || fail "NUMACOLL_MPI_TRIAL=0 still tried"

# Each algorithm forced, on 3 processes.
for forced in "allreduce:tiled,reduce:tree,bcast:tree,barrier:dissemination,gather:binomial,allgather:ring,scatter:tree" \
              "allreduce:dissemination,barrier:tree,gather:linear,allgather:recursive-doubling" \
              "allreduce:tree,bcast:binomial,reduce:binomial,gather:leader,allgather:leader"; do
    np=3 report=$work/forced.csv
    rm -f "$report"
    run 3 NUMACOLL_MPI_ALGORITHM="$forced" NUMACOLL_MPI_REPORT="$report" ||
        { fail "forced $forced: the application failed"; cat "$work/out"; }
    served_every $(echo "$forced" | tr ',' '\n' | grep -v ':native' | cut -d: -f1)
    # Each forced algorithm is the one that served.
    for pair in $(echo "$forced" | tr ',' ' '); do
        grep -q ",${pair%%:*},${pair#*:}," "$report" || fail "forced $pair did not serve"
    done
done

# A wrong setting: one line at MPI_Init, and the job ends.
run 2 NUMACOLL_MPI_ALGORITHM=allreduce:nope
code=$?
[ "$code" -ne 0 ] || fail "an unknown algorithm was accepted"
[ "$(grep -c '^numacoll: ' "$work/out")" -eq 1 ] && grep -q "NUMACOLL_MPI_ALGORITHM: .*'nope'" "$work/out" ||
    { fail "an unknown algorithm is not said in one line"; cat "$work/out"; }
# ... or a warning and the MPI library's collectives.
run 2 NUMACOLL_MPI_ALGORITHM=allreduce:nope NUMACOLL_MPI_ON_ERROR=native NUMACOLL_MPI_REPORT="$work/warned.csv" \
    NUMACOLL_TEST_NATIVE=1 ||
    { fail "NUMACOLL_MPI_ON_ERROR=native did not run the application"; cat "$work/out"; }
grep -q "^numacoll: warning: .*the MPI library serves every collective" "$work/out" || fail "no warning"
[ ! -e "$work/warned.csv" ] || fail "a report from a library that served nothing"

exit $failed
