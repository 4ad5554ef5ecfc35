"""The whole-workspace commands look at the notes folder a fixed number of times, however
many notes there are: each note's lookup re-scanning every note file made `list` and `sync`
quadratic in the notes (10,000 notes: no answer in 5 minutes). The time itself is measured
by ``bench/scale.py``; here, the number of scans, through the real commands in this process."""

from __future__ import annotations

import gc
import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import orjson
import pytest

from tether.cli.main import main
from tether.core.workspace import Workspace

from samples import scans_counted  # noqa: E402

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


def scans(*argv: str) -> tuple[int, str]:
    """How many times the command scanned the notes folder, and what it printed."""
    out = io.StringIO()
    with scans_counted() as count, redirect_stdout(out), redirect_stderr(io.StringIO()):
        main(list(argv))
    return count[0], out.getvalue()


@pytest.mark.parametrize("argv", [("list", "--json"), ("list",), ("doctor", "--json"), ("check",),
                                  ("sync", "--check")])
def test_a_command_scans_the_notes_folder_a_fixed_number_of_times(workspace, argv):
    n, _ = scans(*argv)
    assert n <= 3, f"tether {' '.join(argv)} scanned the notes folder {n} times for {FILES * PER_FILE} notes"


def test_site_scans_the_notes_folder_a_fixed_number_of_times(workspace, tmp_path):
    n, out = scans("site", "--out", str(tmp_path / "site"))
    assert f"{FILES * PER_FILE} notes" in out
    assert n <= 6, n


def test_sync_of_every_anchor_moved_writes_them_all_in_a_fixed_number_of_scans(workspace):
    for i in range(FILES):  # every function two lines down: every anchor moved
        (workspace / f"m{i}.py").write_text("import os\n\n" + helpers(i))
    n, out = scans("sync", "--json")
    assert len(orjson.loads(out)["changed"]) == FILES * PER_FILE
    assert n <= 5, n
    _, out = scans("list", "--json")
    assert {a["state"] for note in orjson.loads(out)["notes"] for a in note["anchors"]} == {"ok"}


# -- a fresh clone's first command: each file read once, parsed only when it changed ----------

def counting(monkeypatch, *argv: str) -> tuple[dict, str]:
    """How many files the command parsed and how many index write transactions it made,
    and what it printed."""
    from tether.core import resolution, syntax
    from tether.core.store import Store
    counts = {"parsed": 0, "writes": 0}
    parse, write = syntax.SourceFile.__init__, Store.write

    def parsing(self, *args, **kwargs):
        counts["parsed"] += 1
        return parse(self, *args, **kwargs)

    def writing(self, *args, **kwargs):
        counts["writes"] += 1
        return write(self, *args, **kwargs)
    monkeypatch.setattr(syntax.SourceFile, "__init__", parsing)
    monkeypatch.setattr(Store, "write", writing)
    monkeypatch.setattr(resolution, "FORK_BYTES", 1 << 40)  # in this process, where it is counted
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        main(list(argv))
    gc.collect()  # the command's index closed, as at a process's end
    monkeypatch.setattr(syntax.SourceFile, "__init__", parse)
    monkeypatch.setattr(Store, "write", write)
    return counts, out.getvalue()


def fresh_clone(root: Path) -> None:
    """What a clone has: the note files and the sources, no index, nothing resolved yet."""
    import shutil
    shutil.rmtree(root / ".tether" / "cache")


def states(out: str) -> dict:
    return {(n["id"], i): (a.get("state"), a.get("range"), a.get("now_named"), a.get("candidates"))
            for n in orjson.loads(out)["notes"] for i, a in enumerate(n["anchors"])}


