"""Written check queries run in a worker process, so a pathological query costs a timeout,
not a hang: :func:`evaluate_bounded` asks the worker (one JSON request a line in, one answer a
line out) and kills it when a query runs past its time. The worker is forked from a process
with one thread (everything is imported already: it answers at once), else started with
``python -m tether.checks.worker`` (a server has threads; forking them is unsafe)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys

import orjson

from ..core.fork import can_fork
from ..core.languages import GrammarError, Language, by_name
from ..core.notes import SHORTHAND_QUERY, Check, CheckError, check_from_dict, compile_query
from ..core.syntax import SourceFile
from ..core.text import Range, digest
from .engine import Violation, evaluate

TIMEOUT = 2.0  # seconds for a written query on one file: past it the run is stopped and reported


def evaluate_bounded(check: Check, src: SourceFile, scope: tuple[int, int] | None = None,
                     timeout: float = TIMEOUT) -> tuple[list[Violation], bool]:
    """``evaluate``, with a written query run in a worker process that is killed after
    ``timeout`` seconds: a query can make tree-sitter search for minutes (quantified
    siblings over thousands of statements), and neither the match limit nor a thread can
    stop that (py-tree-sitter 0.26's progress callback crashes). The shorthands' own
    queries are simple and run in-process."""
    if check.kind in SHORTHAND_QUERY or src.tree is None or src.lang is None:
        try:
            return evaluate(check, src, scope)
        except (CheckError, GrammarError) as e:
            raise CheckNotRun(str(e)) from None
    key = (check.query, check.lang, src.lang.name, digest(src.text), scope)
    if key in _TIMED_OUT:  # the same query on the same text: it would run out of time again
        raise CheckNotRun(_TIMED_OUT[key])
    answer = _WORKER.ask({"check": check.to_dict(), "text": src.text, "lang": src.lang.name,
                          "scope": list(scope) if scope else None}, timeout)
    if answer is None or "error" in answer:
        reason = answer["error"] if answer else _WORKER.why or f"did not finish in {timeout:g} s"
        if answer is None:
            if len(_TIMED_OUT) >= 256:
                _TIMED_OUT.pop(next(iter(_TIMED_OUT)))
            _TIMED_OUT[key] = reason
        raise CheckNotRun(reason)
    return [Violation(check, Range(*r), msg) for r, msg in answer["found"]], answer["cut"]


def compiles(check: Check, lang: Language) -> None:
    """Try a written query in the worker (record, doctor): a query that crashes tree-sitter's
    compiler costs the worker, never the face that asked. Raises CheckError with the reason."""
    answer = _WORKER.ask({"compile": check.to_dict(), "lang": lang.name}, TIMEOUT)
    if answer is None:
        raise CheckError(f"check '{check.id}': the query could not be compiled: {_WORKER.why}")
    if "error" in answer:
        raise CheckError(answer["error"])


class CheckNotRun(Exception):
    """A check that could not run on a file (the reason): a finding of its own, never silence."""


_TIMED_OUT: dict[tuple, str] = {}  # what ran out of time, by query and content: not run again


class _Worker:
    """One long-lived query worker, spoken to in JSON lines: forked from this process when
    it has a single thread (everything is imported already: it answers at once), else
    ``python -m tether.checks.worker`` (a server has threads; forking them is unsafe)."""

    def __init__(self):
        self.why = ""  # why the last request got no answer
        self.pid = 0
        self.popen: subprocess.Popen | None = None  # when started with exec
        self.requests = self.answers = None

    def ask(self, request: dict, timeout: float) -> dict | None:
        if not self._alive():
            self._start()
        try:
            self.requests.write(orjson.dumps(request) + b"\n")
            self.requests.flush()
            ready, _, _ = select.select([self.answers], [], [], timeout + 1.0)  # + its start-up
            line = self.answers.readline() if ready else b""
        except OSError:
            line = b""
        if not line:
            self.why = "did not finish in its time" if not ready else "the query worker stopped (a crash)"
            self.stop()
            return None
        return orjson.loads(line)

    def _alive(self) -> bool:
        if not self.pid:
            return False
        if self.popen is not None:
            return self.popen.poll() is None
        if os.waitpid(self.pid, os.WNOHANG)[0]:
            self.forget()
            return False
        return True

    def _start(self) -> None:
        if not can_fork():
            # -P: a `tether` folder in the repository being served (the current folder) is never imported
            self.popen = subprocess.Popen([sys.executable, "-P", "-m", "tether.checks.worker"], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            self.pid, self.requests, self.answers = self.popen.pid, self.popen.stdin, self.popen.stdout
            return
        req_r, req_w = os.pipe()
        ans_r, ans_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker keeps its two pipes only (no store, no lock file, no terminal)
            lo, hi = sorted((req_r, ans_w))
            os.closerange(3, lo)
            os.closerange(lo + 1, hi)
            os.closerange(hi + 1, os.sysconf("SC_OPEN_MAX"))
            try:
                serve(os.fdopen(req_r, "rb"), os.fdopen(ans_w, "wb"))
            finally:
                os._exit(0)
        os.close(req_r)
        os.close(ans_w)
        self.pid, self.popen = pid, None
        self.requests, self.answers = os.fdopen(req_w, "wb"), os.fdopen(ans_r, "rb")

    def forget(self) -> None:
        """In a forked child: the worker and its pipes are the parent's; start an own one."""
        self.pid, self.popen, self.requests, self.answers = 0, None, None, None

    def stop(self) -> None:
        if not self.pid:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if self.popen is not None:
            self.popen.wait()
        else:
            os.waitpid(self.pid, 0)
            self.requests.close()
            self.answers.close()
        self.forget()


_WORKER = _Worker()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_WORKER.forget)


def serve(requests, answers) -> None:
    for line in requests:
        req = orjson.loads(line)
        try:
            if "compile" in req:
                compile_query(check_from_dict(req["compile"]), by_name(req["lang"]))
                answers.write(b'{"ok":true}\n')
                answers.flush()
                continue
            found, cut = evaluate(check_from_dict(req["check"]), SourceFile(req["text"], by_name(req["lang"])),
                                  tuple(req["scope"]) if req["scope"] else None)
            answer = {"found": [[list(v.range), v.message] for v in found], "cut": cut}
        except (CheckError, GrammarError) as e:
            answer = {"error": str(e)}
        answers.write(orjson.dumps(answer) + b"\n")
        answers.flush()


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
