#!/usr/bin/env bash
# The cost of a scheduler's decisions through each path: built in, a C++ plugin, a Python policy.
# Builds an optimised acmesim, installs it into a temporary prefix, builds examples/cpp against
# it, then runs the default scenario and the six-month benchmark (benchmarks/acme-6months.yaml,
# network model off) under easy-backfill (built in) and under shortest-job-first with EASY
# reservations as a C++ plugin and as a Python policy (examples/; the two decide identically).
# Prints, per run: replay time as the program logs it, whole-process time and peak RSS, scheduler
# calls, calls per second of replay, and the Python policy's cost per call beyond the C++ one.
# Usage: benchmarks/plugins.sh [BUILD_DIR]   (default build-bench; pinned to one core)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/release-build.sh
cmake --install "$build" --prefix "$out/prefix" >/dev/null
cmake -S examples/cpp -B "$out/example" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$out/prefix" >/dev/null
cmake --build "$out/example" >/dev/null
acmesim="$out/prefix/bin/acmesim"
paths=(
  "built-in easy-backfill|scheduler.name=easy-backfill"
  "C++ plugin sjf-easy|scheduler={plugin: $out/example/libsjf_easy.so}"
  "Python sjf-easy|scheduler={python: $PWD/examples/python/sjf_easy.py, class: SjfEasy}"
)
echo "| workload | path | replay | whole process | peak RSS | scheduler calls | calls per second of replay |"
echo "|---|---|---|---|---|---|---|"
for workload in "default|" "acme-6months|benchmarks/acme-6months.yaml"; do
  name=${workload%%|*}
  scenario=${workload#*|}
  declare -A replay=()
  calls=0
  for path in "${paths[@]}"; do
    label=${path%%|*}
    taskset -c 0 /usr/bin/time -f "%e %M" -o "$out/time" "$acmesim" run $scenario --set network.model=off \
      --set "${path#*|}" --out "$out/run" 2>"$out/log" >/dev/null
    replay[$label]=$(sed -n 's/.*replay: [0-9]* jobs in \([0-9.]*\) s wall.*/\1/p' "$out/log")
    read -r wall rss <"$out/time"
    calls=$(python3 -c "import json; print(json.load(open('$out/run/summary.json'))['engine']['scheduler_calls'])")
    rate=$(python3 -c "print(f'{$calls / ${replay[$label]}:,.0f}')")
    echo "| $name | $label | ${replay[$label]} s | $wall s | $((rss / 1024)) MB | $calls | $rate |"
  done
  python3 -c "print(f'Python beyond C++ on $name: {1e6 * (${replay[Python sjf-easy]} - ${replay[C++ plugin sjf-easy]}) / $calls:.1f} us per call')"
done
