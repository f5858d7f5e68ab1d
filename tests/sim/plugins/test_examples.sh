#!/usr/bin/env bash
# The scheduler examples as a scheduler developer uses them: acmesim installed (`cmake --install`)
# into a temporary prefix, examples/cpp built out of tree against the installed package, then both
# examples (C++ plugin and Python policy) run through `acmesim compare` against easy-backfill on
# two days of the default scenario, two seeds. The C++ and the Python policy must give identical
# jobs.csv, and differ from easy-backfill.
# Usage: test_examples.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(readlink -f "$1")
source=$(readlink -f "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install"; }
acmesim="$tmp/prefix/bin/acmesim"
cmake -S "$source/examples/cpp" -B "$tmp/example" -DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log"; fail "configuring examples/cpp against the installed package"; }
cmake --build "$tmp/example" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "building examples/cpp"; }
plugin="$tmp/example/libsjf_easy.so"
[ -f "$plugin" ] || fail "no $plugin"

short=(--set workload.synthetic.days=2)
cd "$tmp"
"$acmesim" compare --seeds 2 --quiet --out cpp "${short[@]}" --set "scheduler={plugin: $plugin}" \
  --vs "${short[@]}" --set scheduler.name=easy-backfill >/dev/null || fail "compare of the C++ example"
"$acmesim" compare --seeds 2 --quiet --out python "${short[@]}" \
  --set "scheduler={python: $source/examples/python/sjf_easy.py, class: SjfEasy}" \
  --vs "${short[@]}" --set scheduler.name=easy-backfill >/dev/null || fail "compare of the Python example"
for seed in seed-1 seed-2; do
  cmp -s "cpp/runs/a/$seed/jobs.csv" "python/runs/a/$seed/jobs.csv" || fail "C++ and Python differ on $seed"
  cmp -s "cpp/runs/b/$seed/jobs.csv" "python/runs/b/$seed/jobs.csv" || fail "easy-backfill differs between the two compares on $seed"
  ! cmp -s "cpp/runs/a/$seed/jobs.csv" "cpp/runs/b/$seed/jobs.csv" || fail "sjf-easy scheduled exactly as easy-backfill on $seed"
done
grep -q '"metric": "wait_s.all.mean"' cpp/compare.json || fail "no wait_s.all.mean in compare.json"
echo "examples: C++ and Python sjf-easy identical on 2 seeds, both compared with easy-backfill"
