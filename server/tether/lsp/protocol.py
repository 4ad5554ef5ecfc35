"""The message layer under the features (pygls' own, with its edges closed): every request
gets a reply — a request whose params do not parse gets ``InvalidParams``, one sent after
``shutdown`` gets ``InvalidRequest`` — and a stream that breaks its framing (a header that is
not ``Name: value``, a body without a valid ``Content-Length``) ends the server with exit code
1, so the client restarts it instead of talking to a server that can no longer read it.
The stream is read on the event loop itself, not a thread per header line as pygls does."""

from __future__ import annotations

import asyncio
import logging
import re
import sys
import threading

from cattrs import transform_error
from lsprotocol import types as T
from pygls.exceptions import FeatureNotificationError, JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.io_ import StdoutWriter, run_async
from pygls.protocol import (JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage, LanguageServerProtocol,
                            default_converter)

log = logging.getLogger("tether.lsp")

_HEADER = re.compile(rb"^[!-9;-~]+:[ \t]*[^\r\n]*\r\n$")  # a field name, a colon, a value
_LENGTH = re.compile(rb"^Content-Length:[ \t]*(\d{1,12})[ \t]*\r\n$", re.I)
MAX_BODY = 256 * 1024 * 1024  # a message larger than this is a broken stream, not a document
_DOCUMENTS = {T.TEXT_DOCUMENT_DID_OPEN: "did_open", T.TEXT_DOCUMENT_DID_CHANGE: "did_change",
              T.TEXT_DOCUMENT_DID_CLOSE: "did_close"}  # notifications the server takes as they arrive


def converter():
    """Custom requests keep their params as plain dicts (pygls would turn them into
    namedtuples and mangle keys)."""
    c = default_converter()
    for cls in (JsonRPCRequestMessage, JsonRPCResponseMessage, JsonRPCNotification):
        c.register_structure_hook(cls, lambda obj, cls: cls(**obj))
    return c


class _Unanswerable:
    """A request that cannot be handled as sent; ``handle_message`` answers it with ``error``."""
    jsonrpc = "2.0"

    def __init__(self, msg_id, error: JsonRpcException):
        self.id, self.error = msg_id, error


class TetherProtocol(LanguageServerProtocol):
    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcException as e:
            if not (isinstance(data, dict) and "id" in data and "method" in data):
                raise  # a notification: nobody waits for an answer (pygls logs it)
            cause = e.__cause__
            why = "; ".join(transform_error(cause)) if cause is not None and hasattr(cause, "exceptions") else str(e)
            return _Unanswerable(data["id"], JsonRpcInvalidParams(f"{data['method']}: invalid params: {why}"))

    def handle_message(self, message):
        if isinstance(message, _Unanswerable):
            self._send_response(message.id, error=message.error.to_response_error())
            return
        method = getattr(message, "method", None)
        if method in _DOCUMENTS and getattr(message, "id", None) is None and message.jsonrpc == "2.0" \
                and not self._shutdown:
            self._handle_notification(method, message.params)  # pygls' checks cost a keystroke ~50 µs
            return
        if self._shutdown and method not in (None, T.EXIT) and getattr(message, "id", None) is not None:
            error = JsonRpcInvalidRequest(f"{method}: the server is shutting down (only 'exit' is accepted)")
            self._send_response(message.id, error=error.to_response_error())
            return
        super().handle_message(message)

    def _handle_notification(self, method_name, params):
        """A document's open, changes and close go straight to the server, in the order they
        arrive: pygls would run its own handler as a generator and the server's as a task,
        with two uuid4s, for each (~110 µs a keystroke, a tenth of an edit storm's wait)."""
        if method_name not in _DOCUMENTS:
            return super()._handle_notification(method_name, params)
        handler = getattr(self._server, _DOCUMENTS[method_name])
        try:
            if method_name == T.TEXT_DOCUMENT_DID_OPEN:  # pygls' copy, as its own handlers keep it
                self.workspace.put_text_document(params.text_document)
            elif method_name == T.TEXT_DOCUMENT_DID_CLOSE:
                self.workspace.remove_text_document(params.text_document.uri)
            handler(params)
        except Exception as error:  # noqa: BLE001 — as pygls reports a failed notification
            log.exception("%s failed", method_name)
            self._server._report_server_error(error, FeatureNotificationError)


class Framing:
    """Checks the client's stream header by header, as pygls reads it: a header that is not
    ``Name: value``, a body without a valid ``Content-Length``, a body too large end the
    stream (EOF). pygls would skip the bad header and then misread every later message,
    alive and silent forever."""

    def __init__(self):
        self.length: int | None = None  # the Content-Length of the message being read
        self.broken = ""  # why the stream was ended

    def header(self, line: bytes) -> bytes:
        if self.broken or not line:
            return b""
        if line == b"\r\n":
            return line if self.length is not None else self.end("a message with no Content-Length header")
        m = _LENGTH.match(line)
        if m:
            self.length = int(m.group(1))
            if self.length > MAX_BODY:
                return self.end(f"Content-Length {self.length} is larger than {MAX_BODY} bytes")
            return b"Content-Length: %d\r\n" % self.length  # as pygls' own pattern expects it
        if line.lower().startswith(b"content-length") or not _HEADER.match(line):
            return self.end(f"not a header: {line[:80]!r}")
        return line

    def end(self, why: str) -> bytes:
        self.broken = why
        log.error("the client's message stream is broken (%s): exiting so the client can restart the server", why)
        return b""


class _Stream:
    """The client's bytes read on the event loop itself (pygls' stdin reader hands every
    line to a thread: three thread hops a message, which an edit storm of 1,000 changes
    pays for in seconds), through :class:`Framing`."""

    def __init__(self, reader: asyncio.StreamReader, framing: Framing):
        self.reader, self.framing = reader, framing

    async def readline(self) -> bytes:
        try:
            line = await self.reader.readline()
        except ValueError:  # a line past the reader's limit: no header is that long
            return self.framing.end("a header line of more than 64 KB")
        return self.framing.header(line)

    async def readexactly(self, n: int) -> bytes:
        self.framing.length = None
        try:
            return await self.reader.readexactly(n)
        except asyncio.IncompleteReadError as e:
            return e.partial


def serve_stdio(server) -> bool:
    """Serve the client on standard input and output, as pygls' ``start_io`` does but
    reading on the event loop; False when the client's stream broke its framing."""
    framing = Framing()

    async def run() -> None:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=64 * 1024)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
        server._stop_event = threading.Event()  # what pygls' shutdown sets
        server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
        await run_async(stop_event=server._stop_event, reader=_Stream(reader, framing), protocol=server.protocol,
                        logger=log, error_handler=server.report_server_error)

    try:
        asyncio.run(run())
    except BrokenPipeError:
        log.error("the client closed the connection")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
    return not framing.broken
