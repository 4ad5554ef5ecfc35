"""Invariant checks: structural rules kept as data in the note, evaluated on tree-sitter
trees (DESIGN.md decision 3: never by running the repository's code).

A check is a table of the note's ``[[checks]]``::

    id = "no-sleep"            kind = "forbid-call"     pattern = "time.sleep"
    message = "never block the event loop here"         severity = "error"

Kinds: ``forbid`` / ``require`` (a tree-sitter ``query`` written for ``lang``; each match of
a forbid query is a violation at its first capture, a require query must match at least
once in scope) and the shorthands ``forbid-call`` / ``require-call`` (dotted names with
``*`` wildcards: ``time.sleep``, ``requests.*``, ``*.delete``; a name without a dot also
matches as the last part: ``sleep`` matches ``time.sleep``), ``forbid-import`` (module
patterns: ``sqlalchemy.*`` covers ``sqlalchemy`` and everything below it) and
``forbid-identifier``. The shorthands run the language's ``calls.scm`` / ``imports.scm`` /
``identifiers.scm`` from ``grammars/``, so a new language needs no Python.

Scope: the code an invariant is anchored on (its symbol or statement), a whole file, or
every file its glob covers. Evaluation is bounded: queries run over the scope's byte range
only, with a limit on in-progress matches; what was cut is reported."""

from __future__ import annotations

import fnmatch
import os
import re
import select
import signal
import subprocess
import sys
from dataclasses import dataclass

import orjson
import tree_sitter as ts

from .languages import Language, by_name
from .syntax import SourceFile
from .text import Range

CHECK_KINDS = ("forbid", "require", "forbid-call", "require-call", "forbid-import", "forbid-identifier")
SHORTHAND_QUERY = {"forbid-call": "calls", "require-call": "calls", "forbid-import": "imports",
                   "forbid-identifier": "identifiers"}
SEVERITIES = ("error", "warning", "info", "hint")
MATCH_LIMIT = 512  # in-progress matches per query run: a pathological query is cut, not hung
MAX_VIOLATIONS = 200  # per check and file
TIMEOUT = 2.0  # seconds for a written query on one file: past it the run is stopped and reported


class CheckError(ValueError):
    """A check that cannot be used, with where and why."""


@dataclass
class Check:
    id: str
    kind: str
    pattern: str = ""
    query: str = ""
    lang: str = ""
    message: str = ""
    severity: str = "error"

    def to_dict(self) -> dict:
        d = {"id": self.id, "kind": self.kind}
        for k in ("pattern", "query", "lang", "message"):
            if getattr(self, k):
                d[k] = getattr(self, k)
        if self.severity != "error":
            d["severity"] = self.severity
        return d

    def describe(self) -> str:
        what = self.pattern or "a query"
        return self.message or f"{self.kind} {what}"


@dataclass
class Violation:
    check: Check
    range: Range
    message: str


def check_from_dict(d: dict, where: str = "") -> Check:
    kind = d.get("kind")
    if kind not in CHECK_KINDS:
        raise CheckError(f"{where}check kind '{kind}' is not one of {', '.join(CHECK_KINDS)}")
    c = Check(id=str(d.get("id") or kind), kind=kind, pattern=str(d.get("pattern", "")),
              query=str(d.get("query", "")), lang=str(d.get("lang", "")), message=str(d.get("message", "")),
              severity=str(d.get("severity", "error")))
    if c.severity not in SEVERITIES:
        raise CheckError(f"{where}check '{c.id}': severity '{c.severity}' is not one of {', '.join(SEVERITIES)}")
    if kind in SHORTHAND_QUERY and not c.pattern.strip():
        raise CheckError(f"{where}check '{c.id}': a {kind} check needs a pattern (e.g. time.sleep)")
    if kind in ("forbid", "require") and not (c.query.strip() and c.lang):
        raise CheckError(f"{where}check '{c.id}': a {kind} check needs a query and the lang it is written for")
    return c


def validate(check: Check, lang: Language | None, any_language: bool = False) -> None:
    """Refuse, with the position of the problem, a check that cannot run on ``lang`` (the
    anchor's language; ``any_language`` for a glob, whose files may be in any)."""
    if check.kind in SHORTHAND_QUERY:
        if any_language:
            return  # every language in grammars/ has the shorthand queries (a test says so)
        if lang is None:
            raise CheckError(f"check '{check.id}': {check.kind} needs a language with a grammar; "
                             f"this anchor's file has none")
        lang.query(SHORTHAND_QUERY[check.kind])
        return
    qlang = by_name(check.lang)
    if qlang is None:
        raise CheckError(f"check '{check.id}': unknown lang '{check.lang}'")
    if not any_language and lang is not None and lang.name != qlang.name and not _family(lang.name, qlang.name):
        raise CheckError(f"check '{check.id}': the query is written for {qlang.name}, the anchor is in {lang.name}")
    compile_query(check, qlang)


_COMPILED: dict[tuple[str, str], ts.Query] = {}  # compiling costs milliseconds; running one, far less


def compile_query(check: Check, lang: Language) -> ts.Query:
    q = _COMPILED.get((lang.name, check.query))
    if q is not None:
        return q
    try:
        q = ts.Query(lang.grammar, check.query)
    except Exception as e:  # tree-sitter's QueryError says "... at row R, column C"
        msg = str(e)
        m = re.search(r"row (\d+), column (\d+)", msg)
        at = f" (query line {int(m.group(1)) + 1}, column {int(m.group(2)) + 1})" if m else ""
        raise CheckError(f"check '{check.id}': the query does not compile{at}: {msg.split(' at row')[0]}") from None
    if q.capture_count == 0:
        raise CheckError(f"check '{check.id}': the query captures nothing; add a capture (e.g. @violation) "
                         f"on the node to report")
    if len(_COMPILED) >= 256:
        _COMPILED.pop(next(iter(_COMPILED)))
    _COMPILED[(lang.name, check.query)] = q
    return q


