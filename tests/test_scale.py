"""The whole-workspace commands look at the notes folder a fixed number of times, however
many notes there are: each note's lookup re-scanning every note file made `list` and `sync`
quadratic in the notes (10,000 notes: no answer in 5 minutes). The time itself is measured
by ``bench/scale.py``; here, the number of scans, through the real commands in this process."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import orjson
import pytest

from tether.cli.main import main
from tether.core.repository import NoteRepository
from tether.core.workspace import Workspace

FILES, PER_FILE = 12, 4  # 48 notes


def helpers(i: int) -> str:
    return "".join(f"def helper_{i}_{f}(x):\n    return x + {f}\n\n\n" for f in range(PER_FILE))


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch) -> Path:
    ws = Workspace.init(tmp_path, exact=True)[0]
    for i in range(FILES):
        (tmp_path / f"m{i}.py").write_text(helpers(i))
        for f in range(PER_FILE):
            ws.record("decision", f"m{i}.py", 4 * f, 4, title=f"helper {i}.{f} adds its offset")
    ws.close()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def scans(monkeypatch, *argv: str) -> tuple[int, str]:
    """How many times the command scanned the notes folder, and what it printed."""
    count = [0]
    scan = NoteRepository._scan

    def counted(self):
        count[0] += 1
        return scan(self)
    monkeypatch.setattr(NoteRepository, "_scan", counted)
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        main(list(argv))
    monkeypatch.setattr(NoteRepository, "_scan", scan)
    return count[0], out.getvalue()


@pytest.mark.parametrize("argv", [("list", "--json"), ("list",), ("doctor", "--json"), ("check",),
                                  ("sync", "--check")])
def test_a_command_scans_the_notes_folder_a_fixed_number_of_times(workspace, monkeypatch, argv):
    n, _ = scans(monkeypatch, *argv)
    assert n <= 3, f"tether {' '.join(argv)} scanned the notes folder {n} times for {FILES * PER_FILE} notes"


def test_site_scans_the_notes_folder_a_fixed_number_of_times(workspace, monkeypatch, tmp_path):
    n, out = scans(monkeypatch, "site", "--out", str(tmp_path / "site"))
    assert f"{FILES * PER_FILE} notes" in out
    assert n <= 6, n


def test_sync_of_every_anchor_moved_writes_them_all_in_a_fixed_number_of_scans(workspace, monkeypatch):
    for i in range(FILES):  # every function two lines down: every anchor moved
        (workspace / f"m{i}.py").write_text("import os\n\n" + helpers(i))
    n, out = scans(monkeypatch, "sync", "--json")
    assert len(orjson.loads(out)["changed"]) == FILES * PER_FILE
    assert n <= 5, n
    _, out = scans(monkeypatch, "list", "--json")
    assert {a["state"] for note in orjson.loads(out)["notes"] for a in note["anchors"]} == {"ok"}
