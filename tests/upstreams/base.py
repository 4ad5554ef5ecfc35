"""What every scripted upstream shares: the script's data, the kept requests, the HTTP server.

An API module (``anthropic``, ``openai``, ``gemini``) subclasses :class:`Upstream` with
``answer(request) -> Reply`` and ``side(request) -> bool``; this module knows no API.
"""

from __future__ import annotations

import gzip
import http.server
import json
import threading
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Union
from urllib.parse import parse_qs, urlsplit


# -- the script: data ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Text:
    """Text the model writes."""
    text: str


@dataclass(frozen=True)
class Call:
    """A tool call the model makes: the tool's name and its input. ``id`` is made up when
    omitted; ``namespace`` is for APIs that group tools (Codex's ``mcp__SERVER``)."""
    name: str
    input: dict = field(default_factory=dict)
    id: str | None = None
    namespace: str | None = None


@dataclass(frozen=True)
class Fail:
    """An error reply in the API's own error shape (``status`` 429, 500, 529…)."""
    status: int = 500
    message: str = "scripted failure"


@dataclass(frozen=True)
class Again:
    """Returned by a step function: answer with ``turn`` and stay on this step for the next
    request (e.g. "wait until the client offers tool X")."""
    turn: "Turn"


Part = Union[Text, Call]
Turn = Union[Text, Call, Fail, list]  # one part, a list of parts, or an error
Step = Union[Turn, Callable[["Request"], Turn]]  # a turn, or one computed from the request it answers


def parts_of(turn: Turn) -> list[Part]:
    parts = turn if isinstance(turn, list) else [turn]
    for p in parts:
        if not isinstance(p, (Text, Call)):
            raise TypeError(f"a turn holds Text and Call parts, not {p!r}")
    return parts


# -- a kept request -------------------------------------------------------------------------

@dataclass
class Request:
    method: str
    path: str  # without the query
    query: dict[str, list[str]]
    headers: dict[str, str]  # names in lower case
    body: bytes  # as sent (decoded from gzip/deflate if it was compressed)
    json: Any  # the parsed body, or None
    side: bool = False  # a side request: answered by the side answer
    scripted: bool = False  # answered by the script (a step, or ``then`` once they are used up)
    newest: str = ""  # the text of the newest input (the API module fills it: user text, tool results)

    @property
    def text(self) -> str:
        """Every string in the parsed body, one per line: what the model was given, to search."""
        out: list[str] = []

        def walk(v):
            if isinstance(v, str):
                out.append(v)
            elif isinstance(v, dict):
                for x in v.values():
                    walk(x)
            elif isinstance(v, list):
                for x in v:
                    walk(x)
        walk(self.json)
        return "\n".join(out)


# -- a reply --------------------------------------------------------------------------------

@dataclass
class Reply:
    status: int = 200
    body: Any = None  # JSON for a whole reply
    events: Iterable[bytes] | None = None  # already framed SSE events for a stream
    content_type: str = "application/json"


def sse(data: Any, event: str | None = None, end: str = "\n\n") -> bytes:
    """One server-sent event: ``event:`` (when named) then ``data:`` with compact JSON."""
    head = f"event: {event}\n" if event else ""
    payload = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"{head}data: {payload}{end}".encode()


