"""`tether hook claude-code` and `tether hook copilot`, run as the agents run them: a
subprocess fed one event as JSON on standard input, answering on standard output."""

from __future__ import annotations

import json
import os
import subprocess
import time
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tether.core import anchors as A
from tether.core.workspace import Workspace

from samples import APP_PY, git_init, scans_counted

LOOP_PY = "import time\n\n\ndef tick():\n    return 1\n"
NOTEBOOK = json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


class Repo:
    root: Path
    ids: dict[str, str]
    handles: dict[str, str]  # label -> the short id the context shows


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Repo:
    r = Repo()
    r.root = root = tmp_path_factory.mktemp("hooks") / "repo"
    git_init(root)
    for rel, text in {"src/app.py": APP_PY, "src/loop.py": LOOP_PY, "tools/build.py": "def build():\n    return 1\n",
                      "nb/analysis.ipynb": NOTEBOOK}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    ws, _ = Workspace.init(root)
    r.ids = {
        "decision": ws.record("decision", "src/app.py", 3, title="Load config eagerly",
                              rationale="Startup must fail fast.", rejected=[("lazy loading", "errors show up late")]).id,
        "invariant": ws.record("invariant", "src/app.py", 11, title="start only records the port").id,
        "loop": ws.record("invariant", "src/loop.py", 3, title="tick never blocks",
                          checks=[{"id": "no-sleep", "kind": "forbid-call", "pattern": "time.sleep"}]).id,
        "intent": ws.record("intent", "tools/build.py", how="file", title="build stays one function").id,
        "workaround": ws.record("workaround", "nb/analysis.ipynb", how="file", title="cells run top to bottom",
                                works_around="the kernel keeps state").id,
        "wide": ws.record("boundary", "**", how="glob", title="No network calls at import time").id,
    }
    r.handles = {label: ws.repo.short_id(nid) for label, nid in r.ids.items()}
    ws.close()
    return r


