#!/usr/bin/env bash
# What building a platform of 100,000 and of 1,000,000 GPUs costs: DGX H100 nodes (the dgx-h100
# preset, rail-optimised), 12,500 and 125,000 of them, with pooled and with ecmp routing, each
# built by a run of the default workload cut to its first 86 seconds (a handful of jobs), network
# model on, one core. Prints the whole process's seconds and peak memory beside the memory the
# scenario check estimates for the platform (sim/config/ClusterSection.cpp, check_platform_size),
# which refuses platforms estimated above 16 GB.
# Two tiers of 64-port switches hold 2,048 such nodes; until the fabric has a third tier the
# spines here are director-class (4,096 ports), an assumption that changes no route's length.
# Usage: benchmarks/platform-build.sh [BUILD_DIR]   (default build-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/release-build.sh

printf '%-10s %-9s %-7s %10s %12s %14s\n' GPUs nodes routing seconds "peak MB" "estimate MB"
for nodes in 12500 125000; do
  for routing in pooled ecmp; do
    cluster="cluster={preset: dgx-h100, nodes: $nodes, fabric: {spine_radix: 4096, routing: $routing}}"
    on_one_core "$ACMESIM" run --set "$cluster" --set workload.synthetic.days=0.001 --out "$out/run" --quiet >/dev/null
    read -r seconds kb <"$out/time"
    # The check's estimate: 10 KB a node, and under ecmp 12 KB more and 2 KB per flow endpoint
    # (8 compute NICs, one flow each).
    estimate=$(awk -v n="$nodes" -v r="$routing" 'BEGIN { b = 10e3; if (r == "ecmp") b += 12e3 + 2e3 * 8; printf "%.0f", n * b / 1e6 }')
    printf '%-10s %-9s %-7s %10s %12s %14s\n' $((nodes * 8)) "$nodes" "$routing" "$seconds" $((kb / 1024)) "$estimate"
  done
done
