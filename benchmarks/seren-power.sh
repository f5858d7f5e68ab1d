#!/usr/bin/env bash
# The power validation table (docs/validation.md): replays six months (184 days) of the calibrated Seren
# workload (scenarios/seren-calibrated-week.yaml with workload.synthetic.days=184) for seeds 1-3 and
# prints the share of GPU-time not computing, the mean GPU power and the mean GPU-server power
# beside Acme's published figures (NSDI'24 Fig. 8 and 9; ../shared/reference/acme-facts.md §4).
# Each figure is given over the whole run (summary.json) and over the 184 days of submissions
# only (from utilisation.csv), since Acme's telemetry saw a busy cluster, not one draining after
# its last submission.
# Usage: benchmarks/seren-power.sh [BUILD_DIR] [--set key=value ...]
#        (default build-bench; needs python3; extra arguments go to `acmesim run`)
#        ACMESIM=path/to/acmesim benchmarks/seren-power.sh   (use that binary, build nothing)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/release-build.sh
for seed in 1 2 3; do
  "$ACMESIM" run scenarios/seren-calibrated-week.yaml --quiet --seed "$seed" --out "$out/$seed" \
    --set workload.synthetic.days=184 "$@" >/dev/null
done
python3 - "$out" <<'PY'
import csv, json, sys
out = sys.argv[1]
DAYS = 184
GPUS_PER_NODE = 8  # Seren
# Acme, Seren: GPU power <= 70 W in 30.2% of samples, mean 168.6 W; GPU servers 2,930 W (IPMI).
ACME = {"idle": 30.2, "gpu_w": 168.6, "server_w": 2930}

def window(run):
    """The figures over the submission window, from utilisation.csv and the run's own power per
    state (gpu_kwh over gpu_hours), so that this script repeats no part of the power model."""
    summary = json.load(open(f"{run}/summary.json"))
    power = summary["scenario"]["power"]
    watts = {s: 1000 * kwh / summary["gpu_hours"][s]
             for s, kwh in summary["energy"]["gpu_kwh"].items() if summary["gpu_hours"][s] > 0}
    gpu_j = busy_s = quiet_s = 0.0
    for row in csv.DictReader(open(f"{run}/utilisation.csv")):
        start, end = float(row["start_s"]), float(row["end_s"])
        if end > DAYS * 86400:
            break
        for s, w in watts.items():
            if s == "down":
                continue
            g = float(row[s]) * (end - start)
            gpu_j += g * w
            if w < power["gpu_busy_w"] - 0.5:  # kWh over hours rounds
                quiet_s += g
            else:
                busy_s += g
    in_service_gpu_s = busy_s + quiet_s
    node_s = in_service_gpu_s / GPUS_PER_NODE
    return {"idle": 100 * quiet_s / in_service_gpu_s, "gpu_w": gpu_j / in_service_gpu_s,
            "server_w": (gpu_j + node_s * power["node_base_w"]) / node_s}

rows = []
for seed in (1, 2, 3):
    e = json.load(open(f"{out}/{seed}/summary.json"))["energy"]
    whole = {"idle": 100 * e["idle_gpu_time_share"], "gpu_w": e["mean_gpu_w"], "server_w": e["mean_server_w"]}
    rows.append((whole, window(f"{out}/{seed}")))

def cell(key, which, digits):
    return " / ".join(f"{r[which][key]:,.{digits}f}" for r in rows)

def gap(key, digits):
    vals = [r[1][key] - ACME[key] for r in rows]
    return f"{min(vals):+,.{digits}f} to {max(vals):+,.{digits}f}"

print("| Seren, seeds 1 / 2 / 3 | Acme | whole run | first 184 days | gap (184 days) |")
print("|---|---:|---:|---:|---:|")
for key, label, digits in (("idle", "GPU-time not computing (%)", 1), ("gpu_w", "mean GPU power (W)", 1),
                           ("server_w", "mean GPU-server power (W)", 0)):
    print(f"| {label} | {ACME[key]:,} | {cell(key, 0, digits)} | {cell(key, 1, digits)} | {gap(key, digits)} |")
PY
