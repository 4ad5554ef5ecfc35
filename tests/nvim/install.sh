#!/usr/bin/env bash
# Installs Debian's neovim (0.7.2 on bookworm) for tests/test_nvim.py when nvim is missing.
# Idempotent and quiet (apt's output is shown only if it fails). Needs root or sudo.
set -euo pipefail
command -v nvim >/dev/null 2>&1 && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends neovim; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "tests/nvim/install.sh: could not install the Debian package neovim" >&2
    exit 1
fi
command -v nvim >/dev/null 2>&1 || { echo "tests/nvim/install.sh: nvim is not on PATH after installing neovim" >&2; exit 1; }
