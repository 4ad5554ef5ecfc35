"""The real ``tether`` command, run as a subprocess in real git repositories."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tether.core.workspace import Workspace

from samples import APP_PY, TETHER, git_init, WEB_TS  # noqa: E402

ID_RE = r"[0-9a-hjkmnp-tv-z]{26}"
NOTE_KEYS = {"id", "kind", "title", "status", "superseded_by", "author", "created", "updated", "tags",
             "rationale", "alternatives", "works_around", "remove_when", "failure", "cause", "body", "file",
             "anchors"}


def env_for(**extra) -> dict:
    env = dict(os.environ)
    for k in ("VISUAL", "EDITOR", "GIT_DIR", "GIT_WORK_TREE"):
        env.pop(k, None)
    env.update(PYTHONIOENCODING="utf-8", GIT_CONFIG_NOSYSTEM="1")
    env.update(extra)
    return env


def raw(cwd: Path, *args: str, input: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([TETHER, *args], cwd=cwd, capture_output=True, text=True, input=input,
                          env=env or env_for(), timeout=120)


def tether(cwd: Path, *args: str, **kw) -> subprocess.CompletedProcess:
    r = raw(cwd, *args, **kw)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def ok(cwd: Path, *args: str, **kw) -> subprocess.CompletedProcess:
    r = tether(cwd, *args, **kw)
    assert r.returncode == 0, f"tether {' '.join(args)} -> {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r


def ok_json(cwd: Path, *args: str, **kw):
    return json.loads(ok(cwd, *args, **kw).stdout)


def fails(cwd: Path, *args: str, **kw) -> str:
    """A usage or input error: exit 2, one line on stderr saying why, nothing on stdout."""
    r = tether(cwd, *args, **kw)
    assert r.returncode == 2, f"tether {' '.join(args)} -> {r.returncode}\n{r.stdout}\n{r.stderr}"
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("tether: "), r.stderr
    assert r.stdout == ""
    return lines[0]


def make_repo(root: Path) -> Path:
    git_init(root)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(APP_PY, encoding="utf-8")
    (root / "src" / "web.ts").write_text(WEB_TS, encoding="utf-8")
    (root / "tools").mkdir()
    (root / "tools" / "build.py").write_text("def build():\n    return 1\n", encoding="utf-8")
    return root


@pytest.fixture
def repo(tmp_path) -> Path:
    """A git repository with tether set up (in-process, as `tether init` does; test_init
    covers the command itself)."""
    root = make_repo(tmp_path / "repo")
    ws, created = Workspace.init(root)
    assert created and ws.root == root.resolve()
    return root


def run_all(cwd: Path, arglists: list[list[str]]) -> list[subprocess.CompletedProcess]:
    """Independent read-only commands, run side by side to keep the suite fast."""
    with ThreadPoolExecutor(4) as ex:
        runs = list(ex.map(lambda a: raw(cwd, *a), arglists))
    for a, r in zip(arglists, runs):
        assert "Traceback" not in r.stderr, (a, r.stderr)
    return runs


def note_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / ".tether" / "notes").iterdir() if not p.name.startswith("."))


# -- a repository with one note of every kind, shared by the read-only tests ----------------

class Shared:
    root: Path
    rec: dict  # what `record --json` printed, by label
    plain_id: str


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Shared:
    s = Shared()
    s.root = root = make_repo(tmp_path_factory.mktemp("shared") / "repo")
    ok(root, "init")
    s.rec = {
        "decision": ok_json(root, "record", "decision", "src/app.py:4", "--title", "Load config eagerly",
                            "--rationale", 'Startup must fail fast; "lazy" hid errors \\ twice',
                            "--rejected", "lazy loading: errors show up late",
                            "--rejected", "env vars only", "--because", "too many: and nested",
                            "--rejected", "no reason given",
                            "--tag", "config", "--tag", "startup", "--body", "More *detail*.", "--json"),
        "invariant": ok_json(root, "record", "invariant", "src/app.py:13", "--span",
                             "--title", "port is set before start returns", "--json"),
        "boundary": ok_json(root, "record", "boundary", "src/web.ts:8", "--title", "route only upper-cases",
                            "--json"),
        "intent": ok_json(root, "record", "intent", "src/web.ts", "--file", "--title", "web stays stateless",
                          "--json"),
        "workaround": ok_json(root, "record", "workaround", "--glob", "src/**", "--title", "pin the parser",
                              "--works-around", "parser bug #12", "--remove-when", "parser 2.0", "--json"),
    }
    s.plain_id = ok(root, "record", "boundary", "src/app.py:12", "--title", "Service has no globals").stdout
    return s


def test_record_takes_what_an_agent_points_at(tmp_path):
    """A line no definition encloses (an import, a module constant) anchors its lines, as
    the MCP tool and the editor do; a line range anchors those lines beside a definition in
    the same note; positions may come after the options."""
    root = make_repo(tmp_path / "repo")
    ok(root, "init")
    a = ok_json(root, "record", "decision", "src/app.py:1", "--title", "os only", "--json")["anchors"]
    assert [(x["type"], x["range"]["start"]["line"]) for x in a] == [("lines", 0)]
    note = ok_json(root, "record", "invariant", "--title", "ports checked", "src/app.py:4", "src/app.py:13-13",
                   "--json")
    assert [(x["type"], x.get("name")) for x in note["anchors"]] == [("symbol", "load_config"),
                                                                       ("span", "Service.start")]
    spans = ok_json(root, "record", "boundary", "--span", "--title", "start sets the port", "src/app.py:13",
                    "--json")["anchors"]
    assert [x["type"] for x in spans] == ["span"]
    moved = ok_json(root, "reanchor", note["id"], "src/app.py:14", "--anchor", "2", "--json")["anchors"][1]
    assert (moved["type"], moved["name"]) == ("span", "Service.start")  # the kind it was
    moved = ok_json(root, "reanchor", note["id"], "src/app.py:13", "--anchor", "2", "--definition", "--json")
    assert [(x["type"], x.get("name")) for x in moved["anchors"]] == [("symbol", "load_config"),
                                                                        ("symbol", "Service.start")]
    r = raw(root, "record", "decision", "src/app.py:4", "--title", "t", "--bogus")
    assert r.returncode == 2 and "unrecognized arguments: --bogus" in r.stderr


def test_record_prints_only_the_id_without_json(shared):
    assert re.fullmatch(ID_RE + r"\n", shared.plain_id)
    nid = shared.plain_id.strip()
    assert [p.name for p in note_files(shared.root) if p.name.startswith(nid)] == [f"{nid}-service-has-no-globals.md"]


def test_record_every_kind_writes_a_note_file(shared):
    files = note_files(shared.root)
    assert len(files) == 6
    for kind, d in shared.rec.items():
        assert d["kind"] == kind
        assert re.fullmatch(ID_RE, d["id"])
        assert set(d) == NOTE_KEYS
        assert d["status"] == "active" and d["superseded_by"] is None
        assert d["author"] == "Ada Lovelace <ada@example.com>"
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", d["created"]) and d["updated"] == d["created"]
        assert d["file"] == f".tether/notes/{Path(d['file']).name}" and Path(d["file"]).name.startswith(d["id"])
        assert (shared.root / d["file"]).is_file()
        text = (shared.root / d["file"]).read_text(encoding="utf-8")
        assert text.startswith("+++\n") and f'kind = "{kind}"' in text


def test_record_symbol_is_the_default_with_0_based_lsp_range(shared):
    d = shared.rec["decision"]
    assert d["anchors"] == [{
        "type": "symbol", "path": "src/app.py", "name": "load_config", "state": "ok",
        "range": {"start": {"line": 3, "character": 0}, "end": {"line": 7, "character": 15}},
    }]
    assert d["title"] == "Load config eagerly"
    assert d["rationale"] == 'Startup must fail fast; "lazy" hid errors \\ twice'
    assert d["tags"] == ["config", "startup"]
    assert d["body"] == "More *detail*.\n"
    assert d["works_around"] is None and d["remove_when"] is None


def test_record_rejected_options(shared):
    assert shared.rec["decision"]["alternatives"] == [
        {"option": "lazy loading", "rejected_because": "errors show up late"},
        {"option": "env vars only", "rejected_because": "too many: and nested"},
        {"option": "no reason given", "rejected_because": ""},
    ]
    text = (shared.root / shared.rec["decision"]["file"]).read_text(encoding="utf-8")
    assert text.count("[[alternatives]]") == 3
    assert 'option = "lazy loading"\nrejected_because = "errors show up late"' in text


def test_record_span(shared):
    (a,) = shared.rec["invariant"]["anchors"]
    assert a == {"type": "span", "path": "src/app.py", "name": "Service.start", "state": "ok",
                 "range": {"start": {"line": 12, "character": 8}, "end": {"line": 12, "character": 24}}}


def test_record_symbol_in_typescript(shared):
    (a,) = shared.rec["boundary"]["anchors"]
    assert a == {"type": "symbol", "path": "src/web.ts", "name": "Router.route", "state": "ok",
                 "range": {"start": {"line": 6, "character": 2}, "end": {"line": 8, "character": 3}}}


def test_record_file(shared):
    (a,) = shared.rec["intent"]["anchors"]
    assert a == {"type": "file", "path": "src/web.ts", "state": "ok", "range": None}


def test_record_glob(shared):
    d = shared.rec["workaround"]
    (a,) = d["anchors"]
    assert a == {"type": "glob", "pattern": "src/**", "state": "ok", "range": None}
    assert (d["works_around"], d["remove_when"]) == ("parser bug #12", "parser 2.0")


def test_list_text(shared):
    r = ok(shared.root, "list")
    assert r.stderr == ""
    out = r.stdout
    for kind, d in shared.rec.items():
        assert re.search(rf"^{d['id'][:8]}\w* +  {kind:<10} {re.escape(d['title'])}$", out, re.M), out
    assert re.search(r"^    \[ok\]\s+`load_config` at src/app\.py:4-8$", out, re.M), out
    assert re.search(r"^    \[ok\]\s+(a statement in )?`Service\.start` at src/app\.py:13$", out, re.M), out
    assert re.search(r"^    \[ok\]\s+`Router\.route` at src/web\.ts:7-9$", out, re.M), out
    assert re.search(r"^    \[ok\]\s+file src/web\.ts$", out, re.M), out
    assert re.search(r"^    \[ok\]\s+pattern `src/\*\*`$", out, re.M), out
    ids = re.findall(r"^([0-9a-hjkmnp-tv-z]{8,26}) +  ", out, re.M)  # short ids, in id order
    assert ids == sorted(ids) and len(ids) == 6


def test_list_json_matches_what_record_printed(shared):
    d = ok_json(shared.root, "list", "--json")
    assert set(d) == {"notes", "broken"} and d["broken"] == []
    by_id = {n["id"]: n for n in d["notes"]}
    assert [n["id"] for n in d["notes"]] == sorted(by_id)
    for rec in shared.rec.values():
        assert by_id[rec["id"]] == rec


def test_list_with_a_path(shared):
    runs = run_all(shared.root, [["list", "src/web.ts", "--json"], ["list", "tools", "--json"], ["list", "tools"],
                                 ["list", "src", "--json"]])
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    kinds = sorted(n["kind"] for n in json.loads(runs[0].stdout)["notes"])
    assert kinds == ["boundary", "intent", "workaround"]  # symbol, file, and the glob covering it
    assert "workaround" in [n["kind"] for n in json.loads(runs[3].stdout)["notes"]]  # src/** reaches the folder
    assert json.loads(runs[1].stdout)["notes"] == []
    assert "no notes for tools" in runs[2].stdout


def test_show(shared):
    d = shared.rec["decision"]
    runs = run_all(shared.root, [["show", d["id"]], ["show", d["id"], "--json"], ["show", d["id"][:-3], "--json"],
                                 ["show", d["file"], "--json"]])
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    out = runs[0].stdout
    assert out.startswith("## decision: Load config eagerly\n")
    assert "Anchor: `load_config` at src/app.py:4-8." in out
    assert 'Rationale: Startup must fail fast; "lazy" hid errors \\ twice' in out
    assert "- lazy loading: errors show up late" in out
    assert "More *detail*." in out
    assert out.rstrip().endswith(f"file: {d['file']}")
    assert json.loads(runs[1].stdout) == d
    # by a unique prefix of the id, and by the note file's path
    assert json.loads(runs[2].stdout)["id"] == d["id"]
    assert json.loads(runs[3].stdout)["id"] == d["id"]


def test_context_markdown(shared):
    runs = run_all(shared.root, [["context", "src/app.py:4"], ["context", "src/app.py:6"], ["context", "tools/build.py"]])
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    out = runs[0].stdout
    assert out.startswith("# tether notes for src/app.py:4\n")
    heads = re.findall(r"^(\w+)(?: \(.*?\))?: (.*) \(\w+\)$", out, re.M)  # kind (where, if the heading leaves it unsaid): title (short id)
    assert heads[0] == ("decision", "Load config eagerly")
    assert ("workaround", "pin the parser") in heads
    assert "\n## On the code here\n" in out  # where they apply: one heading each way
    assert "\n## On files like this one\n" in out
    inside = runs[1].stdout
    assert "\n## On the code around it\n\ndecision (`load_config`): Load config eagerly (" in inside
    assert runs[2].stdout == "No tether notes apply to tools/build.py.\n"


def test_context_json(shared):
    d = ok_json(shared.root, "context", "src/app.py:4", "--format", "json")
    assert d["path"] == "src/app.py" and d["line"] == 3
    notes = d["notes"]
    assert notes[0]["id"] == shared.rec["decision"]["id"] and notes[0]["tier"] == 1
    assert notes[-1]["id"] == shared.rec["workaround"]["id"] and notes[-1]["tier"] == 5
    assert [n["tier"] for n in notes] == sorted(n["tier"] for n in notes)
    for n in notes:
        assert NOTE_KEYS <= set(n) and isinstance(n["reason"], str) and n["reason"]
    ids = {n["id"] for n in notes}
    assert shared.rec["boundary"]["id"] not in ids and shared.rec["intent"]["id"] not in ids  # web.ts notes
    whole = ok_json(shared.root, "context", "src/web.ts", "--format", "json")
    assert whole["line"] is None
    assert {n["kind"] for n in whole["notes"]} == {"boundary", "intent", "workaround"}


def test_doctor_clean_and_reindex(shared):
    r, j = run_all(shared.root, [["doctor"], ["doctor", "--json"]])
    assert r.returncode == 0 and j.returncode == 0, (r.stdout, j.stdout)
    assert r.stdout == "" and "no problems found" in r.stderr
    assert json.loads(j.stdout) == {"findings": []}
    assert ok(shared.root, "reindex").stdout == "indexed 6 notes\n"
    assert ok_json(shared.root, "reindex", "--json") == {"notes": 6, "broken": 0}
    assert len(ok_json(shared.root, "list", "--json")["notes"]) == 6


# -- usage and input errors: exit 2, one line saying why -------------------------------------

INPUT_ERRORS = [
    (["record", "decision", "src/app.py:0", "--title", "t"], "lines and columns start at 1"),
    (["record", "decision", "src/app.py:99", "--title", "t"], "line out of range"),
    (["record", "decision", "src/app.py", "--title", "t"], "give a line"),
    (["record", "decision", "--title", "t"], "give PATH:LINE"),
    (["record", "decision", "src/nope.py:1", "--title", "t"], "no such file"),
    (["record", "decision", "src/nope.py", "--file", "--title", "t"], "no such file"),
    (["record", "decision", "src/app.py:4", "--title", "   "], "needs a title"),
    (["record", "decision", "src/app.py:4"], "needs a title"),
    (["record", "decision", "src/app.py:4", "--title", "t", "--rejected", ": why"], "the option is empty"),
    (["record", "decision", "src/app.py:4", "--title", "t", "--rejected", "a: b: c"], "--rejected OPTION --because"),
    (["record", "decision", "../outside.py:1", "--title", "t"], "outside the workspace"),
    (["record", "decision", "--glob", "../**", "--title", "t"], "relative to the workspace"),
    (["record", "decision", ".tether/cache/x:1", "--title", "t"], "inside .tether/"),
    (["show", "zzzzzzzz"], "no note 'zzzzzzzz'"),
    (["retire", "zzzzzzzz"], "no note 'zzzzzzzz'"),
    (["context", "src/nope.py:3"], "no such file"),
    # --span would make the definition among them a statement too: one statement is given as PATH:A-B
    (["record", "decision", "src/app.py:4", "src/app.py:13", "--span", "--title", "t"], "give its lines as PATH:A-B"),
]

ARG_ERRORS = [
    ["record", "opinion", "src/app.py:4", "--title", "t"],
    ["record", "decision", "src/app.py:4", "--title", "t", "--span", "--file"],
    ["context", "src/app.py", "--format", "xml"],
    ["nosuchcommand"],
]


@pytest.fixture(scope="module")
def error_runs(shared):
    """Every error case above, run once (side by side) in the shared repository."""
    before = [p.name for p in note_files(shared.root)]
    cases = [a for a, _ in INPUT_ERRORS] + ARG_ERRORS + [[]]
    with ThreadPoolExecutor(4) as ex:
        runs = dict(zip(map(tuple, cases), ex.map(lambda a: raw(shared.root, *a), cases)))
    runs["files-before"], runs["files-after"] = before, [p.name for p in note_files(shared.root)]
    return runs


@pytest.mark.parametrize("args,words", INPUT_ERRORS)
def test_input_errors_exit_2_with_one_line(error_runs, args, words):
    r = error_runs[tuple(args)]
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == 2, f"tether {' '.join(args)} -> {r.returncode}\n{r.stdout}\n{r.stderr}"
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tether: "), r.stderr
    assert words in lines[0], lines[0]
    assert r.stdout == ""


def test_input_errors_write_nothing(error_runs):
    assert error_runs["files-after"] == error_runs["files-before"]


@pytest.mark.parametrize("args", ARG_ERRORS)
def test_argument_errors_exit_2(error_runs, args):
    r = error_runs[tuple(args)]
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == 2
    assert r.stdout == ""
    assert re.search(r"^tether( \w+)?: error: ", r.stderr.strip().splitlines()[-1]), r.stderr


def test_no_command_prints_help_and_exits_2(error_runs):
    r = error_runs[()]
    assert r.returncode == 2 and "usage: tether" in r.stdout


def test_outside_any_workspace(tmp_path):
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    line = fails(tmp_path, "list")
    assert "no .tether/" in line and "tether init" in line
    assert not (tmp_path / ".tether").exists()


# -- init --------------------------------------------------------------------------------------

def test_init(tmp_path):
    root = make_repo(tmp_path / "repo")
    # run from a subfolder: .tether/ goes to the top of the git work tree
    out = ok(root / "src", "init").stdout
    assert out.strip() == f"created {root.resolve() / '.tether'}"
    assert (root / ".tether" / "notes").is_dir()
    assert not (root / "src" / ".tether").exists()
    gi = (root / ".tether" / ".gitignore").read_text(encoding="utf-8")
    assert "cache/" in gi.splitlines()
    assert subprocess.run(["git", "check-ignore", "-q", ".tether/cache/index/data.mdb"], cwd=root).returncode == 0
    assert subprocess.run(["git", "check-ignore", "-q", ".tether/notes/x.md"], cwd=root).returncode == 1
    # idempotent
    assert ok_json(root, "init", "--json") == {"root": str(root.resolve()), "created": False, "agent_files": []}
    assert "already set up" in ok(root, "init").stdout
    assert (root / ".tether" / ".gitignore").read_text(encoding="utf-8") == gi


# -- states after the code is edited ---------------------------------------------------------

def test_list_states_after_edits(repo):
    (repo / "src" / "flags.py").write_text(
        "def parse_flags(argv):\n    flags = {}\n    for a in argv:\n        if a.startswith('--'):\n"
        "            flags[a[2:]] = True\n    return flags\n\n\ndef keep():\n    return 1\n", encoding="utf-8")
    (repo / "src" / "gone.py").write_text("def doomed():\n    return 42\n", encoding="utf-8")
    (repo / "src" / "calc.py").write_text(
        "def total(items):\n    s = 0\n    for i in items:\n        s += i\n    return s\n", encoding="utf-8")
    ids = {}
    for label, pos in [("py-rename", "src/app.py:4"), ("moved", "src/app.py:12"), ("ts-rename", "src/web.ts:2"),
                       ("deleted-def", "src/flags.py:1"), ("deleted-file", "src/gone.py:1"),
                       ("changed", "src/calc.py:1"), ("untouched", "src/web.ts:8")]:
        ids[label] = ok(repo, "record", "decision", pos, "--title", label).stdout.strip()

    app = APP_PY.replace("def load_config(path):", "def read_config(path):")
    app = app.replace("class Service:", "# one\n# two\n# three\nclass Service:")
    (repo / "src" / "app.py").write_text(app, encoding="utf-8")
    (repo / "src" / "web.ts").write_text(WEB_TS.replace("function handle(", "function process("), encoding="utf-8")
    (repo / "src" / "flags.py").write_text("def keep():\n    return 1\n", encoding="utf-8")
    (repo / "src" / "gone.py").unlink()
    (repo / "src" / "calc.py").write_text(
        "def total(items):\n    s = 0\n    for i in items:\n        s += i * 2\n    return s\n", encoding="utf-8")

    lj, lt, r, dj = run_all(repo, [["list", "--json"], ["list"], ["doctor"], ["doctor", "--json"]])
    assert lj.returncode == 0 and lt.returncode == 0, (lj.stderr, lt.stderr)
    d = json.loads(lj.stdout)
    state = {n["title"]: n["anchors"][0] for n in d["notes"]}
    assert {t: a["state"] for t, a in state.items()} == {
        "py-rename": "renamed", "ts-rename": "renamed", "moved": "moved", "deleted-def": "orphaned",
        "deleted-file": "orphaned", "changed": "changed", "untouched": "ok"}
    assert state["py-rename"]["name"] == "load_config" and state["py-rename"]["now_named"] == "read_config"
    assert state["py-rename"]["range"]["start"]["line"] == 3
    assert state["ts-rename"]["now_named"] == "process"
    assert state["moved"]["range"]["start"]["line"] == 14 and state["moved"]["name"] == "Service.start"
    assert state["deleted-def"]["range"] is None and state["deleted-file"]["range"] is None

    out = lt.stdout
    assert re.search(r"\[renamed\]\s+`read_config` at src/app\.py:4-8", out), out
    assert re.search(r"\[moved\]\s+`Service\.start` at src/app\.py:15-17", out), out
    assert re.search(r"\[orphaned\]\s+`parse_flags` at src/flags\.py \(last seen at line 1\)", out), out
    assert re.search(r"\[orphaned\]\s+`doomed` at src/gone\.py", out), out

    # doctor: exit 1, one finding per orphaned note, as file:line: severity: message
    assert r.returncode == 1
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 2, r.stdout
    assert any(l.startswith("src/flags.py:1: warning: note \"deleted-def\" is orphaned") and
               l.endswith(f"[{ids['deleted-def']}]") for l in lines), lines
    assert any(l.startswith("src/gone.py:1: warning: note \"deleted-file\" is orphaned: its file is gone")
               for l in lines), lines
    assert "2 problem(s)" in r.stderr
    j = json.loads(dj.stdout)
    assert sorted(f["note"] for f in j["findings"]) == sorted([ids["deleted-def"], ids["deleted-file"]])
    for f in j["findings"]:
        assert set(f) == {"file", "line", "severity", "code", "message", "note"}
        assert f["code"] == "orphaned" and f["severity"] == "warning"

    # retiring the orphaned notes makes doctor clean again
    ok(repo, "retire", ids["deleted-def"])
    ok(repo, "retire", ids["deleted-file"])
    assert tether(repo, "doctor").returncode == 0


def test_export_function_at_start_of_its_line_can_be_anchored(repo):
    """`tether record KIND src/web.ts:1` on `export function handle(...)`: the position is
    on the definition's first line (on `export`), which is where a person points."""
    d = ok_json(repo, "record", "boundary", "src/web.ts:1", "--title", "t", "--json")
    assert d["anchors"][0]["name"] == "handle"
    d = ok_json(repo, "record", "boundary", "src/web.ts:6", "--title", "t", "--json")
    assert d["anchors"][0]["name"] == "Router"


