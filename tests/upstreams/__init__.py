"""Scripted model APIs on loopback, for tests of real agent CLIs and of anything that speaks to a
model (one module per API: :mod:`.anthropic`, :mod:`.openai`, :mod:`.gemini`; :mod:`.base`
holds what they share).

A script is data: the model's turns in order, each ``Text``, ``Call`` (a tool call), a list of
them, ``Fail`` (an error reply), or a function of the request returning one (a step computed
from what the agent sent; ``Again(turn)`` answers and keeps the step for the next request). Side requests (no tools offered: titles, topic checks; token
counts) get short answers. Every request is kept, in order, for the test to assert on::

    from upstreams import Call, Text, anthropic

    with anthropic.Upstream([Call("Read", {"file_path": path}), Text("Done.")]) as up:
        ...  # point the client at up.url
    up.requests[0].json["messages"]   # method, path, query, headers, body (bytes), json, text, newest
    up.main                           # the requests the script answered (not the side ones)
    up.errors                         # exceptions raised while answering (each also a 500 reply)

Streaming (``"stream": true``, Gemini's ``streamGenerateContent?alt=sse``) is framed exactly as
the vendor frames it; the same script answers the non-streaming form.
"""

from .base import Again, Call, Fail, Reply, Request, Text, Upstream

__all__ = ["Again", "Call", "Fail", "Reply", "Request", "Text", "Upstream"]
