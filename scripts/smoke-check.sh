#!/usr/bin/env bash
# Prove the GPUs of this machine compute: build gpucompat (release) when
# needed, run `gpucompat smoke --json`, print the report, then print PASS when
# every GPU's fp16 GEMM matched the CPU reference, FAIL otherwise.
# Extra arguments go to `gpucompat smoke` (e.g. --timeout 120, --gemm builtin);
# GPUCOMPAT_BIN names a prebuilt gpucompat to use instead of building one.
# Exit status: 0 on PASS, 1 on FAIL, 2 when gpucompat could not be built.
set -uo pipefail
cd "$(dirname "$0")/.."

bin=${GPUCOMPAT_BIN:-target/release/gpucompat}
if [ -n "${GPUCOMPAT_BIN:-}" ]; then
  : # a prebuilt binary was named: use it as is
elif command -v cargo >/dev/null 2>&1; then
  # A no-op when the binary is up to date.
  if ! cargo build --release --quiet --bin gpucompat; then
    echo "FAIL: cargo build --release failed"
    exit 2
  fi
elif [ ! -x "$bin" ]; then
  echo "FAIL: no cargo and no $bin"
  exit 2
fi

report=$("$bin" smoke --json "$@")
rc=$?
printf '%s\n' "$report"

# The report is pretty-printed JSON in which only the per-GPU `gemm` objects
# have an "ok" field; decide without jq or Python.
passed=$(printf '%s\n' "$report" | grep -cE '^ *"ok": true,?$')
failed=$(printf '%s\n' "$report" | grep -cE '^ *"ok": false,?$')
if [ "$rc" -eq 0 ] && [ "$passed" -gt 0 ] && [ "$failed" -eq 0 ]; then
  echo "PASS: $passed GPU(s) computed the fp16 GEMM and matched the CPU reference"
  exit 0
fi
echo "FAIL: $passed GPU(s) matched, $failed did not (gpucompat smoke exit status $rc)"
exit 1
