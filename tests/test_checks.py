"""Invariant checks: structural rules evaluated on the real grammars, the `tether check`
command, and record-time validation."""

import json
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

import jsonschema
import pytest
from samples import TETHER, git_init

from tether.checks.engine import evaluate
from tether.checks.findings import check
from tether.checks.worker import evaluate_bounded
from tether.core.notes import Check, CheckError, validate
from tether.core.languages import by_name
from tether.core.syntax import SourceFile
from tether.core.workspace import Workspace, WorkspaceError

# One handler per language: it sleeps, deletes from a repository, writes an audit record,
# and its file imports a session store. Line numbers are 0-based.
HANDLERS = {
    "python": ("import redis.client\n\ndef handler(db):\n    time.sleep(1)\n    db.rows.delete()\n"
               "    audit.log('x')\n"),
    "javascript": ('import redis from "redis.client";\n\nfunction handler(db) {\n  time.sleep(1);\n'
                   '  db.rows.delete();\n  audit.log("x");\n}\n'),
    "typescript": ('import redis from "redis.client";\n\nfunction handler(db: Db): void {\n  time.sleep(1);\n'
                   '  db.rows.delete();\n  audit.log("x");\n}\n'),
    "tsx": ('import redis from "redis.client";\n\nfunction handler(db: Db): void {\n  time.sleep(1);\n'
            '  db.rows.delete();\n  audit.log("x");\n}\n'),
    "go": ('package p\nimport "redis/client"\nfunc handler(db Db) {\n\ttime.sleep(1)\n\tdb.rows.delete()\n'
           '\taudit.log("x")\n}\n'),
    "rust": ('use redis::client;\n\nfn handler(db: Db) {\n    time::sleep(1);\n    db.rows.delete();\n'
             '    audit::log("x");\n}\n'),
    "java": ('import redis.client.Pool;\nclass H {\n  void handler(Db db) {\n    time.sleep(1);\n'
             '    db.rows.delete();\n    audit.log("x");\n  }\n}\n'),
}
SLEEP, DELETE = 3, 4  # the lines of the sleep and of the delete, in every language


def src_of(lang: str) -> SourceFile:
    return SourceFile(HANDLERS[lang], by_name(lang))


def lines(violations) -> list[int]:
    return sorted(v.range.sl for v in violations)


@pytest.mark.parametrize("lang", sorted(HANDLERS))
def test_forbid_call_reports_the_call(lang):
    found, cut = evaluate(Check("s", "forbid-call", "time.sleep"), src_of(lang))
    assert lines(found) == [SLEEP] and not cut
    found, _ = evaluate(Check("d", "forbid-call", "*.delete"), src_of(lang))
    assert lines(found) == [DELETE]


# The same forbidden call spelled through the file's imports, per language: (source, the
# pattern a user would write, 0-based lines of the calls it forbids). A name imported from
# elsewhere, a shadowing local module and a look-alike method must not match.
IMPORTED = {
    "python": ("from time import sleep\nimport time as t\nfrom time import sleep as nap\n"
               "def handler(clock):\n    sleep(1)\n    t.sleep(1)\n    nap(1)\n    clock.sleep(1)\n",
               "time.sleep", [4, 5, 6]),
    "javascript": ("import { readFileSync as rf } from 'node:fs';\nimport * as fs from 'fs';\n"
                   "const { execSync } = require('child_process');\nfunction h(cache) {\n  rf('a');\n"
                   "  fs.readFileSync('b');\n  cache.readFileSync('c');\n  execSync('ls');\n}\n",
                   "fs.readFileSync", [4, 5]),
    "typescript": ("import { readFileSync as rf } from 'node:fs';\nimport * as fs from 'fs';\n"
                   "function h(cache: C): void {\n  rf('a');\n  fs.readFileSync('b');\n"
                   "  cache.readFileSync('c');\n}\n", "fs.readFileSync", [3, 4]),
    "go": ('package p\nimport (\n\tt "time"\n\t"net/http"\n)\nfunc h(c Client) {\n\tt.Sleep(1)\n'
           '\thttp.Get("x")\n\tc.Sleep(1)\n}\n', "time.Sleep", [6]),
    "rust": ("use std::thread::sleep;\nuse std::thread as th;\nfn h(c: C) {\n    sleep(d);\n"
             "    th::sleep(d);\n    c.sleep(d);\n}\n", "std::thread::sleep", [3, 4]),
    "java": ("import static java.lang.Thread.sleep;\nimport java.lang.Thread;\nclass H {\n  void h(Clock c) {\n"
             "    sleep(1);\n    Thread.sleep(1);\n    c.sleep(1);\n  }\n}\n", "java.lang.Thread.sleep", [4, 5]),
}