def run_hook(cwd: Path, stdin: str, agent: str = "claude-code") -> dict | None:
    r = subprocess.run([sys.executable, "-m", "tether", "hook", agent], input=stdin, cwd=cwd, capture_output=True,
                       text=True, timeout=60, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert r.returncode == 0 and r.stderr == "", (stdin, r.returncode, r.stderr)
    return json.loads(r.stdout) if r.stdout.strip() else None


def hook(repo: Repo, event: dict, agent: str = "claude-code") -> dict | None:
    return run_hook(repo.root, json.dumps(event), agent)


def hooks(repo: Repo, events: list[dict], agent: str = "claude-code") -> list[dict | None]:
    """Events of different sessions, run side by side to keep the suite quick."""
    with ThreadPoolExecutor(6) as ex:
        return list(ex.map(lambda e: hook(repo, e, agent), events))


def event(repo: Repo, sid: str, name: str, **kw) -> dict:
    return {"session_id": sid, "transcript_path": f"/tmp/{sid}.jsonl", "cwd": str(repo.root),
            "hook_event_name": name, "permission_mode": "default", **kw}


def tool(repo: Repo, sid: str, name: str, tool_name: str, **tool_input) -> dict:
    return event(repo, sid, name, tool_name=tool_name, tool_input=tool_input, tool_use_id=f"toolu_{sid}_{tool_name}")


def pre(repo: Repo, sid: str, tool_name: str, **tool_input) -> dict:
    return tool(repo, sid, "PreToolUse", tool_name, **tool_input)


def context(out: dict | None, name: str) -> str:
    """The additionalContext of an answer, after checking the answer's exact shape."""
    assert out is not None, f"no answer to {name}"
    assert set(out) == {"hookSpecificOutput"}
    spec = out["hookSpecificOutput"]
    assert set(spec) == {"hookEventName", "additionalContext"}  # never a permission decision or new input
    assert spec["hookEventName"] == name
    text = spec["additionalContext"]
    assert 0 < len(text) < 10_000
    assert "you must" not in text.lower() and "system" not in text.lower()
    return text


def titles(repo: Repo, text: str) -> set[str]:
    """The labels of the notes handed over in full (each note's first line ends with its short id)."""
    return {label for label, h in repo.handles.items() if f"({h})\n" in text}


def path(repo: Repo, rel: str) -> str:
    return str(repo.root / rel)


def test_session_start_gives_the_repository_wide_notes_and_recent_decisions(repo):
    text = context(hook(repo, event(repo, "start", "SessionStart", source="startup")), "SessionStart")
    assert text.startswith("# tether notes for this repository")
    assert titles(repo, text) == {"wide", "decision"}
    assert "No network calls at import time" in text and "Startup must fail fast." in text


def test_pre_tool_use_names_the_notes_at_the_touched_place_for_every_tool(repo):
    app = path(repo, "src/app.py")
    cases = {
        # lines 11-14: class Service and its start()
        "read-window": pre(repo, "p1", "Read", file_path=app, offset=11, limit=4),
        "read-top": pre(repo, "p2", "Read", file_path=app, offset=4, limit=2),
        "read-all": pre(repo, "p3", "Read", file_path=app),
        "edit": pre(repo, "p4", "Edit", file_path=app, old_string="        self.port = port",
                    new_string="        self.port = int(port)"),
        "edit-not-found": pre(repo, "p5", "Edit", file_path=app, old_string="no such text", new_string="x"),
        "multi": pre(repo, "p6", "MultiEdit", file_path=app, edits=[
            {"old_string": "    return data", "new_string": "    return data.strip()"},
            {"old_string": "        return True", "new_string": "        return self.port > 0"}]),
        "write": pre(repo, "p7", "Write", file_path=path(repo, "tools/build.py"), content="def build():\n    return 2\n"),
        "write-new": pre(repo, "p8", "Write", file_path=path(repo, "src/new.py"), content="x = 1\n"),
        "notebook": pre(repo, "p9", "NotebookEdit", notebook_path=path(repo, "nb/analysis.ipynb"), cell_id="c1",
                        new_source="print(1)", edit_mode="replace"),
    }
    got = dict(zip(cases, (context(o, "PreToolUse") for o in hooks(repo, list(cases.values())))))
    assert titles(repo, got["read-window"]) == {"invariant", "wide"}
    assert titles(repo, got["read-top"]) == {"decision", "wide"}
    assert titles(repo, got["read-all"]) == {"decision", "invariant", "wide"}
    assert titles(repo, got["edit"]) == {"invariant", "wide"}
    assert got["edit"].startswith("# tether notes for src/app.py:13")
    assert "## On the code around it\n\ninvariant: start only records the port (" in got["edit"]  # the title names it
    assert titles(repo, got["edit-not-found"]) == {"decision", "invariant", "wide"}  # the whole file
    assert titles(repo, got["multi"]) == {"decision", "invariant", "wide"}
    assert "Rejected: lazy loading (errors show up late)\n" in got["multi"]
    assert titles(repo, got["write"]) == {"intent", "wide"}
    assert titles(repo, got["write-new"]) == {"wide"}  # a new file: the path-pattern notes
    assert titles(repo, got["notebook"]) == {"workaround", "wide"}
    assert "Works around: the kernel keeps state" in got["notebook"]


def test_a_file_is_given_once_per_session_unless_its_notes_change(repo):
    app = path(repo, "src/app.py")
    read = pre(repo, "once", "Read", file_path=app)
    first = context(hook(repo, read), "PreToolUse")
    assert titles(repo, first) == {"decision", "invariant", "wide"}
    again = hooks(repo, [read, pre(repo, "once", "Edit", file_path=app, old_string="    return data", new_string="")])
    assert again == [None, None]
    assert titles(repo, context(hook(repo, {**read, "session_id": "other"}), "PreToolUse")) == \
        {"decision", "invariant", "wide"}

    ws = Workspace(repo.root)
    ws.update(repo.ids["decision"], lambda n: setattr(n, "rationale", "Startup must fail fast; measured twice."))
    ws.close()
    changed = context(hook(repo, read), "PreToolUse")
    assert titles(repo, changed) == {"decision"}
    assert "measured twice" in changed
    assert "given earlier in this session" in changed and "start only records the port" in changed
    assert hook(repo, read) is None


def test_a_note_only_named_comes_again_in_full_at_the_next_touch(tmp_path):
    """A read of a file with more notes than its share of the budget names some of them only;
    the next touch of the file tells those in full, and not again the ones already told (named
    in one line, counted in the budget)."""
    from tether.agents.hooks import hand_over
    from tether.context.ranking import estimate_tokens, ranked_at
    root = tmp_path / "repo"
    root.mkdir()
    (root / "pay.py").write_text("".join(f"def step{k}(x):\n    return x + {k}\n\n\n" for k in range(6)))
    ws, _ = Workspace.init(root, exact=True)
    why = "The ledger and the card statement must agree to the cent, so this step rounds nothing. " * 2
    notes = [ws.record("decision", "pay.py", 4 * k, title=f"step{k} keeps the amount exact", rationale=why)
             for k in range(6)]
    try:
        first = hand_over(ws, "s1", "pay.py", None, ranked_at(ws, "pay.py"), 250)
        handle = {n.id: ws.repo.short_id(n.id) for n in notes}
        named = [n for n in notes if f"- decision: {n.title} ({handle[n.id]})" in first]
        told = [n for n in notes if n not in named and f"{n.title} ({handle[n.id]})" in first]
        assert named and told and first.count(why.strip()) == len(told)
        again = hand_over(ws, "s1", "pay.py", None, ranked_at(ws, "pay.py"), 2000)
        assert again.count(why.strip()) == len(named)  # what was only named, now in full
        for n in told:  # and what was told, not again
            assert f"decision \"{n.title}\" ({handle[n.id]})" in again.split("given earlier in this session: ")[1]
        # at a tight budget the answer, the line naming what was given earlier included, fits it
        tight = [hand_over(ws, "s2", "pay.py", None, ranked_at(ws, "pay.py"), 250) for _ in range(3)]
        assert "given earlier in this session" in tight[1] and all(estimate_tokens(t) <= 250 for t in tight)
    finally:
        ws.close()


def test_session_start_after_compaction_gives_the_touched_files_again(repo):
    sid = "compacted"
    assert context(hook(repo, event(repo, sid, "SessionStart", source="startup")), "SessionStart")
    for t in (pre(repo, sid, "Read", file_path=path(repo, "src/app.py")),
              pre(repo, sid, "Edit", file_path=path(repo, "tools/build.py"), old_string="    return 1", new_string="")):
        assert context(hook(repo, t), "PreToolUse")
    assert hook(repo, event(repo, sid, "PreCompact", trigger="auto", custom_instructions="")) is None
    text = context(hook(repo, event(repo, sid, "SessionStart", source="compact")), "SessionStart")
    assert text.startswith("# tether notes for this repository")
    assert "# tether notes for src/app.py" in text and "# tether notes for tools/build.py" in text
    assert titles(repo, text) == {"wide", "decision", "invariant", "intent"}
    assert text.count(f"({repo.handles['wide']})\n") == 1  # repository-wide notes once, not once per file
    assert len(text) < 10_000
    # given again just now: the next touch adds nothing
    assert hook(repo, pre(repo, sid, "Read", file_path=path(repo, "src/app.py"))) is None


def test_session_start_after_compaction_fits_its_budget(tmp_path):
    """The repository's notes take half the budget, the touched files share what they left."""
    from tether.agents.hooks import hand_over, session_start
    from tether.context.ranking import estimate_tokens, ranked_at
    root = tmp_path / "repo"
    root.mkdir()
    why = "The ledger and the card statement must agree to the cent, so this step rounds nothing. " * 3
    for f in ("a", "b"):
        (root / f"{f}.py").write_text("".join(f"def {f}{k}(x):\n    return x + {k}\n\n\n" for k in range(6)))
    ws, _ = Workspace.init(root, exact=True)
    try:
        for f in ("a", "b"):
            for k in range(6):
                ws.record("decision", f"{f}.py", 4 * k, title=f"{f}{k} keeps the amount exact", rationale=why)
        for k in range(8):
            ws.record("boundary", "**", how=A.GLOB, title=f"repository rule {k}", rationale=why)
        for f in ("a", "b"):
            hand_over(ws, "s1", f"{f}.py", None, ranked_at(ws, f"{f}.py"), 2000)
        text = session_start(ws, "s1", "compact", budget=600)
        assert "# tether notes for a.py" in text and "# tether notes for b.py" in text
        assert estimate_tokens(text) <= 600
    finally:
        ws.close()


def test_post_tool_use_states_the_findings_of_an_edit_and_nothing_when_clean(repo):
    loop = repo.root / "src" / "loop.py"
    post = tool(repo, "post", "PostToolUse", "Edit", file_path=str(loop), old_string="    return 1",
                new_string="    return 2")
    post["tool_response"] = {"filePath": str(loop), "success": True}
    assert hooks(repo, [post, tool(repo, "post", "PostToolUse", "Read", file_path=str(loop))]) == [None, None]
    try:
        loop.write_text("import time\n\n\ndef tick():\n    time.sleep(1)\n    return 1\n", encoding="utf-8")
        post["tool_use_id"] = "toolu_post_2"
        text = context(hook(repo, post), "PostToolUse")
        assert text.startswith("tether check after this edit:")
        nid = repo.ids["loop"]
        assert "src/loop.py:5:5: error: invariant \"tick never blocks\"" in text
        assert f"[{nid}/no-sleep]" in text
        assert "src/app.py" not in text
    finally:
        loop.write_text(LOOP_PY, encoding="utf-8")


def test_a_failure_or_anything_outside_prints_nothing(repo, tmp_path):
    app = path(repo, "src/app.py")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "x.py").write_text("x = 1\n", encoding="utf-8")
    stdins = ["garbage {", "", "[1, 2]", json.dumps({})]
    events = [
        {**pre(repo, "e1", "Read", file_path=str(outside / "x.py")), "cwd": str(outside)},  # no .tether/ there
        pre(repo, "e2", "Read", file_path=str(outside / "x.py")),  # a path outside the workspace
        pre(repo, "e3", "Read", file_path=path(repo, "src/missing.py")),
        pre(repo, "e4", "Bash", command="ls"),
        pre(repo, "e5", "Read", file_path=12),
        pre(repo, "e6", "Edit", file_path=app),  # no old_string: still fine
        event(repo, "e7", "UserPromptSubmit", prompt="hi"),
    ]
    with ThreadPoolExecutor(6) as ex:
        outs = list(ex.map(lambda s: run_hook(repo.root, s), stdins + [json.dumps(e) for e in events]))
    assert outs[:-2] == [None] * (len(outs) - 2)
    assert titles(repo, context(outs[-2], "PreToolUse")) == {"decision", "invariant", "wide"}
    assert outs[-1] is None
    log = (repo.root / ".tether" / "cache" / "hooks.log").read_text(encoding="utf-8")
    assert "JSONDecodeError" in log and "Traceback" in log


