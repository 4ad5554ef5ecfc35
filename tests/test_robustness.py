"""Bad input never loses notes: broken note files, bad positions and paths, files changed
behind tether's back, concurrent writers, a writer killed mid-write, a lost cache."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tether.core.notes import parse_note
from tether.core.workspace import Workspace

from samples import APP_PY, TETHER, git_init  # noqa: E402


WEB_TS = '''\
function handle(req: string): number {
  const n = req.length;
  return n * 2;
}
'''

TMP_NAME = re.compile(r"^\.[^/]+\.md\.[A-Za-z0-9_]+\.tmp$")  # atomic_write's temp files


def env_for(**extra) -> dict:
    env = dict(os.environ)
    for k in ("VISUAL", "EDITOR", "GIT_DIR", "GIT_WORK_TREE"):
        env.pop(k, None)
    env.update(PYTHONIOENCODING="utf-8", GIT_CONFIG_NOSYSTEM="1", **extra)
    return env


def raw(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([TETHER, *args], cwd=cwd, capture_output=True, text=True, env=env_for(), timeout=120)


def tether(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    r = raw(cwd, *args)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def ok(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    r = tether(cwd, *args)
    assert r.returncode == 0, f"tether {' '.join(args)} -> {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r


def ok_json(cwd: Path, *args: str):
    return json.loads(ok(cwd, *args).stdout)


def make_repo(root: Path) -> Path:
    git_init(root)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(APP_PY, encoding="utf-8")
    (root / "src" / "web.ts").write_text(WEB_TS, encoding="utf-8")
    return root


@pytest.fixture
def repo(tmp_path) -> Path:
    """A git repository with tether set up (in-process, as `tether init` does)."""
    root = make_repo(tmp_path / "repo")
    Workspace.init(root)
    return root


def notes_dir(root: Path) -> Path:
    return root / ".tether" / "notes"


def md_files(root: Path) -> list[Path]:
    return sorted(p for p in notes_dir(root).iterdir() if p.suffix == ".md" and not p.name.startswith("."))


def record(root: Path, title: str, pos: str = "src/app.py:4") -> str:
    return ok(root, "record", "decision", pos, "--title", title).stdout.strip()


# -- broken note files -------------------------------------------------------------------------

BROKEN = {
    # file name: (content, line doctor must name, words of the reason)
    "broken-toml.md": ('+++\nid = "01aaaaaaaaaaaaaaaaaaaaaaaa"\nkind = "decision"\ntitle = "unclosed\n'
                       'status = "active"\n+++\n', 4, "invalid TOML"),
    "unknown-kind.md": ('+++\nid = "01bbbbbbbbbbbbbbbbbbbbbbbb"\nkind = "opinion"\ntitle = "x"\n+++\n', 3,
                        "unknown kind 'opinion'"),
    "no-title.md": ('+++\nid = "01cccccccccccccccccccccccc"\nkind = "decision"\n+++\nbody\n', 1,
                    "missing required key 'title'"),
    "conflict.md": ('+++\nid = "01dddddddddddddddddddddddd"\nkind = "decision"\n<<<<<<< HEAD\ntitle = "ours"\n'
                    '=======\ntitle = "theirs"\n>>>>>>> feature\n+++\n', 4, "merge conflict markers"),
    "no-fence.md": ("just some text\n", 1, "starts with a '+++' line"),
}


class Broken:
    root: Path
    good: list[str]
    list_r: subprocess.CompletedProcess
    list_json: dict
    doctor_r: subprocess.CompletedProcess
    doctor_json: dict


@pytest.fixture(scope="module")
def broken(tmp_path_factory) -> Broken:
    b = Broken()
    b.root = root = make_repo(tmp_path_factory.mktemp("broken") / "repo")
    ok(root, "init")
    b.good = [record(root, "good one"), record(root, "good two", "src/web.ts:2")]
    for name, (text, _, _) in BROKEN.items():
        (notes_dir(root) / name).write_text(text, encoding="utf-8")
    with ThreadPoolExecutor(4) as ex:
        lr, lj, dr, dj = ex.map(lambda a: raw(root, *a),
                                [("list",), ("list", "--json"), ("doctor",), ("doctor", "--json")])
    b.list_r, b.doctor_r = lr, dr
    for r in (lr, lj, dr, dj):
        assert "Traceback" not in r.stderr, r.stderr
    assert lj.returncode == 0 and dj.returncode == 1, (lj.stderr, dj.stderr)
    b.list_json, b.doctor_json = json.loads(lj.stdout), json.loads(dj.stdout)
    return b


def test_list_still_shows_the_good_notes(broken):
    assert broken.list_r.returncode == 0
    for nid, title in zip(broken.good, ("good one", "good two")):
        assert re.search(rf"^{nid[:8]}\w* +  decision   {title}$", broken.list_r.stdout, re.M), broken.list_r.stdout
    assert sorted(n["id"] for n in broken.list_json["notes"]) == sorted(broken.good)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_list_reports_each_broken_file(broken, name):
    _, line, words = BROKEN[name]
    rel = f".tether/notes/{name}"
    assert re.search(rf"^{re.escape(rel)}:{line}: error: .*{re.escape(words)}", broken.list_r.stderr, re.M), \
        broken.list_r.stderr
    (entry,) = [e for e in broken.list_json["broken"] if e["file"] == rel]
    assert entry["line"] == line and words in entry["reason"]


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_doctor_names_file_line_and_reason(broken, name):
    _, line, words = BROKEN[name]
    rel = f".tether/notes/{name}"
    assert broken.doctor_r.returncode == 1
    assert re.search(rf"^{re.escape(rel)}:{line}: error: .*{re.escape(words)}", broken.doctor_r.stdout, re.M), \
        broken.doctor_r.stdout
    (f,) = [f for f in broken.doctor_json["findings"] if f["file"] == rel]
    assert (f["line"], f["severity"], f["code"]) == (line, "error", "broken-note")
    assert words in f["message"]


def test_broken_files_are_left_untouched_and_other_commands_work(broken):
    for name, (text, _, _) in BROKEN.items():
        assert (notes_dir(broken.root) / name).read_text(encoding="utf-8") == text
    assert len(broken.doctor_json["findings"]) == len(BROKEN)
    r = tether(broken.root, "reindex")
    assert r.returncode == 0 and f"{len(BROKEN)} note files could not be read" in r.stdout
    assert ok_json(broken.root, "show", broken.good[0], "--json")["title"] == "good one"


def test_non_utf8_note_file_is_reported_once_and_clearly(repo):
    nid = record(repo, "good")
    (notes_dir(repo) / "latin1.md").write_bytes(
        b'+++\nid = "01eeeeeeeeeeeeeeeeeeeeeeee"\nkind = "decision"\ntitle = "caf\xe9"\n+++\n')
    assert [n["id"] for n in ok_json(repo, "list", "--json")["notes"]] == [nid]
    r = tether(repo, "doctor")
    assert r.returncode == 1
    (line,) = [l for l in r.stdout.splitlines() if "latin1.md" in l]
    assert line.startswith(".tether/notes/latin1.md:4: error: ") and "UTF-8" in line, line
    assert line.count("latin1.md") == 1, line  # the place once, then the reason
    assert "--file" not in line, line  # advice meant for source files, not for notes


def test_a_duplicated_note_file_is_reported(repo):
    nid = record(repo, "original")
    (src,) = md_files(repo)
    shutil.copy(src, notes_dir(repo) / "copy-of-note.md")
    d = ok_json(repo, "list", "--json")
    assert [n["id"] for n in d["notes"]] == [nid]
    r = tether(repo, "doctor")
    assert r.returncode == 1 and f"duplicate id {nid}" in r.stdout


# -- bad positions, files and paths: exit 2, one clear line, no traceback ------------------------

@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    root = make_repo(tmp_path_factory.mktemp("inputs") / "repo")
    ok(root, "init")
    (root / "src" / "blob.py").write_bytes(b"def f():\n    return b'\x00\x01\x02'\n\x00\x00")
    (root / "src" / "latin1.py").write_bytes(b"def f():\n    pass\ns = 'caf\xe9'\n")
    line = b"def f():\n    return 1\n" + b"x = 1\n" * 10
    with open(root / "src" / "big.py", "wb") as f:
        f.write(line * (20 * 1024 * 1024 // len(line) + 1))
    with open(root / "src" / "huge.py", "wb") as f:
        f.write(line * (33 * 1024 * 1024 // len(line) + 1))
    (root / "src" / "link.py").symlink_to("/etc/passwd")
    (root.parent / "x.py").write_text("def outside():\n    pass\n")
    return root


BAD_INPUTS = [
    (["record", "decision", "src/app.py:99"], "src/app.py:99: line out of range (the file has 15 lines)"),
    (["record", "decision", "src/blob.py:1"], "src/blob.py: a binary file"),
    (["record", "decision", "src/blob.py:1", "--span"], "src/blob.py: a binary file"),
    (["record", "decision", "src/latin1.py:1"], "src/latin1.py:3: not valid UTF-8 (byte 0xe9)"),
    (["record", "decision", "src/big.py:1"], "src/big.py: too large"),
    (["record", "decision", "src/huge.py:1"], "too large"),
    (["record", "decision", "../x.py:1"], "../x.py: outside the workspace"),
    (["record", "decision", "../x.py", "--file"], "../x.py: outside the workspace"),
    (["record", "decision", "/etc/passwd:1"], "/etc/passwd: outside the workspace"),
    (["record", "decision", "/etc/passwd", "--file"], "/etc/passwd: outside the workspace"),
    (["record", "decision", "src/link.py", "--file"], "src/link.py: outside the workspace"),
    (["record", "decision", "src:1"], "src: not a regular file"),
    (["record", "decision", "src", "--file"], "src"),
    (["context", "../x.py:1"], "outside the workspace"),
    (["context", "/etc/passwd"], "outside the workspace"),
    (["list", "/etc"], "outside the workspace"),
    (["show", "../x.md"], "outside the workspace"),
]


@pytest.fixture(scope="module")
def bad_runs(inputs):
    """Every bad input above, run once (side by side, to keep the suite fast)."""
    cases = [[*a, "--title", "t"] if a[0] == "record" else a for a, _ in BAD_INPUTS]
    with ThreadPoolExecutor(4) as ex:
        return dict(zip([tuple(a) for a, _ in BAD_INPUTS], ex.map(lambda a: raw(inputs, *a), cases)))


@pytest.mark.parametrize("args,words", BAD_INPUTS)
def test_bad_input_exits_2_with_a_clear_message(inputs, bad_runs, args, words):
    r = bad_runs[tuple(args)]
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tether: ") and words in lines[0], r.stderr
    assert r.stdout == ""  # no note id: nothing was recorded


def test_binary_and_large_files_can_be_anchored_whole(inputs, bad_runs):
    for rel in ("src/blob.py", "src/latin1.py", "src/big.py"):
        d = ok_json(inputs, "record", "intent", rel, "--file", "--title", f"whole {rel}", "--json")
        assert d["anchors"] == [{"type": "file", "path": rel, "state": "ok", "range": None}]
    assert tether(inputs, "doctor").returncode == 0


# -- files changed behind tether's back -------------------------------------------------------

def test_note_edited_by_hand_is_picked_up(repo):
    nid = record(repo, "AAAA")
    (path,) = md_files(repo)
    assert ok_json(repo, "show", nid, "--json")["title"] == "AAAA"
    # same size: the content hash, not only the size, tells the change
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('title = "AAAA"', 'title = "BBBB"'), encoding="utf-8")
    assert ok_json(repo, "show", nid, "--json")["title"] == "BBBB"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('title = "BBBB"', 'title = "a longer title"\ntags = ["hand"]'), encoding="utf-8")
    d = ok_json(repo, "list", "--json")["notes"][0]
    assert (d["title"], d["tags"]) == ("a longer title", ["hand"])
    assert ok(repo, "doctor").returncode == 0


def test_note_written_by_hand_appears(repo):
    (notes_dir(repo) / "hand.md").write_text(
        '+++\nid = "01hzzzzzzzzzzzzzzzzzzzzzzz"\nkind = "boundary"\ntitle = "written by hand"\n\n'
        '[[anchors]]\ntype = "file"\npath = "src/app.py"\n+++\nBecause.\n', encoding="utf-8")
    (d,) = ok_json(repo, "list", "--json")["notes"]
    assert (d["id"], d["title"], d["file"]) == ("01hzzzzzzzzzzzzzzzzzzzzzzz", "written by hand", ".tether/notes/hand.md")
    ctx = ok_json(repo, "context", "src/app.py:4", "--format", "json")
    assert [n["id"] for n in ctx["notes"]] == ["01hzzzzzzzzzzzzzzzzzzzzzzz"]


def test_note_deleted_by_hand_disappears(repo):
    keep, gone = record(repo, "keep"), record(repo, "gone")
    (path,) = [p for p in md_files(repo) if p.name.startswith(gone)]
    path.unlink()
    assert [n["id"] for n in ok_json(repo, "list", "--json")["notes"]] == [keep]
    assert "gone" not in ok(repo, "list").stdout and keep[:8] in ok(repo, "list").stdout
    assert "no note" in tether(repo, "show", gone).stderr
    assert ok_json(repo, "context", "src/app.py:4", "--format", "json")["notes"][0]["id"] == keep
    assert ok(repo, "doctor").returncode == 0


# -- concurrent writers ------------------------------------------------------------------------

WORKER = r'''
import os, sys, time
from pathlib import Path
from tether.core.workspace import Workspace
root, tag, n, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
os.chdir(root)
ws = Workspace(Path(root))
ws.notes()
print("ready", flush=True)
while not os.path.exists(go):
    time.sleep(0.001)
i = 0
while n < 0 or i < n:
    kind = ("decision", "invariant", "boundary", "intent", "workaround")[i % 5]
    note = ws.record(kind, "src/app.py", 3 if i % 2 else 11, 4, title=f"{tag} note {i}")
    print(note.id, flush=True)
    i += 1
'''


def start_workers(root: Path, tmp_path: Path, tags: list[str], n: int) -> tuple[list[subprocess.Popen], Path]:
    script = tmp_path / "worker.py"
    script.write_text(WORKER, encoding="utf-8")
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, str(script), str(root), tag, str(n), str(go)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_for())
             for tag in tags]
    for p in procs:
        assert p.stdout.readline() == "ready\n", p.stderr.read()
    return procs, go


def test_concurrent_writers_lose_nothing(repo, tmp_path):
    procs, go = start_workers(repo, tmp_path, ["w0", "w1", "w2", "w3"], 10)
    go.touch()
    ids = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        ids += out.split()
    assert len(ids) == 40 and len(set(ids)) == 40
    files = md_files(repo)
    assert len(files) == 40
    assert sorted(parse_note(f.read_text(encoding="utf-8"), f.name).id for f in files) == sorted(ids)
    d = ok_json(repo, "list", "--json")
    assert d["broken"] == [] and sorted(n["id"] for n in d["notes"]) == sorted(ids)
    assert {n["title"] for n in d["notes"]} == {f"w{w} note {i}" for w in range(4) for i in range(10)}
    r = tether(repo, "doctor")
    assert r.returncode == 0, r.stdout
    assert [p.name for p in notes_dir(repo).iterdir() if p.name.startswith(".")] == []
    assert ok_json(repo, "reindex", "--json") == {"notes": 40, "broken": 0}


def test_concurrent_cli_records(repo):
    def one(i):
        return tether(repo, "record", "decision", "src/app.py:4" if i % 2 else "src/web.ts:2", "--title", f"cli {i}")
    with ThreadPoolExecutor(4) as ex:
        results = list(ex.map(one, range(6)))
    assert all(r.returncode == 0 for r in results), [r.stderr for r in results]
    ids = sorted(r.stdout.strip() for r in results)
    assert sorted(n["id"] for n in ok_json(repo, "list", "--json")["notes"]) == ids
    assert tether(repo, "doctor").returncode == 0


# -- crash safety --------------------------------------------------------------------------------

def test_writer_killed_mid_write_leaves_notes_intact(repo, tmp_path):
    rng = random.Random(1234)
    completed = []
    for round_ in range(3):
        procs, go = start_workers(repo, tmp_path, [f"k{round_}"], -1)
        (p,) = procs
        go.touch()
        want = len(completed) + 6 + round_ * 3
        while len(completed) < want:
            line = p.stdout.readline()
            assert line, p.stderr.read()
            completed.append(line.strip())
        time.sleep(rng.uniform(0, 0.01))
        os.kill(p.pid, signal.SIGKILL)
        p.wait(timeout=30)
        p.stdout.close()
        p.stderr.close()
        go.unlink()

    entries = sorted(notes_dir(repo).iterdir())
    notes = [e for e in entries if not e.name.startswith(".")]
    others = [e.name for e in entries if e.name.startswith(".")]
    assert all(TMP_NAME.match(n) for n in others), others  # only temp files, by their naming
    parsed = {}
    for f in notes:  # every note file is whole: no half-written note
        assert f.suffix == ".md", f.name
        n = parse_note(f.read_text(encoding="utf-8"), f.name)
        parsed[n.id] = n
    assert set(completed) <= set(parsed)  # every completed write is there
    # the next command works, and sees them all
    d = ok_json(repo, "list", "--json")
    assert d["broken"] == []
    assert {n["id"] for n in d["notes"]} == set(parsed)
    findings = ok_json_any(repo, "doctor", "--json")["findings"]
    assert {f["code"] for f in findings} <= {"leftover-temp"}, findings
    for name in others:
        (notes_dir(repo) / name).unlink()
    nid = record(repo, "after the crash")
    assert ok_json(repo, "show", nid, "--json")["title"] == "after the crash"
    assert tether(repo, "doctor").returncode == 0


def ok_json_any(cwd: Path, *args: str):
    """JSON output of a command that may exit 0 or 1 (doctor)."""
    r = tether(cwd, *args)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


# -- the cache is only a cache ---------------------------------------------------------------------

def test_deleted_cache_is_rebuilt_by_the_next_command(repo):
    a, b = record(repo, "one"), record(repo, "two", "src/web.ts:2")
    before = ok_json(repo, "list", "--json")
    shutil.rmtree(repo / ".tether" / "cache")
    after = ok_json(repo, "list", "--json")
    assert after == before
    assert (repo / ".tether" / "cache").is_dir()
    assert ok_json(repo, "context", "src/web.ts:2", "--format", "json")["notes"][0]["id"] == b
    assert tether(repo, "doctor").returncode == 0
    assert {a, b} == {n["id"] for n in after["notes"]}


def test_corrupt_cache_is_rebuilt_by_the_next_command(repo):
    a = record(repo, "one")
    data = repo / ".tether" / "cache" / "index" / "data.mdb"
    assert data.is_file()
    data.write_bytes(b"this is not an LMDB file" * 1000)
    r = tether(repo, "list", "--json")
    assert r.returncode == 0, r.stderr
    assert [n["id"] for n in json.loads(r.stdout)["notes"]] == [a]


def test_reindex_rebuilds_from_the_files(repo):
    a, b = record(repo, "one"), record(repo, "two")
    (pb,) = [p for p in md_files(repo) if p.name.startswith(b)]
    pb.unlink()
    (notes_dir(repo) / "hand.md").write_text(
        '+++\nid = "01hzzzzzzzzzzzzzzzzzzzzzzz"\nkind = "intent"\ntitle = "by hand"\n+++\n', encoding="utf-8")
    (notes_dir(repo) / "bad.md").write_text("+++\nnot toml at all\n+++\n", encoding="utf-8")
    r = ok(repo, "reindex")
    assert r.stdout == "indexed 2 notes, 1 note files could not be read (see `tether doctor`)\n"
    assert ok_json(repo, "reindex", "--json") == {"notes": 2, "broken": 1}
    d = ok_json(repo, "list", "--json")
    assert sorted(n["id"] for n in d["notes"]) == sorted([a, "01hzzzzzzzzzzzzzzzzzzzzzzz"])
    assert [e["file"] for e in d["broken"]] == [".tether/notes/bad.md"]


def test_a_fresh_clone_of_more_notes_than_one_transaction_holds_is_indexed_whole(repo, monkeypatch):
    """Indexed in batches, the next read by forked children while the last is written (the
    batches made small here: real ones are thousands of notes): every note, the broken files
    named, a duplicate id across batches caught."""
    from tether.core import repository
    from tether.core.workspace import Workspace
    monkeypatch.setattr(repository, "WRITE_NOTES", 200)
    monkeypatch.setattr(repository, "FORK_NOTES", 50)
    n = 700
    (repo / "lib").mkdir()
    for i in range(n):
        nid = f"01hb{i:022d}"
        (repo / "lib" / f"m{i}.py").write_text(f"X = {i}\n", encoding="utf-8")
        (notes_dir(repo) / f"{nid}.md").write_text(
            f'+++\nid = "{nid}"\nkind = "intent"\ntitle = "note {i}"\n\n[[anchors]]\ntype = "file"\n'
            f'path = "lib/m{i}.py"\n+++\n', encoding="utf-8")
    (notes_dir(repo) / "zz-bad.md").write_text("+++\nnot toml at all\n+++\n", encoding="utf-8")
    (notes_dir(repo) / "zz-twin.md").write_text(
        (notes_dir(repo) / "01hb0000000000000000000007.md").read_text(encoding="utf-8"), encoding="utf-8")
    ws = Workspace.find(repo)
    try:
        assert ws.repo.reindex() == (n, 2)
        assert [x.title for x in ws.notes_on("lib/m699.py")] == ["note 699"]
        broken = {e.path: e.reason for e in ws.broken()}
    finally:
        ws.close()
    twins = {".tether/notes/zz-twin.md", ".tether/notes/01hb0000000000000000000007.md"}
    assert ".tether/notes/zz-bad.md" in broken and len(set(broken) & twins) == 1
    assert "duplicate id" in broken[(set(broken) & twins).pop()]
    assert ok_json(repo, "reindex", "--json") == {"notes": n, "broken": 2}  # the command, its batches as they are


def test_work_shared_over_forked_processes_survives_a_child_that_dies():
    """fork_map: every answer, in order, whichever process gave it; what a child that died
    did not hand back is done again by the parent."""
    from tether.core.fork import fork_map
    parent = os.getpid()

    def square(x):
        if x == 37 and os.getpid() != parent:
            os._exit(9)  # a child dies on this item (a crash in a grammar, a kill)
        return x * x

    assert fork_map(square, list(range(100)), 4) == [x * x for x in range(100)]
    assert fork_map(square, [3], 4) == [9]
    assert fork_map(square, [], 2) == []


def test_a_container_cpu_quota_bounds_the_processes(tmp_path, monkeypatch):
    """A runner limited to 1.5 CPUs gets at most 2 processes, however many cores the host
    has. (The kernel's cgroup file is stood in for by a file of the same format: this
    machine runs without a quota.)"""
    from tether.core import fork
    quota = tmp_path / "cpu.max"
    monkeypatch.setattr(fork, "CPU_MAX", str(quota))
    quota.write_text("150000 100000\n")
    assert fork.cores() == min(2, len(os.sched_getaffinity(0)))
    quota.write_text("max 100000\n")
    assert fork.cores() == len(os.sched_getaffinity(0))
