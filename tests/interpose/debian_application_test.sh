#!/bin/bash
# An MPI application packaged by Debian, unmodified: the HPC Challenge
# benchmark (package hpcc, linked with Open MPI) on its own example input
# (/usr/share/doc/hpcc/examples/_hpccinf.txt: HPL on a 2 x 2 grid), on 4
# processes, without and with libnumacoll_mpi_openmpi.so preloaded. Every
# result of its summary (HPL's norms and residual, PTRANS's residual,
# RandomAccess's errors, FFT's error, ...) must be the same, byte for byte;
# only the figures that are speeds or times may differ. The library's report
# must show numacoll's schedules serving its allreduces, reductions,
# broadcasts and barriers.
# Usage: debian_application_test.sh MPIEXEC LIBRARY [HPCC=hpcc]
set -u
mpiexec=$1 library=$2 hpcc=${3:-hpcc}
example=/usr/share/doc/hpcc/examples/_hpccinf.txt
command -v "$hpcc" >/dev/null && [ -f "$example" ] || { echo "SKIP: hpcc is not installed (scripts/setup.sh installs it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }
run() {  # run NAME [VAR=VALUE...]: hpcc in its own folder, its summary in $work/NAME.summary
    local name=$1; shift
    local exports=() setting
    for setting in "$@"; do exports+=(-x "$setting"); done
    mkdir -p "$work/$name"
    cp "$example" "$work/$name/hpccinf.txt"
    (cd "$work/$name" && timeout 600 "$mpiexec" --oversubscribe --bind-to none -np 4 "${exports[@]}" "$hpcc") \
        >"$work/$name.out" 2>&1 || { fail "$name: hpcc failed"; tail -20 "$work/$name.out"; return; }
    sed -n '/Begin of Summary section/,/End of Summary section/p' "$work/$name/hpccoutf.txt" |
        grep -vE '(_time|time[0-9]|Time|flops|GUPs|GBs|GBytes|_usec|STREAM_|ExeUpdates)' >"$work/$name.summary"
    [ "$(wc -l <"$work/$name.summary")" -gt 20 ] || fail "$name: no summary from hpcc"
}
run native
run numacoll LD_PRELOAD="$library" NUMACOLL_MPI_REPORT="$work/report.csv"
diff "$work/native.summary" "$work/numacoll.summary" >"$work/differences" ||
    { fail "hpcc's results differ with the library"; cat "$work/differences"; }
for collective in allreduce reduce bcast barrier; do
    awk -F, -v c="$collective" 'NR > 1 && $1 == "world" && $6 == c && $7 != "native" && $10 > 0 { found = 1 }
                                END { exit !found }' "$work/report.csv" 2>/dev/null ||
        fail "numacoll served no $collective of hpcc's"
done
[ "$failed" -ne 0 ] || echo "hpcc: $(wc -l <"$work/native.summary") results alike; numacoll served $(awk -F, 'NR > 1 && $7 != "native" { n += $10 } END { print n }' "$work/report.csv") calls"
exit $failed
