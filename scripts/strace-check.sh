#!/usr/bin/env bash
# check, card and explain open nothing for writing and create no socket
# (gpucompat never changes the system and never touches the network).
# Usage: scripts/strace-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/debug/gpucompat}
command -v strace >/dev/null || { echo "strace is required" >&2; exit 2; }
[ -x "$bin" ] || cargo build -q
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'NVIDIA-SMI 550.54.14  Driver Version: 550.54.14  CUDA Version: 12.4\n' > "$tmp/paste.txt"
fail=0
run() {
  local name=$1; shift
  strace -f -qq -e trace=open,openat,openat2,creat,socket,socketpair,connect -o "$tmp/$name.log" \
    "$bin" "$@" > /dev/null 2>&1 || true
  # A write-mode open (O_WRONLY, O_RDWR, O_CREAT, O_TRUNC) that succeeded, other than /dev/null or the tty.
  local writes sockets
  writes=$(grep -E 'open(at2?)?\(|creat\(' "$tmp/$name.log" | grep -E 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|creat\(' \
    | grep -vE '"/dev/(null|tty)"' | grep -vE '= -1 ' || true)
  sockets=$(grep -E '(socket|socketpair|connect)\(' "$tmp/$name.log" | grep -vE '= -1 ' || true)
  if [ -n "$writes$sockets" ]; then
    echo "strace-check: $name wrote or opened a socket:" >&2
    printf '%s\n%s\n' "$writes" "$sockets" >&2
    fail=1
  else
    echo "strace-check: $name: no write, no socket ($(wc -l < "$tmp/$name.log") calls traced)"
  fi
}
run check check
run check-root check --root tests/fixtures/geforce-desktop
run card card
run card-json card --json --root tests/fixtures/hgx-h100-nvswitch
run explain explain "$tmp/paste.txt"
run check-card check --card tests/fixtures/cards/healthy-3090-smi-12.6.json
exit $fail
