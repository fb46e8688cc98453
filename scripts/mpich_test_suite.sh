#!/usr/bin/env bash
# MPICH's collective test suite (test/mpi/coll of Debian's source package
# mpich) against an MPI library, every test run twice: without numacoll's
# interposition library and with it preloaded (libnumacoll_mpi_<MPI>.so).
# A test passes when it exits 0 and prints " No Errors" (the suite's own
# runner has been seen to exit 0 despite failures, so each test is counted
# here). The script fails when a test that passes without the library fails
# with it, or when the library served none of the suite's calls.
#
# Usage: scripts/mpich_test_suite.sh [openmpi|mpich] [MAX_PROCESSES]
#   openmpi (default): Open MPI's mpicc and mpirun --oversubscribe, tests of
#     up to MAX_PROCESSES=10 processes; mpich: MPICH's mpicc.mpich and
#     mpirun.mpich, up to 4 (it busy-waits: more processes than cores run
#     10-30x slower).
#   NUMACOLL_BUILD_DIR (build): where the library was built;
#   NUMACOLL_SUITE_DIR (NUMACOLL_BUILD_DIR/mpich-test-suite): the source,
#     the builds and the results (kept, so a second run starts at once).
#   NUMACOLL_SUITE_TESTS: only these tests (names, space separated);
#   NUMACOLL_SUITE_SETTINGS: the library's settings for the runs with it
#     (space separated VAR=VALUE, e.g. NUMACOLL_MPI_ALGORITHM=gather:binomial);
#   NUMACOLL_SUITE_BASELINE=failures: run a test without the library only
#     when it fails with it (half the time; the counts without then cover
#     those tests only). Default: every test both ways.
# Fetching the source needs a deb-src entry for Debian's archive: the script
# adds one when apt has none (/etc/apt/sources.list.d/numacoll-sources.sources,
# with sudo when not root).
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${1:-openmpi}
case "$mpi" in
  openmpi) max_processes=${2:-10} mpicc=mpicc.openmpi ;;
  mpich) max_processes=${2:-4} mpicc=mpicc.mpich ;;
  *) echo "usage: scripts/mpich_test_suite.sh [openmpi|mpich] [MAX_PROCESSES]" >&2; exit 2 ;;
esac
[[ "$max_processes" =~ ^[0-9]+$ && "$max_processes" -ge 1 && "$max_processes" -le 64 ]] ||
  { echo "mpich_test_suite: MAX_PROCESSES must be a whole number from 1 to 64 (got '$max_processes')" >&2; exit 2; }
build=${NUMACOLL_BUILD_DIR:-build}
library=$(realpath -m "$build/interpose/libnumacoll_mpi_$mpi.so")
[[ -f "$library" ]] || { echo "mpich_test_suite: no $library: build numacoll first (scripts/setup.sh)" >&2; exit 2; }
suite=$(realpath -m "${NUMACOLL_SUITE_DIR:-$build/mpich-test-suite}")
mkdir -p "$suite"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "mpich_test_suite: $*" >&2; }

