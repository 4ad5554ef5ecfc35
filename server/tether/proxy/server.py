"""The pass-through core: an aiohttp server on loopback and one aiohttp client session.

Every request goes upstream as it came — method, path and query string, headers (less the
hop-by-hop ones), body — except the body of a main turn of a known API, which may carry
tether's blocks (:mod:`capture`). Every response comes back as its bytes arrive, unbuffered
and still encoded (the client session does not decompress); a copy of the first
``KEEP_HEAD`` and last ``KEEP_TAIL`` bytes is kept beside the stream and read once it has
ended. Nothing that names a key — headers, query strings — is stored or logged.

The workspace is used from one thread (``tether``): the notes a request gets, then what the
exchange leaves in the observation log, in order. A capture failure is logged to
``.tether/cache/hooks.log`` and costs the request nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import signal
import sys
from collections import deque
import itertools
import queue
import threading
from concurrent.futures import Future

import aiohttp
from aiohttp import web
from multidict import CIMultiDict

from ..agents import hooks
from ..core.workspace import Workspace
from . import compaction as C
from .apis import DEFAULT_UPSTREAMS, ERRORS, Reply, api_for, family_for
from .capture import Capture, Options
from .exchange import Request, events_of, read_request

# hop-by-hop headers (RFC 9110 7.6.1) and the ones the client session sets for each hop
HOP = frozenset(("connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te",
                 "trailer", "transfer-encoding", "upgrade", "host", "content-length"))
# bytes of a response kept for capture: the reply's text (the log keeps 8,000 characters of it) and
# its end; a compaction's summary is longer (64,000). Tool inputs need none: the next request has them
KEEP_HEAD, KEEP_SUMMARY, KEEP_TAIL = 256 << 10, 2 << 20, 64 << 10
MAX_BODY = 512 << 20  # a request body larger than this is refused (batches and files included)
CONNECT_TIMEOUT = 30.0
STOP_GRACE = 5.0


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(host).is_loopback
    return False


class TetherThread:
    """The one thread that uses the workspace: what a request waits for (its notes) first,
    what the capture of finished exchanges does when nothing waits."""

    FIRST, LATER = 0, 1

    def __init__(self):
        self.tasks: queue.PriorityQueue = queue.PriorityQueue()
        self.order = itertools.count()
        self.thread = threading.Thread(target=self._run, name="tether", daemon=True)
        self.thread.start()

    def submit(self, priority: int, fn, *args) -> Future:
        f: Future = Future()
        self.tasks.put((priority, next(self.order), fn, args, f))
        return f

    def _run(self) -> None:
        while True:
            _, _, fn, args, f = self.tasks.get()
            if fn is None:
                return
            try:
                f.set_result(fn(*args))
            except BaseException as e:  # noqa: BLE001 — handed to whoever waits
                f.set_exception(e)

    def shutdown(self) -> None:
        self.tasks.put((self.LATER + 1, next(self.order), None, (), None))
        self.thread.join()


class Proxy:
    def __init__(self, ws: Workspace, upstreams: dict[str, str], options: Options):
        self.ws = ws
        self.upstreams = {k: v.rstrip("/") for k, v in {**DEFAULT_UPSTREAMS, **upstreams}.items()}
        self.capture = Capture(ws, options)
        self.options = options
        self.tether = TetherThread()
        self.client: aiohttp.ClientSession | None = None

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_route("*", "/{tail:.*}", self.handle)
        app.on_startup.append(self._open)
        app.on_cleanup.append(self._close)
        return app

    async def _open(self, app) -> None:
        self.client = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, enable_cleanup_closed=True),
            timeout=aiohttp.ClientTimeout(total=None, sock_connect=CONNECT_TIMEOUT),
            auto_decompress=False, skip_auto_headers=("Accept", "Accept-Encoding", "User-Agent", "Content-Type"),
            read_bufsize=1 << 17, cookie_jar=aiohttp.DummyCookieJar(),
            trust_env=True)  # HTTPS_PROXY / NO_PROXY for the way out, as the vendors' SDKs take them

    async def _close(self, app) -> None:
        if self.client is not None:
            await self.client.close()

    def _in_tether(self, priority: int, fn, *args):
        """Run ``fn`` in the tether thread; a failure is logged and returns None."""
        def safely():
            try:
                return fn(*args)
            except Exception:  # noqa: BLE001 — capture never fails a request
                hooks._log(self.ws, "proxy", {"hook_event_name": getattr(fn, "__name__", "capture")},
                           hooks._traceback())
                return None
        return asyncio.wrap_future(self.tether.submit(priority, safely))

    def _carried(self, req: Request) -> bytes | None:
        try:
            return self.capture.carried(req)
        except Exception:  # noqa: BLE001 — asked of the tether thread instead
            return None

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        family = family_for(path, request.headers)
        api = api_for(request.method, path)
        headers = CIMultiDict((k, v) for k, v in request.headers.items() if k.lower() not in HOP)
        req: Request | None = None
        data = None
        if request.body_exists:
            if api is not None:
                data = await request.read()
                req = read_request(api, data, request.headers)
                if req is not None and req.main:
                    data = self._carried(req) or await self._in_tether(
                        TetherThread.FIRST, self.capture.request_body, req) or data
            else:  # not read: streamed through as it comes
                data = request.content
                if request.content_length is not None:
                    headers["Content-Length"] = str(request.content_length)
        url = self.upstreams[family] + request.raw_path
        try:
            up = await self.client.request(request.method, url, headers=headers, data=data, allow_redirects=False)
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as e:
            why = f"{type(e).__name__}: {' '.join(str(e).split())}".rstrip(": ")
            return self._error(family, 502, f"the upstream {self.upstreams[family]} did not answer ({why})", request)
        try:
            return await self._relay(request, up, req)
        finally:
            up.close()  # a response read to its end keeps its connection; one cut short drops it

    async def _relay(self, request: web.Request, up: aiohttp.ClientResponse, req: Request | None):
        strip = None
        if (req is not None and req.compaction and self.options.distil_on_compaction and up.status == 200
                and req.api.name in C.STRIPS and not up.headers.get("Content-Encoding")):
            strip = C.Stripper(req.api.name, "text/event-stream" in up.headers.get("Content-Type", ""))
        resp = web.StreamResponse(status=up.status, reason=up.reason)
        for k, v in up.headers.items():
            if k.lower() not in HOP:
                resp.headers.add(k, v)
        if up.content_length is not None and strip is None:
            resp.content_length = up.content_length
        keep = req is not None and req.main
        head_max = KEEP_SUMMARY if keep and req.compaction else KEEP_HEAD
        head, tail, cut = bytearray(), deque(), False
        tail_size = 0
        await resp.prepare(request)
        if strip is not None and not strip.streamed:  # one JSON body: cut once it is whole
            async for chunk in up.content.iter_any():
                strip.feed(chunk)
                head += chunk
            await resp.write(strip.close())
        else:
            async for chunk in up.content.iter_any():
                await resp.write(strip.feed(chunk) if strip is not None else chunk)
                if not keep:
                    continue
                if len(head) < head_max:
                    room = head_max - len(head)
                    head += chunk[:room]
                    chunk = chunk[room:]
                if chunk:
                    cut = True
                    tail.append(chunk)
                    tail_size += len(chunk)
                    while tail_size - len(tail[0]) > KEEP_TAIL:
                        tail_size -= len(tail.popleft())
            if strip is not None:
                await resp.write(strip.close())
        await resp.write_eof()
        if keep:
            ctype, enc = up.headers.get("Content-Type", ""), up.headers.get("Content-Encoding", "")
            self._in_tether(TetherThread.LATER, self._exchanged, req, up.status, bytes(head),
                            b"".join(tail) if cut else b"", ctype, enc)
        return resp

    def _exchanged(self, req: Request, status: int, head: bytes, tail: bytes, ctype: str, enc: str) -> None:
        events = events_of(head, ctype, enc) + (events_of(tail, ctype, enc) if tail else [])
        reply: Reply | None = req.api.reply(events) if events else None
        self.capture.exchanged(req, status, reply)
        self.capture.reap()

    def _error(self, family: str, status: int, message: str, request: web.Request) -> web.Response:
        print(f"tether proxy: {status} for {request.method} {request.path}: {message}", file=sys.stderr, flush=True)
        return web.json_response(ERRORS[family](status, f"tether proxy: {message}"), status=status)


async def serve(ws: Workspace, host: str, port: int, upstreams: dict[str, str], options: Options,
                ready=None) -> None:
    """Serve until SIGTERM or SIGINT; ``ready(base_url)`` is called once it listens."""
    proxy = Proxy(ws, upstreams, options)
    # a stream still open at a stop gets STOP_GRACE seconds to end, then is cut (a model's answer can take minutes)
    runner = web.AppRunner(proxy.app(), handler_cancellation=True, access_log=None, shutdown_timeout=STOP_GRACE)
    await runner.setup()
    site = web.TCPSite(runner, host, port, reuse_address=True)
    await site.start()
    bound = runner.addresses[0]
    base = f"http://{'[' + bound[0] + ']' if ':' in bound[0] else bound[0]}:{bound[1]}"
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if ready is not None:
        ready(base)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
        proxy.tether.shutdown()
        proxy.capture.wait(hooks.DISTILL_BUDGET + 2)
