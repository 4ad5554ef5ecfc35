"""What the proxy does with what passes: the notes a request gets (the hooks' ``before_tool``,
once per file per session, the same ranking and budget), and what goes to the session's
observation log (the hooks' ``observe_tool`` and ``observe_failure``, the same entries,
the same dedupe by tool call id) — then, at a turn's end, the hooks' distillation.

Everything here runs in the proxy's one tether thread (the workspace is not shared across
threads); distillation runs in a child process (``python -m tether.proxy.capture``), so a
slow distillation delays neither the next request's notes nor any stream.

Per conversation (LMDB ``state``, key ``proxy\\0SESSION\\0THREAD``): how many of its messages
were logged and the digest of the last one (a request resends the history: only what is new
is logged), whether the turn's last reply was logged from the response already, and the
blocks added to earlier messages — added again, byte for byte, to every later request, so
the model keeps seeing them and the prompt cache keeps its prefix.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ..agents import hooks
from ..capture import observations as K
from ..capture.transcript import Said, _user_text
from ..core.workspace import Workspace
from . import compaction as C
from .apis import ASSISTANT, USER, Call, Reply
from .exchange import Request, call_touches, command_of, message_digest
from .inject import inject

MAX_BLOCKS = 400  # blocks remembered per conversation


@dataclass
class Options:
    inject: bool = True
    distil_on_compaction: bool = False
    distil: bool = True  # at a turn's end (off in benchmarks that measure the stream alone)


def _key(req: Request) -> str:
    return "\0".join(("proxy", req.session, req.thread))


class Capture:
    """The proxy's use of one workspace. Everything that touches the workspace runs in the
    proxy's one tether thread; :meth:`carried` alone runs on the event loop (it reads the
    conversation's state as a whole object, which the tether thread only ever replaces)."""

    def __init__(self, ws: Workspace, options: Options):
        self.ws, self.options = ws, options
        ws.repo.watch()  # a long-lived process: the notes folder is watched, not scanned at every read
        self.states: dict[str, dict] = {}  # conversation -> its state (as in LMDB), replaced whole, never changed
        self.children: dict[str, subprocess.Popen] = {}  # session -> its distillation
        self.again: set[str] = set()  # sessions whose turn ended while their distillation ran
        self._drop_stale()

    def _drop_stale(self) -> None:
        """Conversations not seen for as long as the hooks keep a session's state are forgotten."""
        s, cutoff = self.ws.store, time.time() - hooks.STALE

        def txn_fn(txn):
            for k, rec in list(s.items(txn, "state", "proxy\0")):
                if not isinstance(rec, dict) or rec.get("at", 0) < cutoff:
                    s.delete(txn, "state", k)
        s.write(txn_fn)

    def _state(self, req: Request) -> dict:
        key = _key(req)
        if key not in self.states:
            with self.ws.store.read() as txn:
                self.states[key] = self.ws.store.get(txn, "state", key) or {"count": 0, "last": "", "blocks": {}}
        return self.states[key]

    def _save(self, req: Request, state: dict) -> None:
        self.states[_key(req)] = state
        self.ws.store.write(lambda txn: self.ws.store.put(txn, "state", _key(req), state))

    # -- the request -----------------------------------------------------------------------------

    def _carried(self, req: Request, state: dict) -> dict[int, str]:
        """The blocks given before that are still where they were (the history unchanged)."""
        out = {}
        for idx, (digest, text) in state["blocks"].items():
            i = int(idx)
            if i < req.count and message_digest(req.body, req.api, i) == digest:
                out[i] = text
        return out

    def _asks(self, req: Request) -> bool:
        """The newest message may get a block of its own."""
        if req.newest < 0:
            return False
        if req.compaction:
            return self.options.distil_on_compaction and req.api.name in C.STRIPS
        return bool(req.results)

    def carried(self, req: Request) -> bytes | None:
        """The bytes to send upstream when no note needs looking up (the blocks given before
        added again), without the tether thread; None when it must be asked."""
        if not req.main or req.hooked or not self.options.inject:
            return req.raw
        state = self.states.get(_key(req))
        if state is None:
            return None
        blocks = self._carried(req, state)
        if self._asks(req) and req.newest not in blocks:
            return None
        return inject(req.raw, req.api.list_key, req.api.target, blocks)

    def request_body(self, req: Request) -> bytes:
        """The bytes to send upstream: the client's, with the blocks this conversation was
        given before added again where they were, and the notes for the files the newest
        message's tool results come from added to it (remembered with the rest of the
        conversation's state after the exchange)."""
        if not req.main or req.hooked or not self.options.inject:
            return req.raw
        state = self._state(req)
        blocks = self._carried(req, state)
        new = req.newest
        if self._asks(req) and new not in blocks:
            text = C.REQUEST if req.compaction else \
                hooks.before_tool(self.ws, req.session, self.ws.root, req.touched())
            if text:
                blocks[new] = text
                if not req.compaction:  # the compaction's request is asked once, not carried on
                    known = {str(i): [message_digest(req.body, req.api, i), t] for i, t in blocks.items()}
                    if len(known) > MAX_BLOCKS:
                        known = dict(sorted(known.items(), key=lambda kv: int(kv[0]))[-MAX_BLOCKS:])
                    self.states[_key(req)] = {**state, "blocks": known}  # in LMDB after the exchange
        return inject(req.raw, req.api.list_key, req.api.target, blocks)

    # -- after the response ----------------------------------------------------------------------

    def exchanged(self, req: Request, status: int, reply: Reply | None) -> None:
        """Log what is new in the request, then what the response ended (a turn, a compaction)."""
        if not req.main:
            return
        ws, sid = self.ws, req.session
        state = dict(self._state(req))
        n = state["count"]
        if n and len(req.msgs) >= n and message_digest(req.body, req.api, n - 1) == state["last"]:
            fresh = range(n, len(req.msgs))
        elif n:  # the history was rewritten (a compaction, an edit of an earlier message): the newest only
            fresh = range(len(req.msgs) - 1, len(req.msgs))
        else:
            fresh = range(len(req.msgs))
        calls = {c.id: c for m in req.msgs for c in m.calls if c.id}
        skip_reply = state.get("logged_reply", False)
        for i in fresh:
            m = req.msgs[i]
            if m.side == ASSISTANT:
                if skip_reply:
                    skip_reply = False  # the reply that ended the last turn: logged from its response
                elif m.texts and not req.hooked:
                    K.observe(ws, sid, "reply", text="\n".join(m.texts))
            elif m.side == USER:
                self._user(req, m, calls)
        state.update(count=len(req.msgs), last=message_digest(req.body, req.api, len(req.msgs) - 1) if req.msgs
                     else "", logged_reply=False, at=int(time.time()))
        if reply is not None and status == 200:
            if req.compaction:
                summary, found = C.split(reply.text)
                K.observe(ws, sid, "summary", text=summary, api=req.api.name)
                if found and self.options.distil_on_compaction:
                    C.queue(ws, sid, found)
                hooks.compacted(ws, sid)  # what it was given is gone with the history: give it again
            elif reply.ended:
                if reply.text.strip() and not req.hooked:
                    K.observe(ws, sid, "reply", text=reply.text)
                    state["logged_reply"] = True
                if not req.hooked and self.options.distil:  # with hooks, their Stop distils
                    self.distil(sid)
        now = self._state(req)["blocks"]  # the blocks still where they were given, and those of a later request
        kept = {str(i): [message_digest(req.body, req.api, i), t] for i, t in self._carried(req, self._state(req)).items()}
        self._save(req, {**state, "blocks": {**{k: v for k, v in now.items() if int(k) >= len(req.msgs)}, **kept}})

    def _user(self, req: Request, m, calls: dict[str, Call]) -> None:
        """A user-side message: the person's prompt, or the results of the tool calls it answers."""
        ws, sid, root = self.ws, req.session, self.ws.root
        results = m.results
        if not results and not req.hooked and not req.compaction:  # with hooks, UserPromptSubmit logs prompts
            said: list[Said] = []
            for t in m.texts:
                if not any(w in t for w in req.api.continued) and not t.lstrip().startswith(req.api.generated):
                    _user_text(said, t, "", 0)
            text = "\n".join(s.text.strip() for s in said).strip()
            if text:
                K.observe(ws, sid, "prompt", text=text)
        for r in results:
            call = calls.get(r.id)
            if call is None and r.name:
                call = next((c for c in reversed(calls.values()) if c.name == r.name), None)
            if call is None:
                continue
            ti = dict(call.input)
            cmd = command_of(call)
            if cmd:
                ti["command"] = cmd
            event = {"hook_event_name": "proxy", "session_id": sid, "tool_name": call.name, "tool_input": ti,
                     "tool_use_id": call.id or f"{req.thread}:{call.name}:{hash(str(ti))}"}
            if r.error:
                hooks.observe_failure(ws, sid, root, {**event, "error": r.text})
            else:
                hooks.observe_tool(ws, sid, root, event, call_touches(call))

    # -- distillation --------------------------------------------------------------------------------

    def distil(self, sid: str) -> None:
        """Distil the session in a child process, as the hooks do at Stop (one at a time per
        session; a turn that ends meanwhile distils again after it)."""
        child = self.children.get(sid)
        if child is not None and child.poll() is None:
            self.again.add(sid)
            return
        import tether
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (str(Path(tether.__file__).parent.parent), os.environ.get("PYTHONPATH", "")) if p)}
        self.children[sid] = subprocess.Popen(
            [sys.executable, "-m", "tether.proxy.capture", str(self.ws.root), sid], env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def reap(self) -> None:
        """Finished distillations: start the ones asked for again meanwhile."""
        for sid, child in list(self.children.items()):
            if child.poll() is not None:
                del self.children[sid]
                if sid in self.again:
                    self.again.discard(sid)
                    self.distil(sid)

    def wait(self, timeout: float) -> None:
        """At shutdown: let running distillations finish (their turn's candidates land)."""
        for child in list(self.children.values()):
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(timeout)


def _distil_main(root: str, sid: str) -> int:
    ws = Workspace(Path(root))
    event = {"hook_event_name": "proxy", "session_id": sid}
    try:
        hooks._safely(ws, event, hooks.session_end, ws, sid, event)
    finally:
        ws.close()
    return 0


if __name__ == "__main__":
    sys.exit(_distil_main(sys.argv[1], sys.argv[2]))


__all__ = ["Capture", "Options"]
