#!/usr/bin/env bash
# README command 2: install what is missing, build, and run every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir "${NUMACOLL_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" "$@"
