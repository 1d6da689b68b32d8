#!/usr/bin/env bash
# Benchmark `gpucompat explain` on 1 MB logs. Budget: 20 ms median on the
# typical log. Needs hyperfine (`apt-get install -y hyperfine`). explain exits 1 when the logs
# hold error findings, which is the point of them: the exit code is not a failure here.
#
#  typical.log  a training log (progress bars, INFO lines) with a few pasted
#               reports from the explain corpus at its end: what users paste.
#  dense.log    nothing but corpus reports, repeated: every line is one some
#               parser reads, the worst case. Reported, not held to the budget.
set -euo pipefail
cd "$(dirname "$0")/.."

budget_ms="${BUDGET_MS:-20}"
runs="${RUNS:-40}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# GPUCOMPAT_BIN: a binary already built (skips the release build).
bin="${GPUCOMPAT_BIN:-}"
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin="target/release/gpucompat"
fi

noise() {
  local i="$1"
  printf 'Epoch %d/100: 100%%|##########| 512/512 [00:41<00:00, 12.4it/s, loss=0.%04d, lr=3e-4]\n' "$i" "$((i % 9999))"
  printf '2024-05-01 12:00:%02d INFO trainer.py:%d step=%d tokens/s=%d\n' "$((i % 60))" "$((i % 900))" "$i" "$((i * 7 % 99999))"
}

# typical: 1 MiB of training log, then reports; cut to exactly 1 MiB from the front.
{
  for i in $(seq 1 12000); do noise "$i"; done
  cat tests/fixtures/explain/0[1-8]-*.txt
} > "$work/typical.full"
tail -c 1048576 "$work/typical.full" > "$work/typical.log"

# dense: corpus reports separated by a little noise until 1 MiB.
i=0
: > "$work/dense.log"
while [ "$(wc -c < "$work/dense.log")" -lt 1048576 ]; do
  for f in tests/fixtures/explain/*.txt; do
    cat "$f"
    i=$((i + 1))
    noise "$i"
  done >> "$work/dense.log"
done
truncate -s 1048576 "$work/dense.log"

for log in typical dense; do
  echo "$log.log: $(wc -c < "$work/$log.log") bytes, $(wc -l < "$work/$log.log") lines"
done
hyperfine -N --ignore-failure --warmup 3 --runs "$runs" --export-json "$work/result.json" \
  -n typical "$bin explain $work/typical.log" \
  -n dense "$bin explain $work/dense.log" \
  -n "empty (startup)" "$bin explain /dev/null"

python3 - "$work/result.json" "$budget_ms" <<'PY'
import json, sys
res = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
budget = float(sys.argv[2])
for name, r in res.items():
    print(f"{name}: median {r['median'] * 1000:.1f} ms")
typical = res["typical"]["median"] * 1000
print(f"budget {budget:.0f} ms on the typical log: {'met' if typical <= budget else 'MISSED'}")
sys.exit(0 if typical <= budget else 1)
PY
