"""The call graph as a process with no server reads it from the store (``StoredTable``): the
same callees as the whole table a server holds, and never a wrong one when files came, went
or changed since the store was written — on real sources, real grammars, real LMDB."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tether.context import calls
from tether.context.ranking import CALLEE, context_for
from tether.core.text import digest
from tether.core.workspace import Workspace

REPO = Path(__file__).resolve().parent.parent


def resolved(index, rel: str, line: int) -> list | None:
    """What the definition at ``line`` calls, as ``callee_notes`` resolves it."""
    src, syms = index.touched(rel, None, line)
    if src.tree is None or not 0 <= line < len(src.pos.byte_starts):
        return None
    d = calls._innermost(src, calls._code_start(src, line))
    if d is None:
        return None
    index.refresh()
    return [(tuple(t), spelled) for t, spelled in calls.Resolver(index, rel, src, syms).callees(d)]


@pytest.fixture(scope="module")
def real(tmp_path_factory) -> Path:
    """This project's own sources and the capture sets' repositories (Python, TypeScript, Go,
    Rust, Java) in one workspace: many names defined more than once."""
    root = tmp_path_factory.mktemp("calls") / "repo"
    shutil.copytree(REPO / "server" / "tether", root / "tether", ignore=shutil.ignore_patterns("__pycache__"))
    for repos in sorted((REPO / "bench" / "sessions").glob("*/repos")):
        shutil.copytree(repos, root / "sets" / repos.parent.name, ignore=shutil.ignore_patterns("__pycache__", ".*"))
    ws, _ = Workspace.init(root, exact=True)
    ws.close()
    return root


def answers(ws: Workspace, lines: dict[str, list[int]]) -> dict[tuple[str, int], tuple]:
    index = calls._index_of(ws)
    return {(rel, line): (resolved(index, rel, line), calls.declared_line(ws, rel, line))
            for rel, at in lines.items() for line in at}


def test_the_stored_table_resolves_every_call_as_the_whole_table_does(real: Path):
    """At the first line of every definition of ~550 files: the same callees, in the same
    order, and the same declared line (an ``@overload`` stub's implementation)."""
    server = Workspace.find(real)
    try:
        while calls.warm(server, 10_000):
            pass
        whole = calls._index_of(server)
        assert isinstance(whole, calls.SymbolIndex) and whole.complete
        lines = {rel: sorted({d.node.start_point[0] for d in whole.touched(rel, None)[0].defs}) for rel in whole.files}
        want = answers(server, lines)
    finally:
        server.close()
    alone = Workspace.find(real)  # a process with no server: what it reads, from the store
    try:
        assert isinstance(calls._index_of(alone), calls.StoredTable)
        got = answers(alone, lines)
        assert any(parts for _, _, _, parts in calls._index_of(alone)._texts.values()), "parsed alone"
    finally:
        alone.close()
    assert sum(bool(v[0]) for v in want.values()) > 1000  # (calls resolved: the comparison says something)
    assert [key for key in want if got[key] != want[key]] == []


FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": "from .b import fee\n\n\ndef pay(x):\n    fee(x)\n    return tally(x)\n",
    "pkg/b.py": "def fee(x):\n    return x\n",
    "pkg/zz.py": "def tally(x):\n    return x\n",
    "lib/util.py": "def other(x):\n    return x\n",
}


@pytest.fixture
def small(tmp_path) -> tuple[Path, str]:
    root = tmp_path / "repo"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    ws, _ = Workspace.init(root, exact=True)
    tally = ws.record("decision", "pkg/zz.py", 0, title="tally counts once").id
    ws.close()
    for folder in (root, root / "pkg", root / "lib"):  # folders as old as a real repository's
        os.utime(folder, ns=(1_600_000_000 * 10**9,) * 2)
    return root, tally


def callee_ids(root: Path) -> set[str]:
    """The callee notes at ``pay`` in a new process with no server."""
    ws = Workspace.find(root)
    try:
        assert isinstance(calls._index_of(ws), calls.StoredTable)
        return {i.note.id for i in context_for(ws, "pkg/a.py", 4).items if i.tier == CALLEE}
    finally:
        ws.close()


@pytest.mark.parametrize("where", ["pkg/more.py", "lib/deep/more.py", "top.py"])
def test_a_name_defined_in_a_file_added_since_is_no_longer_unique(small, where: str):
    root, tally = small
    assert callee_ids(root) == {tally}  # `tally`: the one definition in the workspace
    (root / where).parent.mkdir(parents=True, exist_ok=True)
    (root / where).write_text("def tally(x):\n    return 0\n")
    assert callee_ids(root) == set()  # two now: which one is called is not known
    (root / where).unlink()
    assert callee_ids(root) == {tally}


