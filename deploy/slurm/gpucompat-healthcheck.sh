#!/bin/sh
# Slurm HealthCheckProgram: run `gpucompat check` on this node; drain the node
# when it finds an error (the reason names the finding codes), resume it when
# the check is clean again and the drain was gpucompat's own.
#
# slurm.conf:
#   HealthCheckProgram=/usr/local/sbin/gpucompat-healthcheck
#   HealthCheckInterval=300
#   HealthCheckNodeState=ANY
#
# Settings (environment, or /etc/default/gpucompat-healthcheck):
#   GPUCOMPAT       the gpucompat binary                [gpucompat on PATH]
#   GPUCOMPAT_ROOT  the system to check (--root)        [/]
#   SCONTROL        the scontrol binary                 [scontrol]
set -u
[ -r /etc/default/gpucompat-healthcheck ] && . /etc/default/gpucompat-healthcheck
GPUCOMPAT=${GPUCOMPAT:-gpucompat}
GPUCOMPAT_ROOT=${GPUCOMPAT_ROOT:-/}
SCONTROL=${SCONTROL:-scontrol}
node=${SLURMD_NODENAME:-$(hostname -s)}

out=$("$GPUCOMPAT" --root "$GPUCOMPAT_ROOT" check 2>&1)
rc=$?

case $rc in
  0)
    # Resume only a drain this program set; a drain an admin set stays.
    reason=$("$SCONTROL" show node "$node" 2>/dev/null | sed -n 's/^ *Reason=\(.*\)$/\1/p')
    case $reason in
      gpucompat:*) "$SCONTROL" update nodename="$node" state=resume ;;
    esac
    exit 0
    ;;
  1)
    codes=$(printf '%s\n' "$out" | sed -n 's/^error\[\([A-Z]*[0-9]*\)\].*/\1/p' | sort -u | paste -sd, -)
    "$SCONTROL" update nodename="$node" state=drain reason="gpucompat: ${codes:-error}"
    exit 1
    ;;
  *)
    "$SCONTROL" update nodename="$node" state=drain reason="gpucompat: check could not run (exit $rc)"
    exit 1
    ;;
esac
