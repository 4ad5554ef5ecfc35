"""`tether proxy` between the real agent CLIs and a scripted model (tests/upstreams): Claude Code
2.1.328 (Messages API), Codex CLI 0.169.0 (Responses API) and Gemini CLI 0.61.0, as installed by
tests/agents/install.sh, in a repository with tether's notes and no hooks — the proxy is all
tether has of these sessions. What each test asserts is what the model was sent, what the agent
did, and what tether kept: a turn's notes and candidates, and a compaction's summary and
(with --distil-on-compaction) what it settled."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from samples import git_init
from test_proxy_clients import SERVER, running_proxy

pytest.importorskip("upstreams", reason="tests/upstreams (the scripted model APIs) are not on this branch yet")
from upstreams import Call, Text, anthropic, gemini, openai  # noqa: E402

from tether.capture import observations as K  # noqa: E402
from tether.proxy import compaction as C  # noqa: E402
from tether.core.workspace import Workspace  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
INSTALL = ROOT / "tests" / "agents" / "install.sh"
TIMEOUT = 240  # seconds for one agent run, on a loaded machine
KEY = "sk-ant-test-Pq7wSECRETproxykey"

BILLING = "def total(prices):\n    s = 0\n    for p in prices:\n        s += p\n    return s\n"
INVARIANT = "totals stay in integer cents"
DECISION = ("Make total() in billing.py exact. We decided to keep amounts as integer cents because floats drift; "
            "rejected Decimal since it is slow in the hot loop.")


def cli(name: str) -> str:
    if not INSTALL.exists():
        pytest.fail("tests/agents/install.sh is missing")
    where = subprocess.run(["bash", str(INSTALL), "--where"], capture_output=True, text=True, check=True).stdout
    path = Path(where.strip()) / "node_modules" / ".bin" / name
    if not path.exists():
        pytest.fail(f"{path} is missing: run `bash tests/agents/install.sh` first")
    return str(path)


def make_repo(base: Path) -> tuple[Path, Path]:
    root, home = base / "repo", base / "home"
    git_init(root)
    home.mkdir()
    (root / "billing.py").write_text(BILLING, encoding="utf-8")
    ws, _ = Workspace.init(root)
    ws.record("invariant", "billing.py", 1, title=INVARIANT)
    ws.close()
    return root, home


def review(root: Path, wait: float = 60) -> list[dict]:
    """The pending candidates, once the proxy's distillation (a child process) has queued some."""
    end = time.monotonic() + wait
    while True:
        r = subprocess.run([sys.executable, "-m", "tether", "review", "--json"], cwd=root, capture_output=True,
                           text=True, env={**os.environ, "PYTHONPATH": SERVER})
        cands = json.loads(r.stdout)["candidates"] if r.returncode == 0 else []
        if cands or time.monotonic() > end:
            return cands
        time.sleep(0.5)


def logged(root: Path, sid: str) -> list[dict]:
    ws = Workspace(root)
    try:
        return K.observations(ws, sid)
    finally:
        ws.close()


def on_disk(key: str, *folders: Path) -> list[Path]:
    return [p for f in folders for p in f.rglob("*") if p.is_file() and not p.is_symlink()
            and key.encode() in p.read_bytes()]


