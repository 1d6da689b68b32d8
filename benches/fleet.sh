#!/usr/bin/env bash
# Wall time of `gpucompat fleet` over 10,000 generated cards. Budget: median <= 1 s.
# Needs hyperfine (apt-get install -y hyperfine). Prints the median in seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v hyperfine >/dev/null 2>&1; then
  echo "hyperfine is required: apt-get install -y hyperfine" >&2
  exit 2
fi
cargo build --release --quiet
cards=target/bench-fleet-cards
if [ "$(find "$cards" -name '*.json' 2>/dev/null | wc -l)" -ne "${N:-10000}" ]; then
  rm -rf "$cards"
  python3 scripts/make-fleet-cards.py "${N:-10000}" "$cards"
fi
out=target/bench-fleet.json
# The generated fleet has nodes in error on purpose, so the exit code is 1.
hyperfine --shell=none --warmup 2 --runs "${RUNS:-10}" --ignore-failure --export-json "$out" \
  "target/release/gpucompat fleet $cards --format json"
median_s=$(grep -o '"median": *[0-9.eE+-]*' "$out" | head -n1 | sed 's/.*: *//')
echo "median: ${median_s} s for ${N:-10000} cards (budget 1 s)"
awk -v m="$median_s" 'BEGIN { exit (m <= 1.0) ? 0 : 1 }' || {
  echo "over budget" >&2
  exit 1
}