@pytest.mark.parametrize("lang", sorted(IMPORTED))
def test_forbid_call_sees_the_call_through_imports_and_aliases(lang):
    text, pattern, want = IMPORTED[lang]
    found, _ = evaluate(Check("s", "forbid-call", pattern), SourceFile(text, by_name(lang)))
    assert lines(found) == want


def test_a_pattern_may_name_the_tail_of_an_imported_name():
    text = "import java.lang.Thread;\nclass H {\n  void h() {\n    Thread.sleep(1);\n  }\n}\n"
    assert lines(evaluate(Check("s", "forbid-call", "Thread.sleep"), SourceFile(text, by_name("java")))[0]) == [3]
    go = 'package p\nimport h "net/http"\nfunc f() {\n\th.Get("x")\n}\n'
    assert lines(evaluate(Check("s", "forbid-call", "http.Get"), SourceFile(go, by_name("go")))[0]) == [3]
    assert lines(evaluate(Check("s", "forbid-call", "net/http.Get"), SourceFile(go, by_name("go")))[0]) == [3]


@pytest.mark.parametrize("lang", sorted(HANDLERS))
def test_a_clean_file_passes(lang):
    assert evaluate(Check("r", "forbid-call", "requests.*"), src_of(lang))[0] == []
    assert evaluate(Check("a", "require-call", "audit.log"), src_of(lang))[0] == []
    assert evaluate(Check("i", "forbid-import", "sqlalchemy.*"), src_of(lang))[0] == []


@pytest.mark.parametrize("lang", sorted(HANDLERS))
def test_require_call_missing_is_reported_at_the_scope_head(lang):
    src = src_of(lang)
    start = src.data.index(b"handler")
    found, _ = evaluate(Check("w", "require-call", "audit.write"), src, (start, len(src.data)))
    assert lines(found) == [src.pos.line_of_byte(start)]


@pytest.mark.parametrize("lang", sorted(HANDLERS))
def test_forbid_import_reports_the_import(lang):
    found, _ = evaluate(Check("i", "forbid-import", "redis.*"), src_of(lang))
    assert [v.range.sl for v in found][:1] == [0 if lang != "go" else 1]


@pytest.mark.parametrize("lang", sorted(HANDLERS))
def test_forbid_identifier(lang):
    found, _ = evaluate(Check("n", "forbid-identifier", "rows"), src_of(lang))
    assert lines(found) == [DELETE]


def test_a_forbid_query_in_two_languages():
    py = Check("q", "forbid", query='(call function: (attribute attribute: (identifier) @m (#eq? @m "delete"))) @v',
               lang="python")
    js = Check("q", "forbid", query='(call_expression function: (member_expression property: (property_identifier) @m '
                                    '(#eq? @m "delete"))) @v', lang="javascript")
    assert lines(evaluate(py, src_of("python"))[0]) == [DELETE]
    assert lines(evaluate(js, src_of("javascript"))[0]) == [DELETE]
    assert evaluate(py, src_of("javascript"))[0] == []  # written for another language: not run there


def test_bad_queries_are_refused_with_the_position():
    py = by_name("python")
    with pytest.raises(CheckError, match="does not compile"):
        validate(Check("q", "forbid", query="(call function: (identifier) @x", lang="python"), py)
    with pytest.raises(CheckError, match=r"query line 1, column 2.*Invalid node type"):
        validate(Check("q", "forbid", query="(cal) @x", lang="python"), py)
    with pytest.raises(CheckError, match="captures nothing"):
        validate(Check("q", "forbid", query="(call)", lang="python"), py)
    with pytest.raises(CheckError, match="written for python, the anchor is in go"):
        validate(Check("q", "forbid", query="(call) @c", lang="python"), by_name("go"))
    with pytest.raises(CheckError, match="needs a language with a grammar"):
        validate(Check("s", "forbid-call", "time.sleep"), None)


