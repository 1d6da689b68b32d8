#!/bin/sh
# Collect a card from every node of a partition through srun, then print the
# lab card. Usage: collect-cards.sh DIR [PARTITION]
#   GPUCOMPAT       the gpucompat binary on the nodes   [gpucompat]
#   GPUCOMPAT_ROOT  the system to probe on each node    [/]
set -eu
dir=$1
partition=${2:-}
GPUCOMPAT=${GPUCOMPAT:-gpucompat}
GPUCOMPAT_ROOT=${GPUCOMPAT_ROOT:-/}
mkdir -p "$dir"
if [ -n "$partition" ]; then
  nodes=$(sinfo -h -p "$partition" -o %D | awk '{ n += $1 } END { print n }')
  set -- -p "$partition"
else
  nodes=$(sinfo -h -o %D | awk '{ n += $1 } END { print n }')
  set --
fi
# One task per node; srun writes each node's stdout to DIR/<node>.json.
srun "$@" -N "$nodes" --ntasks-per-node=1 --output="$dir/%N.json" \
  "$GPUCOMPAT" --root "$GPUCOMPAT_ROOT" card --json
exec "$GPUCOMPAT" fleet "$dir"
