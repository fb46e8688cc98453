#!/usr/bin/env bash
# Installs the Debian packages numacoll needs, only those that are missing, and
# configures + builds the project into build/. Safe to run again and again.
# NUMACOLL_EXTRA_PACKAGES adds packages (the sanitizer and fuzzing scripts
# need clang); NUMACOLL_PACKAGES_ONLY=1 stops after installing;
# NUMACOLL_BUILD_TARGETS builds only those targets (default: all of them).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake pkg-config git
  libsimgrid-dev libhwloc-dev hwloc libboost-graph-dev libfmt-dev libgtest-dev
  libcli11-dev nlohmann-json3-dev python3 python3-matplotlib graphviz pajeng
  openmpi-bin libopenmpi-dev mpich libmpich-dev hpcc
)
read -r -a extra <<< "${NUMACOLL_EXTRA_PACKAGES:-}"
packages+=("${extra[@]}")

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if ((${#missing[@]})); then
  echo "numacoll setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[[ -z "${NUMACOLL_PACKAGES_ONLY:-}" ]] || exit 0

build_dir=${NUMACOLL_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE:-RelWithDebInfo} >/dev/null
targets=()
for target in ${NUMACOLL_BUILD_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
