"""Proposed notes in the editor and for agents: a recorded session replayed through the
real hook command and distilled with the real CLI, then the candidate shown by the real
language server (a Hint on its code with Accept / Accept and edit / Dismiss, or Merge into
the note it repeats) and handled through the real MCP server."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import code_actions, codes, execute, make_client, open_doc, start, wait_diags
from lsprotocol import types as T
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from pytest_lsp import ClientServerConfig, LanguageClient

from capture_fixtures import make_repo, materialize, replay
from tether.core.workspace import Workspace

PRICES = "src/shop/prices.py"
TITLE = "Use an in-process `functools.lru_cache`"


def tether(root: Path, *args: str) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "-m", "tether", *args], cwd=root, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, (args, r.stderr)
    return r


@pytest.fixture(scope="module")
def replayed(tmp_path_factory) -> Path:
    """choose-approach (picks lru_cache over Redis, and says why) replayed and distilled."""
    base = tmp_path_factory.mktemp("faces")
    root = base / "repo"
    make_repo(root)
    tether(root, "init")
    transcript = materialize("choose-approach.jsonl", root, base / "transcripts")

    def send(event: dict) -> None:
        subprocess.run([sys.executable, "-m", "tether", "hook", "claude-code"], input=json.dumps(event), cwd=root,
                       capture_output=True, text=True, timeout=60, check=True)
    replay(transcript, root, send)
    tether(root, "distill", "--transcript", str(transcript))
    return root


@pytest.fixture
def root(replayed: Path, tmp_path: Path) -> Path:
    """This test's own copy of the replayed repository (its queue included)."""
    mine = tmp_path / "repo"
    shutil.copytree(replayed, mine, symlinks=True, ignore=shutil.ignore_patterns("lock.mdb"))
    return mine


def pending(root: Path) -> list[dict]:
    return json.loads(tether(root, "review", "--json").stdout)["candidates"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tether", "lsp"],
                                               client_factory=make_client))
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def proposal(client: LanguageClient, root: Path) -> tuple[str, T.Diagnostic]:
    await start(client, root)
    uri = open_doc(client, root / PRICES)
    diags = await wait_diags(client, uri, lambda d: "proposed-note" in codes(d), "the proposed decision")
    (d,) = [x for x in diags if x.code == "proposed-note"]
    return uri, d


async def test_a_proposed_decision_is_a_hint_on_its_code_and_accepting_makes_the_note(client, root):
    (cand,) = pending(root)
    uri, d = await proposal(client, root)
    assert d.severity == T.DiagnosticSeverity.Hint and d.source == "tether" and d.data == {"candidate": cand["id"]}
    assert d.message.startswith(f"proposed decision: {TITLE}")
    assert d.range.start.line == cand["anchors"][0]["range"]["start"]["line"]
    actions = await code_actions(client, uri, d.range.start.line, 0, [d])
    titles = [a.title for a in actions if a.kind == T.CodeActionKind.QuickFix]
    assert titles == ["Accept proposed decision", "Accept proposed decision and edit it", "Dismiss proposed decision"]
    accept = next(a for a in actions if a.title == "Accept proposed decision")
    note = await execute(client, accept.command)
    assert note["kind"] == "decision" and note["title"] == TITLE
    assert note["anchors"][0]["name"] == "lookup_price"
    assert "rather than Redis" in (root / note["file"]).read_text(encoding="utf-8")  # the evidence, quoted
    await wait_diags(client, uri, lambda d: "proposed-note" not in codes(d), "the proposal to go")
    assert pending(root) == []


async def test_dismissing_a_proposal_removes_it_for_good(client, root):
    uri, d = await proposal(client, root)
    actions = await code_actions(client, uri, d.range.start.line, 0, [d])
    dismiss = next(a for a in actions if a.title == "Dismiss proposed decision")
    assert (await execute(client, dismiss.command))["status"] == "dismissed"
    await wait_diags(client, uri, lambda d: "proposed-note" not in codes(d), "the proposal to go")
    assert pending(root) == [] and not list((root / ".tether" / "notes").glob("*.md"))


async def test_a_proposal_that_repeats_a_note_offers_only_a_merge(client, root):
    ws = Workspace.find(root)
    line = next(i for i, row in enumerate((root / PRICES).read_text().split("\n")) if "def lookup_price" in row)
    mine = ws.record("decision", PRICES, line, title="Use functools.lru_cache in process for lookups",
                     rationale="Redis would add a network hop per lookup")
    ws.close()
    uri, d = await proposal(client, root)
    assert d.message == f"proposed decision: {TITLE} (from an agent session; repeats note “{mine.title}”: merge or " \
                        f"dismiss)"
    actions = await code_actions(client, uri, d.range.start.line, 0, [d])
    titles = [a.title for a in actions if a.kind == T.CodeActionKind.QuickFix and "proposed" in a.title]
    assert titles == [f"Merge proposed decision into note “{mine.title}”", "Dismiss proposed decision"]
    merge = next(a for a in actions if a.title.startswith("Merge"))
    note = await execute(client, merge.command)
    assert note["id"] == mine.id and "More evidence" in note["body"] and "rather than Redis" in note["body"]
    await wait_diags(client, uri, lambda d: "proposed-note" not in codes(d), "the proposal to go")
    assert len(list((root / ".tether" / "notes").glob("*.md"))) == 1


async def test_agents_list_accept_and_dismiss_proposals_over_mcp(root):
    keep = {k: os.environ[k] for k in ("PYTHONPATH",) if k in os.environ}  # the tether under test (as test_mcp.py)
    params = StdioServerParameters(command=sys.executable, args=["-m", "tether", "mcp"], cwd=str(root), env=keep)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
        await s.initialize()

        async def call(tool: str, **args):
            r = await s.call_tool(tool, args)
            return r

        listed = (await call("list_candidates")).structured_content["candidates"]
        (cand,) = listed
        found = (await call("search_notes", query="lru_cache")).structured_content  # the same as `tether search`
        assert found["notes"] == [] and [c["id"] for c in found["candidates"]] == [cand["id"]]
        assert found["candidates"][0]["matched"] == ["title", "evidence"]
        prompts = (await call("search_notes", query="catalog slow", session=cand["sessions"][0][:8]))
        assert [e["kind"] for e in prompts.structured_content["observations"]] == ["prompt"]
        assert cand["title"] == TITLE and cand["evidence"] and cand["near_duplicates"] == []
        assert (await call("list_candidates", path=PRICES)).structured_content["candidates"][0]["id"] == cand["id"]
        note = (await call("accept_candidate", id=cand["id"])).structured_content
        assert note["title"] == TITLE and note["anchors"][0]["state"] == "ok"
        again = await call("accept_candidate", id=cand["id"])
        assert again.is_error and cand["id"] in again.content[0].text
        assert (await call("list_candidates")).structured_content == {"candidates": []}
        unknown = await call("dismiss_candidate", id="zzzzzz")
        assert unknown.is_error and "no candidate" in unknown.content[0].text
