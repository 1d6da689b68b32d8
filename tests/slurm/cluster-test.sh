#!/usr/bin/env bash
# A one-node Slurm cluster (munge, slurmctld, slurmd) in a temporary
# directory, started here and stopped on exit: gpucompat as the node's
# HealthCheckProgram drains the node on a broken fixture root (the reason
# names the finding code) and resumes it on a healthy one; then fleet
# collects the node's card through srun.
# Usage: cluster-test.sh GPUCOMPAT_BIN REPO_ROOT. Exit 77: skipped (said why).
set -euo pipefail
bin=$(readlink -f "$1")
repo=$(readlink -f "$2")

for t in munged slurmctld slurmd scontrol srun sinfo; do
  if ! command -v "$t" >/dev/null 2>&1; then
    echo "SKIPPED: $t is not installed (apt-get install slurm-wlm munge)" >&2
    exit 77
  fi
done
if [ "$(id -u)" != 0 ]; then
  echo "SKIPPED: the Slurm daemons of this test run as root" >&2
  exit 77
fi

work=$(mktemp -d /tmp/gpucompat-slurm.XXXXXX)
stop() {
  for p in slurmd slurmctld munged; do
    if [ -s "$work/$p.pid" ]; then
      kill "$(cat "$work/$p.pid")" 2>/dev/null || true
    fi
  done
  sleep 1
  for p in slurmd slurmctld munged; do
    if [ -s "$work/$p.pid" ]; then
      kill -9 "$(cat "$work/$p.pid")" 2>/dev/null || true
    fi
  done
  if [ "${KEEP:-}" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap stop EXIT
fail() {
  echo "FAIL: $*" >&2
  for l in slurmctld.log slurmd.log healthcheck.log; do
    [ -f "$work/$l" ] && { echo "--- $l" >&2; tail -n 30 "$work/$l" >&2; }
  done
  exit 1
}
# wait_for SECONDS CMD...: poll until CMD succeeds.
wait_for() {
  local deadline=$((SECONDS + $1)); shift
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.5
  done
}

host=$(hostname -s)
mkdir -m 700 "$work/munge" "$work/state" "$work/spool"
head -c 1024 /dev/urandom >"$work/munge.key"
chmod 400 "$work/munge.key"
munged --force -S "$work/munge/socket" --key-file="$work/munge.key" \
  --log-file="$work/munged.log" --pid-file="$work/munged.pid" --seed-file="$work/munged.seed" \
  || fail "munged did not start"

port=$((20000 + RANDOM % 20000))
conf=$work/slurm.conf
cat >"$conf" <<CONF
ClusterName=gpucompat-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/linear
ReturnToService=2
SlurmdTimeout=30
HealthCheckProgram=$work/healthcheck
HealthCheckInterval=2
HealthCheckNodeState=ANY
NodeName=$host NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$conf

# The health check reads which root to check from a file, so the test can
# break and heal the node without restarting slurmd.
echo "$repo/tests/fixtures/module-lib-mismatch" >"$work/root"
cat >"$work/healthcheck" <<HC
#!/bin/sh
export GPUCOMPAT="$bin" GPUCOMPAT_ROOT="\$(cat "$work/root")" GPUCOMPAT_ALLOW_ROOT_CODE=1
export SLURM_CONF="$conf" SLURMD_NODENAME="$host"
echo "\$(date +%T) check \$GPUCOMPAT_ROOT" >>"$work/healthcheck.log"
exec "$repo/deploy/slurm/gpucompat-healthcheck.sh" >>"$work/healthcheck.log" 2>&1
HC
chmod 755 "$work/healthcheck"

slurmctld -f "$conf" || fail "slurmctld did not start"
slurmd -f "$conf" || fail "slurmd did not start"
wait_for 30 sinfo -h -n "$host" || fail "the node never registered"

reason() { scontrol show node "$host" | sed -n 's/^ *Reason=\([^[]*\).*/\1/p' | sed 's/ *$//'; }
state() { scontrol show node "$host" | sed -n 's/^ *State=\([^ ]*\).*/\1/p'; }

drained() { [ "$(reason)" = "gpucompat: DRV001" ] && state | grep -q DRAIN; }
wait_for 40 drained || fail "broken root: node not drained with reason 'gpucompat: DRV001' (state $(state), reason '$(reason)')"
echo "ok: broken root drained the node: $(reason)"

echo "$repo/tests/fixtures/geforce-desktop" >"$work/root"
resumed() { ! state | grep -q DRAIN; }
wait_for 40 resumed || fail "healthy root: node not resumed (state $(state), reason '$(reason)')"
echo "ok: healthy root resumed the node: $(state)"

# An admin's drain is left alone.
scontrol update nodename="$host" state=drain reason="maintenance"
sleep 5
[ "$(reason)" = "maintenance" ] && state | grep -q DRAIN || fail "the health check resumed an admin's drain"
scontrol update nodename="$host" state=resume
echo "ok: an admin's drain stayed"

export GPUCOMPAT="$bin" GPUCOMPAT_ROOT="$repo/tests/fixtures/geforce-desktop" GPUCOMPAT_ALLOW_ROOT_CODE=1
out=$(timeout 60 "$repo/deploy/slurm/collect-cards.sh" "$work/cards") || fail "collect-cards failed: $out"
[ -s "$work/cards/$host.json" ] || fail "no card from $host"
printf '%s\n' "$out" | grep -q "Lab card: 1 node(s) in 1 group(s)" || fail "fleet output: $out"
printf '%s\n' "$out" | grep -q "RTX 4090" || fail "fleet output: $out"
echo "ok: fleet collected the node's card through srun"
