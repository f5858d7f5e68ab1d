#!/usr/bin/env bash
# Recorded against simulated waits on public logs of the Parallel Workloads Archive
# (docs/swf-validation.md): each log replayed on its own machine under easy-backfill (with the
# estimates the log gives: requested times where it records them) and the scheduler nearest to the
# one its site ran, then `acmesim workload stats --recorded-vs-simulated`. Prints one row per run:
# recorded and simulated mean and median wait, their ratio, the CDF gap, the run's seconds.
# The logs are not shipped: LOG_DIR must hold them, byte for byte as the archive publishes them
# (their SHA-256 is checked; docs/swf-validation.md says where each was fetched from).
# Usage: benchmarks/swf-validation.sh LOG_DIR [BUILD_DIR]
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 LOG_DIR [BUILD_DIR]" >&2; exit 2; }
logs=$(realpath "$1")
shift
cd "$(dirname "$0")/.."
source benchmarks/release-build.sh

# OSC's 57 nodes of 4 and 2 processors, as 178 one-processor nodes (docs/swf-validation.md).
osc="{nodes: 178, gpus_per_node: 1, processors: cpu}"
# log file, SHA-256, the site's scheduler as acmesim names its nearest built-in, cluster (or "header")
runs=(
  "KTH-SP2-1996-2.1-cln.swf.gz 3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b easy-backfill header"
  "LANL-CM5-1994-4.1-cln.swf.gz 71ff3dfa301b3ee1bd30ebc63c5363b5e8ec488e75f1f9398aa46d485ef23c3c fifo header"
  "SDSC-Par-1996-3.1-cln.swf fcb46fa6462b7ac460963025749f604f28b2e813101edd082a720842e80a7aa8 fifo header"
  "OSC-Clust-2000-3.1-cln.swf 0ed54b81ccb10b11fbead557af8a37dd135e07e27756f1016c80ebceb7c8f79a easy-backfill $osc"
)

echo "log scheduler estimates jobs rec_mean_s sim_mean_s sim/rec rec_median_s sim_median_s cdf_gap seconds"
for entry in "${runs[@]}"; do
  read -r log sum site cluster <<<"$entry"
  echo "$sum  $logs/$log" | sha256sum --check --quiet
  name=${log%%-cln*}
  {
    echo "name: $name"
    echo "workload: {trace: $logs/$log, on_unknown: drop}"
    [[ "$cluster" == header ]] || echo "cluster: $cluster"
    echo "network: {model: off}"
  } >"$out/$name.yaml"
  variants=("easy-backfill default" "easy-backfill actual")
  [[ "$site" == easy-backfill ]] || variants+=("$site default")
  for variant in "${variants[@]}"; do
    read -r scheduler estimates <<<"$variant"
    set_estimates=()
    [[ "$estimates" == default ]] || set_estimates=(--set "workload.estimates=$estimates")
    dir="$out/$name-$scheduler-$estimates"
    on_one_core "$ACMESIM" run "$out/$name.yaml" --quiet --set "scheduler.name=$scheduler" "${set_estimates[@]}" \
      --out "$dir" >/dev/null
    read -r seconds _ <"$out/time"
    "$ACMESIM" workload stats --json --recorded-vs-simulated "$dir" >"$out/rvs.json"
    /usr/bin/python3 - "$name" "$scheduler" "$dir/summary.json" "$out/rvs.json" "$seconds" <<'PY'
import json, sys
name, scheduler, summary, rvs, seconds = sys.argv[1:]
estimates = json.load(open(summary))["scenario"]["workload"]["estimates"]
r = json.load(open(rvs))["compared"]
rec, sim = r["wait_s"]["recorded"], r["wait_s"]["simulated"]
print(name, scheduler, estimates, r["jobs"], f"{rec['mean']:.0f}", f"{sim['mean']:.0f}",
      f"{sim['mean'] / rec['mean']:.2f}", f"{rec['median']:.0f}", f"{sim['median']:.0f}",
      f"{r['wait_cdf_gap']:.3f}", seconds)
PY
  done
done
