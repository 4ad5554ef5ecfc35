"""`tether proxy` between the real agent CLIs and a scripted model (tests/upstreams): Claude Code
2.1.328 (Messages API) and Codex CLI 0.169.0 (Responses API), as installed by
tests/agents/install.sh, in a repository with tether's notes and no hooks — the proxy is all
tether has of these sessions. What each test asserts is what the model was sent, what the agent
did, and what tether kept."""

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
from upstreams import Call, Text, anthropic, openai  # noqa: E402

from tether.capture import observations as K  # noqa: E402
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


def test_codex_through_the_proxy(tmp_path):
    root, home = make_repo(tmp_path)
    codex_home = home / ".codex"
    codex_home.mkdir()
    steps = [Call("exec_command", {"cmd": PATCH}), Text("total() now adds integer cents.")]
    with openai.Upstream(steps) as up, running_proxy(root, "--openai-upstream", up.url) as (base, _):
        (codex_home / "config.toml").write_text(f"""\
model = "gpt-test"
model_provider = "tether"

[model_providers.tether]
name = "through tether proxy"
base_url = "{base}/v1"
wire_api = "responses"
env_key = "LOCAL_KEY"
supports_websockets = false
""", encoding="utf-8")
        env = {**os.environ, "HOME": str(home), "CODEX_HOME": str(codex_home), "LOCAL_KEY": KEY}
        r = subprocess.run([cli("codex"), "exec", "--skip-git-repo-check", "-s", "workspace-write", DECISION],
                           cwd=root, env=env, capture_output=True, text=True, timeout=TIMEOUT,
                           stdin=subprocess.DEVNULL)
        assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
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
