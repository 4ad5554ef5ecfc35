"""The real agent CLIs — Claude Code 2.1.328, Codex CLI 0.169.0, Gemini CLI 0.61.0 (pinned by
tests/agents/package-lock.json, installed by tests/agents/install.sh) — each in a git repository set
up by ``tether init --agents NAME``, talking to a scripted model on loopback (tests/upstreams).

What each test asserts is what the model was sent: tether's hook output and MCP answers as the
agent delivered them, and the notes the session left behind. The sessions are slow to start (a
native binary, node, Python for every hook), so all of them run at once, in threads, when the
module starts; each test waits for its own.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from samples import git_init, stop_server
from tether.capture.gate import REQUEST_OPENS
from tether.cli.client import listening, socket_path
from tether.core.workspace import Workspace
from upstreams import Again, Call, Text, anthropic, gemini, openai

ROOT = Path(__file__).resolve().parent.parent
INSTALL = ROOT / "tests" / "agents" / "install.sh"
HOW = "run `bash tests/agents/install.sh` first (the README's test command runs tests/install.sh, which does)"
TIMEOUT = 300  # seconds for one agent process, on a loaded machine
MCP_START = 120  # seconds an agent waits for tether's MCP server to start (their defaults, 10 to 30 s, are short
# for a loaded machine running every agent at once)

BILLING = """\
def total(prices):
    s = 0
    for p in prices:
        s += p
    return s


def tax(amount):
    return amount // 5
"""
INVARIANT = "totals stay in integer cents"
BOUNDARY = "No network calls at import time"
TAX = "Tax rounds down"
DECISION = ("Make total() in billing.py exact. We decided to keep amounts as integer cents because floats drift; "
            "rejected Decimal since it is slow in the hot loop.")
COMPACTION = "create a detailed summary of the conversation"  # Claude Code's compaction request says this
SUMMARY = Text("<analysis>The person wants exact totals.</analysis>\n<summary>1. Primary Request and Intent: exact "
               "totals in billing.py.</summary>")


def bin_dir() -> Path:
    where = subprocess.run(["bash", str(INSTALL), "--where"], capture_output=True, text=True, check=True).stdout
    return Path(where.strip()) / "node_modules" / ".bin"


def cli(name: str) -> str:
    path = bin_dir() / name
    if not path.exists():
        pytest.fail(f"{path} is missing: {HOW}")
    return str(path)


def this_tether(folder: Path) -> dict:
    """PATH with a ``tether`` that runs this checkout's code first (an agent runs MCP servers
    with an environment of its own, which need not pass PYTHONPATH on): the command ``tether
    init --agents`` finds, so the agents' MCP configs name it; their hook commands name this
    checkout's ``__main__.py`` themselves. ``folder/record``, put before each hook command
    (:func:`recording`), keeps each hook event it is given in ``folder/events/``
    (:func:`hook_events`) and runs the command on it."""
    (folder / "events").mkdir(parents=True, exist_ok=True)
    wrapper = folder / "tether"
    wrapper.write_text(f"""#!{sys.executable} -P
import sys
sys.path.insert(0, {str(ROOT / "server")!r})
from tether.cli import main
sys.exit(main())
""", encoding="utf-8")
    wrapper.chmod(0o755)
    record = folder / "record"
    record.write_text(f"""#!/bin/sh
