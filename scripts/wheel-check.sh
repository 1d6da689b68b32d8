#!/usr/bin/env bash
# Build gpucompat as a Python wheel (maturin, bindings = "bin"), check it with
# auditwheel, install it into a fresh venv and run it from there.
# Usage: scripts/wheel-check.sh [OUT_DIR]   (default target/wheel-check)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/wheel-check}"
rm -rf "$out"
mkdir -p "$out"

python3 -m pip install --quiet --disable-pip-version-check "maturin>=1.5,<2" auditwheel ziglang

# zig links against an old glibc, so the wheel is manylinux_2_17 (RHEL 8,
# Ubuntu 20.04 and older clusters); without zig the tag follows this machine's glibc.
if python3 -m ziglang version >/dev/null 2>&1; then
  maturin build --release --zig --compatibility manylinux_2_17 --out "$out/dist" -q
else
  echo "wheel-check: ziglang unavailable; building for this machine's glibc" >&2
  maturin build --release --out "$out/dist" -q
fi
wheel="$(ls "$out"/dist/gpucompat-*.whl)"
echo "wheel: $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB)"

auditwheel show "$wheel" | tee "$out/auditwheel.txt"
grep -q 'consistent with' "$out/auditwheel.txt"

python3 -m venv "$out/venv"
"$out/venv/bin/pip" install --quiet --disable-pip-version-check "$wheel"
bin="$out/venv/bin/gpucompat"
echo "binary: $(du -k "$bin" | cut -f1) KiB"

# The binary dlopens the NVIDIA libraries at run time: it must link none of them.
needed="$(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')"
echo "needed: $(echo $needed)"
for lib in $needed; do
  case "$lib" in
    libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|libgcc_s.so.*|ld-linux*) ;;
    *) echo "wheel-check: the binary links $lib" >&2; exit 1 ;;
  esac
done

"$bin" --version
set +e
"$bin" check --json > "$out/check.json"
rc=$?
set -e
# 0 or 1 (error findings on this machine) are answers; 2 is a failure.
if [ "$rc" -gt 1 ]; then echo "wheel-check: check --json exited $rc" >&2; exit 1; fi
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["tool"]["name"]=="gpucompat", d' "$out/check.json"
echo "wheel-check: ok (check --json exited $rc)"