def test_copilot_tools_and_events(repo):
    app = path(repo, "src/app.py")

    def vs(sid: str, name: str, **kw) -> dict:
        return {"timestamp": "2026-02-09T10:30:00.000Z", "cwd": str(repo.root), "sessionId": sid,
                "hookEventName": name, "transcript_path": f"/tmp/{sid}.json", **kw}

    def vs_pre(sid: str, tool_name: str, **tool_input) -> dict:
        return vs(sid, "PreToolUse", tool_name=tool_name, tool_input=tool_input, tool_use_id=f"tool-{sid}")

    cases = {
        "start": vs("c0", "SessionStart", source="new"),
        "read": vs_pre("c1", "read_file", filePath=app, startLine=11, endLine=14),
        "read-v2": vs_pre("c2", "copilot_readFile", filePath=app, offset=4, limit=2),
        "replace": vs_pre("c3", "replace_string_in_file", filePath=app, oldString="        self.port = port",
                          newString="        self.port = 1"),
        "multi": vs_pre("c4", "multi_replace_string_in_file", explanation="x", replacements=[
            {"filePath": app, "oldString": "    return data", "newString": "    return 1"},
            {"filePath": path(repo, "tools/build.py"), "oldString": "    return 1", "newString": "    return 2"}]),
        "create": vs_pre("c5", "create_file", filePath=path(repo, "src/new.py"), content="x = 1\n"),
        "patch": vs_pre("c6", "apply_patch", input="*** Begin Patch\n*** Update File: " + path(repo, "tools/build.py") +
                        "\n@@\n-    return 1\n+    return 2\n*** End Patch"),
        "notebook": vs_pre("c7", "edit_notebook_file", filePath=path(repo, "nb/analysis.ipynb"), cellId="c1",
                           newCode="print(1)", editType="edit"),
        "files": vs_pre("c8", "editFiles", files=["tools/build.py"]),
        "terminal": vs_pre("c9", "run_in_terminal", command="ls"),
    }
    outs = dict(zip(cases, hooks(repo, list(cases.values()), agent="copilot")))
    assert titles(repo, context(outs.pop("start"), "SessionStart")) == {"wide", "decision"}
    assert outs.pop("terminal") is None
    got = {k: context(o, "PreToolUse") for k, o in outs.items()}
    assert titles(repo, got["read"]) == {"invariant", "wide"}
    assert titles(repo, got["read-v2"]) == {"decision", "wide"}
    assert titles(repo, got["replace"]) == {"invariant", "wide"}
    assert titles(repo, got["multi"]) == {"decision", "intent", "wide"}
    assert "# tether notes for src/app.py" in got["multi"] and "# tether notes for tools/build.py" in got["multi"]
    assert titles(repo, got["create"]) == {"wide"}
    assert titles(repo, got["patch"]) == {"intent", "wide"}
    assert titles(repo, got["notebook"]) == {"workaround", "wide"}
    assert titles(repo, got["files"]) == {"intent", "wide"}

    # once per file per session; PreCompact (VS Code has no SessionStart after it) forgets
    assert hook(repo, cases["read"], "copilot") is None
    assert hook(repo, vs("c1", "PreCompact", trigger="auto"), "copilot") is None
    assert titles(repo, context(hook(repo, cases["read"], "copilot"), "PreToolUse")) == {"invariant", "wide"}

    loop = repo.root / "src" / "loop.py"
    post = vs("c10", "PostToolUse", tool_name="copilot_replaceString", tool_use_id="tool-post",
              tool_input={"filePath": str(loop), "oldString": "    return 1", "newString": "    x"},
              tool_response="File edited successfully")
    try:
        loop.write_text("import time\n\n\ndef tick():\n    time.sleep(1)\n    return 1\n", encoding="utf-8")
        text = context(hook(repo, post, "copilot"), "PostToolUse")
        assert f"[{repo.ids['loop']}/no-sleep]" in text
        # the same tool call answered by the Claude-format hook too (VS Code runs .claude/settings.json): once
        assert hook(repo, post, "claude-code") is None
    finally:
        loop.write_text(LOOP_PY, encoding="utf-8")


