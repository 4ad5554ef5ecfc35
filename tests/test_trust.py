"""One bad note file breaks nothing else, input errors say so (exit 2, one line), and nothing
is written that would not read back. Through the real CLI."""

import json
import os
import subprocess
from pathlib import Path

import pytest
from samples import TETHER

SRC = "def charge(cents):\n    if cents <= 0:\n        raise ValueError(cents)\n    return cents\n"


def tether(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([TETHER, *args], cwd=root, capture_output=True, text=True, input=stdin)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "billing.py").write_text(SRC)
    assert tether(tmp_path, "init", str(tmp_path)).returncode == 0
    assert tether(tmp_path, "record", "decision", "billing.py:1", "--title", "Charges are positive").returncode == 0
    return tmp_path


def note_file(ws: Path, name: str, anchor: str) -> Path:
    p = ws / ".tether" / "notes" / name
    p.write_text(f'+++\nid = "{name[:26]}"\nkind = "decision"\ntitle = "bad"\n\n{anchor}+++\n\nbody\n')
    return p


@pytest.mark.parametrize("anchor", [
    'tags = ' + "[" * 300 + "]" * 300 + "\n",  # nested arrays: the readers' stacks
    '[[anchors]]\ntype = "file"\npath = "../../outside.py"\n',
    '[[anchors]]\ntype = "file"\npath = "/etc/passwd"\n',
    '[[anchors]]\ntype = "file"\npath = "bill\\u0000ing.py"\n',
], ids=["nested", "dotdot", "absolute", "nul"])
def test_one_broken_note_file_is_reported_and_the_others_served(ws: Path, anchor: str):
    note_file(ws, "01m8zzzzzzzzzzzzzzzzzzzzzz-bad.md", anchor)
    listed = tether(ws, "list", "--json")
    assert listed.returncode == 0, listed.stderr
    out = json.loads(listed.stdout)
    assert [n["title"] for n in out["notes"]] == ["Charges are positive"]
    (broken,) = out["broken"]
    assert broken["file"].endswith("-bad.md") and broken["line"] >= 2
    for cmd in (["check"], ["doctor"], ["context", "billing.py:2"]):
        r = tether(ws, *cmd)
        assert r.returncode in (0, 1) and "Traceback" not in r.stderr, (cmd, r.stderr)
    show = tether(ws, "show", "01m8zzzz")
    assert show.returncode == 2 and "cannot be read" in show.stderr


def test_a_note_that_would_not_read_back_is_not_written(ws: Path):
    before = sorted((ws / ".tether" / "notes").iterdir())
    r = tether(ws, "record", "decision", "billing.py:1", "--title", "merged", "--body", "-",
               stdin="ours\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> branch\n")
    assert r.returncode == 2 and "would not read back" in r.stderr and "merge conflict" in r.stderr
    assert sorted((ws / ".tether" / "notes").iterdir()) == before


def test_input_errors_exit_2_with_one_line(ws: Path):
    for args, says in ((["check", "nope.py"], "no such file"),
                       (["context", "billing.py:99999"], "line out of range"),
                       (["show", "01m"], "at least 4 characters")):
        r = tether(ws, *args)
        assert r.returncode == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)


