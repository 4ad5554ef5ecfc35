#!/usr/bin/env bash
# Installs Debian's neovim (0.7.2 on bookworm) for tests/test_nvim.py, if nvim is missing.
# Idempotent and quiet; run as root (CI) or with sudo. Called from .ci/run.
set -euo pipefail
if command -v nvim >/dev/null 2>&1; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
$SUDO apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends neovim >/dev/null
command -v nvim >/dev/null
