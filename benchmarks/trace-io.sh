#!/usr/bin/env bash
# Trace input/output at a million rows: generating six months of Seren (about a million jobs,
# written as an Acme CSV), reading it back with `workload stats --against seren`, and the
# readers' million-job checks for SWF, Helios and Philly (hidden perf tests of the suite).
# Usage: benchmarks/trace-io.sh [BUILD_DIR]   (default build-bench-io)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-bench-io}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DACMESIM_TESTS=ON >/dev/null
cmake --build "$build" --target acmesim models_traces -j"$(nproc)" >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== workload generate --preset seren --days 183"
/usr/bin/time -f "%e s wall, peak RSS %M KB" "$build/acmesim" workload generate --preset seren --days 183 --seed 1 \
  -o "$out/seren.csv"
ls -l "$out/seren.csv" | awk '{print $5 " bytes"}'
echo "== workload stats --against seren on it"
/usr/bin/time -f "%e s wall, peak RSS %M KB" "$build/acmesim" workload stats "$out/seren.csv" --against seren \
  | grep -E "^largest CDF gap"
echo "== readers, a million jobs each (Acme, SWF, Helios, Philly)"
"$build/tests/models_traces" "[perf]" 2>&1 | grep -E "read in|passed|failed" || true