event={shlex.quote(str(folder / "events"))}/$$.json
cat > "$event"
exec "$@" < "$event"
""", encoding="utf-8")
    record.chmod(0o755)
    EVENTS[:] = [folder / "events"]
    return {"PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"}


def recording(root: Path) -> int:
    """Put ``record`` (:func:`this_tether`) before each hook command ``init --agents`` wrote in
    ``root``, which still runs as written; how many config files have hooks."""
    from tether.agents.setup import HOOK_FILES
    launcher = json.dumps(shlex.join([sys.executable, "-P", "-S", str(ROOT / "server" / "tether" / "__main__.py")]))[1:-1]
    record = json.dumps(shlex.quote(str(EVENTS[0].parent / "record")))[1:-1]
    configs = 0
    for rel, _, _ in HOOK_FILES:
        config = root / rel
        if config.exists() and launcher in (text := config.read_text(encoding="utf-8")):
            config.write_text(text.replace(f'"{launcher} ', f'"{record} {launcher} '), encoding="utf-8")
            configs += 1
    return configs


EVENTS: list[Path] = []


def hook_events(repo: "Repo") -> list[dict]:
    """The hook events the agents gave tether in ``repo``, in the order they came."""
    out = []
    for f in sorted(EVENTS[0].glob("*.json"), key=lambda f: f.stat().st_mtime_ns):
        try:
            event = json.loads(f.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if Path(event.get("cwd", "/")).resolve() == repo.root.resolve():
            out.append(event)
    return out


PATH: dict = {}  # this_tether's, set by the sessions fixture


def tether(root: Path, *args: str) -> str:
    r = subprocess.run(["tether", *args], cwd=root, capture_output=True, text=True, timeout=120,
                       env={**os.environ, **PATH})
    assert r.returncode == 0, (args, r.stderr)
    return r.stdout


@dataclass
class Repo:
    root: Path
    home: Path
    ids: dict[str, str]


def make_repo(base: Path, agent: str, files: dict[str, str] | None = None) -> Repo:
    """billing.py (and ``files``) with an invariant on total() (checked: no float), a decision on
    tax() and a boundary on the whole repository, committed, then ``tether init --agents AGENT``."""
    root, home = base / "repo", base / "home"
    git_init(root)
    home.mkdir()
    for rel, text in {"billing.py": BILLING, **(files or {})}.items():
        (root / rel).write_text(text, encoding="utf-8")
    ws, _ = Workspace.init(root)
    ids = {"invariant": ws.record("invariant", "billing.py", 1, title=INVARIANT,
                                  checks=[{"id": "no-float", "kind": "forbid-call", "pattern": "float"}]).id,
           "decision": ws.record("decision", "billing.py", 8, title=TAX, rationale="The tax office floors it.").id,
           "boundary": ws.record("boundary", "**", how="glob", title=BOUNDARY).id}
    ws.close()
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, capture_output=True)
    subprocess.run(["git", "commit", "-qm", "billing"], cwd=root, check=True, capture_output=True)
    tether(root, "init", "--agents", agent)
    assert recording(root) or agent == "codex", f"no hook command of {agent} as init --agents writes it"
    return Repo(root, home, ids)


def pending(root: Path) -> list[dict]:
    return json.loads(tether(root, "review", "--json"))["candidates"]


def accept_named(root: Path, tool: str):
    """A step: accept (with the MCP tool ``tool``) every pending candidate the request names."""
    def step(req):
        named = [c["id"] for c in pending(root) if c["id"] in req.text]
        return [Call(tool, {"id": i}) for i in named] or Text("No candidate was named.")
    return step


def once_offered(tool: str, call: Call, wait: Call):
    """A step: ``call`` once the request offers ``tool`` (agents start MCP servers beside the
    first request and offer their tools when they answer); until then ``wait`` (a short sleep),
    for at most MCP_START seconds."""
    deadline = 0.0

    def step(req):
        nonlocal deadline
        if tool in req.text:  # in the tools, or in Claude Code's list of tools it defers
            return call
        deadline = deadline or time.monotonic() + MCP_START
        return Again(wait) if time.monotonic() < deadline else Text(f"{tool} never arrived.")
    return step


@dataclass
class Run:
    repo: Repo
    up: object  # the upstream, its requests kept
    outputs: list[subprocess.CompletedProcess] = field(default_factory=list)

    def hooks_log(self) -> str:
        log = self.repo.root / ".tether" / "cache" / "hooks.log"
        return log.read_text(encoding="utf-8") if log.exists() else ""

    def check(self) -> None:
        """Every process ended well, went through the whole script without raising anything in it,
        and tether's hooks logged nothing."""
        for r in self.outputs:
            assert r.returncode == 0, (r.args, r.stdout[-2000:], r.stderr[-4000:])
        assert self.up.errors == [] and self.up.left == 0, (self.up.errors, [q.newest[-300:] for q in self.up.main])
        assert self.hooks_log() == ""


def run(args: list[str], root: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=root, env={**os.environ, **PATH, **env}, capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL)


# -- Claude Code ------------------------------------------------------------------------------