def test_a_pathological_query_is_stopped_and_reported_as_not_run_once_per_content():
    from tether.checks import worker
    src = SourceFile("\n".join(f"x{i} = f({i}, g({i}), h(k({i})))" for i in range(3000)), by_name("python"))
    slow = Check("p", "forbid", query="((_) @a . (_)* @b . (_) @c)", lang="python")
    with pytest.raises(worker.CheckNotRun, match="did not finish"):
        evaluate_bounded(slow, src, timeout=1.0)
    assert worker._WORKER.pid == 0  # stopped
    with pytest.raises(worker.CheckNotRun, match="did not finish"):  # the same text: not run again
        evaluate_bounded(slow, src, timeout=1.0)
    assert worker._WORKER.pid == 0
    # the worker is back for the next query
    found, cut = evaluate_bounded(Check("g", "forbid", query='(call function: (identifier) @f (#eq? @f "k")) @c',
                                        lang="python"), src, (0, 400))
    assert found and not cut


SARIF_SCHEMA_PACKAGE = "@microsoft/jest-sarif@1.0.0-beta.0"  # Microsoft's package ships the OASIS schema
SARIF_SCHEMA = Path.home() / ".cache" / "tether-tests" / "sarif-2.1.0-rtm.5.json"


def sarif_schema() -> dict:
    """The official SARIF 2.1.0 JSON schema, fetched once from the npm registry (the
    schema is not vendored: third-party files stay out of the repository)."""
    if not SARIF_SCHEMA.is_file():
        SARIF_SCHEMA.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run(["npm", "pack", SARIF_SCHEMA_PACKAGE, "--silent"], cwd=tmp, capture_output=True, text=True)
            assert r.returncode == 0, f"npm pack {SARIF_SCHEMA_PACKAGE} failed: {r.stderr}"
            with tarfile.open(Path(tmp) / r.stdout.strip().splitlines()[-1]) as tgz:
                data = tgz.extractfile("package/lib/schemas/sarif-2.1.0-rtm.5.json").read()
        SARIF_SCHEMA.write_bytes(data)
    return json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))


def run(cwd: Path, *args):
    return subprocess.run([TETHER, *args], cwd=cwd, capture_output=True, text=True)


def test_tether_check_reports_violations_like_a_compiler(tmp_path: Path):
    git_init(tmp_path)
    (tmp_path / "loop.py").write_text(HANDLERS["python"])
    (tmp_path / "auth").mkdir()
    (tmp_path / "auth" / "session.py").write_text("from flask import session\n")
    Workspace.init(tmp_path)
    rec = run(tmp_path, "record", "invariant", "loop.py:3", "--title", "Never block the event loop here",
              "--forbid-call", "time.sleep", "--forbid-call", "requests.*")
    assert rec.returncode == 0, rec.stderr
    assert run(tmp_path, "record", "invariant", "--glob", "auth/**", "--title", "Auth stays stateless",
               "--forbid-import", "flask.session").returncode == 0

    r = run(tmp_path, "check")
    assert r.returncode == 1
    out = r.stdout.splitlines()
    assert out[0].startswith("auth/session.py:1:1: error: invariant \"Auth stays stateless\"")
    assert out[1].startswith("loop.py:4:5: error: invariant \"Never block the event loop here\": forbid-call time.sleep")
    assert out[1].endswith("/forbid-call:time.sleep]")

    data = json.loads(run(tmp_path, "check", "--format", "json").stdout)
    assert [(f["file"], f["line"], f["code"]) for f in data["findings"]] == [
        ("auth/session.py", 1, "invariant-violation"), ("loop.py", 4, "invariant-violation")]
    sarif = json.loads(run(tmp_path, "check", "--format", "sarif").stdout)
    jsonschema.Draft4Validator(sarif_schema()).validate(sarif)  # the official SARIF 2.1.0 schema
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["tool"]["driver"]["name"] == "tether"
    results = sarif["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["forbid-import:flask.session", "forbid-call:time.sleep"]
    loc = results[1]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "loop.py" and loc["region"]["startLine"] == 4
    assert {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]} == {r["ruleId"] for r in results}
    gh = run(tmp_path, "check", "--format", "github", "loop.py").stdout
    assert gh.startswith("::error file=loop.py,line=4,col=5,title=tether invariant-violation::")

    (tmp_path / "loop.py").write_text(HANDLERS["python"].replace("    time.sleep(1)\n", ""))
    (tmp_path / "auth" / "session.py").write_text("def login():\n    return True\n")
    r = run(tmp_path, "check")  # the violation is gone; the edit is the drift guard's to review
    assert r.returncode == 1 and "invariant-drift" not in r.stdout and "changed since it was last confirmed" in r.stdout
    assert run(tmp_path, "confirm", rec.stdout.strip()).returncode == 0
    r = run(tmp_path, "check")
    assert r.returncode == 0, r.stdout


