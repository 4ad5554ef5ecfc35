"""A rename written back into the note file travels with the code: a clone without this
machine's cache still finds the note."""

import shutil
import subprocess
from pathlib import Path

from samples import TETHER

from tether.core.workspace import Workspace

SRC = "def charge(ledger, cents):\n    if cents <= 0:\n        raise ValueError(cents)\n    return ledger.append(cents)\n"


def test_sync_writes_a_rename_into_the_note_file_so_a_fresh_clone_follows_it(tmp_path: Path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "billing.py").write_text(SRC)
    ws, _ = Workspace.init(repo, exact=True)
    note = ws.record("decision", "billing.py", 0, 4, title="Charges are positive")
    (repo / "billing.py").write_text(SRC.replace("charge", "bill"))

    assert [loc.state for loc in ws.locate("billing.py")] == ["renamed"]
    check = subprocess.run([TETHER, "sync", "--check"], cwd=repo, capture_output=True, text=True)
    assert check.returncode == 1 and "would update" in check.stdout

    changed = ws.sync()
    assert [(n.id, a.name) for n, _, a, _ in changed] == [(note.id, "bill")]
    assert 'name = "bill"' in (repo / ws.get(note.id).path).read_text()
    assert subprocess.run([TETHER, "sync", "--check"], cwd=repo, capture_output=True).returncode == 0

    clone = tmp_path / "clone"  # what a teammate gets: the files, no cache
    shutil.copytree(repo, clone, ignore=shutil.ignore_patterns("cache"))
    fresh = Workspace(clone)
    (loc,) = fresh.locate("billing.py")
    assert loc.state == "ok" and loc.resolution.name == "bill" and loc.range.sl == 0


def test_without_sync_a_fresh_clone_offers_the_rename_and_never_takes_it(tmp_path: Path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "billing.py").write_text(SRC)
    ws, _ = Workspace.init(repo, exact=True)
    ws.record("decision", "billing.py", 0, 4, title="Charges are positive")
    shutil.rmtree(repo / ".tether" / "cache")
    (repo / "billing.py").write_text(SRC.replace("charge", "bill"))
    (loc,) = Workspace(repo).locate("billing.py")
    assert loc.state == "ambiguous" and loc.range is None
    assert [c.sl for c in loc.resolution.candidates] == [0]
