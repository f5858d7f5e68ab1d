#!/usr/bin/env bash
# Acme-scale replay benchmark: six months, both clusters (4,704 GPUs), about 890,000 jobs.
# Builds an optimised binary, then replays benchmarks/acme-6months.yaml under each scheduler
# on one core and prints wall time, jobs per second, simulated days per wall second and
# peak RSS. Usage: benchmarks/run.sh [BUILD_DIR]   (default build-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/release-build.sh
# The program logs the replay time alone (workload generation and result writing are timed
# separately); /usr/bin/time gives the whole process and its peak RSS.
run() {
  local label=$1
  shift
  echo "== $label"
  taskset -c 0 /usr/bin/time -f "whole process: %e s wall, peak RSS %M KB" \
    "$ACMESIM" run benchmarks/acme-6months.yaml --out "$out/run" "$@" \
    2>&1 >"$out/stdout" | sed -e 's/^\[[^]]*\] \[acmesim\] info: //'
  grep -E '^(jobs|makespan|wait|utilisation|failures|lost)' "$out/stdout"
}
run "easy-backfill" --set scheduler.name=easy-backfill
run "easy-backfill, network model off" --set scheduler.name=easy-backfill --set network.model=off
run "fifo" --set scheduler.name=fifo
run "multifactor, network model off" --set scheduler.name=multifactor --set network.model=off
run "quota, network model off" --set scheduler.name=quota --set network.model=off
run "conservative-backfill, network model off" --set scheduler.name=conservative-backfill --set network.model=off
run "las, network model off" --set scheduler.name=las --set network.model=off
# Failures (default model), checkpoints of every pretraining job and recovery: the cost of
# storage flows on the platform, failure handling and the scheduler's longer queues.
run "easy-backfill, failures + sync checkpoints, manual recovery" --set failures.model=acme \
  --set checkpoint.mode=sync --set recovery.name=manual
run "easy-backfill, failures + async checkpoints, auto recovery" --set failures.model=acme \
  --set checkpoint.mode=async --set recovery.name=auto
run "easy-backfill, failures + sync checkpoints, manual recovery, network model off" --set failures.model=acme \
  --set checkpoint.mode=sync --set recovery.name=manual --set network.model=off
# Stress: twice the pretraining and evaluation arrivals, far beyond capacity (queues of weeks):
# the cost of EASY's backfill scan over a long queue.
run "easy-backfill, overloaded" --set workload.synthetic.types.Pretrain.arrivals_per_hour=8 \
  --set workload.synthetic.types.Eval.arrivals_per_hour=140
