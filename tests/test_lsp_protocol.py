"""The language server's message layer, driven over real stdio byte by byte (pytest-lsp's
client would refuse to send most of these): every request gets a reply — a result or a named
error — and a stream that can no longer be read ends the server with exit code 1, so the
client restarts it. A fuzz test sends generated params and bytes; the notes stay intact."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from samples import git_init

NAMED = {-32602, -32600, -32601}  # InvalidParams, InvalidRequest, MethodNotFound
CODE = "def pay(amount):\n    return charge(amount)\n\n\ndef refund(x):\n    return x\n"


class RawClient:
    """The server as a subprocess, spoken to in framed JSON-RPC bytes."""

    def __init__(self, root: Path):
        self.root = root
        self.uri = root.as_uri()
        self.log = tempfile.TemporaryFile()  # not a pipe: the server's log must never block it
        self.p = subprocess.Popen([sys.executable, "-m", "tether", "lsp"], cwd=root, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.log)
        self.buf = b""
        self.next_id = 1000

    def raw(self, data: bytes) -> None:
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg: dict) -> None:
        body = json.dumps(msg).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method: str, params=None, **extra) -> int:
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method, **extra}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.next_id

    def reply(self, msg_id: int, within: float = 60.0) -> dict | None:
        """The reply to ``msg_id`` (server requests and notifications in between are skipped),
        or None when the server ended its output first."""
        end = time.monotonic() + within
        while time.monotonic() < end:
            for m in self._messages():
                if m.get("id") == msg_id and "method" not in m:
                    return m
                if "method" in m and "id" in m:  # a request from the server: answer it
                    self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
            ready, _, _ = select.select([self.p.stdout], [], [], 0.2)
            if ready:
                chunk = os.read(self.p.stdout.fileno(), 1 << 16)
                if not chunk:
                    return None
                self.buf += chunk
        raise AssertionError(f"no reply to request {msg_id} in {within} s")

    def _messages(self):
        while b"\r\n\r\n" in self.buf:
            head, rest = self.buf.split(b"\r\n\r\n", 1)
            n = next(int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length"))
            if len(rest) < n:
                return
            self.buf = rest[n:]
            yield json.loads(rest[:n])

    def start(self) -> None:
        ok = self.reply(self.request("initialize", {"processId": None, "rootUri": self.uri, "capabilities": {},
                                                    "workspaceFolders": [{"uri": self.uri, "name": "w"}]}))
        assert "result" in ok
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        self.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": f"{self.uri}/pay.py", "languageId": "python", "version": 1, "text": CODE}}})

    def hover_pay(self) -> str:
        r = self.reply(self.request("textDocument/hover", {"textDocument": {"uri": f"{self.uri}/pay.py"},
                                                           "position": {"line": 1, "character": 8}}))
        return r["result"]["contents"]["value"]

    def close(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()
        for f in (self.p.stdin, self.p.stdout, self.log):
            f.close()

    def stderr(self) -> bytes:
        self.log.seek(0)
        return self.log.read()


def workspace(root: Path) -> Path:
    git_init(root)
    (root / "pay.py").write_text(CODE)
    run = lambda *a: subprocess.run([sys.executable, "-m", "tether", *a], cwd=root, capture_output=True, text=True,  # noqa: E731
                                    check=True)
    run("init")
    run("record", "decision", "pay.py:2", "--title", "Charge in minor units", "--rejected", "floats: rounding")
    return root


@pytest.fixture
def client(tmp_path):
    c = RawClient(workspace(tmp_path))
    c.start()
    yield c
    c.close()


def test_a_request_whose_params_do_not_parse_is_answered_with_invalid_params(client):
    doc = {"uri": f"{client.uri}/pay.py"}
    for params in ({"textDocument": doc, "position": {"line": -1, "character": 0}},
                   {"textDocument": doc, "position": {"line": 2**40, "character": 0}}, None, "x", [1]):
        r = client.reply(client.request("textDocument/hover", params))
        assert r["error"]["code"] == -32602 and r["error"]["message"].startswith("textDocument/hover: invalid params")
    assert "Charge in minor units" in client.hover_pay()  # and the server goes on serving


def test_malformed_arguments_to_commands_and_custom_requests_get_a_named_error(client):
    for command, args in (("tether.record", ["nope"]), ("tether.record", []), ("tether.confirm", [{"id": 5}]),
                          ("tether.reanchor", [{"uri": client.uri, "id": "x", "range": {"start": "a"}}])):
        r = client.reply(client.request("workspace/executeCommand", {"command": command, "arguments": args}))
        assert r.get("error", {}).get("code", -32602) in NAMED, r
    r = client.reply(client.request("tether/notes", {"uri": 5}))
    assert r["error"]["code"] == -32602 and "tether/notes" in r["error"]["message"]
    r = client.reply(client.request("tether/context", {"uri": f"{client.uri}/pay.py", "range": {"start": []}}))
    assert r["error"]["code"] == -32602
    r = client.reply(client.request("codeLens/resolve", {"range": {"start": {"line": 0, "character": 0},
                                                                   "end": {"line": 0, "character": 0}}, "data": [1]}))
    assert r["result"]["command"]["title"] == "no notes"
    garbage = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "message": "m",
               "source": "tether", "code": "orphaned", "data": {"note": ["x"], "candidate": 7}}
    r = client.reply(client.request("textDocument/codeAction", {
        "textDocument": {"uri": f"{client.uri}/pay.py"}, "range": garbage["range"],
        "context": {"diagnostics": [garbage]}}))
    assert [a["title"] for a in r["result"]][0] == "Record decision here"  # the garbage offers no fix


def test_requests_after_shutdown_are_refused_and_exit_ends_the_server(client):
    assert client.reply(client.request("shutdown"))["result"] is None
    r = client.reply(client.request("textDocument/hover", {"textDocument": {"uri": f"{client.uri}/pay.py"},
                                                           "position": {"line": 1, "character": 8}}))
    assert r["error"]["code"] == -32600 and "shutting down" in r["error"]["message"]
    client.send({"jsonrpc": "2.0", "method": "exit"})
    assert client.p.wait(timeout=60) == 0


@pytest.mark.parametrize("header", [b"Content-Length: abc\r\n\r\n{}", b"Content-Type: x\r\n\r\n{}",
                                    b"garbage without a colon\r\n"])
def test_a_broken_stream_ends_the_server_so_the_client_restarts_it(client, header):
    client.raw(header)
    client.request("textDocument/hover", {"textDocument": {"uri": f"{client.uri}/pay.py"},
                                          "position": {"line": 1, "character": 8}})
    assert client.p.wait(timeout=60) == 1
    assert b"message stream is broken" in client.stderr()


# -- fuzz ----------------------------------------------------------------------------------

json_values = st.recursive(st.none() | st.booleans() | st.integers(-2**62, 2**62) | st.text(max_size=12),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                           max_leaves=8)
POS = st.fixed_dictionaries({"line": st.integers(-3, 2**33), "character": st.integers(-3, 40)}) | json_values
METHODS = ["textDocument/hover", "textDocument/codeAction", "textDocument/codeLens", "codeLens/resolve",
           "workspace/executeCommand", "tether/notes", "tether/context", "textDocument/definition"]
COMMANDS = ["tether.record", "tether.confirm", "tether.reanchor", "tether.ignoreOnce", "tether.retire",
            "tether.showNote", "tether.acceptCandidate", "tether.dismissCandidate", "tether.nope"]


@st.composite
def params(draw, uri: str):
    """Params shaped like the real ones with any part replaced by anything."""
    doc = draw(st.sampled_from([{"uri": f"{uri}/pay.py"}, {"uri": f"{uri}/none.py"}, {"uri": "file:///etc/passwd"}])
               | json_values)
    pos = draw(POS)
    rng = draw(st.fixed_dictionaries({"start": POS, "end": POS}) | json_values)
    return draw(st.sampled_from([
        {"textDocument": doc, "position": pos},
        {"textDocument": doc, "range": rng, "context": {"diagnostics": draw(st.lists(st.fixed_dictionaries({
            "range": st.just(rng), "message": st.text(max_size=5), "source": st.just("tether"),
            "data": st.fixed_dictionaries({"note": json_values, "candidate": json_values}) | json_values}), max_size=2))}},
        {"command": draw(st.sampled_from(COMMANDS)), "arguments": draw(st.lists(
            st.fixed_dictionaries({"uri": st.just(f"{uri}/pay.py") | json_values, "id": json_values,
                                   "kind": json_values, "title": json_values, "range": st.just(rng)}) | json_values, max_size=2))},
        {"uri": doc.get("uri") if isinstance(doc, dict) else doc, "range": rng},
        {"range": rng, "data": draw(json_values)},
        draw(json_values),
    ]))


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory):
    c = RawClient(workspace(tmp_path_factory.mktemp("fuzz")))
    c.start()
    yield c
    c.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_every_request_gets_a_result_or_a_named_error_and_the_notes_stay(fuzz_client, data):
    c = fuzz_client
    method = data.draw(st.sampled_from(METHODS))
    p = data.draw(params(c.uri))
    if method == "workspace/executeCommand" and isinstance(p, dict) and p.get("command") == "tether.record":
        p["command"] = "tether.showNote"  # recording is the one command whose success changes the notes
    r = c.reply(c.request(method, p))
    assert r is not None, "the server ended on a well-framed request"
    assert "result" in r or r["error"]["code"] in NAMED, (method, p, r)
    # a notification of garbage and a body that is not JSON get no reply, and change nothing
    c.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": data.draw(json_values)})
    c.raw(b"Content-Length: 5\r\n\r\n{nope")
    assert "Charge in minor units" in c.hover_pay()


def test_fuzz_leaves_the_note_files_as_they_were(fuzz_client):
    listed = subprocess.run([sys.executable, "-m", "tether", "list", "--json"], cwd=fuzz_client.root,
                            capture_output=True, text=True, check=True)
    listed = json.loads(listed.stdout)
    assert [n["title"] for n in listed["notes"]] == ["Charge in minor units"] and listed["broken"] == []
