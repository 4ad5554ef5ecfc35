#!/usr/bin/env bash
# Installs the real agent CLIs tests/test_agents_real.py runs, pinned by tests/agents/package-lock.json
# (Claude Code, Codex CLI, Gemini CLI), idempotently and quietly (a step's output is shown only when
# it fails), in a cache folder named after the lock file's hash: `npm ci --ignore-scripts`, then
# Claude Code's own install.cjs, which puts its native binary in place of the bin/claude.exe
# placeholder (npm does not run install scripts here). The commands are node_modules/.bin/NAME there.
# `install.sh --where` prints that cache folder and installs nothing. npm reaches the npm registry.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LOCK_SHA=$(sha256sum "$HERE/package-lock.json" | cut -c1-12)
CACHE=${TETHER_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tether-agents}
TOOLS="$CACHE/clis-$LOCK_SHA"
if [ "${1:-}" = "--where" ]; then
    echo "$TOOLS"
    exit 0
fi
[ -f "$TOOLS/.complete" ] && exit 0

INSTALLER=tests/agents/install.sh
# shellcheck source=../install_step.sh
. "$HERE/../install_step.sh"

rm -rf "$TOOLS"
mkdir -p "$TOOLS"
cp "$HERE/package.json" "$HERE/package-lock.json" "$TOOLS/"
step "npm ci of the agent CLIs" npm ci --prefix "$TOOLS" --ignore-scripts --no-audit --no-fund
step "Claude Code's install.cjs" env -C "$TOOLS/node_modules/@anthropic-ai/claude-code" node install.cjs
for cli in claude codex gemini; do
    step "$cli --version" "$TOOLS/node_modules/.bin/$cli" --version
done
touch "$TOOLS/.complete"
# older sets (another lock file) are not needed any more
find "$CACHE" -mindepth 1 -maxdepth 1 -name 'clis-*' ! -name "clis-$LOCK_SHA" -exec rm -rf {} +