def tool_results(req, name: str) -> list[str]:
    """The results of the calls of tool ``name`` in a Messages API request."""
    messages = req.json["messages"]
    ids = {b["id"] for m in messages if m["role"] == "assistant" and isinstance(m["content"], list)
           for b in m["content"] if b.get("type") == "tool_use" and b["name"] == name}
    return [anthropic.content_text(b.get("content", "")) for m in messages if isinstance(m["content"], list)
            for b in m["content"] if b.get("type") == "tool_result" and b["tool_use_id"] in ids]


def claude_env(repo: Repo, up) -> dict:
    # a project's .mcp.json servers start once the person approves them; this is that approval
    (repo.home / ".claude").mkdir(exist_ok=True)
    (repo.home / ".claude" / "settings.json").write_text(json.dumps({"enableAllProjectMcpServers": True}))
    return {"ANTHROPIC_BASE_URL": up.url, "ANTHROPIC_API_KEY": "any", "HOME": str(repo.home),
            "DISABLE_TELEMETRY": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
            # its auto-compaction starts once the context passes this many tokens (see claude_compact)
            "CLAUDE_CODE_AUTO_COMPACT_WINDOW": "100000", "MCP_TIMEOUT": str(MCP_START * 1000)}


def claude(repo: Repo, up, prompt: str) -> subprocess.CompletedProcess:
    # as root Claude Code refuses --dangerously-skip-permissions; naming the tools works
    return run([cli("claude"), "-p", prompt, "--allowedTools", "Read Edit Bash mcp__tether"], repo.root,
               claude_env(repo, up))


SLEEP = Call("Bash", {"command": "sleep 1", "description": "wait a second"})


def claude_stop(base: Path) -> Run:
    """Read and edit a noted file, a failing command, an MCP call, then stop: tether's Stop
    request comes back once and the model accepts the candidate it names."""
    repo = make_repo(base, "claude")
    billing = str(repo.root / "billing.py")
    steps = [Call("Read", {"file_path": billing}),
             Call("Edit", {"file_path": billing, "old_string": "        s += p\n", "new_string": "        s += float(p)\n"}),
             Call("Bash", {"command": "python3 -c 'import sys; sys.exit(3)'", "description": "fail on purpose"}),
             once_offered("mcp__tether__get_context", Call("mcp__tether__get_context", {"path": "billing.py", "line": 9}),
                          SLEEP),
             Text("total() now adds the prices as they come."),
             accept_named(repo.root, "mcp__tether__accept_candidate"),
             Text("Recorded.")]
    with anthropic.Upstream(steps) as up:
        r = Run(repo, up, [claude(repo, up, DECISION)])
    return r


REFUNDS = """\
def refund(amount):
    return -amount
"""
EVERYWHERE = ("Make refund() in refunds.py round like tax(). Amounts are integer cents everywhere, in total(), tax() and "
              "refund(): floats drift. We rejected Decimal because it is slow in the hot loop.")
CENTS = "Amounts are integer cents in total(), tax() and refund()"
FLOOR = "Tax and refunds round down to the cent"
# what the model records at Stop: one note on three places through the CLI (its rejected option's reason holds
# ": " and quotes), one on two places through the MCP tool
RECORD_CLI = (f"tether record invariant billing.py:1 billing.py:8 refunds.py:1 --title '{CENTS}' "
              "--rationale 'Floats drift.' --rejected Decimal --because 'slow in the hot loop: 3x, \"measured\"'")
RECORD_MCP = {"kind": "decision", "path": "refunds.py", "line": 1, "also": [{"path": "billing.py", "line": 8}],
              "title": FLOOR, "rationale": "The tax office floors it; refunds follow tax.",
              "alternatives": [{"option": "round half even", "rejected_because": "not what the tax office does"}]}


def answering_stop(step):
    """A step that answers tether's request at the end of a turn with ``step``; any other request
    is answered with a text that leaves the script unfinished (the request never came)."""
    def answer(req):
        return step if REQUEST_OPENS in req.newest else Text("tether did not ask at Stop.")
    return answer