# -- retire, supersede ----------------------------------------------------------------------

def test_retire_and_supersede(repo):
    a = ok(repo, "record", "decision", "src/app.py:4", "--title", "first take").stdout.strip()
    b = ok(repo, "record", "decision", "src/app.py:4", "--title", "second take").stdout.strip()
    c = ok(repo, "record", "decision", "src/app.py:12", "--title", "to retire").stdout.strip()

    assert ok(repo, "retire", c).stdout == f"retired {c}  to retire\n"
    r = ok_json(repo, "retire", c, "--json")
    assert r["status"] == "retired" and set(r) == NOTE_KEYS
    out = ok(repo, "supersede", a, "--by", b).stdout
    assert out == f"{a} is superseded by {b}\n"

    lj, lt, sh, cx = run_all(repo, [["list", "--json"], ["list"], ["show", a], ["context", "src/app.py", "--format", "json"]])
    assert all(x.returncode == 0 for x in (lj, lt, sh, cx)), [x.stderr for x in (lj, lt, sh, cx)]
    d = {n["id"]: n for n in json.loads(lj.stdout)["notes"]}
    assert d[a]["status"] == "superseded" and d[a]["superseded_by"] == b
    assert d[b]["status"] == "active" and d[c]["status"] == "retired"
    assert d[a]["updated"] >= d[a]["created"]
    text = (repo / d[a]["file"]).read_text(encoding="utf-8")
    assert 'status = "superseded"' in text and f'superseded_by = "{b}"' in text
    assert 'status = "retired"' in (repo / d[c]["file"]).read_text(encoding="utf-8")

    listing = lt.stdout
    assert re.search(rf"^{c[:8]}\w* +  decision   to retire \(retired\)$", listing, re.M), listing
    assert re.search(rf"^{a[:8]}\w* +  decision   first take \(superseded\)$", listing, re.M), listing
    assert f"superseded by {b}" in sh.stdout

    ctx = json.loads(cx.stdout)
    assert c not in [n["id"] for n in ctx["notes"]]  # retired notes are not context
    assert [n["id"] for n in ctx["notes"]][-1] == a  # superseded ones come after the active ones

    assert "cannot supersede itself" in fails(repo, "supersede", b, "--by", b)
    assert "no note" in fails(repo, "supersede", b, "--by", "zzzzzzzz")
    sup = ok_json(repo, "supersede", c, "--by", b, "--json")
    assert sup["status"] == "superseded" and sup["superseded_by"] == b
    assert tether(repo, "doctor").returncode == 0