# 1. The source: Debian's mpich, test/mpi only.
version=$(dpkg-query -W -f='${source:Upstream-Version}' libmpich-dev 2>/dev/null || true)
[[ -n "$version" ]] || { say "libmpich-dev is not installed (scripts/setup.sh installs it)"; exit 2; }
source_dir=$suite/mpich-$version/test/mpi
if [[ ! -f "$source_dir/configure" ]]; then
  if ! apt-get source --print-uris mpich 2>/dev/null | grep -q orig.tar; then
    sudo_cmd=()
    [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
    codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
    say "adding a deb-src entry for Debian's archive (/etc/apt/sources.list.d/numacoll-sources.sources)"
    "${sudo_cmd[@]}" tee /etc/apt/sources.list.d/numacoll-sources.sources >/dev/null <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $codename
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    "${sudo_cmd[@]}" apt-get update -qq
  fi
  say "fetching Debian's mpich $version source"
  (cd "$suite" && apt-get source --download-only -qq mpich >/dev/null 2>&1)
  tarball=$(ls "$suite"/mpich_"$version"*.orig.tar.* | head -1)
  tar -xf "$tarball" -C "$suite" "mpich-$version/test/mpi"
fi

# 2. Built against the MPI asked for. Open MPI 4 drops the MPI-1 names the
# suite's datatype pools still use; they map to their MPI-2 successors.
work=$suite/build-$mpi
compat=""
[[ "$mpi" == openmpi ]] && compat="-DOMPI_OMIT_MPI1_COMPAT_DECLS=1 -DMPI_Type_hvector=MPI_Type_create_hvector
  -DMPI_Type_hindexed=MPI_Type_create_hindexed -DMPI_Type_struct=MPI_Type_create_struct -DMPI_Address=MPI_Get_address"
compat=$(echo $compat)
# The suite's configure takes the first mpicc on the PATH, whatever CC says:
# this MPI's own comes first.
mkdir -p "$work/bin"
ln -sf "$(command -v "$mpicc")" "$work/bin/mpicc"
export PATH=$work/bin:$PATH
if [[ ! -f "$work/coll/Makefile" ]]; then
  say "configuring the suite for $mpi (a few minutes)"
  (cd "$work" && "$source_dir/configure" CC="$mpicc" --disable-fortran --disable-cxx --disable-romio --disable-spawn \
     --disable-dtpools --enable-strictmpi >configure.log 2>&1) || { say "configure failed: $work/configure.log"; exit 1; }
fi
testlist=$work/coll/testlist
tests=$(awk '!/^#/ && NF {print $1}' "$testlist" | sort -u | tr '\n' ' ')
[[ -z "${NUMACOLL_SUITE_TESTS:-}" ]] || tests=$NUMACOLL_SUITE_TESTS
say "building the collective tests"
make -C "$work/util" CPPFLAGS="$compat" >"$work/build.log" 2>&1
make -C "$work/dtpools" CPPFLAGS="$compat" >>"$work/build.log" 2>&1 || true
# Tests of MPI-4 do not build against an MPI-3.1 library: -k keeps the rest.
make -k -j "$(nproc)" -C "$work/coll" CPPFLAGS="$compat" $tests >>"$work/build.log" 2>&1 || true

# 3. Every entry of the test list within MAX_PROCESSES, without and with the library.
results=$work/results
rm -rf "$results"
mkdir -p "$results/reports"
launch() {  # launch NP PRELOAD|none REPORT PROGRAM ARGS...
  local np=$1 preload=$2 report=$3; shift 3
  if [[ "$mpi" == openmpi ]]; then
    local exports=() setting
    [[ "$preload" == none ]] || exports=(-x LD_PRELOAD="$preload" -x NUMACOLL_MPI_REPORT="$report")
    [[ "$preload" == none ]] || for setting in "${settings[@]}"; do exports+=(-x "$setting"); done
    for setting in "${environment[@]}"; do exports+=(-x "$setting"); done
    timeout "$limit" mpirun --oversubscribe --bind-to none -np "$np" "${exports[@]}" "$@"
  else
    local exports=()
    [[ "$preload" == none ]] || exports=(-genv LD_PRELOAD "$preload" -genv NUMACOLL_MPI_REPORT "$report")
    local setting
    [[ "$preload" == none ]] || for setting in "${settings[@]}"; do exports+=(-genv "${setting%%=*}" "${setting#*=}"); done
    for setting in "${environment[@]}"; do exports+=(-genv "${setting%%=*}" "${setting#*=}"); done
    timeout "$limit" mpirun.mpich -np "$np" "${exports[@]}" "$@"
  fi
}
read -r -a settings <<< "${NUMACOLL_SUITE_SETTINGS:-}"
passed() { [[ $1 -eq 0 ]] && grep -q " No Errors" "$2"; }
entries=0 skipped=0 unbuilt=0 ran_without=0 pass_without=0 pass_with=0 broken=()
while read -r name np rest; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  [[ " $tests " == *" $name "* ]] || continue
  if ((np > max_processes)); then skipped=$((skipped + 1)); continue; fi
  [[ -x "$work/coll/$name" ]] || { unbuilt=$((unbuilt + 1)); continue; }
  arguments=() environment=() limit=180
  for field in $rest; do
    case "$field" in
      arg=*) arguments+=("${field#arg=}") ;;
      env=*) environment+=("${field#env=}") ;;
      timeLimit=*) limit=$(( ${field#timeLimit=} * 3 )) ;;
    esac
  done
  entries=$((entries + 1))
  label="$name $np ${arguments[*]}"
  out=$results/$entries
  code=0
  (cd "$work/coll" && launch "$np" "$library" "$results/reports/$entries.csv" "./$name" "${arguments[@]}") \
    </dev/null >"$out.with" 2>&1 || code=$?
  passed $code "$out.with" && with=1 || with=0
  without=-1
  if [[ "${NUMACOLL_SUITE_BASELINE:-all}" != failures ]] || ((!with)); then
    code=0
    (cd "$work/coll" && launch "$np" none "" "./$name" "${arguments[@]}") </dev/null >"$out.without" 2>&1 || code=$?
    passed $code "$out.without" && without=1 || without=0
  fi
  ((without < 0)) || { ran_without=$((ran_without + 1)); pass_without=$((pass_without + without)); }
  pass_with=$((pass_with + with))
  ((without == 1 && !with)) && broken+=("$label (output: $out.with)")
  printf '%-40s without: %s  with: %s\n' "$label" "$( ((without < 0)) && echo - || { ((without)) && echo pass || echo FAIL; })" \
    "$( ((with)) && echo pass || echo FAIL)"
done <"$testlist"

# 4. What the library did: calls served by numacoll's schedules, per collective, and handed back, per reason.
summary=$results/served.txt
find "$results/reports" -name '*.csv' -exec cat {} + | awk -F, '$1 != "communicator" && NF >= 13 {
    if ($7 != "native") served[$6] += $10; else back[$13 == "" ? "(none)" : $13] += $10 }
  END { for (c in served) printf "served %s %d\n", c, served[c]; for (r in back) printf "handed back (%s) %d\n", r, back[r] }' |
  sort >"$summary"
echo
echo "MPICH $version collective suite against $mpi, up to $max_processes processes: $entries entries run" \
     "($skipped need more processes, $unbuilt did not build);"
echo "  with libnumacoll_mpi_$mpi.so preloaded: $pass_with pass; without it: $pass_without of the $ran_without run pass"
echo "calls numacoll's schedules served, and calls handed back to the MPI library, by the reports:"
sed 's/^/  /' "$summary"
status=0
if ((${#broken[@]})); then
  echo "passing without the library, failing with it:"
  printf '  %s\n' "${broken[@]}"
  status=1
fi
grep -q '^served ' "$summary" || { echo "the library served none of the suite's calls"; status=1; }
exit $status
