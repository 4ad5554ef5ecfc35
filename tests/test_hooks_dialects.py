"""`tether hook cursor` and `tether hook gemini`, run as the agents run them: a subprocess fed
one event as their documentation shows it, answering with one JSON object on standard output
(Cursor: https://cursor.com/docs/hooks; Gemini CLI: docs/hooks/reference.md)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from test_hooks import LOOP_PY, path, repo, titles  # noqa: F401 — `repo` is the shared module fixture

BAD_LOOP = "import time\n\n\ndef tick():\n    time.sleep(1)\n    return 1\n"


def run_hook(cwd: Path, stdin: str, agent: str) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "-m", "tether", "hook", agent], input=stdin, cwd=cwd, capture_output=True,
                       text=True, timeout=60, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert r.returncode == 0, (stdin, r.returncode, r.stderr)
    assert r.stdout.count("\n") == 1  # one JSON object, nothing else: both agents parse all of stdout
    return r


def hook(repo, event: dict, agent: str) -> dict:
    r = run_hook(repo.root, json.dumps(event), agent)
    assert r.stderr == "", r.stderr
    return json.loads(r.stdout)


def hooks(repo, events: list[dict], agent: str) -> list[dict]:
    with ThreadPoolExecutor(6) as ex:
        return list(ex.map(lambda e: hook(repo, e, agent), events))


def cursor(repo, sid: str, name: str, **kw) -> dict:
    """A Cursor event with the common fields every Cursor hook receives."""
    return {"conversation_id": sid, "generation_id": f"gen-{name}", "model": "default", "hook_event_name": name,
            "cursor_version": "2.7.0", "workspace_roots": [str(repo.root)], "user_email": None,
            "transcript_path": None, **kw}


def cursor_tool(repo, sid: str, tool_name: str, tool_output: str = "", **tool_input) -> dict:
    return cursor(repo, sid, "postToolUse", tool_name=tool_name, tool_input=tool_input, tool_output=tool_output,
                  tool_use_id=f"tool_{sid}_{tool_name}", cwd=str(repo.root), duration=12.5)


def cursor_context(out: dict) -> str:
    """The context of a Cursor answer, after checking its exact shape."""
    assert set(out) == {"additional_context"}, out
    text = out["additional_context"]
    assert 0 < len(text) < 10_000 and "you must" not in text.lower()
    return text


def gemini(repo, sid: str, name: str, **kw) -> dict:
    """A Gemini CLI event with the base input fields every hook receives."""
    return {"session_id": sid, "transcript_path": f"/tmp/{sid}.json", "cwd": str(repo.root), "hook_event_name": name,
            "timestamp": "2026-12-03T10:00:00.000Z", **kw}


def gemini_tool(repo, sid: str, tool_name: str, **tool_input) -> dict:
    return gemini(repo, sid, "AfterTool", tool_name=tool_name, tool_input=tool_input,
                  tool_response={"llmContent": "ok", "returnDisplay": "ok"})


def gemini_context(out: dict, name: str) -> str:
    assert set(out) == {"hookSpecificOutput"}, out
    spec = out["hookSpecificOutput"]
    assert spec.keys() == {"hookEventName", "additionalContext"} and spec["hookEventName"] == name
    text = spec["additionalContext"]
    assert 0 < len(text) < 10_000 and "you must" not in text.lower()
    return text


# -- Cursor -----------------------------------------------------------------------------------

def test_cursor_session_start_gives_the_repository_wide_notes(repo):
    out = hook(repo, cursor(repo, "cs", "sessionStart", session_id="cs", is_background_agent=False,
                            composer_mode="agent"), "cursor")
    text = cursor_context(out)
    assert text.startswith("# tether notes for this repository")
    assert titles(repo, text) == {"wide", "decision"}


def test_cursor_gets_the_notes_of_a_file_right_after_reading_or_writing_it(repo):
    app = path(repo, "src/app.py")
    cases = {
        "read": cursor_tool(repo, "cr1", "Read", "import os\n...", file_path=app),
        "write": cursor_tool(repo, "cr3", "Write", "Wrote file", file_path=path(repo, "tools/build.py"),
                             content="def build():\n    return 2\n"),
    }
    got = dict(zip(cases, (cursor_context(o) for o in hooks(repo, list(cases.values()), "cursor"))))
    assert titles(repo, got["read"]) == {"decision", "invariant", "wide"}
    assert "Rejected: lazy loading (errors show up late)\n" in got["read"]
    assert titles(repo, got["write"]) == {"intent", "wide"}

    # each note once per file per session
    assert hook(repo, cases["read"], "cursor") == {}
    # a command is recorded, and says nothing
    assert hook(repo, cursor_tool(repo, "cr1", "Shell", "ok", command="ls"), "cursor") == {}


def test_cursor_write_that_breaks_an_invariant_states_the_finding(repo):
    loop = repo.root / "src" / "loop.py"
    try:
        loop.write_text(BAD_LOOP, encoding="utf-8")
        text = cursor_context(hook(repo, cursor_tool(repo, "cw", "Write", "Wrote file", file_path=str(loop),
                                                     content=BAD_LOOP), "cursor"))
    finally:
        loop.write_text(LOOP_PY, encoding="utf-8")
    assert "# tether notes for src/loop.py" in text and "tick never blocks" in text
    assert re.search(r"^tether check after this edit: \d+ findings? in src/loop\.py\.$", text, re.M)
    assert f"src/loop.py:5:5: error: invariant \"tick never blocks\"" in text and f"[{repo.ids['loop']}/no-sleep]" in text


def test_cursor_after_a_compaction_the_next_answer_gives_the_notes_again(repo):
    sid = "cc"
    app = path(repo, "src/app.py")
    assert cursor_context(hook(repo, cursor(repo, sid, "sessionStart", session_id=sid), "cursor"))
    assert cursor_context(hook(repo, cursor_tool(repo, sid, "Read", "...", file_path=app), "cursor"))
    compact = cursor(repo, sid, "preCompact", trigger="auto", context_usage_percent=85, context_tokens=120000,
                     context_window_size=128000, message_count=45, messages_to_compact=30, is_first_compaction=True)
    assert hook(repo, compact, "cursor") == {}  # observational: nothing to say to the user
    text = cursor_context(hook(repo, cursor_tool(repo, sid, "Shell", "ok", command="git status"), "cursor"))
    assert text.startswith("# tether notes for this repository")
    assert "# tether notes for src/app.py" in text
    assert titles(repo, text) == {"wide", "decision", "invariant"}
    # once: the following touch adds nothing
    assert hook(repo, cursor_tool(repo, sid, "Read", "...", file_path=app), "cursor") == {}


def test_cursor_events_that_cannot_carry_notes_get_their_neutral_reply(repo):
    sid = "cn"
    app = path(repo, "src/app.py")
    cases = [
        (cursor(repo, sid, "beforeSubmitPrompt", prompt="Fix the bug in app.py", attachments=[]), {"continue": True}),
        (cursor(repo, sid, "preToolUse", tool_name="Read", tool_input={"file_path": app}, tool_use_id="t1",
                cwd=str(repo.root), agent_message=""), {"permission": "allow"}),
        (cursor(repo, sid, "beforeReadFile", file_path=app, content="import os\n", attachments=[]),
         {"permission": "allow"}),
        (cursor(repo, sid, "afterFileEdit", file_path=app,
                edits=[{"old_string": "return data", "new_string": "return data.strip()"}]), {}),
        (cursor(repo, sid, "postToolUseFailure", tool_name="Shell", tool_input={"command": "make"}, tool_use_id="t2",
                cwd=str(repo.root), error_message="make: *** No rule", failure_type="error", duration=3,
                is_interrupt=False), {}),
        (cursor(repo, sid, "stop", status="completed", loop_count=0), {}),
        (cursor(repo, sid, "sessionEnd", session_id=sid, reason="completed", duration_ms=45000,
                is_background_agent=False, final_status="completed"), {}),
    ]
    assert hooks(repo, [e for e, _ in cases], "cursor") == [want for _, want in cases]


# -- Gemini CLI -------------------------------------------------------------------------------

def test_gemini_session_start_and_after_tool_give_the_notes(repo):
    app = path(repo, "src/app.py")
    cases = {
        "start": gemini(repo, "g0", "SessionStart", source="startup"),
        "read": gemini_tool(repo, "g1", "read_file", file_path=app),
        "read-window": gemini_tool(repo, "g2", "read_file", file_path="src/app.py", offset=10, limit=4),  # 0-based
        "replace": gemini_tool(repo, "g3", "replace", file_path=app, instruction="cast the port",
                               old_string="        self.port = port", new_string="        self.port = int(port)"),
        "write": gemini_tool(repo, "g4", "write_file", file_path=path(repo, "tools/build.py"),
                             content="def build():\n    return 2\n"),
    }
    outs = dict(zip(cases, hooks(repo, list(cases.values()), "gemini")))
    start = gemini_context(outs.pop("start"), "SessionStart")
    assert start.startswith("# tether notes for this repository") and titles(repo, start) == {"wide", "decision"}
    got = {k: gemini_context(o, "AfterTool") for k, o in outs.items()}
    assert titles(repo, got["read"]) == {"decision", "invariant", "wide"}
    assert titles(repo, got["read-window"]) == {"invariant", "wide"}
    assert titles(repo, got["replace"]) == {"invariant", "wide"}
    assert got["replace"].startswith("# tether notes for src/app.py:13")
    assert titles(repo, got["write"]) == {"intent", "wide"}
    assert hook(repo, cases["read"], "gemini") == {}  # once per file per session


def test_gemini_replace_that_breaks_an_invariant_states_the_finding(repo):
    loop = repo.root / "src" / "loop.py"
    try:
        loop.write_text(BAD_LOOP, encoding="utf-8")
        out = hook(repo, gemini_tool(repo, "gf", "replace", file_path=str(loop), instruction="wait a second",
                                     old_string="    return 1", new_string="    time.sleep(1)\n    return 1"), "gemini")
    finally:
        loop.write_text(LOOP_PY, encoding="utf-8")
    text = gemini_context(out, "AfterTool")
    assert re.search(r"^tether check after this edit: \d+ findings? in src/loop\.py\.$", text, re.M)
    assert f"[{repo.ids['loop']}/no-sleep]" in text


def test_gemini_after_compression_the_next_prompt_carries_the_notes_again(repo):
    sid = "gc"
    assert gemini_context(hook(repo, gemini(repo, sid, "SessionStart", source="startup"), "gemini"), "SessionStart")
    assert gemini_context(hook(repo, gemini_tool(repo, sid, "read_file", file_path=path(repo, "tools/build.py")),
                               "gemini"), "AfterTool")
    prompt = gemini(repo, sid, "BeforeAgent", prompt="Now make build() faster")
    assert hook(repo, prompt, "gemini") == {}  # nothing new to say
    # Gemini CLI 0.61 fires "auto" before every model request, compressing or not: nothing is forgotten
    assert hook(repo, gemini(repo, sid, "PreCompress", trigger="auto"), "gemini") == {}
    assert hook(repo, prompt, "gemini") == {}
    assert hook(repo, gemini(repo, sid, "PreCompress", trigger="manual"), "gemini") == {}  # /compress
    text = gemini_context(hook(repo, prompt, "gemini"), "BeforeAgent")
    assert text.startswith("# tether notes for this repository") and "# tether notes for tools/build.py" in text
    assert titles(repo, text) == {"wide", "decision", "intent"}
    assert hook(repo, prompt, "gemini") == {}
    assert hooks(repo, [gemini(repo, sid, "BeforeTool", tool_name="read_file", tool_input={"file_path": "x"}),
                        gemini(repo, sid, "AfterAgent", prompt="p", prompt_response="done", stop_hook_active=False),
                        gemini(repo, sid, "SessionEnd", reason="exit")], "gemini") == [{}, {}, {}]


# -- never failing the agent ------------------------------------------------------------------

def test_bad_payloads_get_a_neutral_reply_and_exit_0(repo, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    broken = ["garbage {", "", "[1, 2]", "null", "\"sessionStart\""]  # not an event: an error, said on stderr
    odd = [  # events with odd fields: answered as tether answers what it has nothing to say to
        ("cursor", cursor(repo, "b1", "postToolUse", tool_name="Read", tool_input="not an object"), {}),
        ("cursor", cursor(repo, "b2", "postToolUse", tool_name="Read", tool_input={"file_path": 12}), {}),
        ("cursor", cursor(repo, "b3", "postToolUse", tool_name="Read", tool_input={"file_path": "/etc/passwd"}), {}),
        ("cursor", {**cursor(repo, "b4", "stop"), "workspace_roots": [3, None], "status": 7}, {}),
        ("cursor", {**cursor(repo, "b5", "beforeReadFile", file_path="x"), "conversation_id": {"x": 1}},
         {"permission": "allow"}),
        ("cursor", {**cursor(repo, "b6", "beforeReadFile", file_path="x"), "workspace_roots": [str(outside)]},
         {"permission": "allow"}),  # beforeReadFile fails closed: tether always allows
        ("cursor", {"hook_event_name": ["sessionStart"]}, {}),
        ("gemini", gemini(repo, "b7", "AfterTool", tool_name="read_file",
                          tool_input={"file_path": "../../x", "offset": "ten"}), {}),
        ("gemini", {**gemini(repo, "b8", "SessionStart"), "cwd": str(outside)}, {}),
        ("gemini", gemini(repo, "b9", "NoSuchEvent"), {}),
        ("gemini", {**gemini(repo, "b10", "BeforeAgent"), "session_id": None, "prompt": ["x"]}, {}),
    ]
    with ThreadPoolExecutor(6) as ex:
        errors = list(ex.map(lambda a: run_hook(repo.root, a[1], a[0]),
                             [(agent, s) for agent in ("cursor", "gemini") for s in broken]))
        answered = list(ex.map(lambda a: run_hook(repo.root, json.dumps(a[1]), a[0]), odd))
    for r in errors:
        assert json.loads(r.stdout) == {}
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("tether hook ")
        assert "details in .tether/cache/hooks.log" in r.stderr
    assert [json.loads(r.stdout) for r in answered] == [want for _, _, want in odd]
    assert [r.stderr for r in answered] == [""] * len(odd)
    log = (repo.root / ".tether" / "cache" / "hooks.log").read_text(encoding="utf-8")
    assert "JSONDecodeError" in log and " cursor " in log and " gemini " in log