def test_body_from_stdin(repo):
    d = ok_json(repo, "record", "intent", "src/app.py:4", "--title", "t", "--body", "-", "--json",
                input="# Why\n\nBecause ünïcode ✓.\n")
    assert d["body"] == "# Why\n\nBecause ünïcode ✓.\n"
    assert (repo / d["file"]).read_text(encoding="utf-8").endswith("\n+++\n\n# Why\n\nBecause ünïcode ✓.\n")


# -- tether edit -------------------------------------------------------------------------------

EDITOR_SCRIPT = '''\
import re, sys
path = sys.argv[-1]
text = open(path, encoding="utf-8").read()
open(path, "w", encoding="utf-8").write(re.sub(r'^title = ".*"$', {new!r}, text, count=1, flags=re.M))
sys.exit({rc})
'''


def editor(tmp_path: Path, name: str, new_title_line: str, rc: int = 0) -> str:
    script = tmp_path / f"{name}.py"
    script.write_text(EDITOR_SCRIPT.format(new=new_title_line, rc=rc), encoding="utf-8")
    return f"{sys.executable} {script}"


def test_edit_with_editor_rewriting_the_title(repo, tmp_path):
    nid = ok(repo, "record", "decision", "src/app.py:4", "--title", "old title").stdout.strip()
    r = ok(repo, "edit", nid[:-2], env=env_for(EDITOR=editor(tmp_path, "ed", 'title = "new title"')))
    assert r.stderr == ""
    d = ok_json(repo, "show", nid, "--json")
    assert d["title"] == "new title"
    assert re.search(rf"^{nid[:8]}\w* +  decision   new title$", ok(repo, "list").stdout, re.M)
    # VISUAL wins over EDITOR
    env = env_for(EDITOR="false", VISUAL=editor(tmp_path, "vis", 'title = "from visual"'))
    ok(repo, "edit", nid, env=env)
    assert ok_json(repo, "show", nid, "--json")["title"] == "from visual"


