"""`tether proxy` with real clients: the official `anthropic` and `openai` SDKs (streaming and not;
Messages, Chat Completions and Responses) against the scripted model upstreams (tests/upstreams),
each conversation run twice — straight to the upstream, then through the proxy — and compared
byte for byte: what the upstream receives, and what the client gets. Then the faults, for real:
an upstream that is down, a client that goes away mid-stream, a client too slow to read, the
proxy killed mid-stream; and no key anywhere on disk afterwards."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson
import pytest

import tether
from tether.capture import observations as K
from tether.proxy import compaction as C
from tether.core.workspace import Workspace

from samples import git_init

pytest.importorskip("upstreams", reason="tests/upstreams (the scripted model APIs) are not on this branch yet")
import anthropic as anthropic_sdk  # noqa: E402 — the SDKs come with the upstreams, in the test extra
import openai as openai_sdk  # noqa: E402
from upstreams import Call, Text, anthropic, gemini, openai  # noqa: E402

KEY = "sk-test-Zq8v1SECRETkey4proxy"
PAY_PY = "def pay(amount):\n    return amount\n\n\ndef refund(amount):\n    return -amount\n"
NOTE = "Money is integer cents"
SERVER = str(Path(tether.__file__).parent.parent)


@pytest.fixture
def repo(tmp_path) -> Path:
    root = tmp_path / "repo"
    git_init(root)
    (root / "pay.py").write_text(PAY_PY, encoding="utf-8")
    ws, _ = Workspace.init(root)
    ws.record("decision", "pay.py", 1, title=NOTE, rationale="floats lose cents", rejected=[("floats", "rounding")])
    ws.close()
    return root


@contextlib.contextmanager
def running_proxy(root: Path, *args: str):
    """``tether proxy`` in ``root``, as a user starts it; yields (base URL, process)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (SERVER, os.environ.get("PYTHONPATH")) if p)}
    proc = subprocess.Popen([sys.executable, "-m", "tether", "proxy", "--port", "0", *args], cwd=root, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("tether proxy: http://127.0.0.1:"), line + proc.stderr.read()
        yield line.split()[2], proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) in (0, -9), proc.stderr.read()


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch):
    """The scripted upstreams stamp answers with the time: the same in both runs of a conversation."""
    monkeypatch.setattr(openai.time, "time", lambda: 1_760_000_000)


def _http(client_cls, base: str, **kw):
    return client_cls(base_url=base, api_key=KEY, max_retries=0, timeout=30, **kw)


# -- pass-through: byte for byte ------------------------------------------------------------------------

TOOL = {"name": "Read", "description": "read a file",
        "input_schema": {"type": "object", "properties": {"file_path": {"type": "string"}}}}
LONG = "A reply long enough for several deltas, with ünïcödé, \"quotes\" and a \\ backslash. " * 4


def anthropic_conversation(base: str) -> tuple[list[bytes], list]:
    """A streamed and a whole turn through the SDK: the raw bytes it got, and what it parsed."""
    client = _http(anthropic_sdk.Anthropic, base, default_headers={"anthropic-beta": "tools-2026-01-01"})
    msgs = [{"role": "user", "content": "Say something long, then count tokens."}]
    with client.messages.with_streaming_response.create(model="claude-x", max_tokens=200, tools=[TOOL],
                                                        messages=msgs, stream=True) as r:
        streamed = b"".join(r.iter_bytes())
    with client.messages.stream(model="claude-x", max_tokens=200, tools=[TOOL], messages=msgs) as s:
        final = s.get_final_message()
    raw = client.messages.with_raw_response.create(model="claude-x", max_tokens=200, tools=[TOOL], messages=msgs)
    count = client.messages.count_tokens(model="claude-x", messages=msgs)
    return [streamed, raw.http_response.content], [final.model_dump(), raw.parse().model_dump(), count.input_tokens]


