#!/usr/bin/env bash
# The network table of docs/network.md: scenarios/network-what-if.yaml (a month of the calibrated Kalos
# workload) as written and under each what-if, and Seren's shared NIC under synchronous and
# asynchronous checkpoints (scenarios/seren-calibrated-week.yaml with pretraining checkpoints every
# 30 minutes), two runs at a time. Per variant: mean and p95 JCT of pretraining jobs of 64 GPUs or
# more (from jobs.csv), their mean slowdown, GPU-hours lost to communication, the nodes' NICs idle
# and above a quarter of their bandwidth in 15 s samples, and the busiest link direction.
# Usage: benchmarks/network-what-if.sh [BUILD_DIR]   (default build-bench; needs python3)
#        ACMESIM=path/to/acmesim benchmarks/network-what-if.sh   (use that binary, build nothing)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z "${ACMESIM:-}" ]]; then
  build=${1:-build-bench}
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DACMESIM_TESTS=OFF >/dev/null
  cmake --build "$build" --target acmesim -j"$(nproc)" >/dev/null
  ACMESIM="$PWD/$build/acmesim"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
kalos=scenarios/network-what-if.yaml
seren="scenarios/seren-calibrated-week.yaml --set checkpoint.job_types=[Pretrain,SFT,MLLM] --set checkpoint.interval_s=1800"
variants=(
  "kalos as written|$kalos"
  "kalos 2 NICs|$kalos --set cluster.compute_nics=2"
  "kalos 1 NIC|$kalos --set cluster.compute_nics=1"
  "kalos oversubscription 2:1|$kalos --set cluster.fabric.oversubscription=2"
  "kalos oversubscription 4:1|$kalos --set cluster.fabric.oversubscription=4"
  "kalos spread|$kalos --set scheduler.placement=spread"
  "kalos random|$kalos --set scheduler.placement=random"
  "kalos spread, 4:1|$kalos --set scheduler.placement=spread --set cluster.fabric.oversubscription=4"
  "kalos spread, 4:1, nothing hidden|$kalos --set scheduler.placement=spread --set cluster.fabric.oversubscription=4 --set network.dp_overlap=0"
  "kalos spread, 4:1, nothing hidden, aligned phases|$kalos --set scheduler.placement=spread --set cluster.fabric.oversubscription=4 --set network.dp_overlap=0 --set network.phases=aligned"
  "kalos spread, 4:1, nothing hidden, interleaved phases|$kalos --set scheduler.placement=spread --set cluster.fabric.oversubscription=4 --set network.dp_overlap=0 --set network.phases=interleaved"
  "kalos spread, 4:1, ZeRO-3|$kalos --set scheduler.placement=spread --set cluster.fabric.oversubscription=4 --set network.data_parallel=zero"
  "kalos spread, 4:1, experts (EP 8)|$kalos --set scheduler.placement=spread --set cluster.fabric.oversubscription=4 --set network.expert_parallel=8"
  "kalos ECMP|$kalos --set cluster.fabric.routing=ecmp"
  "kalos spread, ECMP|$kalos --set scheduler.placement=spread --set cluster.fabric.routing=ecmp"
  "kalos spread, ECMP, rail-optimised|$kalos --set scheduler.placement=spread --set cluster.fabric.routing=ecmp --set cluster.fabric.wiring=rail"
  "kalos network off|$kalos --set network.model=off"
  "seren sync checkpoints|$seren --set checkpoint.mode=sync"
  "seren async checkpoints|$seren --set checkpoint.mode=async"
  "seren async, ECMP|$seren --set checkpoint.mode=async --set cluster.fabric.routing=ecmp"
  "seren async, network off|$seren --set checkpoint.mode=async --set network.model=off"
  "seren with 4 NICs (timed on 1)|$seren --set cluster.compute_nics=4 --set cluster.fabric.spine_radix=64 --set network.reference.seren.compute_nics=1"
  "seren experts (EP 8)|$seren --set network.expert_parallel=8"
  "seren experts with 4 NICs (timed on 1)|$seren --set network.expert_parallel=8 --set cluster.compute_nics=4 --set cluster.fabric.spine_radix=64 --set network.reference.seren.compute_nics=1"
)
run() {
  local i=$1
  shift
  "$ACMESIM" run "$@" -o "$out/$i" --quiet >"$out/$i.log" 2>&1 || { cat "$out/$i.log" >&2; return 1; }
}
pids=()
for i in "${!variants[@]}"; do
  read -ra args <<<"${variants[$i]#*|}"
  while (($(jobs -rp | wc -l) >= 2)); do wait -n; done
  run "$i" "${args[@]}" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
python3 - "$out" "${variants[@]}" <<'PY'
import csv, json, sys
out, variants = sys.argv[1], [v.split("|")[0] for v in sys.argv[2:]]

def nearest_rank(values, p):
    values = sorted(values)
    return values[max(0, -(-len(values) * p // 100) - 1)] if values else float("nan")

print("| variant | ≥64-GPU pretraining jobs | JCT mean / p95 (h) | their mean slowdown | communication GPU-h "
      "| NICs idle / above 25% (15 s samples) | busiest link direction (mean use) |")
print("|---|---|---|---|---|---|---|")
for i, name in enumerate(variants):
    jct, slow = [], []
    with open(f"{out}/{i}/jobs.csv") as f:
        for row in csv.DictReader(f):
            if row["type"] == "Pretrain" and int(row["gpus"]) >= 64 and row["state"] != "REJECTED":
                jct.append(float(row["jct_s"]) / 3600)
                slow.append(float(row.get("slowdown") or 1))
    net = json.load(open(f"{out}/{i}/summary.json")).get("network")
    cells = [str(len(jct)), f"{sum(jct) / len(jct):.2f} / {nearest_rank(jct, 95):.2f}" if jct else "–"]
    if net:
        nic = net["nic_utilisation"]
        top = net["busiest_links"][0] if net["busiest_links"] else None
        cells += [f"{sum(slow) / len(slow):.3f}" if slow else "–", f"{net['communication_gpu_hours']:.0f}",
                  f"{100 * nic['idle_share']:.1f}% / {100 * nic['above_quarter_share']:.1f}%",
                  f"`{top['link']}` ({100 * top['mean_utilisation']:.1f}%)" if top else "–"]
    else:
        cells += ["–"] * 4
    print(f"| {name} | " + " | ".join(cells) + " |")
PY