def test_record_refuses_a_bad_check(tmp_path: Path):
    git_init(tmp_path)
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "bad.scm").write_text("(call function: (identifier) @x\n")
    Workspace.init(tmp_path)
    r = run(tmp_path, "record", "invariant", "a.py:1", "--title", "t", "--query-forbid", "bad.scm")
    assert r.returncode == 2 and "does not compile" in r.stderr
    ws = Workspace(tmp_path)
    with pytest.raises(WorkspaceError, match="only invariants carry checks"):
        ws.record("decision", "a.py", 0, 4, title="t", checks=[{"id": "x", "kind": "forbid-call", "pattern": "a"}])
    assert ws.notes() == []


def test_check_changed_since_limits_the_files(tmp_path: Path):
    git_init(tmp_path)
    (tmp_path / "a.py").write_text("def a():\n    time.sleep(1)\n")
    (tmp_path / "b.py").write_text("def b():\n    time.sleep(1)\n")
    Workspace.init(tmp_path)
    for f in ("a.py", "b.py"):
        assert run(tmp_path, "record", "invariant", f"{f}:1", "--title", "no sleep", "--forbid-call", "time.sleep").returncode == 0
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run(["git", "commit", "-qm", "x"], cwd=tmp_path, check=True)
    (tmp_path / "b.py").write_text("def b():\n    time.sleep(2)\n")
    r = run(tmp_path, "check", "--changed-since", "HEAD")
    assert [line.split(":")[0] for line in r.stdout.splitlines()] == ["b.py", "b.py"]  # the violation and the drift
    assert run(tmp_path, "check", "--changed-since", "no-such-rev").returncode == 2


PURE = {
    "python": ("def price(item, rate):\n    total = item.cost * rate\n    item.cached = total\n    return total\n",
               "(assignment left: [(attribute) (subscript)] @write)"),
    "javascript": ("function price(item, rate) {\n  const total = item.cost * rate;\n  item.cached = total;\n"
                   "  return total;\n}\n", "(assignment_expression left: [(member_expression) (subscript_expression)] @write)"),
}


@pytest.mark.parametrize("lang", sorted(PURE))
def test_this_function_stays_pure(lang):
    """A forbid query on writes to attributes: the rule "this function stays pure"."""
    text, query = PURE[lang]
    check = Check("pure", "forbid", query=query, lang=lang, message="price() stays pure")
    found, _ = evaluate(check, SourceFile(text, by_name(lang)))
    assert lines(found) == [2] and found[0].message.startswith("price() stays pure: `item.cached")
    clean = text.replace("item.cached = total", "const cached = total" if lang == "javascript" else "cached = total")
    assert evaluate(check, SourceFile(clean, by_name(lang)))[0] == []


def test_an_exception_excuses_one_statement_and_follows_it(tmp_path: Path):
    git_init(tmp_path)
    text = "def handler():\n    time.sleep(1)\n    return 1\n"
    (tmp_path / "h.py").write_text(text)
    ws, _ = Workspace.init(tmp_path)
    note = ws.record("invariant", "h.py", 0, 4, title="no sleep",
                     checks=[{"id": "no-sleep", "kind": "forbid-call", "pattern": "time.sleep"}])
    assert [f.line for f in check(ws, ["h.py"]) if f.code == "invariant-violation"] == [2]
    ws.ignore_once(note.id, "no-sleep", "h.py", 1, 4, reason="startup only, before the loop runs")
    saved = (tmp_path / ws.get(note.id).path).read_text()
    assert "[[exceptions]]" in saved and 'reason = "startup only, before the loop runs"' in saved
    (tmp_path / "h.py").write_text("import time\n\n\n" + text)  # lines inserted above
    assert [f for f in check(ws, ["h.py"]) if f.code == "invariant-violation"] == []
    with pytest.raises(WorkspaceError, match="no check 'nope'"):
        ws.ignore_once(note.id, "nope", "h.py", 4, 4)