def claude_record(base: Path) -> Run:
    """A rule over three functions in two files settled and the code edited; at Stop the model
    records it as one note on every place with Bash `tether record`, and a second rule on two
    places with the MCP tool record_note."""
    repo = make_repo(base, "claude", {"refunds.py": REFUNDS})
    billing, refunds = str(repo.root / "billing.py"), str(repo.root / "refunds.py")
    steps = [Call("Read", {"file_path": billing}),
             Call("Read", {"file_path": refunds}),
             Call("Edit", {"file_path": refunds, "old_string": "    return -amount\n",
                           "new_string": "    return -(amount // 1)\n"}),
             Text("refund() now rounds down like tax()."),
             answering_stop(Call("Bash", {"command": RECORD_CLI, "description": "record the rule on every place"})),
             once_offered("mcp__tether__record_note", Call("mcp__tether__record_note", RECORD_MCP), SLEEP),
             Text("Recorded.")]
    with anthropic.Upstream(steps) as up:
        r = Run(repo, up, [claude(repo, up, EVERYWHERE)])
    return r


def claude_compact(base: Path) -> Run:
    """A read, then a context that fills up: Claude Code compacts on its own (PreCompact), and
    the first request after the compaction holds what tether handed over again."""
    repo = make_repo(base, "claude")
    steps = [Call("Read", {"file_path": str(repo.root / "billing.py")}),
             once_offered("mcp__tether__check", Call("mcp__tether__check", {"paths": ["billing.py"]}), SLEEP),
             Call("ReadMcpResourceTool", {"server": "tether", "uri": f"tether://note/{repo.ids['decision']}"}),
             Text("Looked.")]

    compacted: list = []

    def compaction(req) -> bool:
        return not req.json.get("tools") or COMPACTION in req.newest

    def side(req):
        if COMPACTION in req.newest:
            compacted.append(req)
            return SUMMARY
        return Text("OK")

    def context(req) -> int:  # full once the note was read, until the compaction: past the window set above
        return 195_000 if "PreToolUse:Read" in req.text and not compacted else 5_000

    with anthropic.Upstream(steps, is_side=compaction, side=side, input_tokens=context) as up:
        r = Run(repo, up, [claude(repo, up, "What does billing.py promise?")])
    return r


# -- Codex CLI --------------------------------------------------------------------------------

def codex(base: Path) -> Run:
    """tether's MCP tools, called by the model through Codex, and AGENTS.md in the first request."""
    repo = make_repo(base, "codex")
    with (repo.root / ".codex" / "config.toml").open("a", encoding="utf-8") as f:  # under [mcp_servers.tether]
        f.write(f"startup_timeout_sec = {MCP_START}\n")
    seed_candidate(repo)
    codex_home = repo.home / ".codex"
    codex_home.mkdir()

    def mcp(name: str, **args) -> Call:
        return Call(name, args, namespace="mcp__tether")

    def dismiss_named(req):
        named = [c["id"] for c in pending(repo.root) if c["id"] in req.newest]
        return [mcp("dismiss_candidate", id=i) for i in named] or Text("No candidate was listed.")

    steps = [once_offered("mcp__tether", mcp("get_context", path="billing.py", line=9),
                          Call("exec_command", {"cmd": "sleep 1"})),
             mcp("record_note", kind="decision", path="billing.py", line=1, title="Totals are integer cents",
                 rationale="Floats drift.", alternatives=[{"option": "Decimal", "rejected_because": "slow"}]),
             mcp("list_notes", path="billing.py"),
             mcp("search_notes", query="network"),
             mcp("confirm_invariant", id=repo.ids["invariant"]),
             mcp("list_candidates"),
             dismiss_named,
             Text("Done.")]
    with openai.Upstream(steps) as up:
        (codex_home / "config.toml").write_text(f"""\
model = "gpt-test"
model_provider = "local"

[model_providers.local]
name = "scripted"
base_url = "{up.url}/v1"
wire_api = "responses"
env_key = "LOCAL_KEY"
supports_websockets = false

# what answering "trust this folder" writes: only then does Codex read the project's .codex/config.toml
[projects.{json.dumps(str(repo.root))}]
trust_level = "trusted"
""", encoding="utf-8")
        env = {"HOME": str(repo.home), "CODEX_HOME": str(codex_home), "LOCAL_KEY": "any"}
        r = Run(repo, up, [run([cli("codex"), "exec", "--skip-git-repo-check", "What does billing.py promise?"],
                               repo.root, env)])
    return r


