#!/usr/bin/env bash
# Wall time of `gpucompat card --json` on this machine. Budget: median <= 10 ms.
# Needs hyperfine (apt-get install -y hyperfine). Prints the median in ms.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v hyperfine >/dev/null 2>&1; then
  echo "hyperfine is required: apt-get install -y hyperfine" >&2
  exit 2
fi
cargo build --release --quiet
out=target/bench-card.json
hyperfine --shell=none --warmup 20 --runs "${RUNS:-200}" --export-json "$out" \
  'target/release/gpucompat card --json'
median_s=$(grep -o '"median": *[0-9.eE+-]*' "$out" | head -n1 | sed 's/.*: *//')
median_ms=$(awk -v s="$median_s" 'BEGIN { printf "%.2f", s * 1000 }')
echo "median: ${median_ms} ms (budget 10 ms)"
awk -v m="$median_ms" 'BEGIN { exit (m <= 10.0) ? 0 : 1 }' || {
  echo "over budget" >&2
  exit 1
}
