"""Writes that fail: a full disk during `record`, `retire` and `sync` (a real one: a small
tmpfs, filled up), and `site --out` under a regular file. Each is one line naming the file,
exit 2, no traceback, and nothing lost: every note file is as it was."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from samples import TETHER

APP = "def load(path):\n    return open(path).read()\n\n\ndef save(path, text):\n    open(path, 'w').write(text)\n"


def tether(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    r = subprocess.run([TETHER, *args], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in r.stderr, r.stderr
    return r


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 1 MB file system of its own (tmpfs; mounting one needs root)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {r.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


def fill(disk: Path) -> Path:
    """Fill ``disk`` to the last byte."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError:
            pass
    for k in range(64):  # and the last inodes' worth of small files
        try:
            (disk / f"f{k}").write_bytes(b"\0")
        except OSError:
            break
    return filler


def notes(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / ".tether" / "notes").iterdir())}


def one_line(r: subprocess.CompletedProcess, names: str) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("tether: ") and names in lines[0] and "No space left on device" in lines[0], lines[0]
    return lines[0]


def test_a_full_disk_stops_record_retire_and_sync_with_one_line_and_loses_nothing(small_disk):
    root = small_disk
    (root / "app.py").write_text(APP)
    assert tether(root, "init").returncode == 0
    first = tether(root, "record", "decision", "app.py:1", "--title", "Reads whole files").stdout.strip()
    assert tether(root, "record", "invariant", "app.py:5", "--title", "Writes replace the file").returncode == 0
    (root / "app.py").write_text("import os\n\n" + APP)  # both anchors moved: sync has two files to write
    tether(root, "list")  # the index and its resolutions, before the disk is full
    kept = notes(root)
    filler = fill(root)

    line = one_line(tether(root, "record", "boundary", "app.py:3", "--title", "Paths are trusted"), ".tether/notes/")
    assert "nothing was written" in line
    line = one_line(tether(root, "retire", first), f".tether/notes/{first}")
    assert "it is as it was" in line
    one_line(tether(root, "sync"), ".tether/notes/")
    assert notes(root) == kept  # every note file as it was, no temp file left
    assert tether(root, "list").returncode == 0  # reading needs no space

    os.unlink(filler)  # space again: everything goes through
    assert tether(root, "sync").returncode == 0
    assert tether(root, "retire", first).returncode == 0
    assert tether(root, "doctor").returncode == 0


def test_site_out_under_a_regular_file_is_one_line(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    assert tether(tmp_path, "init").returncode == 0
    (tmp_path / "report").write_text("a file, not a folder\n")
    r = tether(tmp_path, "site", "--out", str(tmp_path / "report" / "site"))
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tether: ") and "report" in lines[0], r.stderr
    assert "not a folder" in lines[0]
    assert (tmp_path / "report").read_text() == "a file, not a folder\n"