def test_anthropic_sdk_through_the_proxy_is_byte_for_byte_what_it_gets_direct(repo):
    steps = [Text(LONG), Text(LONG), Text("Whole.")]
    with anthropic.Upstream(list(steps)) as direct:
        want_bytes, want = anthropic_conversation(direct.url)
    with anthropic.Upstream(list(steps)) as up, running_proxy(repo, "--anthropic-upstream", up.url) as (base, _):
        got_bytes, got = anthropic_conversation(base)
    assert got_bytes == want_bytes and got == want
    assert [(r.method, r.path, r.query, r.body) for r in up.requests] == \
        [(r.method, r.path, r.query, r.body) for r in direct.requests]
    for sent, seen in zip(direct.requests, up.requests):
        for h in ("anthropic-version", "anthropic-beta", "x-api-key", "content-type"):
            assert seen.headers.get(h) == sent.headers.get(h), h
    assert up.errors == []


def openai_conversation(base: str) -> tuple[list[bytes], list]:
    client = _http(openai_sdk.OpenAI, base + "/v1")
    tools = [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}]
    msgs = [{"role": "user", "content": "hello"}]
    raws, parsed = [], []
    with client.chat.completions.with_streaming_response.create(model="gpt-x", messages=msgs, tools=tools,
                                                                stream=True) as r:
        raws.append(b"".join(r.iter_bytes()))
    chunks = client.chat.completions.create(model="gpt-x", messages=msgs, tools=tools, stream=True)
    parsed.append([c.model_dump() for c in chunks])
    raw = client.chat.completions.with_raw_response.create(model="gpt-x", messages=msgs, tools=tools)
    raws.append(raw.http_response.content)
    parsed.append(raw.parse().model_dump())
    rtools = [{"type": "function", "name": "read_file", "parameters": {"type": "object"}}]
    with client.responses.with_streaming_response.create(model="gpt-x", input="hello", tools=rtools,
                                                        stream=True) as r:
        raws.append(b"".join(r.iter_bytes()))
    parsed.append([e.model_dump() for e in client.responses.create(model="gpt-x", input="hello", tools=rtools,
                                                                   stream=True)])
    raw = client.responses.with_raw_response.create(model="gpt-x", input="hello", tools=rtools)
    raws.append(raw.http_response.content)
    parsed.append(raw.parse().model_dump())
    return raws, parsed


def test_openai_sdk_chat_and_responses_through_the_proxy_are_byte_for_byte(repo):
    steps = [Text(LONG)] * 8
    with openai.Upstream(list(steps)) as direct:
        want_bytes, want = openai_conversation(direct.url)
    with openai.Upstream(list(steps)) as up, running_proxy(repo, "--openai-upstream", up.url) as (base, _):
        got_bytes, got = openai_conversation(base)
    assert got_bytes == want_bytes and got == want
    assert [(r.path, r.body, r.headers.get("authorization")) for r in up.requests] == \
        [(r.path, r.body, r.headers.get("authorization")) for r in direct.requests]


def test_a_body_that_is_not_json_and_unknown_paths_pass_untouched(repo):
    import urllib.error
    import urllib.request
    with anthropic.Upstream([]) as up, running_proxy(repo, "--anthropic-upstream", up.url) as (base, _):
        for path, data in (("/v1/messages", b'{"model": "m", "messages": [ not json'),
                           ("/v1/messages/batches?limit=2&after_id=x", b"\x00\x01binary")):
            req = urllib.request.Request(base + path, data=data, headers={"content-type": "application/json",
                                                                          "anthropic-version": "2023-06-01"})
            with pytest.raises(urllib.error.HTTPError) as e:
                urllib.request.urlopen(req, timeout=30)
            assert e.value.code in (400, 404)  # the upstream's own answer, passed back
            assert json.loads(e.value.read())["type"] == "error"
            assert (up.requests[-1].path + "?" * bool(up.requests[-1].query), up.requests[-1].body) == \
                (path.split("?")[0] + "?" * ("?" in path), data)
        assert up.requests[-1].query == {"limit": ["2"], "after_id": ["x"]}


def test_it_listens_on_loopback_unless_told_otherwise(repo):
    r = subprocess.run([sys.executable, "-m", "tether", "proxy", "--host", "0.0.0.0"], cwd=repo, capture_output=True,
                       text=True, timeout=60, env={**os.environ, "PYTHONPATH": SERVER})
    assert r.returncode == 2 and "--allow-remote" in r.stderr and "not a loopback address" in r.stderr


