"""The resident server for hooks (``tether serve``) and the hook's fallback: real processes,
a real Unix socket, the real ``tether hook claude-code`` command."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from samples import git_init, stop_server

from tether.cli.client import ask, listening, socket_path

CODE = "def pay(amount):\n    return amount\n\n\ndef refund(amount):\n    return -amount\n"


def tether(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tether", *args], cwd=root, input=stdin, capture_output=True,
                          text=True, timeout=120)


def hook(root: Path, path: str, session: str, *flags: str) -> str:
    event = {"session_id": session, "transcript_path": "", "cwd": str(root), "hook_event_name": "PreToolUse",
             "tool_name": "Read", "tool_input": {"file_path": str(root / path)}}
    r = tether(root, "hook", "claude-code", *flags, stdin=json.dumps(event))
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return r.stdout


def answering(root: Path) -> bool:
    return listening(socket_path(root))


def wait_for(cond, what: str, within: float = 60.0) -> None:
    end = time.monotonic() + within
    while not cond():
        assert time.monotonic() < end, f"{what}: not within {within} s"
        time.sleep(0.05)


@pytest.fixture
def root(tmp_path: Path):
    git_init(tmp_path)
    (tmp_path / "pay.py").write_text(CODE)
    assert tether(tmp_path, "init").returncode == 0
    assert tether(tmp_path, "record", "decision", "pay.py:1", "--title", "Amounts are integer cents").returncode == 0
    yield tmp_path.resolve()


@pytest.fixture
def server(root: Path):
    p = subprocess.Popen([sys.executable, "-m", "tether", "serve", str(root)], cwd=root,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for(lambda: answering(root), "the server listening")
    yield p
    p.kill()
    p.wait()
    p.stderr.close()


def test_a_hook_answers_the_same_through_the_server_as_alone(root: Path, server):
    alone = subprocess.run([sys.executable, "-m", "tether", "hook", "claude-code"], cwd=root, capture_output=True,
                           text=True, input=json.dumps({"session_id": "a", "cwd": str(root), "hook_event_name": "PreToolUse",
                                                        "tool_name": "Read", "tool_input": {"file_path": str(root / "pay.py")}}),
                           env={**os.environ, "XDG_RUNTIME_DIR": str(root / "nowhere")}).stdout  # no server found
    served = hook(root, "pay.py", "b")
    assert "Amounts are integer cents" in served
    assert json.loads(served) == json.loads(alone)
    assert server.poll() is None


def test_a_note_file_changed_on_disk_is_seen_by_the_very_next_call(root: Path, server):
    assert "Amounts are integer cents" in hook(root, "pay.py", "c")
    note = next((root / ".tether" / "notes").glob("*.md"))
    note.write_text(note.read_text().replace("Amounts are integer cents", "Amounts are integer pennies"))
    assert "Amounts are integer pennies" in hook(root, "pay.py", "d")  # no wait in between
    with open(note, "a") as f:  # appended in place: no rename for a watcher to see
        f.write("\nAppended by hand.\n")
    assert "Appended by hand." in hook(root, "pay.py", "e")
    assert tether(root, "record", "invariant", "pay.py:5", "--title", "Refunds are negative").returncode == 0
    assert "Refunds are negative" in hook(root, "pay.py", "f")


def test_with_no_server_the_hook_works_alone_and_serve_starts_one(root: Path):
    assert not answering(root)
    assert "Amounts are integer cents" in hook(root, "pay.py", "g", "--serve")
    wait_for(lambda: answering(root), "the server started by the hook")
    try:
        assert "Amounts are integer cents" in hook(root, "pay.py", "h", "--serve")
    finally:
        stop_server(root)


def test_a_tether_folder_in_the_repository_is_never_imported_by_the_server_a_hook_starts(root: Path):
    """The server starts in the repository's folder, where ``python -m tether`` would import
    the repository's own ``tether`` package: code from the repository, never to be run."""
    (root / "tether").mkdir()
    marker = root / "ran-the-repository's-code"
    (root / "tether" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    (root / "tether" / "__main__.py").write_text("")
    event = {"session_id": "p", "transcript_path": "", "cwd": str(root), "hook_event_name": "PreToolUse",
             "tool_name": "Read", "tool_input": {"file_path": str(root / "pay.py")}}
    r = subprocess.run([sys.executable, "-P", "-m", "tether", "hook", "claude-code", "--serve"], cwd=root,
                       input=json.dumps(event), capture_output=True, text=True, timeout=120)
    assert "Amounts are integer cents" in r.stdout
    try:
        wait_for(lambda: answering(root), "the server started by the hook")
        assert not marker.exists()
    finally:
        stop_server(root)


def test_a_second_server_for_the_same_workspace_steps_aside(root: Path, server):
    r = tether(root, "serve")
    assert r.returncode == 2 and "already serves" in r.stderr


def test_a_stale_server_is_not_trusted_and_exits(root: Path, server):
    assert ask(str(root), ["context", "pay.py:1"], str(root), b"", version="0.0.0-old") == (b"stale", b"", b"")
    assert server.wait(timeout=60) == 0
    assert "Amounts are integer cents" in hook(root, "pay.py", "i")  # the hook works alone
    assert not os.path.exists(socket_path(root))


@pytest.fixture
def other_install(tmp_path_factory) -> Path:
    """A second install of this very version: the package copied elsewhere, its grammars inside."""
    import shutil
    import tether as pkg
    here = Path(pkg.__file__).parent
    dest = tmp_path_factory.mktemp("other") / "site"
    shutil.copytree(here, dest / "tether", ignore=shutil.ignore_patterns("__pycache__"))
    from tether.core.languages import grammars_dir
    shutil.copytree(grammars_dir(), dest / "tether" / "grammars", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def serve_from(site: Path, root: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(site)}
    p = subprocess.Popen([sys.executable, "-m", "tether", "serve", str(root)], cwd=root, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for(lambda: answering(root), "the other install's server listening")
    return p


def test_a_server_of_another_install_of_the_same_version_makes_way(root: Path, other_install: Path):
    """A checkout and a venv of one version are two tethers: the hook of one is not answered
    by the other's server (after a `git pull` in one, its answers would be the old code's)."""
    server = serve_from(other_install, root)
    try:
        assert ask(str(root), ["context", "pay.py:1"], str(root), b"") == (b"stale", b"", b"")
        assert server.wait(timeout=60) == 0
        assert "Amounts are integer cents" in hook(root, "pay.py", "k")  # the hook works alone
    finally:
        server.kill()
        server.wait()


def test_a_server_whose_code_is_upgraded_under_it_exits(root: Path, other_install: Path):
    server = serve_from(other_install, root)
    try:
        build = f"{__import__('tether').__version__} {other_install / 'tether'}"
        code, out, _ = ask(str(root), ["context", "pay.py:1"], str(root), b"", version=build)
        assert code == b"0" and b"Amounts are integer cents" in out  # its own install's client is answered
        time.sleep(1.1)
        later = time.time() + 5
        os.utime(other_install / "tether" / "core" / "anchors.py", (later, later))  # `pip install -U`, `git pull`
        ask(str(root), ["context", "pay.py:1"], str(root), b"", version=build)
        assert server.wait(timeout=60) == 0  # gone: the next hook starts the new code's server
        assert not os.path.exists(socket_path(root))
    finally:
        server.kill()
        server.wait()


def test_a_dead_servers_socket_file_does_not_block_the_hook_or_a_new_server(root: Path):
    path = socket_path(root)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(path)  # bound, never listening: what a killed server leaves
    assert "Amounts are integer cents" in hook(root, "pay.py", "j")
    p = subprocess.Popen([sys.executable, "-m", "tether", "serve", str(root)], cwd=root, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: answering(root), "a new server on the dead one's path")
    finally:
        p.kill()
        p.wait()


def test_the_server_exits_when_its_workspace_goes(root: Path, server):
    import shutil
    shutil.rmtree(root / ".tether")
    assert server.wait(timeout=60) == 0


def test_context_answers_the_same_through_the_server_and_says_the_same_errors(root: Path, server):
    nowhere = {**os.environ, "XDG_RUNTIME_DIR": str(root / "nowhere")}
    for args in (["context", "pay.py:1"], ["context", "pay.py:99"], ["context", "nope.py:1"], ["context", "--json", "pay.py"]):
        alone = subprocess.run([sys.executable, "-m", "tether", *args], cwd=root, capture_output=True, text=True,
                               env=nowhere)
        served = tether(root, *args)
        assert (served.returncode, served.stdout, served.stderr) == (alone.returncode, alone.stdout, alone.stderr)
    assert "Amounts are integer cents" in tether(root / ".tether", "context", "../pay.py:1").stdout  # its own cwd
    assert server.poll() is None


def test_a_server_runs_nothing_for_a_folder_outside_its_workspace(root: Path, server, tmp_path_factory):
    other = tmp_path_factory.mktemp("other")
    assert ask(str(root), ["context", "x.py"], str(other), b"") == (b"elsewhere", b"", b"")
    event = {"session_id": "e", "cwd": str(other), "hook_event_name": "PreToolUse", "tool_name": "Read",
             "tool_input": {"file_path": str(other / "x.py")}}  # a hook run here for a session over there
    assert ask(str(root), ["hook", "claude-code"], str(root), json.dumps(event).encode()) == (b"elsewhere", b"", b"")
    assert server.poll() is None


def test_code_added_elsewhere_is_seen_by_the_very_next_call(root: Path, server):
    (root / "pay.py").write_text("from charges import charge\n\n\ndef pay(amount):\n    return charge(amount)\n")
    assert "Charges never round" not in tether(root, "context", "pay.py:5").stdout
    (root / "charges.py").write_text("def charge(amount):\n    return amount\n")
    assert tether(root, "record", "decision", "charges.py:1", "--title", "Charges never round").returncode == 0
    assert "Charges never round" in tether(root, "context", "pay.py:5").stdout  # a callee, through the server
    assert server.poll() is None


def test_a_callee_known_by_its_unique_name_follows_edits_elsewhere(root: Path, server):
    (root / "pay.py").write_text("def pay(amount):\n    return settle(amount)\n")  # `settle`: defined once, nowhere imported
    (root / "books.py").write_text("def settle(amount):\n    return amount\n")
    assert tether(root, "record", "decision", "books.py:1", "--title", "Settling is final").returncode == 0
    assert "Settling is final" in tether(root, "context", "pay.py:2").stdout
    (root / "other.py").write_text("def settle(x):\n    return x\n")  # now two: which one is meant is not known
    assert "Settling is final" not in tether(root, "context", "pay.py:2").stdout
    (root / "other.py").write_text("def close(x):\n    return x\n")  # renamed: one again
    assert "Settling is final" in tether(root, "context", "pay.py:2").stdout
    (root / "sub").mkdir()
    (root / "sub" / "more.py").write_text("def settle(x):\n    return x\n")  # a new folder with a second one
    assert "Settling is final" not in tether(root, "context", "pay.py:2").stdout
    os.remove(root / "sub" / "more.py")
    assert "Settling is final" in tether(root, "context", "pay.py:2").stdout
    assert server.poll() is None


LEDGER = '''class Ledger:
    def add(self, amount):
        total = amount + 1
        return total

    def remove(self, amount):
        return -amount


def pay(amount):
    return amount
'''
LEDGER_EDITS = [  # (old, new), each on the text the one before left
    ("total = amount + 1", "total = amount + 2"),  # in the body of the invariant's code: it drifted
    ("class Ledger:", "class Book:"),  # what the class holds is renamed with it
    ("class Book:", "class Ledger:"),
    ("def pay(amount):\n    return amount\n", "def pay(amount):\n    return amount\n\n\ndef pay(amount):\n    return 0\n"),
    ("\n\ndef pay(amount):\n    return 0\n", ""),
    ("class Ledger:", '"""\nclass Ledger:'),  # a docstring left open: the rest of the file is a string
    ('"""\nclass Ledger:', "class Ledger:"),
    ("    def remove(self, amount):\n        return -amount\n", ""),  # code deleted
]


def test_after_each_edit_the_served_check_says_what_the_hook_alone_says(root: Path, server, tmp_path_factory):
    """The server checks an edited file from what the edit changed (the anchors it did not
    reach keep their last resolution); the hook alone resolves every anchor. Two copies of a
    repository, edited alike, one answered by the server and one alone, answer alike."""
    import shutil
    (root / "ledger.py").write_text(LEDGER)
    for args in (("invariant", "ledger.py:2", "--title", "Adding never rounds"),
                 ("decision", "ledger.py:6", "--title", "Removal is a negative add"),
                 ("decision", "ledger.py:10", "--title", "Pay in cents")):
        assert tether(root, "record", *args).returncode == 0
    alone = tmp_path_factory.mktemp("alone") / "repo"
    shutil.copytree(root, alone, symlinks=True)  # no server answers there
    answers = {root: [], alone: []}
    for k, (old, new) in enumerate(LEDGER_EDITS):
        for repo in (root, alone):
            path = repo / "ledger.py"
            event = {"session_id": f"s{k}", "transcript_path": "", "cwd": str(repo), "hook_event_name": "PreToolUse",
                     "tool_name": "Edit", "tool_use_id": f"t{k}",
                     "tool_input": {"file_path": str(path), "old_string": old, "new_string": new}}
            assert tether(repo, "hook", "claude-code", stdin=json.dumps(event)).returncode == 0
            path.write_text(path.read_text().replace(old, new, 1))
            event.update(hook_event_name="PostToolUse", tool_response={"filePath": str(path)})
            r = tether(repo, "hook", "claude-code", stdin=json.dumps(event))
            assert r.returncode == 0 and r.stderr == "", r.stderr
            answers[repo].append(json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else "")
            listed = json.loads(tether(repo, "list", "--json").stdout)["notes"]  # every anchor as the index keeps it now
            answers[repo].append([(n["title"], a.get("state"), a.get("range"), a.get("now_named")) for n in listed
                                  for a in n["anchors"]])
    assert answers[root] == answers[alone]
    assert "changed since it was last confirmed" in answers[root][0]
    assert ("Removal is a negative add", "orphaned", None, None) in answers[root][-1]
    assert server.poll() is None