def test_vscode_events_reach_the_claude_code_command(repo):
    """VS Code runs the hooks of .claude/settings.json with its own tool names and inputs."""
    out = hook(repo, {"timestamp": "2026-02-09T10:30:00.000Z", "cwd": str(repo.root), "sessionId": "vc",
                      "hookEventName": "PreToolUse", "tool_name": "read_file",
                      "tool_input": {"filePath": path(repo, "tools/build.py")}, "tool_use_id": "tool-1"})
    assert titles(repo, context(out, "PreToolUse")) == {"intent", "wide"}


def test_a_note_edited_in_place_between_two_events_is_what_the_next_event_hands_over(tmp_path):
    """A hook alone (no server, no watch) sees a note file rewritten in place — by an editor that
    writes into the file, say — though the notes folder itself did not change: the new text, and
    the note now on another place (a shortcut that trusted the folder's time, or the note files'
    sizes, would hand over the old note, or none)."""
    (tmp_path / "app.py").write_text(APP_PY, encoding="utf-8")
    ws, _ = Workspace.init(tmp_path, exact=True)
    note = ws.record("decision", "app.py", 3, title="Load config eagerly")
    ws.close()
    r = Repo()
    r.root, r.ids = tmp_path, {}
    read = {"file_path": str(tmp_path / "app.py")}
    assert "Load config eagerly" in context(hook(r, pre(r, "in-place-1", "Read", **read)), "PreToolUse")

    file = tmp_path / note.path
    folder = os.stat(file.parent).st_mtime_ns
    text = file.read_text(encoding="utf-8")
    edited = text.replace("Load config eagerly", "Load config lazily!")  # the same size
    assert len(edited) == len(text) and edited != text
    with open(file, "r+", encoding="utf-8") as f:  # in place: no new file, no rename
        f.write(edited)
    assert os.stat(file.parent).st_mtime_ns == folder
    got = context(hook(r, pre(r, "in-place-2", "Read", **read)), "PreToolUse")
    assert "Load config lazily!" in got and "eagerly" not in got

    # moved by hand onto another place, in place again: the file it was on has no note now
    with open(file, "r+", encoding="utf-8") as f:
        f.write(edited.replace('path = "app.py"', 'path = "ap2.py"'))
    assert os.stat(file.parent).st_mtime_ns == folder
    (tmp_path / "ap2.py").write_text(APP_PY, encoding="utf-8")
    assert hook(r, pre(r, "in-place-3", "Read", **read)) is None
    got = context(hook(r, pre(r, "in-place-4", "Read", file_path=str(tmp_path / "ap2.py"))), "PreToolUse")
    assert "Load config lazily!" in got


