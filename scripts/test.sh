#!/usr/bin/env bash
# README command 2: install what is missing, build, and run every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The cluster of network namespaces needs root and a kernel that allows them:
# say before the suite runs when its tests will skip, and why.
if ! why=$(scripts/cluster.sh can 2>&1); then
  echo "numacoll test: the cluster tests (ctest -L cluster) will skip: ${why#cluster.sh: }" >&2
fi
ctest --test-dir "${NUMACOLL_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" "$@"
