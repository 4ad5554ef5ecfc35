#!/usr/bin/env bash
# Installs what the tests need beyond the Python packages: each tests/*/install.sh in turn
# (neovim; chromium, code-server and the VS Code extension's modules; the real agent CLIs).
# Each is idempotent and quiet, so a second run costs seconds.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for script in "$HERE"/*/install.sh; do
    bash "$script"
done
