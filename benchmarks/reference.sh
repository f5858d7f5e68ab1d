#!/usr/bin/env bash
# acmesim side by side with the reference replay (benchmarks/reference/fifo_replay.cpp): six
# months of a generated Acme trace on both clusters, replayed by each, whole process, on one
# core. Checks first that the two schedule alike (same start, end and nodes for every job), and
# that the reference with --whole-rows writes acmesim's jobs.csv byte for byte; then times them
# in turns and prints the median of the runs with the ratio to each form of the reference.
# Usage: benchmarks/reference.sh [BUILD_DIR] [--runs N]   (default build-bench, 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/release-build.sh
runs=3
if [[ "${1:-}" == --runs ]]; then
  runs=$2
fi
cmake --build "$build" --target fifo_replay -j"$(nproc)" >/dev/null
REFERENCE="$PWD/$build/benchmarks/fifo_replay"

trace=$out/acme-183d.csv
"$ACMESIM" workload generate --preset acme --days 183 --seed 1 -o "$trace" >/dev/null
echo "trace: $(($(wc -l <"$trace") - 1)) jobs, $(du -m "$trace" | cut -f1) MB"

# Seconds and peak KB of one whole process, pinned to one core.
measure() {
  on_one_core "$@" >/dev/null 2>&1
  cat "$out/time"
}
reference() { measure "$REFERENCE" "$trace" "$out/reference.csv" "$@"; }
acmesim() {
  measure "$ACMESIM" run benchmarks/acme-trace.yaml --set workload.trace="$trace" --out "$out/run" \
    --set scheduler.name="$1" "${@:2}"
}

# The same work: jobs.csv's job_id, start_s, end_s and node_list against the reference's.
reference >/dev/null
acmesim fifo >/dev/null
if cmp -s <(cut -d, -f1,8,9,15 "$out/run/jobs.csv") <(cut -d, -f1,4,5,7 "$out/reference.csv"); then
  echo "fifo: every job starts, ends and runs on the same nodes in both"
else
  echo "fifo: the schedules differ" >&2
  exit 1
fi
reference --whole-rows >/dev/null
if cmp -s "$out/run/jobs.csv" "$out/reference.csv"; then
  echo "fifo: the reference with --whole-rows writes the same jobs.csv, byte for byte"
else
  echo "fifo: the reference's whole rows differ from acmesim's jobs.csv" >&2
  exit 1
fi

declare -A seconds kilobytes
labels=(reference "reference, whole rows" fifo easy-backfill "fifo, network model on" "easy-backfill, network model on")
for ((i = 0; i < runs; i++)); do
  for label in "${labels[@]}"; do
    case $label in
      reference) result=$(reference) ;;
      "reference, whole rows") result=$(reference --whole-rows) ;;
      "fifo, network model on") result=$(acmesim fifo --set network.model=flows) ;;
      "easy-backfill, network model on") result=$(acmesim easy-backfill --set network.model=flows) ;;
      *) result=$(acmesim "$label") ;;
    esac
    seconds[$label]+="${result% *} "
    kilobytes[$label]+="${result#* } "
  done
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
base=$(median <<<"${seconds[reference]}")
whole=$(median <<<"${seconds["reference, whole rows"]}")
ratio() { awk -v s="$1" -v b="$2" 'BEGIN { print s / b }'; }
printf '%-34s %10s %8s %15s %12s\n' "replay (whole process, $runs runs)" "median s" "x ref" "x whole rows" "peak RSS MB"
for label in "${labels[@]}"; do
  s=$(median <<<"${seconds[$label]}")
  kb=$(tr ' ' '\n' <<<"${kilobytes[$label]}" | grep . | sort -g | tail -1)
  printf '%-34s %10.2f %8.2f %15.2f %12d\n' "$label" "$s" "$(ratio "$s" "$base")" "$(ratio "$s" "$whole")" $((kb / 1024))
done
