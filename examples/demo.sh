#!/usr/bin/env bash
# tether's demo on the bundled example: notes follow an edit, a rename, a deletion and a moved file.
# Works on a copy in a temporary folder; examples/shop itself is left as it is.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$here/shop" "$work/shop"
rm -rf "$work/shop/.tether/cache"
cd "$work/shop"
git init -q && git add -A && git -c user.name=demo -c user.email=demo@example.com commit -qm "shop"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "The notes, each anchor resolved against the code on disk"
tether list

step "What an agent about to edit billing/charge.py:20 is told (tether context)"
tether context billing/charge.py:20

step "Edit: 4 lines inserted at the top of ledger.py, and a log call added to Ledger.append"
python3 - <<'PY'
from pathlib import Path
p = Path("billing/ledger.py")
s = p.read_text()
s = s.replace('"""The ledger: every money movement, in order."""\n',
              '"""The ledger: every money movement, in order.\n\nRows are written once and never changed.\n"""\n\nimport logging\n')
s = s.replace('        self.db.insert("ledger", entry.__dict__)\n',
              '        logging.getLogger(__name__).debug("ledger append %s", entry)\n        self.db.insert("ledger", entry.__dict__)\n')
p.write_text(s)
PY
git --no-pager diff --stat

step "Rename: submit_with_retry -> submit_to_gateway (definition and call)"
sed -i 's/submit_with_retry/submit_to_gateway/g' billing/charge.py
grep -n "submit_to_gateway" billing/charge.py

step "Deletion: Cart.totalCents is removed from cart.ts"
python3 - <<'PY'
from pathlib import Path
p = Path("web/src/cart.ts")
s = p.read_text()
start = s.index("  totalCents(): number {")
end = s.index("  }\n", s.index("return this.items.reduce")) + 4
p.write_text(s[:start].rstrip() + "\n" + s[end:])
PY
git --no-pager diff --stat

step "The same notes now: moved / changed / renamed / orphaned — never attached to other code"
tether list

step "tether doctor: what needs a person (exit 1 when something does)"
tether doctor || echo "(doctor exited $?)"

step "Move: inventory/stock.go becomes inventory/reserve.go (git mv): its note follows the file"
git mv inventory/stock.go inventory/reserve.go
tether list inventory

step "tether sync: the new names and paths written into the note files, committed with the code"
tether sync
git status --short .tether/notes