# -- the notes: one trailing block, nothing else changed -------------------------------------------------

def _without_last_block(body: bytes, key: str, block_of) -> tuple[bytes, str]:
    """``body`` less the one block tether added at the end of the newest message, and its text."""
    last = json.loads(body)[key][-1]
    block = block_of(last)
    encoded = b"," + orjson.dumps(block)
    assert body.count(encoded) == 1
    return body.replace(encoded, b""), block["text"]


def test_a_read_gets_its_notes_as_one_trailing_block_once_and_carried_after(repo):
    def conversation(base: str) -> list:
        client = _http(anthropic_sdk.Anthropic, base)
        msgs = [{"role": "user", "content": "Check pay.py"}]
        out = []
        for _ in range(3):
            with client.messages.stream(model="claude-x", max_tokens=200, tools=[TOOL], messages=msgs) as s:
                m = s.get_final_message()
            out.append(m.model_dump(exclude={"usage"}))  # (the scripted usage counts what the model was sent)
            msgs = [*msgs, {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in m.content]}]
            if m.stop_reason != "tool_use":
                break
            msgs.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": m.content[-1].id,
                                                      "content": PAY_PY}]})
        return out

    steps = [Call("Read", {"file_path": str(repo / "pay.py")}, id="toolu_1"),
             Call("Read", {"file_path": str(repo / "pay.py")}, id="toolu_2"), Text("Pay is fine.")]
    with anthropic.Upstream(list(steps)) as direct:
        want = conversation(direct.url)
    with anthropic.Upstream(list(steps)) as up, running_proxy(repo, "--anthropic-upstream", up.url) as (base, _):
        got = conversation(base)
    assert got == want  # the client sees no difference
    first, second, third = (r.body for r in up.main)
    assert first == direct.main[0].body  # nothing touched yet: byte for byte
    original, text = _without_last_block(second, "messages", lambda m: m["content"][-1])
    assert original == direct.main[1].body
    assert text.startswith("# tether notes for pay.py") and NOTE in text and "floats" in text and "rounding" in text
    # the same file read again: no second copy; the first block carried at its place, byte for byte
    assert third.count(NOTE.encode()) == 1
    messages = second[:second.index(b'],"model":')]  # the second request up to the end of its last message
    assert third.startswith(messages + b",")  # leads the third byte for byte: the prompt cache reads it
    carried = json.loads(third)["messages"]
    assert carried[2]["content"][-1] == {"type": "text", "text": text}
    assert len(carried[4]["content"]) == 1


def test_chat_responses_and_gemini_tool_results_get_the_notes(repo):
    path = str(repo / "pay.py")
    with openai.Upstream([Call("read_file", {"path": path}, id="call_1"), Text("ok")]) as up, \
            running_proxy(repo, "--openai-upstream", up.url) as (base, _):
        client = _http(openai_sdk.OpenAI, base + "/v1")
        tools = [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}]
        msgs = [{"role": "user", "content": "check"}]
        first = client.chat.completions.create(model="gpt-x", messages=msgs, tools=tools)
        call = first.choices[0].message.tool_calls[0]
        msgs += [first.choices[0].message.model_dump(exclude_none=True),
                 {"role": "tool", "tool_call_id": call.id, "content": PAY_PY}]
        assert client.chat.completions.create(model="gpt-x", messages=msgs, tools=tools).choices[0].message.content \
            == "ok"
    tool_msg = json.loads(up.main[1].body)["messages"][-1]
    assert tool_msg["content"].startswith(PAY_PY + "\n\n# tether notes for pay.py") and NOTE in tool_msg["content"]

    with openai.Upstream([Call("read_file", {"path": path}, id="call_9"), Text("ok")]) as up, \
            running_proxy(repo, "--openai-upstream", up.url) as (base, _):
        client = _http(openai_sdk.OpenAI, base + "/v1")
        rtools = [{"type": "function", "name": "read_file", "parameters": {"type": "object"}}]
        # another first message: another conversation, not given the note yet
        first = client.responses.create(model="gpt-x", input="check pay", tools=rtools, stream=False)
        call = first.output[-1]
        items = [{"type": "message", "role": "user", "content": "check pay"}, call.model_dump(exclude_none=True),
                 {"type": "function_call_output", "call_id": call.call_id, "output": PAY_PY}]
        client.responses.create(model="gpt-x", input=items, tools=rtools)
    out = json.loads(up.main[1].body)["input"][-1]["output"]
    assert out.startswith(PAY_PY + "\n\n# tether notes for pay.py") and NOTE in out

    with gemini.Upstream([Call("read_file", {"file_path": path}), Text("ok")]) as up, \
            running_proxy(repo, "--gemini-upstream", up.url) as (base, _):
        url = base + "/v1beta/models/gemini-x:generateContent"
        tools = [{"functionDeclarations": [{"name": "read_file"}]}]
        contents = [{"role": "user", "parts": [{"text": "check"}]}]
        first = _post(url, {"contents": contents, "tools": tools}, {"x-goog-api-key": KEY})
        contents += [first["candidates"][0]["content"],
                     {"role": "user", "parts": [{"functionResponse": {"name": "read_file",
                                                                      "response": {"output": PAY_PY}}}]}]
        _post(url, {"contents": contents, "tools": tools}, {"x-goog-api-key": KEY})
    parts = json.loads(up.main[1].body)["contents"][-1]["parts"]
    assert len(parts) == 2 and parts[1]["text"].startswith("# tether notes for pay.py")