def post_edit(root: Path, rel: str, old: str, new: str, tid: str = "t1") -> None:
    """An agent's Edit of ``rel`` and the PostToolUse hook after it, with no server."""
    path = root / rel
    path.write_text(path.read_text().replace(old, new))  # in place: no folder changes
    event = {"session_id": "s1", "transcript_path": "", "cwd": str(root), "hook_event_name": "PostToolUse",
             "tool_name": "Edit", "tool_use_id": tid, "tool_response": {"filePath": str(path)},
             "tool_input": {"file_path": str(path), "old_string": old, "new_string": new}}
    r = subprocess.run([sys.executable, "-m", "tether", "hook", "claude-code"], input=json.dumps(event), cwd=root,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stderr


def test_a_name_an_agent_defines_in_place_elsewhere_is_no_longer_unique(small):
    root, tally = small
    assert callee_ids(root) == {tally}
    post_edit(root, "lib/util.py", "    return x\n", "    return x\n\n\ndef tally(x):\n    return 1\n")
    assert callee_ids(root) == set()  # two `tally` now
    post_edit(root, "lib/util.py", "\n\ndef tally(x):\n    return 1\n", "")
    assert callee_ids(root) == {tally}


def test_a_noted_file_an_agent_edits_is_kept_with_what_it_defines_after_the_edit(small):
    """The hook after the edit checks the file (it has a note): what it defines now is kept from
    that parse, so the next hook alone parses none of it again — and answers as the file is now."""
    root, tally = small
    assert callee_ids(root) == {tally}
    post_edit(root, "pkg/zz.py", "    return x\n", "    return x\n\n\ndef tally(y):\n    return y\n", "t1")
    ws = Workspace.find(root)
    try:
        with ws.store.read() as txn:
            kept = ws.store.get(txn, "symbols", "pkg/zz.py")
            assert ws.store.get(txn, "unparsed", "pkg/zz.py") is None
    finally:
        ws.close()
    assert kept["symbols"]["digest"] == digest((root / "pkg/zz.py").read_text())
    assert [d[1] for d in kept["symbols"]["defs"]] == ["tally", "tally"]
    assert callee_ids(root) == set()  # two `tally` now
    post_edit(root, "pkg/zz.py", "\n\ndef tally(y):\n    return y\n", "", "t2")
    assert callee_ids(root) == {tally}


def test_a_name_a_person_defines_in_place_between_turns_is_seen_from_the_next_prompt(small):
    """Written into the file by another program (an editor that writes in place: no folder
    changes), between two of the agent's turns: the prompt's hook looks at every file's stamp."""
    root, tally = small
    assert callee_ids(root) == {tally}
    (root / "lib/util.py").write_text(FILES["lib/util.py"] + "\n\ndef tally(x):\n    return 1\n")  # in place
    event = {"session_id": "s2", "transcript_path": "", "cwd": str(root), "hook_event_name": "UserPromptSubmit",
             "prompt": "go on"}
    r = subprocess.run([sys.executable, "-m", "tether", "hook", "claude-code"], input=json.dumps(event), cwd=root,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert callee_ids(root) == set()  # two `tally` now


def test_a_file_read_at_a_line_teaches_the_store_what_it_defines_now(small):
    root, tally = small
    assert callee_ids(root) == {tally}
    (root / "lib/util.py").write_text(FILES["lib/util.py"] + "\n\ndef tally(x):\n    return 1\n")  # in place
    ws = Workspace.find(root)
    try:
        context_for(ws, "lib/util.py", 1)
    finally:
        ws.close()
    assert callee_ids(root) == set()


def test_the_defining_files_are_read_as_they_are_now(small):
    root, tally = small
    (root / "lib/util.py").write_text(FILES["lib/util.py"] + "\n\ndef tally(x):\n    return 1\n")
    assert callee_ids(root) == set()  # two `tally`
    (root / "lib/util.py").write_text(FILES["lib/util.py"])  # edited in place: one `tally` again
    assert callee_ids(root) == {tally}
    (root / "pkg/zz.py").write_text("def tally(x):\n    return x + 0\n")  # the one, edited in place
    assert callee_ids(root) == {tally}  # read again: it still defines `tally`


def test_a_fresh_clone_with_no_server_knows_no_unique_name_until_every_file_is_parsed(small, monkeypatch):
    root, tally = small
    monkeypatch.setattr(calls, "PARSE_PER_CALL", 1)
    for n in range(30):
        (root / f"pkg/filler{n:02}.py").write_text(f"def f{n}():\n    return {n}\n")
    ws = Workspace.find(root)
    try:
        ws.store.write(lambda txn: [txn.drop(ws.store.db[db], delete=False)
                                    for db in ("symbols", "defined", "folders", "modules", "unparsed")])
        ws.store.write(lambda txn: ws.store.delete(txn, "meta", "source_tree"))
    finally:
        ws.close()
    seen = [callee_ids(root) for _ in range(40)]  # each call parses one more file
    assert seen[0] == set() and seen[-1] == {tally}
    assert seen.index({tally}) >= 30
