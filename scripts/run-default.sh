#!/usr/bin/env bash
# Installs what is missing, builds acmesim and runs it on the embedded default scenario
# (a Kalos-scale cluster, three days of a synthetic Acme-like workload).
# Extra arguments go to `acmesim run`, e.g. scripts/run-default.sh --set scheduler.name=fifo
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset plain >/dev/null # CMakePresets.json: the build scripts/test.sh uses too, in build/
cmake --build --preset plain --target acmesim -j"$(nproc)"
build/acmesim run "$@"