def test_edit_that_breaks_the_file_says_where(repo, tmp_path):
    nid = ok(repo, "record", "decision", "src/app.py:4", "--title", "old title").stdout.strip()
    r = tether(repo, "edit", nid, env=env_for(EDITOR=editor(tmp_path, "bad", 'title = "unclosed')))
    assert r.returncode == 2
    assert re.search(r"^\.tether/notes/\S+\.md:4: error: invalid TOML", r.stderr, re.M), r.stderr
    d = ok_json(repo, "list", "--json")
    assert d["notes"] == [] and d["broken"][0]["line"] == 4


def test_edit_when_the_editor_fails(repo, tmp_path):
    nid = ok(repo, "record", "decision", "src/app.py:4", "--title", "old title").stdout.strip()
    r = tether(repo, "edit", nid, env=env_for(EDITOR=editor(tmp_path, "fail", 'title = "old title"', rc=3)))
    assert "the editor exited with 3" in r.stderr
    assert ok_json(repo, "show", nid, "--json")["title"] == "old title"


# -- what an agent records at Stop: several places, a gotcha, reasons with any text, a restatement --------

def test_record_several_places_in_one_note_and_every_place_confirmed(repo):
    d = ok_json(repo, "record", "invariant", "src/app.py:4", "src/web.ts:2", "--glob", "tools/**",
                "--title", "Configuration is read once, at start", "--json")
    assert [(a["type"], a.get("name") or a.get("pattern")) for a in d["anchors"]] == \
        [("symbol", "load_config"), ("symbol", "handle"), ("glob", "tools/**")]
    assert all(a["state"] == "ok" for a in d["anchors"])
    assert ok_json(repo, "check", "--format", "json")["findings"] == []  # every place's code is the baseline
    web = repo / "src" / "web.ts"
    web.write_text(web.read_text().replace("n * 2", "n * 3"))
    found = json.loads(tether(repo, "check", "--format", "json").stdout)["findings"]
    assert [(f["code"], f["file"]) for f in found] == [("invariant-drift", "src/web.ts")]
    ok(repo, "confirm", d["id"])
    assert ok_json(repo, "check", "--format", "json")["findings"] == []


