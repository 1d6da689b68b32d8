#!/usr/bin/env bash
# Benchmark: discovery and reading of 20 Python environments x 300 packages
# (tests/python_bench.rs, a release build). Budget: 30 ms median.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test python_bench -- --ignored --nocapture 2>&1 | grep -E "python discovery|test result|panicked"