def test_code_typed_at_the_end_of_a_checked_function_is_checked_as_it_is_typed(tmp_path: Path):
    """The editor's path: a statement appended after the function's last character (Enter
    at its end, then the call) belongs to the function, so its check sees it at once."""
    from tether.checks.findings import check_findings
    from tether.core.live import LiveFile
    from tether.core.text import Range

    git_init(tmp_path)
    text = "import time\n\n\ndef tick(state):\n    state.n += 1\n    return state\n"
    (tmp_path / "loop.py").write_text(text)
    ws, _ = Workspace.init(tmp_path)
    ws.record("invariant", "loop.py", 3, title="tick never sleeps",
              checks=[{"id": "no-sleep", "kind": "forbid-call", "pattern": "time.sleep"}])
    live = LiveFile(ws, "loop.py", text)
    assert check_findings("loop.py", live.doc.current, live.notes, live.resolve()) == []
    end = Range(5, len("    return state"), 5, len("    return state"))
    live.apply(end, "\n    time.sleep(1)")
    found = check_findings("loop.py", live.doc.current, live.notes, live.resolve())
    assert [(f.code, f.line) for f in found] == [("invariant-violation", 7)]
    ws.close()


def test_a_large_check_shared_over_processes_reports_what_one_process_does(tmp_path: Path):
    """Over 2 × 256 KB of source and 200 note files: the notes are read and the files checked
    by forked processes; the findings are those of one process, cold and warm, and a
    broken note file among the others is still reported with its line."""
    from tether.core import anchors as A
    from tether.core.notes import Note, format_note, new_id

    git_init(tmp_path)
    Workspace.init(tmp_path)
    body = "".join(f"def f{i}(x):\n    y = x + {i}\n    return y * 2\n\n\n" for i in range(120))
    notes = []
    for k in range(130):  # ~4.5 KB a file; in each, one function sleeps and one must log
        text = body.replace(f"    y = x + {k % 120}\n", f"    y = x + {k % 120}\n    time.sleep(1)\n")
        (tmp_path / f"m{k:03d}.py").write_text(text)
        src = SourceFile(text, by_name("python"))
        for f, check in ((k % 120, {"id": "no-sleep", "kind": "forbid-call", "pattern": "time.sleep"}),
                         ((k + 7) % 120, {"id": "logs", "kind": "require-call", "pattern": "log.debug"})):
            a = A.record(src, f"m{k:03d}.py", text.split("\n").index(f"def f{f}(x):"), 0)
            notes.append(Note(id=new_id(), kind="invariant", title=f"f{f} of m{k:03d} holds", author="T <t@x>",
                              created="2026-01-01T00:00:00Z", updated="2026-01-01T00:00:00Z", anchors=[a],
                              checks=[check], confirmed={"by": "T <t@x>", "at": "2026-01-01T00:00:00Z", "hash": a.hash}))
    for n in notes:
        (tmp_path / ".tether" / "notes" / n.file_name()).write_text(format_note(n))
    (tmp_path / ".tether" / "notes" / "broken.md").write_text("+++\nid = 'x'\nkind = = 'invariant'\n+++\n")
    (tmp_path / "m005.py").unlink()  # its two notes are orphaned

    def check(*args):
        r = run(tmp_path, "check", "--format", "json", *args)
        assert r.returncode == 1, r.stderr
        return json.loads(r.stdout)["findings"]

    shared = check()
    shutil.rmtree(tmp_path / ".tether" / "cache")
    alone = check("--jobs", "1")
    assert shared == alone
    assert check() == shared  # warm
    codes = [(f["code"], f["check"]) for f in shared]
    assert codes.count(("invariant-violation", "no-sleep")) == 129 and codes.count(("invariant-violation", "logs")) == 129
    assert codes.count(("orphaned", None)) == 2
    assert [(f["file"], f["line"]) for f in shared if f["code"] == "broken-note"] == [(".tether/notes/broken.md", 3)]
    assert run(tmp_path, "check", "--jobs", "0").returncode == 2