def test_record_a_gotcha_with_its_failure_and_cause(repo):
    d = ok_json(repo, "record", "gotcha", "src/app.py:4", "--title", "A relative path is read from the cwd",
                "--failure", "FileNotFoundError: config.toml", "--cause", "open() resolves against the cwd", "--json")
    assert (d["kind"], d["failure"], d["cause"]) == ("gotcha", "FileNotFoundError: config.toml",
                                                     "open() resolves against the cwd")
    shown = ok(repo, "show", d["id"]).stdout
    assert "Fails with: FileNotFoundError: config.toml" in shown and "Cause: open() resolves against the cwd" in shown


def test_rejected_option_and_reason_given_apart_hold_any_text(repo):
    d = ok_json(repo, "record", "decision", "src/app.py:4", "--title", "Read the config as TOML",
                "--rejected", "YAML: the 1.1 dialect", "--because", "'no: yes' parses as a bool: surprises",
                "--rejected", "JSON: no comments",  # the old form, one ': '
                "--rejected", "INI", "--json")
    assert d["alternatives"] == [
        {"option": "YAML: the 1.1 dialect", "rejected_because": "'no: yes' parses as a bool: surprises"},
        {"option": "JSON", "rejected_because": "no comments"},
        {"option": "INI", "rejected_because": ""}]
    r = tether(repo, "record", "decision", "src/app.py:4", "--title", "t", "--because", "why")
    assert r.returncode == 2 and "--because WHY follows the --rejected OPTION" in r.stderr