def tokens(v: Any) -> int:
    """A plausible token count: a token per four characters of JSON."""
    return max(1, len(json.dumps(v, ensure_ascii=False)) // 4) if v is not None else 1


# -- the server -----------------------------------------------------------------------------

class Upstream:
    """A scripted model API on 127.0.0.1 (an ephemeral port), for ``with``:

    - ``steps``: the main requests' answers in order, each a turn (``Text``, ``Call``, a list of
      them, ``Fail``) or a function of the :class:`Request` returning one;
    - ``then``: the answer once the steps are used up (``Text("Done.")``);
    - ``side``: the answer to side requests (titles, topic checks, … — what :meth:`side` says),
      a turn or a function of the request; ``None`` lets the API module answer (a short text);
    - ``is_side``: a function of the request replacing the module's test, e.g. ``lambda r: False``
      to script every request;
    - ``input_tokens``: a function of the request giving the input tokens the answer reports
      (default: a token per four characters of the body), e.g. to make a client think its
      context is full.

    ``url`` is the base URL; ``requests`` keeps every request in order, ``main`` the ones the
    script answered; ``errors`` the exceptions raised while answering (each also a 500 reply).
    """

    def __init__(self, steps: Iterable[Step] = (), *, then: Step = Text("Done."), side: Step | None = None,
                 is_side: Callable[[Request], bool] | None = None,
                 input_tokens: Callable[[Request], int] | None = None, model: str = "scripted-model"):
        self.steps = list(steps)
        self.then = then
        self.side_answer = side
        self.is_side = is_side
        self.count_input = input_tokens
        self.model = model
        self.requests: list[Request] = []
        self.errors: list[BaseException] = []
        self._lock = threading.Lock()
        self._next = 0
        self._ids: dict[str, int] = {}
        self._server: http.server.ThreadingHTTPServer | None = None

    # for the API modules to override
    def answer(self, req: Request) -> Reply:
        raise NotImplementedError

    def side(self, req: Request) -> bool:
        return False

    def newest(self, req: Request) -> str:
        return ""

    # ---------------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        assert self._server is not None, "use the upstream in a with statement"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def main(self) -> list[Request]:
        return [r for r in self.requests if r.scripted]

    def make_id(self, prefix: str) -> str:
        with self._lock:
            n = self._ids[prefix] = self._ids.get(prefix, 0) + 1
        return f"{prefix}{n:04d}"

    def turn_for(self, req: Request) -> Turn:
        """The turn answering ``req``: the side answer, or the script's next step (consumed)."""
        if req.side:
            step = self.side_answer
            if step is None:
                return Text("OK")
        else:
            req.scripted = True
            with self._lock:
                if self._next < len(self.steps):
                    step = self.steps[self._next]
                    self._next += 1
                else:
                    step = self.then
        turn = step(req) if callable(step) else step
        if isinstance(turn, Again):
            if not req.side and step is not self.then:
                with self._lock:
                    self._next -= 1  # the same step answers the next request
            return turn.turn
        return turn

    def input_tokens(self, req: Request) -> int:
        return self.count_input(req) if self.count_input else tokens(req.json)

    @property
    def left(self) -> int:
        """Steps not used yet (0: the client went through the whole script)."""
        return len(self.steps) - self._next

    def __enter__(self) -> "Upstream":
        upstream = self

        class Handler(_Handler):
            pass
        Handler.upstream = upstream
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, name=f"{type(self).__module__} upstream",
                         daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def receive(self, method: str, target: str, headers: dict[str, str], body: bytes) -> Reply:
        split = urlsplit(target)
        try:
            parsed = json.loads(body) if body.strip() else None
        except ValueError:
            parsed = None
        req = Request(method, split.path, parse_qs(split.query, keep_blank_values=True), headers, body, parsed)
        try:
            req.newest = self.newest(req) if isinstance(parsed, dict) else ""
            req.side = (self.is_side or self.side)(req)
        except Exception as e:  # a malformed request is kept and answered by the module
            self.errors.append(e)
        with self._lock:
            self.requests.append(req)
        try:
            return self.answer(req)
        except Exception as e:
            self.errors.append(e)
            return Reply(500, {"error": {"type": "upstream_script_error", "message": f"{type(e).__name__}: {e}"}})


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive; streams are sent chunked, as the vendors do
    upstream: Upstream

    def log_message(self, *args) -> None:  # quiet
        pass

    def _body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            data = bytearray()
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    break
                data += self.rfile.read(size)
                self.rfile.readline()
            body = bytes(data)
        else:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        encoding = self.headers.get("Content-Encoding", "").lower()
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        return body

    def _handle(self) -> None:
        headers = {k.lower(): v for k, v in self.headers.items()}
        reply = self.upstream.receive(self.command, self.path, headers, self._body())
        if reply.events is None:
            data = json.dumps(reply.body, ensure_ascii=False).encode()
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for event in _chunks(reply.events):
            self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    do_GET = do_POST = do_PUT = do_DELETE = _handle


def _chunks(events: Iterable[bytes]) -> Iterator[bytes]:
    for e in events:
        if e:
            yield e