def test_a_fresh_clone_lists_files_unchanged_since_their_notes_without_parsing_them(workspace, monkeypatch):
    (workspace / "m0.py").write_text("import os\n\n" + helpers(0))  # one file changed since: parsed, once
    fresh_clone(workspace)
    counts, out = counting(monkeypatch, "list", "--json")
    assert counts["parsed"] == 1, counts
    assert counts["writes"] <= 5, counts  # the index, its seal, the resolutions ...: a few, not one a file
    got = states(out)
    assert len(got) == FILES * PER_FILE
    assert sorted(s[0] for s in got.values()) == ["moved"] * PER_FILE + ["ok"] * (FILES - 1) * PER_FILE
    counts, again = counting(monkeypatch, "list", "--json")  # kept: nothing parsed (the files' stamps written)
    assert counts["parsed"] == 0 and counts["writes"] <= 1 and states(again) == got


def test_statuses_on_a_fresh_clone_are_those_a_full_resolution_gives(tmp_path, monkeypatch):
    """What the note files vouch for (the text each anchor was written in) only spares the
    parse: every status, range and offered candidate is what resolving the code says."""
    ws = Workspace.init(tmp_path, exact=True)[0]
    twin = "def twin(x):\n    return x\n\n\n"
    (tmp_path / "same.py").write_text(helpers(0))
    (tmp_path / "moved.py").write_text(helpers(1))
    (tmp_path / "renamed.py").write_text(helpers(2))
    (tmp_path / "gone.py").write_text(helpers(3))
    (tmp_path / "twins.py").write_text("if X:\n" + "".join("    " + line + "\n" for line in twin.split("\n")[:2])
                                       + "else:\n" + "".join("    " + line + "\n" for line in twin.split("\n")[:2]))
    (tmp_path / "edited.py").write_text(helpers(4))
    for rel in ("same.py", "moved.py", "renamed.py", "gone.py", "edited.py"):
        for f in range(PER_FILE):
            ws.record("decision", rel, 4 * f, 4, title=f"{rel} {f}")
    ws.record("intent", "twins.py", 1, 8, title="the first twin")
    ws.record("intent", "same.py", 5, 4, how="span", title="a statement")
    ws.close()
    (tmp_path / "moved.py").write_text("import os\n\n" + helpers(1))
    (tmp_path / "renamed.py").write_text(helpers(2).replace("helper_2_1(", "combine_2_1("))
    (tmp_path / "gone.py").write_text(helpers(3).replace("def helper_3_2(x):\n    return x + 2\n\n\n", ""))
    for note in (tmp_path / ".tether" / "notes").iterdir():  # a range edited by hand: the vouching is void
        text = note.read_text()
        if 'path = "edited.py"' in text and 'name = "helper_4_1"' in text:
            note.write_text(text.replace("range = [4, 0, 5, 16]", "range = [3, 0, 5, 16]"))
    monkeypatch.chdir(tmp_path)
    fresh_clone(tmp_path)
    _, vouched = counting(monkeypatch, "list", "--json")
    for note in (tmp_path / ".tether" / "notes").iterdir():
        note.write_text("".join(line for line in note.read_text().splitlines(True) if not line.startswith("vouched =")))
    fresh_clone(tmp_path)
    _, resolved = counting(monkeypatch, "list", "--json")
    got = states(vouched)
    assert got == states(resolved)
    assert {s[0] for s in got.values()} == {"ok", "moved", "ambiguous"}, got  # (no old text: renames offered)


def test_an_edit_that_keeps_the_files_size_and_time_is_still_seen(workspace, monkeypatch):
    """A file's digest is kept with its stamp so that the next command need not read it; an
    edit that keeps its size and puts its mtime back (``touch -r``, ``rsync -t``) still
    changes its ctime, and is read."""
    import os
    f = workspace / "m1.py"
    old = os.stat(f).st_mtime_ns - 10_000_000_000
    os.utime(f, ns=(old, old))  # settled long ago: its stamp is kept by the next command
    counts, out = counting(monkeypatch, "list", "--json")
    assert {s[0] for s in states(out).values()} == {"ok"}
    f.write_text(helpers(1).replace("return x + 1", "return x - 1"))  # the same size
    os.utime(f, ns=(old, old))
    counts, out = counting(monkeypatch, "list", "--json")
    assert counts["parsed"]  # read and resolved again
    assert sorted(s[0] for s in states(out).values()).count("changed") == 1