def test_record_joins_a_restatement_to_the_note_it_restates(repo):
    first = ok_json(repo, "record", "decision", "src/app.py:4", "--title", "Config is TOML",
                    "--rejected", "YAML", "--json")
    r = ok(repo, "record", "decision", "src/web.ts:2", "--joins", first["id"], "--title",
           "TOML for every config file, the web's too", "--rationale", "comments, and no 1.1 surprises",
           "--rejected", "YAML", "--because", "'no' parses as false", "--rejected", "JSON", "--because", "no comments")
    assert r.stdout.strip() == first["id"] and "joined" in r.stderr
    (n,) = [ok_json(repo, "show", first["id"], "--json")]
    assert len(note_files(repo)) == 1
    assert [a.get("name") for a in n["anchors"]] == ["load_config", "handle"]
    # the restatement widens the rule: its title is the note's now, the old one kept in the body
    assert n["title"] == "TOML for every config file, the web's too"
    assert "## Said again" in n["body"] and "Was titled: Config is TOML" in n["body"]
    assert n["rationale"] == "comments, and no 1.1 surprises"
    assert n["alternatives"] == [{"option": "YAML", "rejected_because": "'no' parses as false"},
                                 {"option": "JSON", "rejected_because": "no comments"}]
    # joined again without a title: the title stays
    ok(repo, "record", "decision", "src/app.py:4", "--joins", first["id"][:8], "--body", "Asked a third time.")
    n = ok_json(repo, "show", first["id"], "--json")
    assert n["title"] == "TOML for every config file, the web's too" and n["body"].count("## Said again") == 2


