# Sourced by tests/*/install.sh: `step DESCRIPTION COMMAND...` runs a command quietly (twice:
# registries have bad moments); when it fails, shows its output and stops, naming $INSTALLER.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
step() {
    local what=$1
    shift
    if ! "$@" >"$log" 2>&1 && ! "$@" >"$log" 2>&1; then
        cat "$log" >&2
        echo "$INSTALLER: $what failed" >&2
        exit 1
    fi
}
