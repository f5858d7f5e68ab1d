#!/usr/bin/env bash
# How acmesim's cost grows with the number of jobs and with the size of the cluster, on the
# workload of benchmarks/acme-6months.yaml (easy-backfill, network model on), one core:
# - jobs: the same cluster (Acme, 4,704 GPUs) over longer windows, for about 1, 2, 4 and 5 million jobs;
# - cluster: Acme's two pods scaled to 4,704, 8,192, 16,384, 32,768, 65,536 and 100,000 GPUs, 588 to 12,500
#   nodes (benchmarks/scale_scenario.py: nodes split as Acme's are, storage and every arrival rate
#   scaled with the GPUs so the load per GPU stays the same), 30 days; and the same with the
#   network model off, which gives the network model's own cost at each size.
# Prints one line per run and the fitted growth exponents; writes the figures to
# benchmarks/scaling.csv and the plot to benchmarks/scaling.svg.
# Usage: benchmarks/scaling.sh [BUILD_DIR]   (default build-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/release-build.sh

scenario=benchmarks/acme-6months.yaml
csv=benchmarks/scaling.csv

# One run: prints "jobs seconds megabytes" of the whole process.
measure() {
  on_one_core "$ACMESIM" run "$scenario" --out "$out/run" "$@" >"$out/stdout" 2>/dev/null
  local jobs
  jobs=$(awk '$1 == "jobs" { print $2; exit }' "$out/stdout")
  read -r seconds kb <"$out/time"
  echo "$jobs $seconds $((kb / 1024))"
}

# The scenario as acmesim reads it (summary.json echoes it): what scale_scenario.py scales.
"$ACMESIM" run "$scenario" --set workload.synthetic.days=0.001 --set network.model=off --out "$out/echo" --quiet >/dev/null
gpus=$(/usr/bin/python3 benchmarks/scale_scenario.py "$out/echo/summary.json")

echo "series,gpus,days,jobs,seconds,peak_rss_mb" >"$csv.tmp"
for days in 205 410 821 1026; do # about 1, 2, 4 and 5 million jobs
  read -r jobs seconds mb < <(measure --set workload.synthetic.days=$days)
  echo "jobs: $gpus GPUs, $days days: $jobs jobs in $seconds s, $mb MB"
  echo "jobs,$gpus,$days,$jobs,$seconds,$mb" >>"$csv.tmp"
done
for target in "$gpus" 8192 16384 32768 65536 100000; do
  mapfile -t args < <(/usr/bin/python3 benchmarks/scale_scenario.py "$out/echo/summary.json" "$target")
  args+=(--set workload.synthetic.days=30)
  read -r jobs seconds mb < <(measure "${args[@]}")
  echo "cluster: $target GPUs, 30 days: $jobs jobs in $seconds s, $mb MB"
  echo "cluster,$target,30,$jobs,$seconds,$mb" >>"$csv.tmp"
  read -r jobs seconds mb < <(measure "${args[@]}" --set network.model=off)
  echo "cluster, network model off: $target GPUs, 30 days: $jobs jobs in $seconds s, $mb MB"
  echo "cluster-network-off,$target,30,$jobs,$seconds,$mb" >>"$csv.tmp"
done
mv "$csv.tmp" "$csv"
/usr/bin/python3 benchmarks/plot_scaling.py "$csv" benchmarks/scaling.svg
