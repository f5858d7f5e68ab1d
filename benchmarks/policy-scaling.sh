#!/usr/bin/env bash
# How a scheduler's cost grows with its queue, for the policies whose passes once grew with the
# whole queue. First eval-decoupled (runtime packing) on scenarios/eval-7b-63-datasets.yaml (one
# Seren node) with ever larger models: a larger model cuts the same datasets into more trials, all
# queued at once. Prints, per model size: trials, replay seconds as the program logs them, trials
# per second of replay, whole-process seconds and peak RSS. Near-linear means trials per second
# stays within a small factor as the trials grow a hundredfold. Then conservative-backfill at its
# default depth on a day of the default scenario (Kalos, 302 nodes) under ever more load, with
# right estimates and with estimates twice the run time, and on scenarios/acme-eval-feedback.yaml:
# jobs, mean wait, replay, jobs per second of replay.
# Usage: benchmarks/policy-scaling.sh [BUILD_DIR]   (default build-bench; ACMESIM=... to reuse a binary)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/release-build.sh
# Runs acmesim on one core with the given arguments, results in $out/run, and sets `figures` to
# "JOBS | REPLAY s | JOBS PER SECOND | WHOLE s | RSS MB" from its log and /usr/bin/time.
run_figures() {
  on_one_core "$ACMESIM" run "$@" --out "$out/run" 2>"$out/log" >/dev/null
  local jobs replay wall rss rate
  read -r jobs replay < <(sed -n 's/.*replay: \([0-9]*\) jobs in \([0-9.]*\) s wall.*/\1 \2/p' "$out/log")
  read -r wall rss <"$out/time"
  rate=$(python3 -c "print(f'{$jobs / max($replay, 1e-9):,.0f}')")
  figures="$jobs | $replay s | $rate | $wall s | $((rss / 1024)) MB"
}
echo "| evaluation.model_params_b | trials | replay | trials per second of replay | whole process | peak RSS |"
echo "|---|---|---|---|---|---|"
for billions in 300 3000 10000 30000 100000; do
  run_figures scenarios/eval-7b-63-datasets.yaml --set evaluation.model_params_b=$billions
  echo "| $billions | $figures |"
done
echo
echo "| conservative-backfill on | jobs | replay | jobs per second of replay | whole process | peak RSS | mean GPU-job wait |"
echo "|---|---|---|---|---|---|---|"
conservative() {
  local label=$1
  shift
  run_figures "$@" --set scheduler.name=conservative-backfill
  wait=$(python3 -c "import json; print(f\"{json.load(open('$out/run/summary.json'))['wait_s']['all']['mean']:,.0f} s\")")
  echo "| $label | $figures | $wait |"
}
for load in 1 2 5 10 20 40; do
  conservative "default, 1 day, load_scale $load" --set workload.synthetic.days=1 --set workload.load_scale=$load
done
# Every estimate twice the run time: every job ends early, and each end compresses the plan.
for load in 5 10 20; do
  conservative "default, 1 day, load_scale $load, estimates x2" --set workload.synthetic.days=1 \
    --set workload.load_scale=$load --set workload.estimates=factor --set workload.estimate_factor=2
done
conservative "acme-eval-feedback, 2 days" scenarios/acme-eval-feedback.yaml --set workload.synthetic.days=2