def test_amend_corrects_a_note_without_an_editor(repo):
    nid = ok(repo, "record", "decision", "src/app.py:4", "--title", "Config is TOML", "--rationale", "comments",
             "--rejected", "YAML", "--because", "too loose", "--rejected", "INI").stdout.strip()
    short = ok(repo, "list").stdout.split()[0]  # the short id `list` prints
    r = ok(repo, "amend", short, "--title", "Every config file is TOML", "--rejected", "yaml", "--because",
           "'no' parses as false: surprises", "--rejected", "JSON", "--because", "no comments",
           "--drop-rejected", "INI", "--add-place", "src/web.ts:2", "--add-glob", "tools/**")
    assert r.stdout.strip() == nid and "amended" in r.stderr and "`handle` at src/web.ts:1-4" in r.stderr
    n = ok_json(repo, "show", nid, "--json")
    assert n["title"] == "Every config file is TOML" and n["rationale"] == "comments"  # what was not given stays
    assert n["alternatives"] == [{"option": "YAML", "rejected_because": "'no' parses as false: surprises"},
                                 {"option": "JSON", "rejected_because": "no comments"}]
    assert [a.get("name") or a.get("pattern") for a in n["anchors"]] == ["load_config", "handle", "tools/**"]
    assert len(note_files(repo)) == 1
    # a place by the code it holds, or by number; "" clears a field; the kind changes
    n = ok_json(repo, "amend", nid, "--drop-place", "src/app.py:6", "--drop-place", "3", "--rationale", "",
                "--kind", "invariant", "--json")
    assert [a["name"] for a in n["anchors"]] == ["handle"] and not n.get("rationale") and n["kind"] == "invariant"
    assert ok_json(repo, "check", "--format", "json")["findings"] == []  # the invariant's baseline: its code now
    # the gotcha recorded as a decision, corrected
    g = ok(repo, "record", "decision", "src/app.py:14", "--title", "Ports are stored").stdout.strip()
    n = ok_json(repo, "amend", g, "--kind", "gotcha", "--failure", "EADDRINUSE in tests", "--cause",
                "binding at start races the test server", "--json")
    assert (n["kind"], n["failure"], n["cause"]) == ("gotcha", "EADDRINUSE in tests",
                                                     "binding at start races the test server")


