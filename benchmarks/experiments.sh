#!/usr/bin/env bash
# Throughput of the experiment commands, which run every simulation as its own process:
#   1. the fixed cost of one point (process start, scenario load, SimGrid set-up, results) on
#      a tiny scenario, as a sweep of 64 seeds, serial and with --jobs 2;
#   2. a 20-seed paired comparison of FIFO and EASY backfill on the default scenario
#      (Kalos, 3 days, about 5,400 jobs per run), with --jobs 2;
#   3. the capacity sweep shipped in sweeps/kalos-nodes-by-scheduler.yaml, with --jobs 2.
# Usage: benchmarks/experiments.sh [BUILD_DIR]   (default build-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/release-build.sh
acmesim="$ACMESIM"
timed() {
  local label=$1 count=$2
  shift 2
  local start end
  start=$(date +%s.%N)
  "$@" >"$out/stdout" 2>"$out/stderr" || { cat "$out/stderr"; exit 1; }
  end=$(date +%s.%N)
  awk -v l="$label" -v n="$count" -v s="$start" -v e="$end" \
    'BEGIN { printf "%-52s %4d runs in %6.2f s: %6.1f runs/s, %5.0f ms per run\n", l, n, e - s, n / (e - s), 1000 * (e - s) / n }'
}
printf 'seeds: 64\nscenario: %s/scenarios/swf-replay.yaml\n' "$PWD" >"$out/tiny.yaml"
timed "tiny scenario, 64 points, --jobs 1" 64 "$acmesim" sweep "$out/tiny.yaml" --jobs 1 --out "$out/tiny1" --quiet
timed "tiny scenario, 64 points, --jobs 2" 64 "$acmesim" sweep "$out/tiny.yaml" --jobs 2 --out "$out/tiny2" --quiet
timed "compare fifo vs easy-backfill, default, 20 seeds" 40 "$acmesim" compare --seeds 20 --jobs 2 --quiet \
  --out "$out/compare" --set scheduler.name=fifo --vs --set scheduler.name=easy-backfill
grep -E '^(makespan_s|wait_s.all.mean|utilisation.mean_gpu_busy) ' "$out/stdout"
timed "sweeps/kalos-nodes-by-scheduler.yaml" 24 "$acmesim" sweep sweeps/kalos-nodes-by-scheduler.yaml --jobs 2 \
  --out "$out/sweep" --quiet
