#!/usr/bin/env bash
# Runs a small sweep through a real single-node Slurm (slurmctld, slurmd and a private munged,
# started here without systemd or cgroups, everything under one temporary directory) and
# checks that its results.csv and points.csv equal the local backend's byte for byte.
# Usage: test_slurm_sweep.sh ACMESIM_BINARY. Needs root and Debian's slurmctld, slurmd,
# slurm-client and munge packages (scripts/install-deps.sh --test installs them).
set -euo pipefail
acmesim=$(readlink -f "$1")
export PATH="$PATH:/usr/sbin:/sbin"
for tool in slurmctld slurmd sbatch squeue sinfo munged mungekey munge; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is not installed (scripts/install-deps.sh --test)"; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "FAIL: the Slurm fixture runs its daemons as root"; exit 1; }

tmp=$(mktemp -d)
chmod 755 "$tmp" # munged refuses a socket directory others cannot traverse
mkdir -m 755 "$tmp/munge"
mkdir "$tmp/state" "$tmp/spool" "$tmp/work"
pids=()
stop_fixture() {
  # slurmd first: without munged it ignores SIGTERM
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; wait "${pids[i]}" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap stop_fixture EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/*.log "$tmp"/munge/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }; done; exit 1; }

mungekey --create --keyfile="$tmp/munge/munge.key"
munged --foreground --socket="$tmp/munge/munge.sock" --key-file="$tmp/munge/munge.key" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed" \
  >/dev/null 2>&1 </dev/null &
pids+=($!)
for _ in $(seq 100); do [ -S "$tmp/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$tmp/munge/munge.sock" ] || fail "munged did not start"

# Two free loopback ports, so that concurrent CI jobs on one host do not meet.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ctld_port=""
for _ in $(seq 50); do
  p=$((20000 + RANDOM % 20000 * 2))
  if port_free "$p" && port_free $((p + 1)); then ctld_port=$p; break; fi
done
[ -n "$ctld_port" ] || fail "no free pair of ports"

hardware=$(slurmd -C | head -1 | sed 's/^NodeName=[^ ]* //')
cat >"$tmp/slurm.conf" <<CONF
ClusterName=acmesimtest
SlurmctldHost=localhost
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.sock
SlurmctldPort=$ctld_port
SlurmdPort=$((ctld_port + 1))
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$tmp/jobcomp.txt
MailProg=/bin/true
MpiDefault=none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=localhost $hardware State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 </dev/null &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 </dev/null &
pids+=($!)
for _ in $(seq 150); do [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break; sleep 0.2; done
[ "$(sinfo -h -o %t 2>/dev/null)" = idle ] || fail "the Slurm node did not become idle"

# Three policies x two seeds on one simulated day; the third policy does not exist, so its two
# points fail, on both backends, with the same error.
# The file name and the Slurm results directory have spaces: every path must reach sbatch whole.
cat >"$tmp/work/my sweep.yaml" <<'SWEEP'
set: {workload.synthetic.days: 1}
points:
  - {scheduler.name: fifo}
  - {scheduler.name: easy-backfill}
  - {scheduler.name: no-such-policy}
seeds: 2
slurm: {partition: debug, time_limit: "00:05:00", throttle: 2}
SWEEP
cd "$tmp/work"
set +e
"$acmesim" sweep "my sweep.yaml" --out "$tmp/local" --jobs 2 --quiet >"$tmp/local.out" 2>&1
local_rc=$?
"$acmesim" sweep "my sweep.yaml" --out "$tmp/slurm results" --backend slurm --quiet >"$tmp/slurm.out" 2>&1
slurm_rc=$?
set -e
cat "$tmp/slurm.out"
[ "$local_rc" = 1 ] || fail "local sweep exit code $local_rc, expected 1 (two points fail)"
[ "$slurm_rc" = 1 ] || fail "Slurm sweep exit code $slurm_rc, expected 1 (two points fail)"
grep -q "submitted Slurm array job" "$tmp/slurm.out" || fail "the sweep did not go through sbatch"
cmp "$tmp/local/results.csv" "$tmp/slurm results/results.csv" || fail "results.csv differs between the backends"
cmp "$tmp/local/points.csv" "$tmp/slurm results/points.csv" || fail "points.csv differs between the backends"
[ "$(grep -c ',finished,' "$tmp/slurm results/points.csv")" = 4 ] || fail "expected 4 finished points"
[ "$(grep -c ',failed,' "$tmp/slurm results/points.csv")" = 2 ] || fail "expected 2 failed points"
[ "$(wc -l <"$tmp/slurm results/results.csv")" -gt 4 ] || fail "results.csv has no metrics"
# Slurm itself ran the six array tasks: four completed, the two failed points' tasks exited 1.
[ "$(grep -c 'JobState=COMPLETED' "$tmp/jobcomp.txt")" = 4 ] || fail "Slurm did not complete 4 tasks"
[ "$(grep -c 'JobState=FAILED' "$tmp/jobcomp.txt")" = 2 ] || fail "Slurm did not record 2 failed tasks"
grep -q "Name=acmesim-my_sweep" "$tmp/jobcomp.txt" || fail "the array did not get the sweep's job name"
echo "ok: the Slurm sweep's results.csv ($(wc -l <"$tmp/slurm results/results.csv") lines) equals the local one"
