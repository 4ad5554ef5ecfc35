"""Notes follow code across files — a file renamed (git mv committed, staged, unstaged; a
plain mv), a function cut and pasted into another file and edited there, a module split —
and never onto other code: a same-named definition that is not the same code, a near copy
that was there all along, a deleted file. Through the real CLI, on git repositories."""

import json
import subprocess
from pathlib import Path

import pytest
from samples import TETHER

MODELS = '''import os


def parse_amount(text):
    """Amounts are integer cents."""
    value = int(text)
    if value < 0:
        raise ValueError("negative amount")
    return value


class Ledger:
    def __init__(self):
        self.entries = []

    def append(self, entry):
        self.entries.append(entry)
        return len(self.entries)

    def total(self):
        return sum(e.amount for e in self.entries)
'''
OTHER = '''def helper(x):
    return x * 2
'''


def sh(repo: Path, *args: str) -> str:
    r = subprocess.run(args, cwd=repo, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def tether(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([TETHER, *args], cwd=repo, capture_output=True, text=True)


def anchors(repo: Path) -> dict[str, dict]:
    """Note title -> its one anchor as `tether list --json` prints it."""
    out = json.loads(tether(repo, "list", "--json").stdout)
    return {n["title"]: n["anchors"][0] for n in out["notes"]}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "models.py").write_text(MODELS)
    (repo / "pkg" / "other.py").write_text(OTHER)
    sh(repo, "git", "init", "-q")
    sh(repo, "git", "-c", "user.email=a@b", "-c", "user.name=a", "add", "-A")
    sh(repo, "git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "init")
    assert tether(repo, "init").returncode == 0
    for args in (("decision", "pkg/models.py:6", "--title", "integers"),
                 ("invariant", "pkg/models.py:17", "--title", "append-only"),
                 ("boundary", "pkg/models.py:8", "--span", "--title", "negatives refused")):
        assert tether(repo, "record", *args).returncode == 0
    return repo


def commit(repo: Path) -> None:
    sh(repo, "git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qam", "change")


@pytest.mark.parametrize("how", ["committed", "staged", "unstaged", "plain mv"])
def test_a_renamed_file_takes_its_notes_along(repo: Path, how: str):
    if how == "plain mv" or how == "unstaged":
        (repo / "pkg" / "models.py").rename(repo / "pkg" / "money.py")
    else:
        sh(repo, "git", "mv", "pkg/models.py", "pkg/money.py")
        if how == "committed":
            commit(repo)
    found = anchors(repo)
    assert {t: (a["state"], a.get("now_path"), a["range"]["start"]["line"]) for t, a in found.items()} == {
        "integers": ("moved", "pkg/money.py", 3), "append-only": ("moved", "pkg/money.py", 15),
        "negatives refused": ("moved", "pkg/money.py", 7)}
    assert tether(repo, "doctor").returncode == 0  # nothing orphaned
    assert "pkg/money.py:4-9" in tether(repo, "list").stdout
    # sync writes the new path into the note files; then they are simply ok
    assert tether(repo, "sync").returncode == 0
    assert {a["path"] for a in anchors(repo).values()} == {"pkg/money.py"}
    assert {a["state"] for a in anchors(repo).values()} == {"ok"}


def test_a_function_cut_pasted_into_another_file_and_edited_is_followed(repo: Path):
    text = (repo / "pkg" / "models.py").read_text()
    start, end = text.index("def parse_amount"), text.index("class Ledger")
    moved = text[start:end].replace('"negative amount"', '"amounts are never negative"')
    (repo / "pkg" / "models.py").write_text(text[:start] + text[end:])
    (repo / "pkg" / "other.py").write_text(OTHER + "\n\n" + moved)
    found = anchors(repo)
    assert found["integers"]["state"] == "moved" and found["integers"]["now_path"] == "pkg/other.py"
    assert found["integers"]["range"]["start"]["line"] == 4
    assert found["negatives refused"]["now_path"] == "pkg/other.py"
    assert found["append-only"]["state"] == "moved" and "now_path" not in found["append-only"]  # stayed, shifted
    check = tether(repo, "check")
    assert check.returncode == 0, check.stdout


def test_a_split_module_sends_each_note_where_its_code_went(repo: Path):
    text = (repo / "pkg" / "models.py").read_text()
    cut = text.index("class Ledger")
    (repo / "pkg" / "amounts.py").write_text(text[:cut])
    (repo / "pkg" / "ledger.py").write_text(text[cut:])
    (repo / "pkg" / "models.py").unlink()
    found = anchors(repo)
    assert found["integers"]["now_path"] == "pkg/amounts.py"
    assert found["negatives refused"]["now_path"] == "pkg/amounts.py"
    assert found["append-only"]["now_path"] == "pkg/ledger.py"


def test_a_same_named_function_that_is_other_code_is_not_taken(repo: Path):
    text = (repo / "pkg" / "models.py").read_text()
    start, end = text.index("def parse_amount"), text.index("class Ledger")
    (repo / "pkg" / "models.py").write_text(text[:start] + text[end:])
    (repo / "pkg" / "other.py").write_text(OTHER + "\n\ndef parse_amount(text):\n    return float(text.strip('$'))\n")
    found = anchors(repo)
    assert found["integers"]["state"] == "orphaned" and found["integers"]["range"] is None
    assert tether(repo, "doctor").returncode == 1


def test_a_near_copy_that_was_there_all_along_is_not_the_deleted_code(repo: Path):
    near = ('\n\ndef parse_amount_legacy(text):\n    """Amounts are integer cents."""\n    value = int(text)\n'
            '    if value < 0:\n        value = 0\n    return value\n')
    (repo / "pkg" / "other.py").write_text(OTHER + near)
    assert tether(repo, "list").returncode == 0  # tether sees both files as they are now
    text = (repo / "pkg" / "models.py").read_text()
    start, end = text.index("def parse_amount"), text.index("class Ledger")
    (repo / "pkg" / "models.py").write_text(text[:start] + text[end:])
    (repo / "pkg" / "other.py").write_text(OTHER + near + "\n# touched\n")
    assert anchors(repo)["integers"]["state"] in ("orphaned", "ambiguous")
    assert anchors(repo)["integers"]["range"] is None


def test_a_deleted_file_orphans_its_notes(repo: Path):
    (repo / "pkg" / "models.py").unlink()
    assert {a["state"] for a in anchors(repo).values()} == {"orphaned"}
    assert "its file is gone" in tether(repo, "doctor").stdout


def test_an_agent_touching_the_new_file_gets_the_notes_that_moved_there(repo: Path):
    sh(repo, "git", "mv", "pkg/models.py", "pkg/money.py")
    def titles(line: int) -> list[str]:
        out = json.loads(tether(repo, "context", f"pkg/money.py:{line}", "--format", "json").stdout)
        return [n["title"] for n in out["notes"]]
    assert titles(6) == ["integers"]  # in parse_amount, which moved here with its file
    assert set(titles(8)) == {"integers", "negatives refused"}  # ... and on the statement the boundary is about
    assert titles(17) == ["append-only"]


def test_a_file_renamed_between_two_commands_is_followed_by_the_second(repo: Path):
    """Each command finds gone files by their folders' mtimes, as an earlier command
    recorded them: folders as old as a real repository's, a rename between two commands."""
    import os
    for d in (repo, repo / "pkg"):
        os.utime(d, ns=(1_600_000_000 * 10**9,) * 2)
    def titles(rel: str, line: int) -> list[str]:
        r = tether(repo, "context", f"{rel}:{line}", "--format", "json")
        assert r.returncode == 0, r.stderr
        return [n["title"] for n in json.loads(r.stdout)["notes"]]
    assert titles("pkg/other.py", 2) == [] and titles("pkg/models.py", 6) == ["integers"]  # recorded: nothing gone
    (repo / "pkg" / "models.py").rename(repo / "pkg" / "money.py")
    assert titles("pkg/money.py", 6) == ["integers"]
    (repo / "pkg" / "money.py").rename(repo / "pkg" / "models.py")  # and back, within the same second
    assert titles("pkg/models.py", 6) == ["integers"] and titles("pkg/other.py", 2) == []
    (repo / "pkg" / "models.py").unlink()
    assert {a["state"] for a in anchors(repo).values()} == {"orphaned"}


def test_following_gone_files_that_takes_longer_than_a_second_ends(repo: Path, monkeypatch):
    """Where anchored files went is worked out once per process however long it takes
    (locating a gone file asks for the arrivals again: when the work outlived the second a
    process without a watch trusts it, that recursed until Python's stack ran out)."""
    from tether.core.files import SourceTree
    from tether.core.workspace import Workspace
    (repo / "pkg" / "models.py").unlink()
    monkeypatch.setattr(SourceTree, "unchanged_since", lambda self, t, assume=1.0: False)  # every look: too late
    ws = Workspace.find(repo)
    try:
        assert [loc.state for loc in ws.locate("pkg/other.py")] == []
        assert {loc.state for loc in ws.locate("pkg/models.py")} == {"orphaned"}
    finally:
        ws.close()


@pytest.mark.parametrize("how", ["committed", "plain mv"])
def test_file_and_line_anchors_follow_a_renamed_file(repo: Path, how: str):
    (repo / "docs").mkdir()
    (repo / "docs" / "ops.txt").write_text("restart order:\n  1. the queue\n  2. the workers\n")
    sh(repo, "git", "add", "docs/ops.txt")
    commit(repo)
    assert tether(repo, "record", "workaround", "pkg/models.py", "--file", "--title", "whole module").returncode == 0
    assert tether(repo, "record", "intent", "docs/ops.txt:2-3", "--span", "--title", "the order").returncode == 0
    if how == "committed":
        sh(repo, "git", "mv", "pkg/models.py", "pkg/money.py")
        sh(repo, "git", "mv", "docs/ops.txt", "docs/operations.txt")
        commit(repo)
    else:
        (repo / "pkg" / "models.py").rename(repo / "pkg" / "money.py")
        (repo / "docs" / "ops.txt").rename(repo / "docs" / "operations.txt")
    found = anchors(repo)
    assert (found["whole module"]["state"], found["whole module"]["now_path"]) == ("moved", "pkg/money.py")
    assert (found["the order"]["state"], found["the order"]["now_path"]) == ("moved", "docs/operations.txt")
    assert found["the order"]["range"]["start"]["line"] == 1
    assert tether(repo, "sync").returncode == 0
    found = anchors(repo)
    assert found["whole module"]["path"] == "pkg/money.py" and found["the order"]["path"] == "docs/operations.txt"


def test_a_function_moved_and_renamed_on_a_name_built_on_the_old_one_is_followed(repo: Path):
    assert tether(repo, "record", "intent", "pkg/other.py:1", "--title", "helper doubles").returncode == 0
    text = (repo / "pkg" / "models.py").read_text()
    start, end = text.index("def parse_amount"), text.index("class Ledger")
    moved = text[start:end].replace("parse_amount", "parse_amount_strict").replace("int(text)", "int(text.strip())")
    (repo / "pkg" / "models.py").write_text(text[:start] + text[end:])
    (repo / "pkg" / "other.py").write_text(OTHER + "\n\n" + moved)
    found = anchors(repo)["integers"]
    assert (found["state"], found["now_path"], found["now_named"]) == ("renamed", "pkg/other.py", "parse_amount_strict")


STORE_GO = '''package store

func readUsers(db *DB, limit int) []Record {
\trows := db.Query("users", limit)
\treturn keepActive(rows)
}

func readGroups(db *DB, limit int) []Record {
\trows := db.Query("groups", limit)
\treturn keepActive(rows)
}

func Report(db *DB) int {
\treturn len(readUsers(db, 1)) + len(readGroups(db, 1))
}
'''
UTIL_GO = '''package store

func keepActive(rows []Record) []Record {
\treturn rows
}
'''


@pytest.mark.parametrize("names, followed", [
    ({"readUsers": "ReadUsers", "readGroups": "ReadGroups"}, True),    # names and code say the same pairing
    ({"readUsers": "ReadGroups", "readGroups": "ReadUsers"}, False),   # each name now on the other's code
])
def test_look_alikes_cut_into_another_file_and_renamed_together(tmp_path: Path, names: dict, followed: bool):
    """Two near twins cut from one file and pasted, renamed, into another that tether had
    seen: each is as like the other's new self as its own, so each is followed only when
    its code and its name both pair it with the same new function; else both are offered."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "store.go").write_text(STORE_GO)
    (repo / "util.go").write_text(UTIL_GO)
    sh(repo, "git", "init", "-q")
    sh(repo, "git", "-c", "user.email=a@b", "-c", "user.name=a", "add", "-A")
    sh(repo, "git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "init")
    assert tether(repo, "init").returncode == 0
    for line, title in ((4, "users are paged"), (9, "groups are never cached"), (None, "util stays small")):
        where = f"store.go:{line}" if line else "util.go:4"
        assert tether(repo, "record", "decision", where, "--title", title).returncode == 0
    start, end = STORE_GO.index("func readUsers"), STORE_GO.index("func Report")
    moved = STORE_GO[start:end].replace("readUsers", "A").replace("readGroups", "B")
    moved = moved.replace("A", names["readUsers"]).replace("B", names["readGroups"])
    report = STORE_GO[end:].replace("readUsers", names["readUsers"]).replace("readGroups", names["readGroups"])
    (repo / "store.go").write_text(STORE_GO[:start] + report)
    (repo / "util.go").write_text(UTIL_GO + "\n" + moved.rstrip() + "\n")
    found = anchors(repo)
    users, groups = found["users are paged"], found["groups are never cached"]
    if followed:
        assert (users["state"], users["now_path"], users["now_named"]) == ("renamed", "util.go", "ReadUsers")
        assert (groups["state"], groups["now_path"], groups["now_named"]) == ("renamed", "util.go", "ReadGroups")
    else:
        assert users["state"] == groups["state"] == "ambiguous" and "now_path" not in users and "now_path" not in groups