def test_an_event_looks_at_the_notes_folder_once(repo, monkeypatch):
    """An edit of several lines asks for the notes at its first line and in the whole file; a
    hook alone stats every note file each time it looks at the notes folder, so it looks once
    for the event at most (in this process, counted)."""
    import io

    from tether.agents import hooks as H
    monkeypatch.chdir(repo.root)
    edit = pre(repo, "one-look", "Edit", file_path=path(repo, "src/app.py"), old_string="def load_config(path):\n"
               '    """Load the configuration."""\n    with open(path) as f:', new_string="def load_config(path):")
    out = io.StringIO()
    with scans_counted() as count:
        assert H.run("claude-code", io.StringIO(json.dumps(edit)), out) == 0
    log = repo.root / ".tether" / "cache" / "hooks.log"
    assert "Load config eagerly" in out.getvalue(), log.read_text() if log.exists() else "no log"
    assert count[0] <= 1, f"the notes folder was scanned {count[0]} times for one event"  # 0: trusted


def test_a_hook_alone_trusts_the_notes_folder_only_as_far_as_its_notes_are_unchanged(tmp_path, monkeypatch):
    """A hook alone about a source file does not stat every note file (45 ms at 10,000 notes here)
    once the notes folder is as the last whole scan left it: it checks the notes it hands over
    against their own files. A note rewritten in place is still what it hands over; a note added
    is seen at once; a note moved by hand, in place, onto the file is seen after the next prompt
    (a whole scan). Run in this process, to count the whole scans."""
    import io

    from tether.agents import hooks as H
    for rel in ("app.py", "other.py"):
        (tmp_path / rel).write_text(APP_PY, encoding="utf-8")
    ws, _ = Workspace.init(tmp_path, exact=True)
    here = ws.record("decision", "app.py", 3, title="Load config eagerly")
    there = ws.record("decision", "other.py", 3, title="Other config is lazy")
    ws.close()
    notes, past = tmp_path / ".tether" / "notes", time.time_ns() - 10_000_000_000

    def at_rest():  # the folder last changed a while ago, as a user's is
        os.utime(notes, ns=(past, past))

    def answer(sid: str, name: str = "PreToolUse", **kw) -> tuple[str, int]:
        ev = {"session_id": sid, "transcript_path": "", "cwd": str(tmp_path), "hook_event_name": name, **kw}
        if name == "PreToolUse":
            ev.update(tool_name="Read", tool_input={"file_path": str(tmp_path / "app.py")})
        out = io.StringIO()
        with scans_counted() as count:
            assert H.run("claude-code", io.StringIO(json.dumps(ev)), out) == 0
        return out.getvalue(), count[0]

    monkeypatch.chdir(tmp_path)
    at_rest()
    got, scans = answer("t1")
    assert "Load config eagerly" in got and scans == 1  # the first: a whole scan, which the index remembers
    got, scans = answer("t2")
    assert "Load config eagerly" in got and scans == 0  # trusted: nothing changed

    file = tmp_path / here.path
    text = file.read_text(encoding="utf-8")
    with open(file, "r+", encoding="utf-8") as f:  # in place, the same size: the folder does not change
        f.write(text.replace("Load config eagerly", "Load config lazily!"))
    at_rest()
    got, scans = answer("t3")
    assert "Load config lazily!" in got and "eagerly" not in got and scans == 1

    ws = Workspace.find(tmp_path)
    ws.record("invariant", "app.py", 3, title="Config is read once")  # a new file: the folder changes
    ws.close()
    got, _ = answer("t4")
    assert "Config is read once" in got

    at_rest()
    assert answer("t5")[1] == 1  # a whole scan, the folder at rest: trusted from now on
    moved = tmp_path / there.path
    text = moved.read_text(encoding="utf-8")
    with open(moved, "r+", encoding="utf-8") as f:  # onto app.py, by hand, in place
        f.write(text.replace('path = "other.py"', 'path = "app.py"  '))
    at_rest()
    answer("t6", "UserPromptSubmit", prompt="and now?")
    got, scans = answer("t7")
    assert "Other config is lazy" in got and scans == 0


