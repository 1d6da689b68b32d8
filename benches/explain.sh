#!/usr/bin/env bash
# Benchmark `gpucompat explain` on a 1 MB pasted log. Budget: 20 ms median.
#
# The log is the explain corpus (real reports) repeated and interleaved with
# ordinary training-log noise until it reaches 1 MiB, so every parser and the
# error catalog see realistic lines. Needs hyperfine (`cargo install hyperfine`).
set -euo pipefail
cd "$(dirname "$0")/.."

budget_ms="${BUDGET_MS:-20}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
log="$work/1mb.log"

cargo build --release --quiet
bin="target/release/gpucompat"

# Build the log: corpus reports separated by noise, cut at exactly 1 MiB.
i=0
: > "$log"
while [ "$(wc -c < "$log")" -lt 1048576 ]; do
  for f in tests/fixtures/explain/*.txt; do
    cat "$f"
    for _ in 1 2 3 4 5 6 7 8; do
      i=$((i + 1))
      printf 'Epoch %d/100: 100%%|##########| 512/512 [00:41<00:00, 12.4it/s, loss=0.%04d, lr=3e-4]\n' "$i" "$((i % 9999))"
      printf '2024-05-01 12:00:%02d INFO trainer.py:%d step=%d tokens/s=%d\n' "$((i % 60))" "$((i % 900))" "$i" "$((i * 7 % 99999))"
    done
  done >> "$log"
done
truncate -s 1048576 "$log"

echo "log: $(wc -c < "$log") bytes, $(wc -l < "$log") lines"
hyperfine --warmup 3 --runs "${RUNS:-30}" --export-json "$work/result.json" \
  "$bin explain $log" "$bin explain --json $log"

median_ms="$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print(round(r["median"]*1000, 2))' "$work/result.json")"
echo "median (text): ${median_ms} ms; budget ${budget_ms} ms"
python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)' "$median_ms" "$budget_ms" \
  || { echo "over budget" >&2; exit 1; }
