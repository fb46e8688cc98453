#!/usr/bin/env bash
# README command 1: install what is missing, build the numacoll program (only
# it: scripts/test.sh builds the rest), and run the main job on the embedded
# default (this machine, and the allreduce tree DAG).
set -euo pipefail
cd "$(dirname "$0")/.."
NUMACOLL_BUILD_TARGETS=numacoll scripts/setup.sh
"${NUMACOLL_BUILD_DIR:-build}/cli/numacoll" demo "$@"
