#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: build gpucompat, run `gpucompat card --json`
# and compare the driver version and each GPU's name, compute capability and
# memory with nvidia-smi. Prints PASS or FAIL per field; exits 1 on any FAIL,
# 2 when it cannot run. Takes well under 3 minutes (most of it the build).
#
#   scripts/gpu-check.sh              build in release, then check
#   GPUCOMPAT_BIN=path scripts/gpu-check.sh   check a binary built elsewhere
set -uo pipefail
cd "$(dirname "$0")/.."

BIN="${GPUCOMPAT_BIN:-target/release/gpucompat}"
if [ -z "${GPUCOMPAT_BIN:-}" ]; then
  echo "== cargo build --release"
  cargo build --release --quiet || { echo "FAIL build"; exit 2; }
fi
if ! command -v nvidia-smi >/dev/null 2>&1; then
  echo "FAIL nvidia-smi not found: this check needs a machine with an NVIDIA driver"
  exit 2
fi
for tool in python3 jq; do
  command -v "$tool" >/dev/null 2>&1 && JSON_TOOL="$tool" && break
done
if [ -z "${JSON_TOOL:-}" ]; then
  echo "FAIL neither python3 nor jq is available to read the JSON card"
  exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== gpucompat card --json"
start=$(date +%s%N)
if ! timeout 60 "$BIN" card --json >"$work/card.json" 2>"$work/card.err"; then
  echo "FAIL gpucompat card --json: $(head -c 500 "$work/card.err")"
  exit 1
fi
echo "   took $(( ($(date +%s%N) - start) / 1000000 )) ms"

echo "== nvidia-smi --query-gpu=driver_version,name,compute_cap,memory.total"
if ! timeout 30 nvidia-smi --query-gpu=driver_version,name,compute_cap,memory.total \
  --format=csv,noheader,nounits >"$work/smi.csv" 2>"$work/smi.err"; then
  echo "FAIL nvidia-smi: $(head -c 500 "$work/smi.err") $(head -c 500 "$work/smi.csv")"
  exit 1
fi

# One tab-separated line per field: name, gpucompat's value, nvidia-smi's value.
if [ "$JSON_TOOL" = python3 ]; then
  python3 - "$work/card.json" "$work/smi.csv" >"$work/fields.tsv" <<'PY'
import json, sys
card = json.load(open(sys.argv[1]))
rows = [[c.strip() for c in l.split(",")] for l in open(sys.argv[2]) if l.strip()]
val = lambda f: "" if f is None else str(f.get("value", ""))
print("driver_version\t%s\t%s" % (val(card["nvidia"].get("driver_version")), rows[0][0] if rows else ""))
print("gpu_count\t%d\t%d" % (len(card["gpus"]), len(rows)))
for i, r in enumerate(rows):
    g = card["gpus"][i] if i < len(card["gpus"]) else {}
    print("gpu%d.name\t%s\t%s" % (i, val(g.get("name")), r[1]))
    print("gpu%d.compute_cap\t%s\t%s" % (i, val(g.get("compute_capability")), r[2]))
    print("gpu%d.memory_mib\t%s\t%s" % (i, val(g.get("memory_mib")), r[3]))
PY
else
  trim() { local s="$1"; s="${s#"${s%%[![:space:]]*}"}"; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
  {
    printf 'driver_version\t%s\t%s\n' "$(jq -r '.nvidia.driver_version.value // ""' "$work/card.json")" \
      "$(trim "$(head -n1 "$work/smi.csv" | cut -d, -f1)")"
    printf 'gpu_count\t%s\t%s\n' "$(jq '.gpus | length' "$work/card.json")" "$(grep -c . "$work/smi.csv")"
    i=0
    while IFS=, read -r _drv name cc mem; do
      printf 'gpu%d.name\t%s\t%s\n' "$i" "$(jq -r ".gpus[$i].name.value // \"\"" "$work/card.json")" "$(trim "$name")"
      printf 'gpu%d.compute_cap\t%s\t%s\n' "$i" "$(jq -r ".gpus[$i].compute_capability.value // \"\"" "$work/card.json")" "$(trim "$cc")"
      printf 'gpu%d.memory_mib\t%s\t%s\n' "$i" "$(jq -r ".gpus[$i].memory_mib.value // \"\"" "$work/card.json")" "$(trim "$mem")"
      i=$((i + 1))
    done <"$work/smi.csv"
  } >"$work/fields.tsv"
fi

fails=0
while IFS=$'\t' read -r field ours theirs; do
  ok=0
  if [ "$ours" = "$theirs" ]; then
    ok=1
  elif [[ "$field" == *.memory_mib && "$ours" =~ ^[0-9]+$ && "$theirs" =~ ^[0-9]+$ ]]; then
    # NVML bytes / 2^20 against nvidia-smi's own rounding: allow 1 MiB.
    diff=$(( ours > theirs ? ours - theirs : theirs - ours ))
    [ "$diff" -le 1 ] && ok=1
  fi
  if [ "$ok" = 1 ]; then
    echo "PASS $field $ours"
  else
    echo "FAIL $field gpucompat=${ours:-<none>} nvidia-smi=${theirs:-<none>}"
    fails=$((fails + 1))
  fi
done <"$work/fields.tsv"

echo "== sources (gpucompat card -v)"
timeout 60 "$BIN" card -v | sed -n '/^NVIDIA driver/,/^CUDA software/p'

# --- smoke: a real fp16 GEMM on every GPU --------------------------------------
echo "== smoke (gpucompat smoke --json)"
if GPUCOMPAT_BIN="$BIN" timeout 120 bash scripts/smoke-check.sh; then
  echo "PASS smoke"
else
  echo "FAIL smoke"
  fails=$((fails + 1))
fi

echo "== check (gpucompat check)"
timeout 60 "$BIN" check || true
# ------------------------------------------------------------------------------

if [ "$fails" -gt 0 ]; then
  echo "RESULT: $fails field(s) FAIL"
  exit 1
fi
echo "RESULT: all PASS"
