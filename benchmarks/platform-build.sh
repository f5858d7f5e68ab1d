#!/usr/bin/env bash
# What building a platform of 100,000 and of 1,000,000 GPUs costs: DGX H100 nodes (the dgx-h100
# preset, rail-optimised), 12,500 and 125,000 of them, with pooled and with ecmp routing, each
# built by a run of the default workload cut to its first 86 seconds (a handful of jobs), network
# model on, one core. Prints the whole process's seconds and peak memory: what the scenario check's
# estimate of a platform's memory (sim/config/ClusterSection.cpp, check_platform_size) must stay
# above (docs/hardware.md).
# Two tiers of 64-port switches hold 2,048 such nodes; until the fabric has a third tier the
# spines here are director-class (4,096 ports), an assumption that changes no route's length.
# Usage: benchmarks/platform-build.sh [BUILD_DIR]   (default build-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/release-build.sh

printf '%-10s %-9s %-7s %10s %12s\n' GPUs nodes routing seconds "peak MB"
for nodes in 12500 125000; do
  for routing in pooled ecmp; do
    cluster="cluster={preset: dgx-h100, nodes: $nodes, fabric: {spine_radix: 4096, routing: $routing}}"
    on_one_core "$ACMESIM" run --set "$cluster" --set workload.synthetic.days=0.001 --out "$out/run" --quiet >/dev/null
    read -r seconds kb <"$out/time"
    printf '%-10s %-9s %-7s %10s %12s\n' $((nodes * 8)) "$nodes" "$routing" "$seconds" $((kb / 1024))
  done
done