def test_claude_code_through_the_proxy(tmp_path):
    root, home = make_repo(tmp_path)
    billing = str(root / "billing.py")
    steps = [Call("Read", {"file_path": billing}),
             Call("Edit", {"file_path": billing, "old_string": "        s += p\n",
                           "new_string": "        s += round(p * 100)\n"}),
             Text("total() now adds integer cents.")]
    with anthropic.Upstream(steps) as up, running_proxy(root, "--anthropic-upstream", up.url) as (base, _):
        env = {**os.environ, "ANTHROPIC_BASE_URL": base, "ANTHROPIC_API_KEY": KEY, "HOME": str(home),
               "DISABLE_TELEMETRY": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}
        r = subprocess.run([cli("claude"), "-p", DECISION, "--allowedTools", "Read Edit"], cwd=root, env=env,
                           capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
        candidates = review(root)
    assert up.errors == [] and len(up.main) == 3
    # the note reached the model: one trailing block of the message that carries the Read's result
    after_read = up.main[1].json["messages"][-1]["content"]
    assert after_read[0]["type"] == "tool_result"
    assert after_read[-1]["type"] == "text" and after_read[-1]["text"].startswith("# tether notes for billing.py")
    assert INVARIANT in after_read[-1]["text"]
    assert up.main[2].text.count(INVARIANT) == 1  # carried once, not given again after the edit
    # the edit was applied
    assert "s += round(p * 100)" in (root / "billing.py").read_text(encoding="utf-8")
    # the session, in the observation log under Claude Code's own session id
    sid = json.loads(up.main[0].json["metadata"]["user_id"])["session_id"]
    log = logged(root, sid)
    kinds = [(e["kind"], e.get("path") or e.get("text", "")[:40]) for e in log]
    assert ("prompt", DECISION[:40]) in kinds and ("read", "billing.py") in kinds
    assert ("edit", "billing.py") in kinds and ("reply", "total() now adds integer cents.") in kinds
    assert next(e for e in log if e["kind"] == "edit")["symbols"] == ["total"]
    # the turn's decision is a candidate for review
    assert any(c["kind"] == "decision" and "integer cents" in c["title"].lower() and
               any(a["name"] == "total" for a in c["anchors"]) for c in candidates), candidates
    # the key went upstream and nowhere else
    assert KEY in (up.main[0].headers.get("x-api-key") or up.main[0].headers.get("authorization", ""))
    assert on_disk(KEY, root, home) == []


PATCH = """apply_patch <<'EOF'
*** Begin Patch
*** Update File: billing.py
@@
-        s += p
+        s += round(p * 100)
*** End Patch
EOF"""


def codex(root: Path, home: Path, base: str, prompt: str, config: str = "") -> None:
    """``codex exec PROMPT`` in ``root``, its model provider the proxy at ``base`` (``config``:
    more lines for its config.toml)."""
    codex_home = home / ".codex"
    codex_home.mkdir(exist_ok=True)
    (codex_home / "config.toml").write_text(f"""\
model = "gpt-test"
model_provider = "tether"
{config}
[model_providers.tether]
name = "through tether proxy"
base_url = "{base}/v1"
wire_api = "responses"
env_key = "LOCAL_KEY"
supports_websockets = false
""", encoding="utf-8")
    env = {**os.environ, "HOME": str(home), "CODEX_HOME": str(codex_home), "LOCAL_KEY": KEY}
    r = subprocess.run([cli("codex"), "exec", "--skip-git-repo-check", "-s", "workspace-write", prompt], cwd=root,
                       env=env, capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])


def test_codex_through_the_proxy(tmp_path):
    root, home = make_repo(tmp_path)
    steps = [Call("exec_command", {"cmd": PATCH}), Text("total() now adds integer cents.")]
    with openai.Upstream(steps) as up, running_proxy(root, "--openai-upstream", up.url) as (base, _):
        codex(root, home, base, DECISION)
        candidates = review(root)
    assert up.errors == [] and len(up.main) == 2
    assert "s += round(p * 100)" in (root / "billing.py").read_text(encoding="utf-8")
    output = up.main[1].json["input"][-1]
    assert output["type"] == "function_call_output"
    text = output["output"] if isinstance(output["output"], str) else output["output"][-1]["text"]
    assert "# tether notes for billing.py" in text and INVARIANT in text
    sid = json.loads(up.main[0].headers["x-codex-turn-metadata"])["session_id"]
    log = logged(root, sid)
    kinds = [(e["kind"], e.get("path") or e.get("text", "")[:40]) for e in log]
    assert kinds[0] == ("prompt", DECISION[:40])  # Codex's own environment message is no prompt
    assert ("edit", "billing.py") in kinds and ("reply", "total() now adds integer cents.") in kinds
    assert any(c["kind"] == "decision" and "integer cents" in c["title"].lower() for c in candidates), candidates
    assert on_disk(KEY, root, home) == []


# -- compaction: the summary kept; with --distil-on-compaction, what was settled becomes candidates ---------

SECTION = ("<tether-notes>\n- kind: decision\n  title: Totals are integer cents\n  file: billing.py\n  symbol: total\n"
           "  why: floats drift\n  rejected: Decimal -- slow in the hot loop\n</tether-notes>")


def summarise(summary: str, wording: str):
    """A scripted model's answer to a compaction request (known by ``wording``): ``summary``, and
    the section when the request asks for it, as a model that follows instructions would."""
    def answer(req):
        if wording not in req.newest:
            return Text("Read it.")
        return Text(summary + ("\n\n" + SECTION if C.OPEN in req.newest else ""))
    return answer


def settled(root: Path) -> list[tuple]:
    return [(c["kind"], c["title"], c["extractor"], [a.get("name") for a in c["anchors"]],
             [a["option"] for a in c["alternatives"]]) for c in review(root)]