def seed_candidate(repo: Repo) -> None:
    """A pending candidate from an earlier (Claude Code) session, for Codex to dismiss."""
    sid = "seed-session"
    lines = [{"type": "user", "sessionId": sid, "timestamp": "2026-12-01T10:00:00Z",
              "message": {"role": "user", "content": "Make tax() floor the amount. We decided to floor the tax "
                                                     "because the tax office floors it; rejected rounding."}},
             {"type": "assistant", "sessionId": sid, "timestamp": "2026-12-01T10:00:05Z",
              "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Edit", "input": {
                  "file_path": str(repo.root / "billing.py"), "old_string": "    return amount // 5\n",
                  "new_string": "    return amount // 5\n"}}]}},
             {"type": "user", "sessionId": sid, "timestamp": "2026-12-01T10:00:06Z",
              "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}}]
    path = repo.home / f"{sid}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    tether(repo.root, "distill", "--transcript", str(path))
    assert pending(repo.root), "the seeded session gave no candidate"


# -- Gemini CLI -------------------------------------------------------------------------------

def gemini_cli(base: Path) -> Run:
    """A read and an edit of a noted file in Gemini CLI (SessionStart, AfterTool, AfterAgent),
    then the session resumed for /compress (PreCompress)."""
    repo = make_repo(base, "gemini")
    (repo.home / ".gemini").mkdir()
    (repo.home / ".gemini" / "settings.json").write_text(json.dumps({"security": {"auth": {"selectedType":
                                                                                          "gemini-api-key"}}}))
    steps = [Call("read_file", {"file_path": "billing.py"}),
             Call("replace", {"file_path": str(repo.root / "billing.py"), "old_string": "        s += p\n",
                              "new_string": "        s += float(p)\n", "instruction": "add the prices as floats"}),
             Text("total() now adds the prices as they come."),
             answering_stop(Text("The candidate holds; nothing else to record.")),  # AfterAgent's request
             Text("Compressed.")]  # the resumed session: /compress, then the command itself as a prompt
    with gemini.Upstream(steps) as up:
        env = {"HOME": str(repo.home), "GOOGLE_GEMINI_BASE_URL": up.url, "GEMINI_API_KEY": "any",
               "GEMINI_CLI_TRUST_WORKSPACE": "true"}
        # -m: without it Gemini CLI first asks a router model, which needs a model of its own
        gem = [cli("gemini"), "-m", "gemini-2.5-pro", "--yolo"]
        r = Run(repo, up, [run([*gem, "-p", DECISION], repo.root, env)])
        r.outputs.append(run([*gem, "--resume", "latest", "-p", "/compress"], repo.root, env))
    return r


# -- all at once ------------------------------------------------------------------------------

SESSIONS = {"claude_stop": claude_stop, "claude_record": claude_record, "claude_compact": claude_compact,
            "codex": codex, "gemini": gemini_cli}


@pytest.fixture(scope="module")
def sessions(tmp_path_factory):
    for name in ("claude", "codex", "gemini"):
        cli(name)
    PATH.update(this_tether(tmp_path_factory.mktemp("bin")))
    pool = ThreadPoolExecutor(len(SESSIONS))
    futures: dict[str, Future] = {name: pool.submit(fn, tmp_path_factory.mktemp(name)) for name, fn in SESSIONS.items()}
    yield futures
    pool.shutdown(wait=True)
    for f in futures.values():  # the resident `tether serve` a --serve hook started
        if f.exception() is None and listening(socket_path(f.result().repo.root)):
            stop_server(f.result().repo.root)


def test_claude_code_session_start_notes_check_and_mcp(sessions):
    r: Run = sessions["claude_stop"].result()
    r.check()
    main = r.up.main
    assert BOUNDARY in main[0].text and "SessionStart hook additional context" in main[0].text
    # the note of the file read, in the request right after the read
    assert "PreToolUse:Read hook additional context" in main[1].newest and INVARIANT in main[1].newest
    # what tether check found in the edit, right after the edit
    after_edit = main[2].newest
    assert "PostToolUse:Edit hook additional context" in after_edit
    assert "billing.py:4:14" in after_edit and "float" in after_edit
    # the MCP server of .mcp.json answered get_context, and the answer reached the model
    answers = tool_results(main[-1], "mcp__tether__get_context")
    assert len(answers) == 1 and TAX in [n["title"] for n in json.loads(answers[0])["notes"]], answers


def test_claude_code_stop_asks_once_and_the_accepted_candidate_is_a_note(sessions):
    r: Run = sessions["claude_stop"].result()
    r.check()
    asked = [q for q in r.up.main if "Stop hook feedback" in q.newest]
    assert len(asked) == 1, [q.newest[:200] for q in r.up.main]  # blocked once, not again after the answer
    candidates = json.loads(tether(r.repo.root, "review", "--all", "--json"))["candidates"]
    accepted = [c for c in candidates if c["status"] == "accepted"]
    assert accepted and all(c["id"] in asked[0].newest for c in accepted), (
        candidates, tool_results(r.up.main[-1], "mcp__tether__accept_candidate"))
    notes = json.loads(tether(r.repo.root, "list", "--json"))["notes"]
    new = [n for n in notes if n["id"] not in r.repo.ids.values()]
    assert [n["kind"] for n in new] == ["decision"]
    assert "floats drift" in (r.repo.root / new[0]["file"]).read_text(encoding="utf-8")
    # Claude Code writes tether's request into the transcript as its own (meta) user message:
    # nothing tether proposes comes from its own words
    for c in pending(r.repo.root):
        assert all("Stop hook" not in e["quote"] and "tether found" not in e["quote"] for e in c["evidence"])
    # every event tether asked Claude Code for came, and the observation log has what they saw
    events = {e["hook_event_name"] for e in hook_events(r.repo)}
    assert {"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop",
            "SessionEnd"} <= events, events
    log = json.loads(tether(r.repo.root, "log", "--json"))["entries"]
    kinds = [e["kind"] for e in log]
    assert {"prompt", "read", "edit", "failure"} <= set(kinds), kinds


def test_claude_code_records_one_note_on_several_places_when_asked_at_stop(sessions):
    r: Run = sessions["claude_record"].result()
    r.check()
    asked = [q for q in r.up.main if "Stop hook feedback" in q.newest]
    assert len(asked) == 1, [q.newest[:200] for q in r.up.main]
    request = asked[0].newest  # as the model read it: the exact CLI form and the MCP form side by side
    assert "CLI: tether record KIND PATH:LINE [PATH:LINE …] --title" in request
    assert "MCP: record_note(kind, path, line, title" in request and "also=[{path, line}]" in request
    notes = {n["title"]: n for n in json.loads(tether(r.repo.root, "list", "--json"))["notes"]
             if n["id"] not in r.repo.ids.values()}
    assert set(notes) == {CENTS, FLOOR}, (notes, tool_results(r.up.main[-1], "Bash"))
    # one note, every place, each place's code recorded as it is now
    assert [(a["path"], a["name"], a["state"]) for a in notes[CENTS]["anchors"]] == [
        ("billing.py", "total", "ok"), ("billing.py", "tax", "ok"), ("refunds.py", "refund", "ok")]
    assert notes[CENTS]["alternatives"] == [{"option": "Decimal",
                                             "rejected_because": 'slow in the hot loop: 3x, "measured"'}]
    assert [(a["path"], a["name"], a["state"]) for a in notes[FLOOR]["anchors"]] == [
        ("refunds.py", "refund", "ok"), ("billing.py", "tax", "ok")]
    assert json.loads(tool_results(r.up.main[-1], "mcp__tether__record_note")[0])["title"] == FLOOR
    # clean at once: no place "changed since it was last confirmed"
    assert json.loads(tether(r.repo.root, "check", "--format", "json"))["findings"] == []
    for path in ("billing.py", "refunds.py"):  # each note listed on each of its files
        listed = tether(r.repo.root, "list", path)
        assert CENTS in listed and FLOOR in listed, (path, listed)


def test_claude_code_compaction_hands_the_notes_over_again(sessions):
    r: Run = sessions["claude_compact"].result()
    r.check()
    compacted = [i for i, q in enumerate(r.up.requests) if COMPACTION in q.newest]
    assert len(compacted) == 1, "Claude Code did not compact"
    after = [q for q in r.up.requests[compacted[0] + 1:] if q.scripted]
    assert after, "no request after the compaction"
    text = after[0].text
    assert "SessionStart hook additional context" in text and INVARIANT in text
    assert [e.get("source") for e in hook_events(r.repo) if e["hook_event_name"] == "SessionStart"] == [
        "startup", "compact"]
    assert "PreCompact" in {e["hook_event_name"] for e in hook_events(r.repo)}
    # the MCP tool check answered, and the resource of a note
    assert '"findings"' in " ".join(tool_results(r.up.main[-1], "mcp__tether__check"))
    assert TAX in " ".join(tool_results(r.up.main[-1], "ReadMcpResourceTool"))


def test_codex_mcp_tools_reach_tether_and_answer_the_model(sessions):
    r: Run = sessions["codex"].result()
    r.check()
    first = r.up.main[0]
    assert "AGENTS.md" in first.text and "tether notes" in first.text
    outputs = {}
    for q in r.up.main:
        for item in q.json.get("input", []):
            if item.get("type") == "function_call":
                outputs.setdefault(item["call_id"], {"name": item["name"]})
            if item.get("type") == "function_call_output":
                outputs.setdefault(item["call_id"], {})["output"] = item["output"] if isinstance(
                    item["output"], str) else json.dumps(item["output"])
    by_name = {v["name"]: v.get("output", "") for v in outputs.values() if v.get("name") != "exec_command"}
    assert set(by_name) == {"get_context", "record_note", "list_notes", "search_notes", "confirm_invariant",
                            "list_candidates", "dismiss_candidate"}, by_name
    assert TAX in by_name["get_context"]
    assert BOUNDARY in by_name["search_notes"] and INVARIANT in by_name["list_notes"]
    titles = tether(r.repo.root, "list")
    assert "Totals are integer cents" in titles  # record_note wrote a note
    assert pending(r.repo.root) == []  # the seeded candidate was dismissed


def test_gemini_cli_session_start_after_tool_and_after_agent(sessions):
    r: Run = sessions["gemini"].result()
    r.check()
    main = r.up.main
    assert BOUNDARY in main[0].newest  # SessionStart
    after_read = main[1].newest
    assert "<hook_context>" in after_read and INVARIANT in after_read  # AfterTool of read_file
    after_edit = main[2].newest
    assert "tether check after this edit" in after_edit and "billing.py:4:14" in after_edit
    # each note once: the repository-wide one came at SessionStart, not again with the file's
    assert main[2].text.count(BOUNDARY) == 1
    events = hook_events(r.repo)
    assert {"SessionStart", "BeforeAgent", "AfterTool", "AfterAgent", "SessionEnd"} <= {
        e["hook_event_name"] for e in events}
    # Gemini CLI fires PreCompress "auto" before every request, whether it compresses or not, and
    # "manual" at /compress, which compresses. (With -p it also sends "/compress" as a prompt at once,
    # its BeforeAgent racing the PreCompress: that the notes come with the prompt after a /compress
    # is left to tests/test_hooks_dialects.py.)
    assert {e.get("trigger") for e in events if e["hook_event_name"] == "PreCompress"} == {"auto", "manual"}
    assert any("Generate a new <state_snapshot>" in q.newest for q in r.up.requests if q.side)
    # AfterAgent asked once: its request became the next prompt, the CLI and MCP forms side by side
    asked = [q for q in main if REQUEST_OPENS in q.newest]
    assert len(asked) == 1 and asked[0].newest.startswith("This session changed billing.py."), [
        q.newest[:300] for q in main]
    assert "CLI: tether record KIND PATH:LINE" in asked[0].newest and "MCP: record_note(" in asked[0].newest
    # AfterAgent distilled the session: the person's decision waits for review; tether's own request,
    # a prompt in Gemini's log, is no words of the person's
    candidates = pending(r.repo.root)
    assert any("integer cents" in " ".join(e["quote"] for e in c["evidence"]) for c in candidates)
    request = ("tether record", "the person may have settled", REQUEST_OPENS)
    assert not [c for c in candidates if any(x in e["quote"] for x in request for e in c["evidence"])], candidates
    # nor is it shown as the person's prompt in the log
    log = tether(r.repo.root, "log")
    assert "tether's own request at Stop" in log and REQUEST_OPENS not in log, log
    # and the person's prompt is logged as they wrote it, without the notes Gemini CLI put before it
    prompts = [e["text"] for e in json.loads(tether(r.repo.root, "log", "--json"))["entries"] if e["kind"] == "prompt"]
    assert prompts[0] == DECISION, prompts
