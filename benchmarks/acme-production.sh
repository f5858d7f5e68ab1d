#!/usr/bin/env bash
# The validation table of Acme's production scheduling (docs/validation.md): runs scenarios/acme-production.yaml
# (six months of both Acme clusters under quota, each cluster with its own scheduler), then reads
# the run's jobs.csv back with `acmesim workload stats --against <cluster> --cluster <cluster>` and
# prints, per cluster, the median and mean GPU-job wait, the type that waits longest, and the
# queueing-delay CDF of every job type at the points of NSDI'24 Fig. 6b/d next to Acme's.
# Usage: benchmarks/acme-production.sh [BUILD_DIR] [--set key=value ...]
#        (default build-bench; needs python3; extra arguments go to `acmesim run`)
#        ACMESIM=path/to/acmesim benchmarks/acme-production.sh   (use that binary, build nothing)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/release-build.sh
start=$(date +%s%N)
"$ACMESIM" run scenarios/acme-production.yaml --quiet --out "$out/run" "$@" >/dev/null
echo "run: $(( ($(date +%s%N) - start) / 1000000 )) ms"
for cluster in seren kalos; do
  "$ACMESIM" workload stats "$out/run/jobs.csv" --json --against "$cluster" --cluster "$cluster" >"$out/$cluster.json"
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]

def fmt(v):
    return "–" if v is None else (f"{v:,.0f}" if abs(v) >= 100 else f"{v:.1f}")

stats = {c: json.load(open(f"{out}/{c}.json")) for c in ("seren", "kalos")}
print("\n| | Seren: Acme | Seren: simulated | Kalos: Acme | Kalos: simulated |")
print("|---|---:|---:|---:|---:|")
rows = {}
for c, s in stats.items():
    for v in s["against"]["summary"]:
        rows.setdefault(v["key"], {})[c] = v
for key, label in (("med_que_time_gpu", "median GPU-job wait (s)"), ("avg_que_time_gpu", "mean GPU-job wait (s)")):
    cells = []
    for c in ("seren", "kalos"):
        v = rows[key][c]
        cells += [fmt(v["published"]), f"{fmt(v['trace'])} ({v['ratio']:.2f}x)" if v["ratio"] else fmt(v["trace"])]
    print(f"| {label} | " + " | ".join(cells) + " |")
# The type that waits longest: by p90 of the wait (Acme's Fig. 6 curves, read at 90%).
cells = []
for c, s in stats.items():
    published = {}
    for q in s["against"]["queue_cdfs"]:
        below = [p["x"] for p in q["points"] if p["published"] >= 90]
        published[q["type"]] = below[0] if below else float("inf")
    simulated = {t: g["wait_s"]["p90"] for t, g in s["types"].items() if "wait_s" in g}
    top_p = max(published, key=published.get)
    top_s = max(simulated, key=simulated.get)
    cells += [f"{top_p} (p90 ≤ {published[top_p]:,.0f} s)", f"{top_s} (p90 {simulated[top_s]:,.0f} s)"]
print("| type waiting longest (p90 wait) | " + " | ".join(cells) + " |")
cells = []
for c, s in stats.items():
    cells += ["", f"{s['against']['max_queue_gap_points']:.1f} points"]
print("| largest gap of a queueing-delay CDF point | " + " | ".join(cells) + " |")

for c, s in stats.items():
    curves = s["against"]["queue_cdfs"]
    print(f"\n{c.capitalize()}: % of GPU jobs that waited at most x s, simulated / Acme (Fig. 6{'b' if c == 'seren' else 'd'})\n")
    print("| x (s) | " + " | ".join(q["type"] for q in curves) + " |")
    print("|---:|" + "---:|" * len(curves))
    for i, p in enumerate(curves[0]["points"]):
        cells = []
        for q in curves:
            pt = q["points"][i]
            cells.append(f"{pt['trace']:.1f} / {pt['published']:.1f}")
        print(f"| {p['x']:,.0f} | " + " | ".join(cells) + " |")
PY