def test_a_link_leading_out_of_the_workspace_is_not_followed(ws: Path, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.py").write_text(SRC)
    os.symlink(outside, ws / "linked")
    note_file(ws, "01m8yyyyyyyyyyyyyyyyyyyyyy-link.md", '[[anchors]]\ntype = "file"\npath = "linked/secret.py"\n')
    for cmd in (["list"], ["check"], ["doctor"]):
        r = tether(ws, *cmd)
        assert r.returncode in (0, 1) and "Traceback" not in r.stderr, (cmd, r.stderr)
    assert "[orphaned]" in tether(ws, "list").stdout


@pytest.mark.parametrize("check", [
    '[[checks]]\nid = "broken"\nkind = "forbid"\nquery = "(call"\nlang = "python"\n',
    '[[checks]]\nid = "elvish"\nkind = "forbid"\nquery = "(call) @c"\nlang = "elvish"\n',
    '[[checks]]\nid = "huge"\nkind = "forbid"\nquery = "' + "(" * 200 + "_" + ")" * 200 + ' @c"\nlang = "python"\n',
], ids=["does-not-compile", "unknown-language", "nested-too-deep"])
def test_a_check_that_cannot_run_is_a_finding_never_silence(ws: Path, check: str):
    p = ws / ".tether" / "notes" / "01m8xxxxxxxxxxxxxxxxxxxxxx-inv.md"
    p.write_text('+++\nid = "01m8xxxxxxxxxxxxxxxxxxxxxx"\nkind = "invariant"\ntitle = "never print"\n\n'
                 '[[anchors]]\ntype = "file"\npath = "billing.py"\n\n' + check + "+++\n")
    r = tether(ws, "check")
    assert r.returncode == 1 and "did not run" in r.stdout and "never print" in r.stdout, r.stdout
    d = tether(ws, "doctor")
    assert d.returncode == 1 and "cannot run" in d.stdout


def test_a_note_file_that_is_a_link_is_not_read(ws: Path, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside") / "note.md"
    outside.write_text('+++\nid = "01m8wwwwwwwwwwwwwwwwwwwwww"\nkind = "decision"\ntitle = "from outside"\n+++\n')
    os.symlink(outside, ws / ".tether" / "notes" / "01m8wwwwwwwwwwwwwwwwwwwwww-link.md")
    out = json.loads(tether(ws, "list", "--json").stdout)
    assert [n["title"] for n in out["notes"]] == ["Charges are positive"]
    assert "a link" in out["broken"][0]["reason"]


@pytest.mark.parametrize("folder", ["notes", "cache"])
def test_tether_folders_committed_as_links_leading_out_are_refused(ws: Path, tmp_path_factory, folder: str):
    outside = tmp_path_factory.mktemp("outside")
    target = ws / ".tether" / folder
    if target.exists():
        os.rename(target, outside / folder)
    os.symlink(outside / folder, target)
    for args in (["list"], ["record", "decision", "billing.py:1", "--title", "x"]):
        r = tether(ws, *args)
        assert r.returncode == 2 and "leads outside the workspace" in r.stderr, (args, r.stderr)


def test_an_editor_that_fails_is_an_error(ws: Path):
    note = json.loads(tether(ws, "list", "--json").stdout)["notes"][0]["id"]
    r = subprocess.run([TETHER, "edit", note], cwd=ws, capture_output=True, text=True, env={**os.environ, "VISUAL": "false"})
    assert r.returncode == 2 and "exited with 1" in r.stderr
    r = subprocess.run([TETHER, "edit", note], cwd=ws, capture_output=True, text=True,
                       env={**os.environ, "VISUAL": "/no/such/editor"})
    assert r.returncode == 2 and "cannot start the editor" in r.stderr


def damage(ws: Path) -> None:
    """64 KiB of garbage in the middle of the index's data file."""
    data = ws / ".tether" / "cache" / "index" / "data.mdb"
    size = data.stat().st_size
    with open(data, "r+b") as f:
        f.seek(max(0, size // 2 - 32768))
        f.write(os.urandom(65536))


@pytest.mark.parametrize("how", ["pages overwritten", "a file for a folder"])
@pytest.mark.parametrize("command", [["list"], ["reindex"], ["check"]])
def test_a_damaged_index_is_moved_aside_and_rebuilt_saying_so_once(ws: Path, how: str, command: list):
    for i in range(2, 40):  # enough notes for the index to span pages
        assert tether(ws, "record", "decision", "billing.py:1", "--title", f"note {i}", "--body", "x" * 3000).returncode == 0
    if how == "pages overwritten":
        damage(ws)
    else:
        index = ws / ".tether" / "cache" / "index"
        for f in index.iterdir():
            f.unlink()
        index.rmdir()
        index.write_text("not an index")
    r = tether(ws, *command)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.count("rebuilding it from the note files") <= 1
    assert len(json.loads(tether(ws, "list", "--json").stdout)["notes"]) == 39
    assert "damaged" not in tether(ws, "list").stderr  # said once, then rebuilt


def test_record_says_what_it_anchored_and_a_comment_line_anchors_its_statement(ws: Path):
    (ws / "billing.py").write_text(SRC.replace("    if cents", "    # refuse nothing-charges\n    if cents"))
    r = tether(ws, "record", "boundary", "billing.py:2", "--span", "--title", "no zero charges")
    assert r.returncode == 0 and len(r.stdout.split()) == 1  # the id alone on standard output
    assert "a statement in `charge` at billing.py:3-4" in r.stderr, r.stderr


def test_doctor_names_the_places_an_ambiguous_note_matches(ws: Path):
    (ws / "billing.py").write_text(SRC.replace("charge", "bill") + "\n\n" + SRC.replace("charge", "invoice"))
    (ws / ".tether" / "cache").rename(ws / "gone-cache")  # no cache: the note's fingerprint decides
    d = tether(ws, "doctor")
    assert "matches 2 places equally well (`bill` at lines 1-4, `invoice` at lines 7-10)" in d.stdout, d.stdout
    assert "billing.py:1:" in d.stdout and "billing.py:1:" in tether(ws, "check").stdout  # one place named by both


def test_damage_found_while_reading_one_note_rebuilds_the_index(ws: Path, monkeypatch):
    import lmdb

    from tether.core.store import Store
    from tether.core.workspace import Workspace
    nid = json.loads(tether(ws, "list", "--json").stdout)["notes"][0]["id"]
    w = Workspace(ws)
    w.refresh()
    get, damaged = Store.get, []

    def once_damaged(self, txn, db, key):  # the notes table reads as damaged once (real LMDB otherwise)
        if db == "notes" and not damaged:
            damaged.append(key)
            raise lmdb.CorruptedError("simulated: page of the wrong type")
        return get(self, txn, db, key)
    monkeypatch.setattr(Store, "get", once_damaged)
    assert w.note(nid).title == "Charges are positive" and damaged
    w.close()