def test_a_hook_alone_on_an_edit_and_after_it_imports_only_what_answering_needs(repo):
    """As an agent's hook command starts tether (``-P -S``, site after), alone: an Edit at a line
    (what the code there calls, so the file is parsed) and the PostToolUse after it load no
    ``typing`` (tree-sitter's package imports it for one Protocol), no TOML reader (the language
    registry is read from its JSON twin), no ``dataclasses``, ``inspect`` or ``subprocess``
    (the check worker's, needed only where an invariant's check applies)."""
    from tether.agents.setup import hook_launcher
    heavy = {"typing", "tomli", "datetime", "dataclasses", "inspect", "subprocess", "orjson"}
    start = [*hook_launcher([sys.executable, "-m", "tether"]), "hook", "claude-code"]
    start.insert(1, "-X")
    start.insert(2, "importtime")
    edit = pre(repo, "lean", "Edit", file_path=path(repo, "tools/build.py"), old_string="    return 1",
               new_string="    return 2")
    after = {**edit, "hook_event_name": "PostToolUse", "tool_response": {"filePath": path(repo, "tools/build.py")}}

    def imports(argv: list[str], stdin: str = "") -> set[str]:
        r = subprocess.run(argv, input=stdin, cwd=repo.root, capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        return {line.rsplit("|", 1)[1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
    site = imports([sys.executable, "-X", "importtime", "-P", "-S", "-c", "import site; site.main()"])  # (its .pth files')
    for name, ev in (("PreToolUse", edit), ("PreToolUse", edit), ("PostToolUse", after)):  # (the first may parse
        imported = imports(start, json.dumps(ev)) - site  # the TOML)
        assert "tether.core.workspace" in imported and ("tether.context.calls" in imported or name == "PostToolUse")
        assert not imported & heavy, (name, sorted(imported & heavy))