def _post(url: str, body: dict, headers: dict) -> dict:
    import urllib.request
    req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json", **headers})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def test_hooked_agents_get_no_second_copy_and_no_inject_adds_nothing(repo):
    hooked = [{"role": "user", "content": [{"type": "text", "text": "<system-reminder>SessionStart hook additional "
                                                                     "context: # tether notes for this repository"
                                                                     "</system-reminder>"}, {"type": "text", "text": "go"}]}]
    steps = [Call("Read", {"file_path": str(repo / "pay.py")}, id="toolu_1"), Text("ok")]
    for args, msgs in ((("--no-inject",), [{"role": "user", "content": "go"}]), ((), hooked)):
        with anthropic.Upstream(list(steps)) as up, running_proxy(repo, "--anthropic-upstream", up.url, *args) as (b, _):
            client = _http(anthropic_sdk.Anthropic, b)
            m = client.messages.create(model="claude-x", max_tokens=50, tools=[TOOL], messages=msgs)
            client.messages.create(model="claude-x", max_tokens=50, tools=[TOOL], messages=[
                *msgs, {"role": "assistant", "content": [c.model_dump(exclude_none=True) for c in m.content]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": PAY_PY}]}])
        assert NOTE not in up.main[1].body.decode(), args


# -- capture: the turn's decision becomes a candidate ---------------------------------------------------

def test_a_turn_through_the_proxy_is_logged_and_its_decision_becomes_a_candidate(repo):
    edit = {"file_path": str(repo / "pay.py"), "old_string": "    return amount\n",
            "new_string": "    return round(amount * 100)\n"}
    steps = [Call("Edit", edit, id="toolu_e"), Text("Done: pay() now returns integer cents.")]
    prompt = "Make pay() return integer cents. We decided to keep money as integer cents rather than floats, " \
             "because floats lose cents in rounding."
    with anthropic.Upstream(steps) as up, gemini.Upstream([Text("ok")]) as gem, \
            running_proxy(repo, "--anthropic-upstream", up.url, "--gemini-upstream", gem.url) as (base, proc):
        client = _http(anthropic_sdk.Anthropic, base)
        tools = [{**TOOL, "name": "Edit"}]
        msgs = [{"role": "user", "content": prompt}]
        m = client.messages.create(model="claude-x", max_tokens=50, tools=tools, messages=msgs,
                                   metadata={"user_id": json.dumps({"session_id": "sess-cents"})})
        (repo / "pay.py").write_text(PAY_PY.replace("return amount\n", "return round(amount * 100)\n", 1))
        msgs += [{"role": "assistant", "content": [c.model_dump(exclude_none=True) for c in m.content]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_e", "content": "ok"}]}]
        with client.messages.stream(model="claude-x", max_tokens=50, tools=tools, messages=msgs,
                                    metadata={"user_id": json.dumps({"session_id": "sess-cents"})}) as s:
            s.get_final_message()
        cands = _wait_for_candidates(repo)
    ws = Workspace(repo)
    try:
        log = [(e["kind"], e.get("text") or e.get("path")) for e in K.observations(ws, "sess-cents")]
        edits = [e for e in K.observations(ws, "sess-cents") if e["kind"] == "edit"]
    finally:
        ws.close()
    assert log[:3] == [("prompt", prompt), ("edit", "pay.py"), ("reply", "Done: pay() now returns integer cents.")]
    assert edits[0]["symbols"] == ["pay"]
    assert any(c["kind"] == "decision" and "integer cents" in c["title"].lower() and
               any(a["option"] == "floats" for a in c["alternatives"]) for c in cands), cands


def _wait_for_candidates(repo: Path, timeout: float = 60) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": SERVER}
    end = time.monotonic() + timeout
    while True:
        out = subprocess.run([sys.executable, "-m", "tether", "review", "--json"], cwd=repo, env=env,
                             capture_output=True, text=True)
        cands = json.loads(out.stdout)["candidates"] if out.returncode == 0 and out.stdout.strip() else []
        if cands or time.monotonic() > end:
            return cands
        time.sleep(0.5)


# -- compaction: the summary kept, and with --distil-on-compaction what was settled -------------------------

COMPACT = ("CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\nYour task is to create a detailed summary of "
           "the conversation so far, paying close attention to the user's explicit requests.")
SUMMARY = "<analysis>Exact money.</analysis>\n<summary>1. Primary Request and Intent: pay() in cents.</summary>"
SETTLED = ("\n\n<tether-notes>\n- kind: decision\n  title: Refunds are negative cents\n  file: pay.py\n  symbol: refund\n"
           "  why: the ledger sums signed amounts\n  rejected: a refund flag -- two fields to keep in step\n"
           "</tether-notes>")


def test_a_compaction_keeps_its_summary_and_can_say_what_was_settled(repo):
    def compaction(base: str, sid: str) -> str:
        client = _http(anthropic_sdk.Anthropic, base)
        msgs = [{"role": "user", "content": "fix refunds"}, {"role": "assistant", "content": "Done."},
                {"role": "user", "content": [{"type": "text", "text": COMPACT}]}]
        with client.messages.stream(model="claude-x", max_tokens=500, tools=[TOOL], messages=msgs,
                                    metadata={"user_id": json.dumps({"session_id": sid})}) as s:
            return s.get_final_message().content[0].text

    def answer(req):  # the model writes the section only when asked for it
        return Text(SUMMARY + (SETTLED if "<tether-notes>" in req.newest else ""))

    with anthropic.Upstream([answer]) as up, running_proxy(repo, "--anthropic-upstream", up.url) as (base, _):
        assert compaction(base, "plain") == SUMMARY
    assert b"tether-notes" not in up.main[0].body  # not asked: the request went as it was
    with anthropic.Upstream([answer]) as up, \
            running_proxy(repo, "--anthropic-upstream", up.url, "--distil-on-compaction") as (base, _):
        assert compaction(base, "asked") == SUMMARY  # the section is cut from what the agent gets
        cands = _wait_for_candidates(repo)
    asked = json.loads(up.main[0].body)["messages"][-1]["content"]
    assert asked[0]["text"] == COMPACT and asked[-1]["text"].startswith("After the summary, add one last section")
    ws = Workspace(repo)
    try:
        summaries = [e["text"] for sid in ("plain", "asked") for e in K.observations(ws, sid) if e["kind"] == "summary"]
    finally:
        ws.close()
    assert summaries == [SUMMARY, SUMMARY]
    [c] = cands
    assert (c["kind"], c["title"], c["extractor"]) == ("decision", "Refunds are negative cents", "compaction")
    assert c["alternatives"] == [{"option": "a refund flag", "rejected_because": "two fields to keep in step"}]
    assert [a["name"] for a in c["anchors"]] == ["refund"]


def test_a_codex_compaction_reads_whole_through_the_openai_sdk(repo):
    """The openai SDK's Responses stream helper, which builds the text from the deltas and checks
    them against the finished item, through --distil-on-compaction: the summary alone, whether the
    section is cut or white space held back in case a section follows goes out as one more delta."""
    checkpoint = "You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for another LLM."
    summary = "Progress: pay() takes cents.\nNext: refunds."
    steps = [Text(summary + SETTLED), Text(summary + "\n\n")]  # the second writes no section
    with openai.Upstream(steps, is_side=lambda req: False) as up, \
            running_proxy(repo, "--openai-upstream", up.url, "--distil-on-compaction") as (base, _):
        client = _http(openai_sdk.OpenAI, base + "/v1")
        for want in (summary, summary + "\n\n"):
            items = [{"role": "user", "content": "fix refunds"}, {"role": "user", "content": checkpoint}]
            with client.responses.stream(model="gpt-x", input=items, tools=[]) as s:
                deltas = "".join(e.delta for e in s if e.type == "response.output_text.delta")
                final = s.get_final_response()
            assert deltas == final.output_text == want
    assert all(json.loads(q.body)["input"][-1]["content"] == checkpoint + "\n\n" + C.REQUEST for q in up.main)


# -- faults, for real -------------------------------------------------------------------------------------

def test_an_upstream_that_is_down_is_a_502_in_each_apis_own_shape(repo):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    with running_proxy(repo, "--anthropic-upstream", dead, "--openai-upstream", dead, "--gemini-upstream", dead) \
            as (base, _):
        with pytest.raises(anthropic_sdk.APIStatusError) as e:
            _http(anthropic_sdk.Anthropic, base).messages.create(model="m", max_tokens=5,
                                                                 messages=[{"role": "user", "content": "x"}])
        assert e.value.status_code == 502 and e.value.body["type"] == "error"
        assert e.value.body["error"]["type"] == "api_error" and "did not answer" in e.value.body["error"]["message"]
        with pytest.raises(openai_sdk.APIStatusError) as e:
            _http(openai_sdk.OpenAI, base + "/v1").responses.create(model="m", input="x")
        assert e.value.status_code == 502 and e.value.body["type"] == "server_error"
        import urllib.error
        with pytest.raises(urllib.error.HTTPError) as e:
            _post(base + "/v1beta/models/g:generateContent", {"contents": []}, {})
        assert e.value.code == 502 and json.loads(e.value.read())["error"]["status"] == "UNAVAILABLE"


class EndlessUpstream:
    """An upstream whose streams never end by themselves (one event every 10 ms), that knows
    when the reader of a stream has gone — the one thing the scripted upstreams do not do."""

    def __init__(self):
        self.open_streams = 0
        self.closed = threading.Event()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._stream, args=(conn,), daemon=True).start()

    def _stream(self, conn: socket.socket):
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(65536)
            head, _, rest = data.partition(b"\r\n\r\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), 0)
            while len(rest) < length:
                rest += conn.recv(65536)
            if b'"quick"' in rest:
                body = b'{"type":"message","content":[{"type":"text","text":"quick"}],"stop_reason":"end_turn"}'
                conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s"
                             % (len(body), body))
                return
            conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
            self.open_streams += 1
            event = b'event: ping\ndata: {"type":"ping"}\n\n' * 100
            try:
                while True:
                    conn.sendall(b"%x\r\n%s\r\n" % (len(event), event))
                    time.sleep(0.01)
            except OSError:
                self.open_streams -= 1
                self.closed.set()

    def close(self):
        self.sock.close()


def _wait(pred, timeout: float = 30) -> bool:
    end = time.monotonic() + timeout
    while not pred() and time.monotonic() < end:
        time.sleep(0.05)
    return pred()


def test_a_client_gone_mid_stream_frees_the_upstream_and_a_slow_one_delays_no_other(repo):
    up = EndlessUpstream()
    try:
        with running_proxy(repo, "--anthropic-upstream", up.url) as (base, _):
            port = int(base.rsplit(":", 1)[1])
            body = b'{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}]}'
            request = (b"POST /v1/messages HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                       b"content-length: %d\r\n\r\n%s" % (len(body), body))
            gone = socket.create_connection(("127.0.0.1", port))
            gone.sendall(request)
            got = b""
            while b"ping" not in got:  # the headers, then the first events
                got += gone.recv(65536)
            gone.close()  # mid-stream
            assert up.closed.wait(30), "the upstream stream was not closed after its client went"
            assert _wait(lambda: up.open_streams == 0)

            slow = socket.create_connection(("127.0.0.1", port))  # asks for a stream, never reads it
            slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            slow.sendall(request)
            assert _wait(lambda: up.open_streams == 1)
            time.sleep(1)  # its buffers fill up
            for _ in range(3):  # meanwhile another client is answered, whole
                m = _http(anthropic_sdk.Anthropic, base).messages.create(
                    model="m", max_tokens=5, messages=[{"role": "user", "content": "quick"}])
                assert m.content[0].text == "quick"
            slow.close()
            assert _wait(lambda: up.open_streams == 0)
    finally:
        up.close()


def test_the_proxy_killed_mid_stream_loses_no_note_and_leaves_the_log_readable(repo):
    up = EndlessUpstream()
    try:
        with anthropic.Upstream([Text("first turn done")]) as scripted:
            with running_proxy(repo, "--anthropic-upstream", scripted.url) as (base, _):
                _http(anthropic_sdk.Anthropic, base).messages.create(
                    model="m", max_tokens=5, tools=[TOOL], messages=[{"role": "user", "content": "first prompt"}],
                    metadata={"user_id": json.dumps({"session_id": "killed"})})
        with running_proxy(repo, "--anthropic-upstream", up.url) as (base, proc):
            client = _http(anthropic_sdk.Anthropic, base)
            with client.messages.with_streaming_response.create(
                    model="m", max_tokens=5, tools=[TOOL], stream=True,
                    messages=[{"role": "user", "content": "first prompt"}, {"role": "assistant", "content": "ok"},
                              {"role": "user", "content": "second prompt"}],
                    metadata={"user_id": json.dumps({"session_id": "killed"})}) as r:
                it = r.iter_bytes()
                assert b"ping" in next(it)
                proc.kill()
                with pytest.raises(Exception):
                    for _ in it:
                        pass
    finally:
        up.close()
    env = {**os.environ, "PYTHONPATH": SERVER}
    log = subprocess.run([sys.executable, "-m", "tether", "log", "--session", "killed"], cwd=repo, env=env,
                         capture_output=True, text=True)
    assert log.returncode == 0 and "first prompt" in log.stdout and "first turn done" in log.stdout, log.stderr
    notes = subprocess.run([sys.executable, "-m", "tether", "list"], cwd=repo, env=env, capture_output=True, text=True)
    assert notes.returncode == 0 and NOTE in notes.stdout


def test_no_key_is_written_anywhere(repo, tmp_path):
    steps = [Call("Read", {"file_path": str(repo / "pay.py")}, id="toolu_1"), Text("ok")]
    with anthropic.Upstream(steps) as up, gemini.Upstream([Text("ok")]) as gem, \
            running_proxy(repo, "--anthropic-upstream", up.url, "--gemini-upstream", gem.url) as (base, proc):
        client = _http(anthropic_sdk.Anthropic, base)
        msgs = [{"role": "user", "content": "go"}]
        m = client.messages.create(model="m", max_tokens=5, tools=[TOOL], messages=msgs)
        client.messages.create(model="m", max_tokens=5, tools=[TOOL], messages=[
            *msgs, {"role": "assistant", "content": [c.model_dump(exclude_none=True) for c in m.content]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "x"}]}])
        _post(base + "/v1beta/models/g:generateContent?key=" + KEY, {"contents": [
            {"role": "user", "parts": [{"text": "go"}]}], "tools": [{"functionDeclarations": []}]}, {})
        _wait_for_candidates(repo, timeout=3)
    sent = up.requests[0].headers
    assert KEY in sent.get("x-api-key", sent.get("authorization", "")) and gem.requests[0].query["key"] == [KEY]
    out, err = proc.stdout.read(), proc.stderr.read()
    assert KEY not in out and KEY not in err
    found = [p for p in repo.rglob("*") if p.is_file() and KEY.encode() in p.read_bytes()]
    assert found == []