def test_amend_refuses_with_the_reason_and_changes_nothing(repo):
    nid = ok(repo, "record", "decision", "src/app.py:4", "--title", "Config is TOML", "--rejected", "YAML").stdout.strip()
    twin = ok(repo, "record", "decision", "src/app.py:12", "--title", "Ports are stored").stdout.strip()
    before = sorted(p.read_text() for p in note_files(repo))
    assert fails(repo, "amend", "0000000000", "--title", "x") == "tether: no note '0000000000' (see `tether list`)"
    common = os.path.commonprefix([nid, twin])
    if len(common) >= 4:  # two notes recorded in the same run share their time prefix
        assert f"'{common}' matches 2 notes" in fails(repo, "amend", common, "--title", "x")
    assert fails(repo, "amend", nid, "--title", " ") == "tether: a note needs a title: the decision or rule itself"
    assert fails(repo, "amend", nid).startswith(f"tether: nothing to change in {nid}: give what to replace")
    assert fails(repo, "amend", nid, "--drop-rejected", "JSON") == \
        f"tether: {nid} has no rejected option 'JSON' (it has 'YAML')"
    assert fails(repo, "amend", nid, "--drop-place", "src/web.ts:2") == \
        f"tether: {nid}: no place at src/web.ts:2 (its places: 1: `load_config` in src/app.py)"
    assert fails(repo, "amend", nid, "--drop-place", "4").startswith(f"tether: {nid} has no place 4 (it has 1")
    assert "retire it" in fails(repo, "amend", nid, "--drop-place", "1")
    assert fails(repo, "amend", nid, "--add-place", "src/app.py:6") == \
        f"tether: `load_config` in src/app.py is already one of {nid}'s places"
    assert "../elsewhere.py" in fails(repo, "amend", nid, "--add-place", "../elsewhere.py:1")
    assert "--because WHY follows the --rejected OPTION" in tether(repo, "amend", nid, "--because", "x").stderr
    assert sorted(p.read_text() for p in note_files(repo)) == before