def test_claude_code_compaction_through_the_proxy(tmp_path):
    """Claude Code 2.1.328's `/compact` (the same request as when its context fills), in two
    sessions: through the proxy as it starts, the summary is kept and the request passes as it
    came; with --distil-on-compaction the request gets the section asked for at its end, the
    section becomes a candidate, and Claude Code gets — and goes on from — the summary alone."""
    root, home = make_repo(tmp_path)
    summary = "<analysis>The person wants exact totals.</analysis>\n<summary>1. Primary Request and Intent: exact " \
              "totals in billing.py.</summary>"
    wording = "create a detailed summary of the conversation"
    answer = summarise(summary, wording)
    read = Call("Read", {"file_path": str(root / "billing.py")})
    steps = [read, answer, answer, read, answer, answer, Text("Going on.")]
    env = {**os.environ, "ANTHROPIC_API_KEY": KEY, "HOME": str(home), "DISABLE_TELEMETRY": "1",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}

    def claude(base: str, *args: str) -> str:
        r = subprocess.run([cli("claude"), *args, "--allowedTools", "Read Edit", "--output-format", "json"],
                           cwd=root, env={**env, "ANTHROPIC_BASE_URL": base}, capture_output=True, text=True,
                           timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
        return json.loads(r.stdout)["session_id"]

    with anthropic.Upstream(steps) as up:
        with running_proxy(root, "--anthropic-upstream", up.url) as (base, _):  # off by default
            plain = claude(base, "-p", "Look at billing.py")
            claude(base, "-p", "/compact", "--resume", plain)
        with running_proxy(root, "--anthropic-upstream", up.url, "--distil-on-compaction") as (base, _):
            sid = claude(base, "-p", "Look at billing.py")
            claude(base, "-p", "/compact", "--resume", sid)
            claude(base, "-p", "Go on", "--resume", sid)
            candidates = settled(root)
    assert up.errors == [] and len(up.main) == 7
    assert wording in up.main[2].newest and C.OPEN not in up.main[2].text  # off: asked nothing more
    asked = up.main[5].json["messages"][-1]["content"]
    assert wording in asked[-2]["text"] and asked[-1] == {"type": "text", "text": C.REQUEST}  # one trailing block
    # the summary kept in each session's log, the section not in it; no words of Claude Code's taken for a prompt
    for session in (plain, sid):
        log = logged(root, session)
        assert [e["text"] for e in log if e["kind"] == "summary"] == [summary]
        assert [e["text"] for e in log if e["kind"] == "prompt"] == ["Look at billing.py"] + ["Go on"] * (session == sid)
    assert candidates == [("decision", "Totals are integer cents", "compaction", ["total"], ["Decimal"])]
    # Claude Code got the summary alone: in its transcript, and in what it sent next
    transcript = (home / ".claude" / "projects").rglob(f"{sid}.jsonl")
    transcript = "\n".join(p.read_text(encoding="utf-8") for p in transcript)
    assert "exact totals in billing.py" in transcript and C.OPEN not in transcript
    after = up.main[6]
    assert "exact totals in billing.py" in after.text and C.OPEN not in after.text
    assert on_disk(KEY, root, home) == []


def test_codex_compaction_through_the_proxy(tmp_path):
    """Codex CLI 0.169.0 compacts when its context passes `model_auto_compact_token_limit`: a
    Responses request offering no tools whose newest message is its checkpoint prompt. Through the
    proxy with --distil-on-compaction: the section is asked for, becomes a candidate, and leaves
    the summary Codex goes on from."""
    root, home = make_repo(tmp_path)
    summary = "Progress: read billing.py; totals must be exact."
    wording = "CONTEXT CHECKPOINT COMPACTION"
    answer = summarise(summary, wording)
    steps = [Call("exec_command", {"cmd": "cat billing.py"}), answer, answer]
    # every answer says the context is nearly full: Codex compacts after the first
    with openai.Upstream(steps, is_side=lambda req: False, input_tokens=lambda req: 200_000) as up, \
            running_proxy(root, "--openai-upstream", up.url, "--distil-on-compaction") as (base, _):
        codex(root, home, base, "Look at billing.py",
              "model_context_window = 400000\nmodel_auto_compact_token_limit = 50000\n")
        candidates = settled(root)
    assert up.errors == []
    at = next(i for i, q in enumerate(up.requests) if wording in q.newest)
    asked = up.requests[at].json
    assert asked["tools"] == [] and asked["input"][-1]["content"][-1] == {"type": "input_text", "text": C.REQUEST}
    sid = json.loads(up.requests[at].headers["x-codex-turn-metadata"])["session_id"]
    assert [e["text"] for e in logged(root, sid) if e["kind"] == "summary"] == [summary]
    assert candidates == [("decision", "Totals are integer cents", "compaction", ["total"], ["Decimal"])]
    after = up.requests[at + 1]  # Codex goes on from the summary it was given: without the section
    assert "Another language model started to solve this problem" in after.text
    assert summary in after.text and C.OPEN not in after.text
    assert on_disk(KEY, root, home) == []


class GeminiUpstream(gemini.Upstream):
    """Gemini CLI's compression offers no tools (a side request to the module): scripted here."""
    def side(self, req) -> bool:
        return "<state_snapshot>" not in req.newest and super().side(req)


def test_gemini_cli_through_the_proxy(tmp_path):
    """Gemini CLI 0.61.0 (GOOGLE_GEMINI_BASE_URL) reads and edits a noted file, then `/compress`es
    the resumed session: the note reaches the model with the file, the session is logged, its
    decision is a candidate; with --distil-on-compaction the compression is asked for the section,
    which becomes a candidate and leaves the snapshot kept in the log."""
    root, home = make_repo(tmp_path)
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text(json.dumps({"security": {"auth": {"selectedType":
                                                                                      "gemini-api-key"}}}))
    snapshot = "<state_snapshot>\n<overall_goal>exact totals in billing.py</overall_goal>\n</state_snapshot>"
    compress = summarise(snapshot, "<state_snapshot>")
    steps = [Call("read_file", {"file_path": "billing.py"}),
             Call("replace", {"file_path": str(root / "billing.py"), "old_string": "        s += p\n",
                              "new_string": "        s += round(p * 100)\n", "instruction": "integer cents"}),
             Text("total() now adds integer cents."),
             compress,
             Text("Compressed.")]  # the command itself, sent as a prompt once the history is compressed
    # then: Gemini CLI compresses once more as the resumed session ends
    with GeminiUpstream(steps, then=compress) as up, \
            running_proxy(root, "--gemini-upstream", up.url, "--distil-on-compaction") as (base, _):
        env = {**os.environ, "HOME": str(home), "GOOGLE_GEMINI_BASE_URL": base, "GEMINI_API_KEY": KEY,
               "GEMINI_CLI_TRUST_WORKSPACE": "true"}
        gem = [cli("gemini"), "-m", "gemini-2.5-pro", "--yolo"]  # -m: no router model asked first
        for args in (["-p", DECISION], ["--resume", "latest", "-p", "/compress"]):
            r = subprocess.run([*gem, *args], cwd=root, env=env, capture_output=True, text=True, timeout=TIMEOUT,
                               stdin=subprocess.DEVNULL)
            assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
        candidates = review(root)
    assert up.errors == []
    # the note reached the model: a trailing part of the content that carries the read's result
    parts = up.main[1].json["contents"][-1]["parts"]
    assert "functionResponse" in parts[0] and parts[-1]["text"].startswith("# tether notes for billing.py")
    assert INVARIANT in parts[-1]["text"]
    assert "s += round(p * 100)" in (root / "billing.py").read_text(encoding="utf-8")
    asked = up.main[3].json
    assert "tools" not in asked and asked["contents"][-1]["parts"][-1] == {"text": C.REQUEST}
    # Gemini CLI 0.61 in -p mode keeps the snapshot nowhere on disk and sends its next prompt with the
    # history as it was: what it received is not to be seen here (the cut of a Gemini body is in test_proxy)
    assert C.OPEN not in up.main[4].text
    # the session, in the log: the person's words (not Gemini CLI's session context), the files, the snapshot
    sessions = logged_sessions(root)
    assert len(sessions) == 1  # no session id in Gemini's requests: named by the conversation's first message
    log = logged(root, sessions[0])
    kinds = [(e["kind"], e.get("path") or e.get("text", "")[:40]) for e in log]
    assert kinds[0] == ("prompt", DECISION[:40])
    assert ("read", "billing.py") in kinds and ("edit", "billing.py") in kinds
    assert {e["text"] for e in log if e["kind"] == "summary"} == {snapshot}
    # the turn's decision is a candidate, and the compaction's section says it again: one candidate, both evidences
    assert [(c["kind"], [a.get("name") for a in c["anchors"]], [e["quote"] for e in c["evidence"]])
            for c in candidates] == [("decision", ["total"], [DECISION[DECISION.index("We decided"):],
                                                              "decision: Totals are integer cents — floats drift"])]
    assert on_disk(KEY, root, home) == []


def logged_sessions(root: Path) -> list[str]:
    r = subprocess.run([sys.executable, "-m", "tether", "log", "--json"], cwd=root, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": SERVER}, check=True)
    return [s["id"] for s in json.loads(r.stdout)["sessions"]]
