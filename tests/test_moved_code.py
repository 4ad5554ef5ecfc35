"""Notes follow their code into other files before any ``tether sync``, on every face that asks
about the file it arrived in: a function cut from one module and pasted into another that was
already there, and a file renamed with ``git mv`` or a plain ``mv`` (no git at all). The real CLI,
hook and MCP server in subprocesses, a real git repository, real LMDB."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from samples import git_init
from test_mcp import call, connect

ONE = '''def parse(text):
    """Amounts are integer cents."""
    value = int(text)
    if value < 0:
        raise ValueError("negative amount")
    return value


def render(value):
    return f"{value // 100}.{value % 100:02d}"
'''
TWO = '''def helper(x):
    return x * 2
'''


def tether(root: Path, *args: str, stdin: str | None = None) -> str:
    r = subprocess.run([sys.executable, "-m", "tether", *args], cwd=root, input=stdin, capture_output=True, text=True,
                       timeout=120, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r.stdout


def line_of(text: str, needle: str) -> int:
    return next(i for i, row in enumerate(text.split("\n"), 1) if needle in row)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    git_init(root)
    (root / "pkg").mkdir()
    (root / "pkg/one.py").write_text(ONE)
    (root / "pkg/two.py").write_text(TWO)
    subprocess.run(["git", "add", "."], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "start"], cwd=root, check=True)
    tether(root, "init")
    tether(root, "record", "decision", "pkg/one.py:3", "--title", "Amounts are integer cents",
           "--rationale", "floats drift", "--rejected", "Decimal: slow on the hot path")
    tether(root, "record", "intent", "pkg/one.py", "--file", "--title", "one module per money concern")
    return root


def test_a_function_cut_into_another_existing_file_reaches_every_face_of_that_file(repo: Path):
    cut = ONE.index("def render")
    (repo / "pkg/one.py").write_text(ONE[cut:])
    two = TWO + "\n\n" + ONE[:cut].rstrip() + "\n"
    (repo / "pkg/two.py").write_text(two)
    line = line_of(two, "value = int(text)")

    ctx = tether(repo, "context", f"pkg/two.py:{line}")
    assert "## On the code around it\n\ndecision (`parse`, moved here from pkg/one.py): Amounts are integer cents (" in ctx
    assert "Rejected: Decimal (slow on the hot path)" in ctx
    assert "one module per money concern" not in ctx  # the file note stays with its file

    listed = tether(repo, "list", "pkg/two.py")
    assert "Amounts are integer cents" in listed and f"`parse` at pkg/two.py:{line_of(two, 'def parse')}" in listed
    assert "Amounts are integer cents" in tether(repo, "list")  # and everywhere, with its new place
    (item,) = json.loads(tether(repo, "list", "pkg/two.py", "--json"))["notes"]
    assert item["anchors"][0]["now_path"] == "pkg/two.py" and item["anchors"][0]["state"] == "moved"

    event = {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Edit", "cwd": str(repo),
             "tool_input": {"file_path": str(repo / "pkg/two.py"), "old_string": "value = int(text)",
                            "new_string": "value = int(text.strip())"}}
    out = json.loads(tether(repo, "hook", "claude-code", stdin=json.dumps(event)))
    assert "Amounts are integer cents" in json.dumps(out)

    async def mcp():
        async with connect(repo) as s:
            notes = (await call(s, "list_notes", path="pkg/two.py"))["notes"]
            assert [n["title"] for n in notes] == ["Amounts are integer cents"]
            got = await call(s, "get_context", path="pkg/two.py", line=line)
            assert [n["title"] for n in got["notes"]] == ["Amounts are integer cents"]
    import asyncio
    asyncio.run(mcp())


def test_a_definition_deleted_in_one_file_is_not_taken_by_a_look_alike_elsewhere(repo: Path):
    """Never misattach: ``parse`` deleted from one.py while two.py gets another, different
    ``parse`` — the note stays lost (counted, not handed over)."""
    cut = ONE.index("def render")
    (repo / "pkg/one.py").write_text(ONE[cut:])
    two = TWO + "\n\ndef parse(text):\n    return [t for t in text.split(',') if t]\n"
    (repo / "pkg/two.py").write_text(two)
    ctx = tether(repo, "context", f"pkg/two.py:{line_of(two, 'return [t')}")
    assert "Amounts are integer cents" not in ctx
    assert "Amounts are integer cents" not in tether(repo, "list", "pkg/two.py")


@pytest.mark.parametrize("how", ["git mv", "mv"])
def test_file_and_line_notes_of_a_renamed_file_show_its_new_path_everywhere(repo: Path, how: str):
    if how == "git mv":
        subprocess.run(["git", "mv", "pkg/one.py", "pkg/money.py"], cwd=repo, check=True)
    else:
        subprocess.run(["rm", "-rf", ".git"], cwd=repo, check=True)  # no git to ask at all
        (repo / "pkg/one.py").rename(repo / "pkg/money.py")
    listed = tether(repo, "list")
    assert "file pkg/money.py (was pkg/one.py)" in listed and "`parse` at pkg/money.py:1-" in listed
    assert "pkg/one.py" not in listed.replace("(was pkg/one.py)", "")
    assert "file pkg/money.py (was pkg/one.py)" in tether(repo, "list", "pkg/money.py")
    nid = json.loads(tether(repo, "list", "--json"))["notes"]
    file_note = next(n for n in nid if n["title"] == "one module per money concern")
    assert "file pkg/money.py (was pkg/one.py)" in tether(repo, "show", file_note["id"])
    ctx = tether(repo, "context", "pkg/money.py:4")
    assert "## On this file\n\nintent (moved here from pkg/one.py): one module per money concern (" in ctx
    assert "Amounts are integer cents" in ctx


TWINS = '''def read_users(db, limit):
    rows = db.query("users", limit=limit)
    return [to_record(r) for r in rows if r.active]


def read_groups(db, limit):
    rows = db.query("groups", limit=limit)
    return [to_record(r) for r in rows if r.active]
'''


def test_near_twins_renamed_together_each_keep_their_own_note(tmp_path: Path):
    """Two look-alike functions renamed in one change (a pull, a search and replace): each
    note follows its own function, and a touch of one hands over its note, never the other's."""
    root = tmp_path / "repo"
    git_init(root)
    (root / "store.py").write_text(TWINS)
    subprocess.run(["git", "add", "."], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "start"], cwd=root, check=True)
    tether(root, "init")
    tether(root, "record", "decision", f"store.py:{line_of(TWINS, 'users')}", "--title", "Users are read in pages")
    tether(root, "record", "invariant", f"store.py:{line_of(TWINS, 'groups')}", "--title", "Groups are never cached")
    after = TWINS.replace("read_", "fetch_").replace("if r.active]", "if r.active and not r.deleted]")
    (root / "store.py").write_text(after)

    users = tether(root, "context", f"store.py:{line_of(after, 'users')}")
    groups = tether(root, "context", f"store.py:{line_of(after, 'groups')}")
    assert "Users are read in pages" in users and "Groups are never cached" not in users
    assert "Groups are never cached" in groups and "Users are read in pages" not in groups
    listed = tether(root, "list", "store.py")
    assert "`fetch_users` at store.py:1-3" in listed and "`fetch_groups` at store.py:6-8" in listed


def test_a_function_renamed_on_its_way_into_another_file_reaches_that_files_context(repo: Path):
    """Cut, pasted into another module and renamed there (``parse`` to ``parse_cents``): no
    name leads from the new file to the note, so the note reaches the new file's context once
    its old file has been resolved again (here by ``list``; an agent's edit of it does the same)."""
    tether(repo, "context", "pkg/two.py:1")  # tether has seen two.py: what is new there is known to be new
    cut = ONE.index("def render")
    (repo / "pkg/one.py").write_text(ONE[cut:])
    two = TWO + "\n\n" + ONE[:cut].rstrip().replace("def parse(", "def parse_cents(") + "\n"
    (repo / "pkg/two.py").write_text(two)
    line = line_of(two, "value = int(text)")
    assert "`parse_cents` at pkg/two.py" in tether(repo, "list")
    ctx = tether(repo, "context", f"pkg/two.py:{line}")
    assert "decision (`parse_cents`, moved here from pkg/one.py): Amounts are integer cents (" in ctx
