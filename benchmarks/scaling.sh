#!/usr/bin/env bash
# How acmesim's cost grows with the number of jobs and with the size of the cluster, on the
# workload of benchmarks/acme-6months.yaml (easy-backfill, network model on), one core:
# - jobs: the same cluster (Acme, 4,704 GPUs) over longer windows, for about 1, 2 and 4 million jobs;
# - cluster: Acme's two pods scaled to 4,704, 16,384 and 65,536 GPUs (nodes split between them as
#   Acme's are), every arrival rate scaled with the GPUs so the load stays the same, 30 days; and the
#   same with the network model off, which separates our own cost from SimGrid's.
# Prints one line per run and the fitted growth exponents; writes the figures to
# benchmarks/scaling.csv and the plot to benchmarks/scaling.svg.
# Usage: benchmarks/scaling.sh [BUILD_DIR]   (default build-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/release-build.sh

scenario=benchmarks/acme-6months.yaml
csv=benchmarks/scaling.csv
# The scenario's arrival rates, per hour (benchmarks/acme-6months.yaml).
declare -A rate=([Pretrain]=4 [Eval]=70 [SFT]=16 [MLLM]=3.2 [Debug]=2 [Other]=108)

# One run: prints "jobs seconds megabytes" of the whole process.
measure() {
  taskset -c 0 /usr/bin/time -f "%e %M" -o "$out/time" "$ACMESIM" run "$scenario" --out "$out/run" "$@" \
    >"$out/stdout" 2>/dev/null
  local jobs
  jobs=$(awk '$1 == "jobs" { print $2; exit }' "$out/stdout")
  read -r seconds kb <"$out/time"
  echo "$jobs $seconds $((kb / 1024))"
}

echo "series,gpus,days,jobs,seconds,peak_rss_mb" >"$csv.tmp"
for days in 205 410 821; do # about 1, 2 and 4 million jobs
  read -r jobs seconds mb < <(measure --set workload.synthetic.days=$days)
  echo "jobs: 4704 GPUs, $days days: $jobs jobs in $seconds s, $mb MB"
  echo "jobs,4704,$days,$jobs,$seconds,$mb" >>"$csv.tmp"
done
for nodes in 588 2048 8192; do
  seren=$(((nodes * 286 + 294) / 588)) # Acme's split: 286 Seren nodes to 302 Kalos nodes
  kalos=$((nodes - seren))
  scale=$(awk -v n="$nodes" 'BEGIN { print n / 588 }')
  args=(--set workload.synthetic.days=30
    --set "cluster={pods: [{preset: seren, nodes: $seren, fabric: {spine_radix: 0}}, {preset: kalos, nodes: $kalos, fabric: {spine_radix: 0}}], storage: {bandwidth_GBps: $((nodes))}}")
  for type in "${!rate[@]}"; do
    args+=(--set "workload.synthetic.types.$type.arrivals_per_hour=$(awk -v r="${rate[$type]}" -v s="$scale" 'BEGIN { print r * s }')")
  done
  read -r jobs seconds mb < <(measure "${args[@]}")
  echo "cluster: $((nodes * 8)) GPUs, 30 days: $jobs jobs in $seconds s, $mb MB"
  echo "cluster,$((nodes * 8)),30,$jobs,$seconds,$mb" >>"$csv.tmp"
  read -r jobs seconds mb < <(measure "${args[@]}" --set network.model=off)
  echo "cluster, network model off: $((nodes * 8)) GPUs, 30 days: $jobs jobs in $seconds s, $mb MB"
  echo "cluster-network-off,$((nodes * 8)),30,$jobs,$seconds,$mb" >>"$csv.tmp"
done
mv "$csv.tmp" "$csv"
/usr/bin/python3 benchmarks/plot_scaling.py "$csv" benchmarks/scaling.svg
