#!/usr/bin/env bash
# Create a real venv with small real wheels, used by tests/python_real_venv.rs.
set -euo pipefail
dir="${1:-target/test-venv}"
if [ -x "$dir/bin/python" ] && [ -f "$dir/.ready" ]; then exit 0; fi
rm -rf "$dir"
python3 -m venv "$dir"
"$dir/bin/pip" install --quiet --disable-pip-version-check nvidia-cuda-runtime-cu12==12.4.127 onnxruntime
touch "$dir/.ready"
