"""The message layer under the features (pygls' own, with its edges closed): every request
gets a reply — a request whose params do not parse gets ``InvalidParams``, one sent after
``shutdown`` gets ``InvalidRequest`` — and a stream that breaks its framing (a header that is
not ``Name: value``, a body without a valid ``Content-Length``) ends the server with exit code
1, so the client restarts it instead of talking to a server that can no longer read it."""

from __future__ import annotations

import logging
import re
from typing import BinaryIO

from cattrs import transform_error
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.protocol import (JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage, LanguageServerProtocol,
                            default_converter, lsp_method)

log = logging.getLogger("tether.lsp")

_HEADER = re.compile(rb"^[!-9;-~]+:[ \t]*[^\r\n]*\r\n$")  # a field name, a colon, a value
_LENGTH = re.compile(rb"^Content-Length:[ \t]*(\d{1,12})[ \t]*\r\n$", re.I)
MAX_BODY = 256 * 1024 * 1024  # a message larger than this is a broken stream, not a document


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
        if self._shutdown and method not in (None, T.EXIT) and getattr(message, "id", None) is not None:
            error = JsonRpcInvalidRequest(f"{method}: the server is shutting down (only 'exit' is accepted)")
            self._send_response(message.id, error=error.to_response_error())
            return
        super().handle_message(message)

    @lsp_method(T.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: T.DidChangeTextDocumentParams):
        """Edits for a document the client never opened are logged and dropped (pygls
        would raise, and the user would see an error message for every keystroke)."""
        if params.text_document.uri not in self.workspace.text_documents:
            log.warning("didChange for %s, which was never opened: ignored", params.text_document.uri)
            return
        yield from super().lsp_text_document__did_change(params)


class FramedInput:
    """The client's byte stream, read the way pygls reads it (``readline`` for headers,
    ``read(n)`` for a body), ending it (EOF) at the first framing error: pygls would skip
    the bad header and then misread every later message, alive and silent forever."""

    def __init__(self, stream: BinaryIO):
        self.stream = stream
        self.length: int | None = None  # the Content-Length of the message being read
        self.broken = ""  # why the stream was ended

    def readline(self) -> bytes:
        if self.broken:
            return b""
        line = self.stream.readline(64 * 1024)
        if not line:
            return line
        if line == b"\r\n":
            if self.length is None:
                return self._break("a message with no Content-Length header")
            return line
        m = _LENGTH.match(line)
        if m:
            self.length = int(m.group(1))
            if self.length > MAX_BODY:
                return self._break(f"Content-Length {self.length} is larger than {MAX_BODY} bytes")
            line = b"Content-Length: %d\r\n" % self.length  # as pygls' own pattern expects it
        elif line.lower().startswith(b"content-length") or not _HEADER.match(line):
            return self._break(f"not a header: {line[:80]!r}")
        return line

    def read(self, n: int) -> bytes:
        self.length = None
        return b"" if self.broken else self.stream.read(n)

    def _break(self, why: str) -> bytes:
        self.broken = why
        log.error("the client's message stream is broken (%s): exiting so the client can restart the server", why)
        return b""