def _family(a: str, b: str) -> bool:
    """TSX files accept TypeScript queries (TSX's grammar extends TypeScript's)."""
    return {a, b} == {"typescript", "tsx"}


# -- evaluation ---------------------------------------------------------------------------

def evaluate_bounded(check: Check, src: SourceFile, scope: tuple[int, int] | None = None,
                     timeout: float = TIMEOUT) -> tuple[list[Violation], bool]:
    """``evaluate``, with a written query run in a worker process that is killed after
    ``timeout`` seconds: a query can make tree-sitter search for minutes (quantified
    siblings over thousands of statements), and neither the match limit nor a thread can
    stop that (py-tree-sitter 0.26's progress callback crashes). The shorthands' own
    queries are simple and run in-process."""
    if check.kind in SHORTHAND_QUERY or src.tree is None or src.lang is None:
        return evaluate(check, src, scope)
    answer = _WORKER.ask({"check": check.to_dict(), "text": src.text, "lang": src.lang.name,
                          "scope": list(scope) if scope else None}, timeout)
    if answer is None:
        return [], True
    return [Violation(check, Range(*r), msg) for r, msg in answer["found"]], answer["cut"]


class _Worker:
    """One long-lived query worker, spoken to in JSON lines: forked from this process when
    it has a single thread (everything is imported already: it answers at once), else
    ``python -m tether.core.query_worker`` (a server has threads; forking them is unsafe)."""

    def __init__(self):
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
        from .fork import can_fork
        if not can_fork():
            self.popen = subprocess.Popen([sys.executable, "-m", "tether.core.query_worker"], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            self.pid, self.requests, self.answers = self.popen.pid, self.popen.stdin, self.popen.stdout
            return
        from .query_worker import serve
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


def evaluate(check: Check, src: SourceFile, scope: tuple[int, int] | None = None) -> tuple[list[Violation], bool]:
    """Violations of ``check`` in ``src`` within ``scope`` (byte range; None = the file),
    and whether evaluation was cut by the match limit."""
    if src.tree is None or src.lang is None:
        return [], False
    start, end = scope if scope is not None else (0, len(src.data))
    if check.kind in ("forbid", "require"):
        qlang = by_name(check.lang)
        if qlang is None or (qlang.name != src.lang.name and not _family(qlang.name, src.lang.name)):
            return [], False  # written for another language
        query = compile_query(check, qlang)
        hits, cut = _run(query, src, start, end)
        nodes = [next(iter(caps.values()))[0] for caps in hits]
    else:
        query = src.lang.query(SHORTHAND_QUERY[check.kind])
        hits, cut = _run(query, src, start, end)
        nodes = [caps[_primary(check.kind)][0] for caps in hits
                 if _primary(check.kind) in caps and any(_matches(check, n) for n in _names_of(src, check.kind, caps))]
    nodes = [n for n in nodes if start <= n.start_byte and n.end_byte <= end]
    if check.kind.startswith("require"):
        if nodes:
            return [], cut
        line_end = src.data.find(b"\n", start)
        head = src.range_of(start, line_end if line_end >= 0 else end)
        return [Violation(check, head, f"{check.describe()}: required in this scope, not found")], cut
    out = []
    for n in nodes[:MAX_VIOLATIONS]:
        text = src.slice(n.start_byte, n.end_byte).split("\n")[0][:80]
        out.append(Violation(check, src.range_of(n.start_byte, n.end_byte), f"{check.describe()}: `{text}`"))
    return out, cut or len(nodes) > MAX_VIOLATIONS


def _run(query: ts.Query, src: SourceFile, start: int, end: int):
    cursor = ts.QueryCursor(query, match_limit=MATCH_LIMIT)
    cursor.set_byte_range(start, end)
    matches = cursor.matches(src.tree.root_node)
    return [caps for _, caps in matches], bool(cursor.did_exceed_match_limit)


def _primary(kind: str) -> str:
    return {"forbid-call": "call", "require-call": "call", "forbid-import": "import",
            "forbid-identifier": "identifier"}[kind]


_SPACE = re.compile(r"\s+")


def _names_of(src: SourceFile, kind: str, caps: dict) -> list[str]:
    """The dotted names a call, import or identifier goes by."""
    def text(cap):
        n = caps.get(cap)
        return _SPACE.sub("", src.slice_node(n[0])) if n else ""
    if kind.endswith("-call"):
        if "call.name" in caps:
            return [text("call.name").replace("::", ".")]
        obj, method = text("call.object"), text("call.method")
        return [f"{obj}.{method}" if obj else method]
    if kind == "forbid-import":
        module = text("import.module").strip("'\"`").replace("::", ".").replace("/", ".")
        name = text("import.name")
        return [module, f"{module}.{name}"] if name else [module]
    return [text("identifier")]


def _matches(check: Check, name: str) -> bool:
    if not name:
        return False
    pattern = check.pattern.strip().replace("::", ".")
    if check.kind == "forbid-import":
        pattern = pattern.replace("/", ".")
        if pattern.endswith(".*") and name == pattern[:-2]:
            return True
    if fnmatch.fnmatchcase(name, pattern):
        return True
    # a pattern without a dot also names the last part: `sleep` matches `time.sleep`
    return "." not in pattern and check.kind != "forbid-import" and fnmatch.fnmatchcase(name.rsplit(".", 1)[-1], pattern)
