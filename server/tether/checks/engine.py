"""Evaluating invariant checks in-process: structural rules kept as data in the note, evaluated on tree-sitter
trees (DESIGN.md decision 3: never by running the repository's code).

A check is a table of the note's ``[[checks]]``::

    id = "no-sleep"            kind = "forbid-call"     pattern = "time.sleep"
    message = "never block the event loop here"         severity = "error"

Kinds: ``forbid`` / ``require`` (a tree-sitter ``query`` written for ``lang``; each match of
a forbid query is a violation at its first capture, a require query must match at least
once in scope) and the shorthands ``forbid-call`` / ``require-call`` (dotted names with
``*`` wildcards: ``time.sleep``, ``requests.*``, ``*.delete``; a name without a dot also
matches as the last part: ``sleep`` matches ``time.sleep``; a call is also known by the name
the file's imports give it, see ``SourceFile.imports``), ``forbid-import`` (module
patterns: ``sqlalchemy.*`` covers ``sqlalchemy`` and everything below it) and
``forbid-identifier``. The shorthands run the language's ``calls.scm`` / ``imports.scm`` /
``identifiers.scm`` from ``grammars/``, so a new language needs no Python.

Scope: the code an invariant is anchored on (its symbol or statement), a whole file, or
every file its glob covers. Evaluation is bounded: queries run over the scope's byte range
only, with a limit on in-progress matches; what was cut is reported."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass

import tree_sitter as ts

from ..core.languages import by_name
from ..core.notes import SHORTHAND_QUERY, Check, CheckError, compile_query, family
from ..core.syntax import SourceFile
from ..core.text import Range

MATCH_LIMIT = 512  # in-progress matches per query run: a pathological query is cut, not hung
MAX_VIOLATIONS = 200  # per check and file


@dataclass
class Violation:
    check: Check
    range: Range
    message: str


def evaluate(check: Check, src: SourceFile, scope: tuple[int, int] | None = None) -> tuple[list[Violation], bool]:
    """Violations of ``check`` in ``src`` within ``scope`` (byte range; None = the file),
    and whether evaluation was cut by the match limit."""
    if src.tree is None or src.lang is None:
        return [], False
    start, end = scope if scope is not None else (0, len(src.data))
    if check.kind in ("forbid", "require"):
        qlang = by_name(check.lang)
        if qlang is None:
            raise CheckError(f"check '{check.id}': unknown lang '{check.lang}'")
        if qlang.name != src.lang.name and not family(qlang.name, src.lang.name):
            return [], False  # written for another language (a glob covers files of several)
        query = compile_query(check, qlang)
        hits, cut = _run(query, src, start, end)
        nodes = [next(iter(caps.values()))[0] for caps in hits]
    else:
        query = src.lang.query(SHORTHAND_QUERY[check.kind])
        hits, cut = _run(query, src, start, end)
        nodes = [caps[_primary(check.kind)][0] for caps in hits
                 if _primary(check.kind) in caps and _hit(check, src, caps)]
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


def _hit(check: Check, src: SourceFile, caps: dict) -> bool:
    """A call is also known by the name the file's imports give it: ``sleep`` after
    ``from time import sleep`` and ``t.sleep`` after ``import time as t`` are ``time.sleep``."""
    names = _names_of(src, check.kind, caps)
    if any(_matches(check, n) for n in names):
        return True
    return check.kind.endswith("-call") and any(_matches(check, q, resolved=True)
                                                for q in map(src.imports.qualify, names) if q)


def _matches(check: Check, name: str, resolved: bool = False) -> bool:
    """``resolved``: the name came through an import, so its module path is complete and a
    pattern may name its tail (``Thread.sleep`` is ``java.lang.Thread.sleep``)."""
    if not name:
        return False
    pattern = check.pattern.strip().replace("::", ".").replace("/", ".")
    if resolved and fnmatch.fnmatchcase(name, "*." + pattern):
        return True
    if check.kind == "forbid-import" and pattern.endswith(".*") and name == pattern[:-2]:
        return True
    if fnmatch.fnmatchcase(name, pattern):
        return True
    # a pattern without a dot also names the last part: `sleep` matches `time.sleep`
    return "." not in pattern and check.kind != "forbid-import" and fnmatch.fnmatchcase(name.rsplit(".", 1)[-1], pattern)
