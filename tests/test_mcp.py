"""``tether mcp`` driven by the MCP SDK's own stdio client, as an agent's host would:
``python -m tether mcp`` started in real git repositories, every tool called over the
protocol."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import subprocess
import sys
import threading
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from mcp.client import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tether.core.notes import KINDS, parse_note
from tether.core.workspace import Workspace

from samples import APP_PY, TETHER, git_init  # noqa: E402

TOOLS = {"get_context", "get_note", "list_notes", "search_notes", "record_note", "amend_note", "supersede_note",
         "confirm_invariant", "check", "list_candidates", "accept_candidate", "dismiss_candidate"}

LOOP_PY = '''\
import time


def tick(state):
    """Advance the state by one step."""
    time.sleep(0.1)
    return state + 1
'''

SERVE = [sys.executable, "-m", "tether", "mcp"]


@asynccontextmanager
async def connect(root: Path, command: list[str] = SERVE):
    keep = {k: os.environ[k] for k in ("PYTHONPATH",) if k in os.environ}  # the tether under test, not another
    params = StdioServerParameters(command=command[0], args=command[1:], cwd=str(root),
                                   env={"GIT_CONFIG_NOSYSTEM": "1", "PYTHONIOENCODING": "utf-8", **keep})
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            yield session


def tether_list(root: Path) -> dict:
    """What `tether list --json` prints there."""
    r = subprocess.run([TETHER, "list", "--json"], cwd=root, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


async def call(session: ClientSession, tool: str, **arguments):
    """A tool call that must succeed: its structured result."""
    r = await session.call_tool(tool, arguments)
    assert not r.is_error, r.content[0].text
    return r.structured_content


async def refused(session: ClientSession, tool: str, **arguments) -> str:
    """A tool call that must come back as a tool error: its message."""
    r = await session.call_tool(tool, arguments)
    assert r.is_error, f"{tool} {arguments} was not refused: {r.content}"
    text = r.content[0].text
    assert "Traceback" not in text
    return text


def make_repo(root: Path) -> Path:
    git_init(root)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(APP_PY, encoding="utf-8")
    (root / "src" / "loop.py").write_text(LOOP_PY, encoding="utf-8")
    return root


class Shared:
    """One repository with notes and one server on it, for the tests that do not record:
    the client session lives on an event loop in a thread of its own, so it outlives each
    test (the server's start-up is most of a test's time)."""

    root: Path
    decision: str  # on load_config
    never_block: str  # invariant on tick, forbids time.sleep (which tick calls)
    start_holds: str  # invariant on Service.start, whose code changed since

    def start(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        opened = concurrent.futures.Future()

        async def hold():
            self.stop_event = asyncio.Event()
            async with connect(self.root) as session:
                self.session = session
                opened.set_result(None)
                await self.stop_event.wait()
        self.held = asyncio.run_coroutine_threadsafe(hold(), self.loop)
        concurrent.futures.wait([opened, self.held], timeout=60, return_when=concurrent.futures.FIRST_COMPLETED)
        if self.held.done():
            self.held.result()  # it failed to start: say why

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.stop_event.set)
        self.held.result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)

    def run(self, fn):
        """``fn(session)``'s coroutine, run on the session's loop; its result."""
        return asyncio.run_coroutine_threadsafe(fn(self.session), self.loop).result(60)

    def call(self, tool: str, **arguments):
        return self.run(lambda s: call(s, tool, **arguments))

    def refused(self, tool: str, **arguments) -> str:
        return self.run(lambda s: refused(s, tool, **arguments))

    def result(self, tool: str, **arguments):
        return self.run(lambda s: s.call_tool(tool, arguments))


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    s = Shared()
    base = tmp_path_factory.mktemp("mcp")
    s.root = root = make_repo(base / "repo")
    ws, _ = Workspace.init(root)
    s.decision = ws.record("decision", "src/app.py", 3, title="Configuration is read whole",
                           rationale="Config files are small; streaming would complicate parsing.",
                           rejected=[("incremental reader", "no file is large enough to need it")]).id
    s.never_block = ws.record("invariant", "src/loop.py", 3, title="Never block the event loop",
                              checks=[{"id": "forbid-call:time.sleep", "kind": "forbid-call",
                                       "pattern": "time.sleep"}]).id
    s.start_holds = ws.record("invariant", "src/app.py", 11, title="start() only stores the port").id
    ws.close()
    app = root / "src" / "app.py"
    app.write_text(APP_PY.replace("        return True\n", "        self.started = True\n        return True\n"),
                   encoding="utf-8")
    (base / "outside.py").write_text("def secret():\n    return 1\n", encoding="utf-8")
    s.start()
    yield s
    s.stop()


@pytest.fixture
def repo(tmp_path) -> Path:
    """A repository with tether set up and no notes, for the tests that record."""
    root = make_repo(tmp_path / "repo")
    Workspace.init(root)
    return root


def test_tools_and_their_parameters(shared):
    tools = {t.name: t for t in shared.run(lambda s: s.list_tools()).tools}
    templates = shared.run(lambda s: s.list_resource_templates()).resource_templates
    assert set(tools) == TOOLS

    def params(name):
        schema = tools[name].input_schema
        return list(schema["properties"]), sorted(schema.get("required", []))
    assert params("get_context") == (["path", "line", "budget"], ["path"])
    assert params("get_note") == (["id"], ["id"])
    assert params("list_notes") == (["path"], [])
    assert params("search_notes") == (["query", "since", "session"], ["query"])
    assert params("record_note") == (["kind", "path", "line", "title", "rationale", "body", "alternatives",
                                      "works_around", "remove_when", "failure", "cause", "also", "joins", "checks"],
                                     ["kind"])
    assert params("amend_note") == (["id", "kind", "title", "rationale", "body", "alternatives", "drop_alternatives",
                                     "works_around", "remove_when", "failure", "cause", "add_places", "drop_places"],
                                    ["id"])
    assert params("confirm_invariant") == (["id"], ["id"])
    assert params("check") == (["paths"], [])
    assert params("list_candidates") == (["path"], [])
    assert params("accept_candidate") == (["id", "merge_into"], ["id"])
    assert params("dismiss_candidate") == (["id"], ["id"])
    record = tools["record_note"].input_schema
    assert record["properties"]["kind"]["enum"] == list(KINDS)
    assert record["$defs"]["Rejected"]["required"] == ["option"]
    assert tools["get_context"].input_schema["properties"]["budget"]["default"] == 2000
    assert [t.uri_template for t in templates] == ["tether://note/{id}"]
    writes = {name for name, t in tools.items() if not t.annotations.read_only_hint}
    assert writes == {"record_note", "amend_note", "supersede_note", "confirm_invariant", "accept_candidate",
                      "dismiss_candidate"}


def test_context_names_the_note_at_the_line(shared):
    at = shared.result("get_context", path="src/app.py", line=7)  # inside load_config
    whole = shared.call("get_context", path=str(shared.root / "src" / "app.py"))
    small = shared.call("get_context", path="./src/app.py", line=7, budget=40)
    none = shared.result("get_context", path="src/loop.py", line=1)
    md = at.content[0].text
    assert md.startswith("# tether notes for src/app.py:7")
    assert "\ndecision (`load_config`): Configuration is read whole (" in md
    assert "Rationale: Config files are small" in md
    assert "Rejected: incremental reader (no file is large enough to need it)" in md
    assert "start() only stores the port" not in md  # another definition of the file
    assert [n["id"] for n in at.structured_content["notes"]] == [shared.decision]
    assert at.structured_content["line"] == 6  # 0-based in JSON, as everywhere
    assert {n["id"] for n in whole["notes"]} == {shared.decision, shared.start_holds}
    assert small["notes"] == [] and small["left_out"][0]["id"] == shared.decision
    assert [n["shown"] for n in at.structured_content["notes"]] == ["full"]
    assert none.content[0].text == "No tether notes apply to src/loop.py:1.\n"


def test_a_note_named_only_is_fetched_whole_by_its_handle(shared):
    """At a budget with room for the note's line but not its text, get_context names it
    (kind, where, title, handle) and get_note gives the rest."""
    named = shared.result("get_context", path="src/app.py", line=7, budget=67)
    md = named.content[0].text
    line = next(x for x in md.splitlines() if x.startswith("- decision (`load_config`): Configuration is read whole ("))
    assert "Rationale:" not in md and named.structured_content["tokens"] <= 65
    assert md.splitlines()[-1] == "Not shown: the text of the 1 named (`tether show ID`)."
    assert [(n["id"], n["shown"]) for n in named.structured_content["notes"]] == [(shared.decision, "title")]
    handle = line.rsplit("(", 1)[1].rstrip(")")
    assert shared.decision.startswith(handle) and len(handle) < len(shared.decision)
    whole = shared.result("get_note", id=handle)
    assert whole.content[0].text.startswith("## decision: Configuration is read whole")
    assert "Rationale: Config files are small" in whole.content[0].text
    assert whole.structured_content["id"] == shared.decision
    assert "no note '0123456789'" in shared.refused("get_note", id="0123456789")


def test_list_and_search(shared):
    everything = shared.call("list_notes")
    in_loop = shared.call("list_notes", path="src/loop.py")
    in_src = shared.call("list_notes", path="src")
    by_rationale = shared.call("search_notes", query="streaming")
    by_title = shared.call("search_notes", query="event loop blocking")
    nothing = shared.call("search_notes", query="kubernetes")
    notes = {n["id"]: n for n in everything["notes"]}
    assert set(notes) == {shared.decision, shared.never_block, shared.start_holds}
    assert everything["broken"] == []
    d = notes[shared.decision]
    assert (d["kind"], d["title"], d["status"]) == ("decision", "Configuration is read whole", "active")
    assert d["anchors"][0]["name"] == "load_config" and d["anchors"][0]["state"] == "ok"
    assert d["anchors"][0]["range"]["start"]["line"] == 3
    assert notes[shared.start_holds]["anchors"][0]["state"] == "changed"
    assert [n["id"] for n in in_loop["notes"]] == [shared.never_block]
    assert len(in_src["notes"]) == 3
    assert [n["id"] for n in by_rationale["notes"]] == [shared.decision]
    assert by_rationale["notes"][0]["matched"] == ["rationale"]
    assert by_title["notes"][0]["id"] == shared.never_block
    assert nothing["notes"] == []


def test_note_resource(shared):
    resource = shared.run(lambda s: s.read_resource(f"tether://note/{shared.decision}"))
    body = resource.contents[0].text
    assert resource.contents[0].mime_type == "text/markdown"
    assert body.startswith("## decision: Configuration is read whole")
    assert "- incremental reader: no file is large enough to need it" in body
    assert "Anchor: `load_config` at src/app.py:4-8." in body
    assert body.rstrip().endswith(".md") and "file: .tether/notes/" in body


def test_bad_input_comes_back_as_tool_errors(shared):
    errors = {
        "outside": shared.refused("get_context", path="../outside.py"),
        "absolute": shared.refused("list_notes", path=str(shared.root.parent / "outside.py")),
        "tether dir": shared.refused("check", paths=[".tether/cache"]),
        "missing": shared.refused("get_context", path="src/nope.py"),
        "line": shared.refused("get_context", path="src/app.py", line=99),
        "line 0": shared.refused("record_note", kind="decision", path="src/app.py", line=0, title="t"),
        "kind": shared.refused("record_note", kind="opinion", path="src/app.py", title="t"),
        "id": shared.refused("confirm_invariant", id="0123456789"),
        "not invariant": shared.refused("confirm_invariant", id=shared.decision),
        "checks": shared.refused("record_note", kind="decision", path="src/loop.py", title="t",
                                 checks=[{"kind": "forbid-call", "pattern": "time.sleep"}]),
        "query": shared.refused("record_note", kind="invariant", path="src/loop.py", line=4, title="t",
                                checks=[{"kind": "forbid", "lang": "python", "query": "(call"}]),
        "alternative": shared.refused("record_note", kind="decision", path="src/app.py", title="t",
                                      alternatives=[{"option": "x", "why": "y"}]),
        "folder": shared.refused("record_note", kind="intent", path="src", title="t"),
        "nul": shared.refused("get_context", path="src/app\x00.py", line=1),
    }
    with pytest.raises(Exception, match="no note '0123456789'"):
        shared.run(lambda s: s.read_resource("tether://note/0123456789"))
    assert "outside the workspace" in errors["outside"]
    assert "outside the workspace" in errors["absolute"]
    assert "inside .tether/" in errors["tether dir"]
    assert "src/nope.py: no such file" in errors["missing"]
    assert "src/app.py:99: line out of range (the file has 16 lines)" in errors["line"]
    assert "line" in errors["line 0"] and "greater than or equal to 1" in errors["line 0"]
    assert "kind" in errors["kind"] and "opinion" in errors["kind"]
    assert "no note '0123456789'" in errors["id"]
    assert "only invariants are confirmed" in errors["not invariant"]
    assert "only invariants carry checks" in errors["checks"]
    assert "the query does not compile" in errors["query"]
    assert "why" in errors["alternative"]
    assert "src: a folder; anchor a pattern such as 'src/**'" in errors["folder"]
    assert "a path with a NUL byte names no file" in errors["nul"]
    # nothing was written, and the server is still serving
    assert len(shared.call("list_notes")["notes"]) == 3


def test_check_reports_a_forbidden_call_and_confirm_clears_drift(shared):
    """Last of the shared tests: it confirms an invariant."""
    before = shared.call("check")["findings"]
    only_loop = shared.call("check", paths=["src/loop.py"])["findings"]
    confirmed = shared.call("confirm_invariant", id=shared.start_holds)
    after = shared.call("check", paths=["src"])["findings"]
    violation = {"file": "src/loop.py", "line": 6, "severity": "error", "code": "invariant-violation",
                 "note": shared.never_block, "check": "forbid-call:time.sleep"}
    assert any(f.items() >= violation.items() and "time.sleep" in f["message"] for f in before), before
    assert [f["code"] for f in only_loop] == ["invariant-violation"]
    drift = [f for f in before if f["code"] == "invariant-drift"]
    assert [(f["file"], f["note"]) for f in drift] == [("src/app.py", shared.start_holds)]
    assert confirmed["id"] == shared.start_holds
    assert [f["code"] for f in after] == ["invariant-violation"]


async def test_a_tether_folder_in_the_repository_is_never_imported(repo):
    """The server and the checks' worker it starts run in the repository's folder, where
    ``python -m`` would import the repository's own ``tether`` package: never to be run."""
    (repo / "tether").mkdir()
    marker = repo / "ran-the-repository's-code"
    (repo / "tether" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    (repo / "tether" / "checks").mkdir()
    (repo / "tether" / "checks" / "__init__.py").write_text("")
    (repo / "tether" / "checks" / "worker.py").write_text("")
    async with connect(repo, [sys.executable, "-P", "-m", "tether", "mcp"]) as s:
        await call(s, "record_note", kind="invariant", path="src/loop.py", line=4, title="tick never sleeps",
                   checks=[{"kind": "forbid", "lang": "python", "query": "(call function: (attribute) @c)"}])
        findings = (await call(s, "check", paths=["src/loop.py"]))["findings"]
    assert [f["code"] for f in findings] == ["invariant-violation"]
    assert not marker.exists()


async def test_record_note_makes_a_note_file_that_tether_lists(repo, tmp_path):
    (tmp_path / "outside.py").write_text("def secret():\n    return 1\n", encoding="utf-8")
    async with connect(repo) as s:
        decision = await call(s, "record_note", kind="decision", path="src/app.py", line=12,
                              title="Ports are stored, not bound",
                              rationale="Binding happens in the supervisor.",
                              alternatives=[{"option": "bind here", "rejected_because": "tests would need sockets"}])
        on_file = await call(s, "record_note", kind="intent", path="src/loop.py", title="The scheduler's clock")
        pattern = await call(s, "record_note", kind="boundary", path="src/**", title="No network access in src",
                             body="Anything that talks to the network lives in services/.")
        top_level = await call(s, "record_note", kind="workaround", path="src/loop.py", line=1,
                               title="time is imported for the sleep")
        guarded = await call(s, "record_note", kind="invariant", path="src/loop.py", line=4,
                             title="tick never sleeps",
                             checks=[{"kind": "forbid-call", "pattern": "time.sleep", "message": "no sleeping"}])
        findings = (await call(s, "check", paths=["src/loop.py"]))["findings"]
        resource = await s.read_resource(f"tether://note/{decision['id']}")
        (repo / "src" / "link.py").symlink_to(tmp_path / "outside.py")  # a way out of the workspace
        linked = [await refused(s, "record_note", kind="decision", path="src/link.py", line=1, title="t"),
                  await refused(s, "get_context", path="src/link.py", line=1)]
    assert all("src/link.py: outside the workspace" in e for e in linked), linked
    assert decision["anchors"][0] == {"type": "symbol", "path": "src/app.py", "name": "Service.start", "state": "ok",
                                      "range": decision["anchors"][0]["range"]}
    assert decision["alternatives"] == [{"option": "bind here", "rejected_because": "tests would need sockets"}]
    assert on_file["anchors"][0]["type"] == "file"
    assert pattern["anchors"][0] == {"type": "glob", "pattern": "src/**", "state": "ok", "range": None}
    assert top_level["anchors"][0]["type"] == "lines"  # no definition there: the line itself
    assert guarded["anchors"][0]["name"] == "tick"
    assert [(f["code"], f["note"], f["check"]) for f in findings] == \
        [("invariant-violation", guarded["id"], "forbid-call:time.sleep")]
    assert "no sleeping" in findings[0]["message"]

    listed = tether_list(repo)["notes"]
    assert {n["id"] for n in listed} == {n["id"] for n in (decision, on_file, pattern, top_level, guarded)}
    text = (repo / decision["file"]).read_text(encoding="utf-8")
    note = parse_note(text, decision["file"])
    assert (note.kind, note.title, note.rationale) == ("decision", "Ports are stored, not bound",
                                                      "Binding happens in the supervisor.")

    body = resource.contents[0].text
    assert resource.contents[0].mime_type == "text/markdown"
    assert body.startswith("## decision: Ports are stored, not bound")
    assert "- bind here: tests would need sockets" in body
    assert "Anchor: `Service.start` at src/app.py:12-14." in body
    assert body.rstrip().endswith(f"file: {decision['file']}")


async def test_record_note_on_several_places_a_gotcha_and_a_restatement_joined(repo):
    async with connect(repo) as s:
        rule = await call(s, "record_note", kind="invariant", path="src/app.py", line=12,
                          also=[{"path": "src/loop.py", "line": 4}, {"path": "src/**"}],
                          title="Nothing here talks to the network")
        gotcha = await call(s, "record_note", kind="gotcha", path="src/loop.py", line=4,
                            title="tick must not sleep: the loop has one thread",
                            failure="the UI freezes for 100 ms a tick", cause="time.sleep blocks the only thread")
        joined = await call(s, "record_note", kind="invariant", joins=rule["id"], path="src/app.py", line=1,
                            title="No network calls anywhere in src", rationale="tests run offline",
                            alternatives=[{"option": "mock the network", "rejected_because": "mocks drift"}])
        findings = (await call(s, "check"))["findings"]
    assert [(a["type"], a.get("name") or a.get("pattern")) for a in rule["anchors"]] == \
        [("symbol", "Service.start"), ("symbol", "tick"), ("glob", "src/**")]
    assert (gotcha["kind"], gotcha["failure"], gotcha["cause"]) == \
        ("gotcha", "the UI freezes for 100 ms a tick", "time.sleep blocks the only thread")
    assert joined["id"] == rule["id"] and len(joined["anchors"]) == 4 and joined["rationale"] == "tests run offline"
    assert joined["alternatives"] == [{"option": "mock the network", "rejected_because": "mocks drift"}]
    assert joined["title"] == "No network calls anywhere in src"  # the restatement's wider title
    assert "Was titled: Nothing here talks to the network" in joined["body"]
    assert [f for f in findings if f["note"] == rule["id"]] == []  # every place's code is the invariant's baseline


async def test_amend_note_corrects_a_note_in_place(repo):
    async with connect(repo) as s:
        note = await call(s, "record_note", kind="decision", path="src/app.py", line=4, title="Config is TOML",
                          alternatives=[{"option": "YAML"}])
        amended = await call(s, "amend_note", id=note["id"][:8], title="Every config file is TOML",
                             alternatives=[{"option": "YAML", "rejected_because": "'no' parses as false"},
                                           {"option": "JSON", "rejected_because": "no comments"}],
                             add_places=[{"path": "src/loop.py", "line": 4}, {"path": "src/**"}])
        dropped = await call(s, "amend_note", id=note["id"], drop_places=[{"path": "src/app.py", "line": 6},
                                                                          {"path": "src/**"}],
                             drop_alternatives=["json"], kind="invariant")
        unknown = await refused(s, "amend_note", id="0000000000", title="x")
        no_place = await refused(s, "amend_note", id=note["id"], drop_places=[{"path": "src/app.py", "line": 12}])
        last = await refused(s, "amend_note", id=note["id"], drop_places=[{"path": "src/loop.py", "line": 4}])
        listed = await call(s, "list_notes")
        newer = await call(s, "record_note", kind="decision", path="src/app.py", line=4, title="Config is JSON5")
        old = await call(s, "supersede_note", id=note["id"], by=newer["id"])
        after = await call(s, "list_notes")
    assert (old["status"], old["superseded_by"]) == ("superseded", newer["id"])
    assert [n["status"] for n in after["notes"] if n["id"] == note["id"]] == ["superseded"]
    assert amended["id"] == note["id"] and amended["title"] == "Every config file is TOML"
    assert amended["alternatives"] == [{"option": "YAML", "rejected_because": "'no' parses as false"},
                                       {"option": "JSON", "rejected_because": "no comments"}]
    assert [a.get("name") or a.get("pattern") for a in amended["anchors"]] == ["load_config", "tick", "src/**"]
    assert dropped["kind"] == "invariant" and [a["name"] for a in dropped["anchors"]] == ["tick"]
    assert dropped["alternatives"] == [{"option": "YAML", "rejected_because": "'no' parses as false"}]
    assert unknown.endswith("amend_note: no note '0000000000' (see `tether list`)")
    assert f"{note['id']}: no place at src/app.py:12 (its places: 1: `tick` in src/loop.py)" in no_place
    assert "retire it" in last
    assert [n["title"] for n in listed["notes"]] == ["Every config file is TOML"]  # one note, changed in place


async def test_two_servers_recording_at_once_lose_no_note(repo):
    per_server = 8

    async def record_many(tag: str) -> list[str]:
        async with connect(repo) as s:
            notes = await asyncio.gather(*(call(s, "record_note", kind="decision", path="src/app.py", line=4,
                                                title=f"{tag} decision {i}") for i in range(per_server)))
        return [n["id"] for n in notes]

    a, b = await asyncio.gather(record_many("first"), record_many("second"))
    listed = tether_list(repo)
    assert listed["broken"] == []
    assert sorted(n["id"] for n in listed["notes"]) == sorted(a + b)
    assert len(set(a + b)) == 2 * per_server
    assert len(list((repo / ".tether" / "notes").glob("*.md"))) == 2 * per_server


async def test_a_tree_without_tether_reads_empty_and_sets_up_on_first_write(tmp_path):
    """main(root) on a folder with no .tether/: reading creates nothing; recording sets it up."""
    root = make_repo(tmp_path / "fresh")
    serve = [sys.executable, "-c", "import sys; from pathlib import Path; from tether.mcp.server import main; "
                                   "main(Path(sys.argv[1]))", str(root)]
    async with connect(root, serve) as s:
        listed = await call(s, "list_notes")
        context = await s.call_tool("get_context", {"path": "src/app.py", "line": 4})
        findings = await call(s, "check")
        refused_write = await refused(s, "record_note", kind="intent", path="/etc/passwd", title="t")
        assert not (root / ".tether").exists()
        note = await call(s, "record_note", kind="intent", path="src/app.py", line=4, title="Reads the config")
        after = await call(s, "list_notes")
    assert listed == {"notes": [], "broken": []} and findings == {"findings": []}
    assert context.content[0].text == "No tether notes apply to src/app.py:4.\n"
    assert "outside the workspace" in refused_write
    assert (root / note["file"]).is_file()
    assert [n["id"] for n in after["notes"]] == [note["id"]]
    assert "cache/" in (root / ".tether" / ".gitignore").read_text(encoding="utf-8")


async def test_note_files_changed_by_hand_show_in_the_next_answer(repo):
    """The server watches the notes folder instead of scanning it on every call: a note
    edited in place, added or deleted by someone else is in the next answer."""
    async with connect(repo) as s:
        mine = await call(s, "record_note", kind="decision", path="src/app.py", line=4, title="first title")
        path = repo / mine["file"]
        path.write_text(path.read_text(encoding="utf-8").replace("first title", "edited by hand"), encoding="utf-8")
        other = subprocess.run([sys.executable, "-m", "tether", "record", "invariant", "src/app.py:4",
                                "--title", "recorded from the terminal", "--json"],
                               cwd=repo, capture_output=True, text=True)
        assert other.returncode == 0, other.stderr

        async def titles() -> set[str]:
            return {n["title"] for n in (await call(s, "list_notes"))["notes"]}
        deadline = asyncio.get_running_loop().time() + 5
        while (seen := await titles()) != {"edited by hand", "recorded from the terminal"}:
            assert asyncio.get_running_loop().time() < deadline, seen
            await asyncio.sleep(0.05)
        path.unlink()
        while "edited by hand" in (seen := await titles()):
            assert asyncio.get_running_loop().time() < deadline + 5, seen
            await asyncio.sleep(0.05)
