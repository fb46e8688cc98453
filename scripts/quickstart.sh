#!/usr/bin/env bash
# README command 1: install what is missing, build, and run the main job on the
# embedded default (the bundled Westmere machine and its allreduce tree DAG).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
"${NUMACOLL_BUILD_DIR:-build}/cli/numacoll" demo "$@"
