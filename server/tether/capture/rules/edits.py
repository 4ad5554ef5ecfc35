"""Reads the session's edits: which code a statement is about (its anchors), and the comments
the agent wrote into that code.

Anchors: the symbols the edits of the same turn touched after the statement (the turn a
prompt starts; the next one when the person's next message accepts the agent's plan), the
likeliest first and at most three — or the touched symbols the sentence names, when it names
some (also in prose: "token bucket"; a method of a touched class: "`reserve()`"), with a
definition of an edited file the person named (by its name, a call or in backticks, in the last
few turns); code before tests, and a name found in a test stands for the same name in the code
(a test's own name is no anchor when code changed). Code edited in other turns counts only
when the statement's turn edited none. An edit touching more than three definitions anchors
its file. A person's statement with no edit in its turn is anchored on the next turn's edits
(or the first turn with edits after a few questions and answers); with none, it is dropped
unless it is a hard rule ("… must never …") in a session that changed no code, which is about
the repository (pattern ``**``) and loses confidence; said by the agent, it is dropped. A rule
for every function of a file ("every rule gives back only a key") is about the file. A rule "for the whole X package" is about that folder (``src/x/**/*.py``); "in this lib",
"for this codebase", "anywhere in ledgerline" about the package the session worked in; "everything
in format.ts" about that file — said in the rule's own clause, not in another clause of a message
that joins several with semicolons. An error class the session declared, or a class named as one
(``PageRangeError``), is not what a statement is about when the code raising it changed too, nor
is a test block named like the code (``describe("moveCard")``) when code changed; a doc comment above a definition is part of it. A gotcha
anchors on the edit that fixed it. A person recalling an earlier decision ("remember we …",
"reminder: …") marks the proposal ``recalls``: the queue joins it to that decision. A choice
the person states and then settles among the agent's options, on the same code, is one
decision.

| kind | what is read |
|---|---|
| workaround | a comment the agent wrote with its code that says why the code is odd ("// Workaround for …", "# deliberately …"): on what the edit touched, or more evidence for what the chat proposed on that code |
"""

from __future__ import annotations

import re

from ..candidates import TEST_PATH as _TEST_PATH
from ..candidates import Evidence
from ..session import GLOB_ALL, MAX_SYMBOLS, Call, Proposal, Session
from ..transcript import ASSISTANT, USER
from .sentences import _around, _content, _DELIBERATE, _HACK, _IDENT, _NOT_DELIBERATE, _PAST_HACK, sentences, title_of


def _mentions(sentence: str, qualname: str) -> bool:
    """The text names the definition: quoted or called (`` `short` ``, ``short(``), its
    qualified name, a distinctive name as a word, or its parts as words ("token bucket"
    for ``TokenBucket``, "parse amount" for ``parse_amount``)."""
    short = qualname.rsplit(".", 1)[-1]
    if re.search(rf"`{re.escape(short)}(?!\w)|\b{re.escape(short)}\(", sentence) or \
            "." in qualname and re.search(rf"\b{re.escape(qualname)}\b", sentence):  # not "main" in "the main thread"
        return True
    distinctive = "_" in short or any(c.isupper() for c in short[1:]) or short[:1].isupper()
    if distinctive and re.search(rf"\b{re.escape(short)}\b", sentence) is not None:
        return True
    parts = [w.lower() for w in _IDENT.findall(short)]
    return len(parts) >= 2 and all(w.isalpha() for w in parts) and \
        re.search(r"\b" + r"[\s_-]+".join(map(re.escape, parts)) + r"s?\b", sentence.lower()) is not None


def _refs_of(call: Call) -> list[tuple[str, str]]:
    if call.symbols and len(call.symbols) <= MAX_SYMBOLS:
        return [(call.path, s) for s in call.symbols]
    return [(call.path, "")]


def anchor_refs(session: Session, at: int, turns: set[int], sentence: str, message: str = "",
                people: str = "", alone: bool = False) -> list[tuple[str, str]]:
    """The code a statement is about, among the code the session touched: the touched
    symbols it names (in the sentence, else in its message; first those of its turn, then
    any the session edited; a method's class when the statement itself names the class);
    else a definition of a file its turn edited that the person's words of the turn (and
    ``people``; only the message when ``alone``: one item of a list of rules) name as code
    (``load_config``, ``parseShiftInput``); else the edit of its
    turn whose new code shares the most words with it — code before tests, the nearest on
    a tie, and an edit that touched a definition before one that touched none (an import);
    the repository when its turn edited nothing."""
    edits = session.edits(turns)
    # code read in the turn counts when nothing was edited: "keep what `get()` does, add a sweep" is about the edit
    in_turn = edits if any(c.symbols for c in edits) else \
        edits + [c for c in session.calls(turns) if not c.edit and c.path and c.symbols]
    # the code of an edited file the person names as code ("load_config should …"): what they asked
    # about is among the anchors whatever else the statement names (a helper the edit wrote serves it)
    words = message if alone else \
        " ".join([people, *(u.text for u in session.said()  # the person's words of the last few turns
                            if u.who == USER and min(turns) - 3 <= u.turn <= max(turns))])
    asked = [(path, d) for path in dict.fromkeys(c.path for c in edits) for d in session.defined.get(path, ())
             if _as_code(words, d) or _DISTINCT.search(d.rsplit(".", 1)[-1]) and
             re.search(rf"\b{re.escape(d.rsplit('.', 1)[-1])}\b", words)  # its name, not "front matter" for FrontMatter
             or "." in d and re.search(rf"\b{re.escape(d)}\b", words)]  # `WriteThroughCache.set`
    asked = [(path, d) for path, d in asked if not any(n.startswith(f"{d}.") for _, n in asked)]  # a method, not its class
    asked = [r for r in asked if r[1] not in _error_types(session)]  # "RateMissing: no rate …": what raises it
    if any(not _TEST_PATH.search(c.path) for c in edits):  # `describe("moveCard")`: the test, not the code it tests
        asked = [r for r in asked if not _TEST_PATH.search(r[0])]
    for pool in (in_turn, [] if edits else session.edits()):  # other turns' code: only when this one edited none
        for text in (sentence, message):
            named = []
            direct = {sym for c in pool for sym in c.symbols}
            for c in pool:
                # a class an edit touched stands for its methods too: "`reserve()` …" of a touched StockLedger —
                # unless the turn changed some of them (then "keep what `get()` does" is not about `get`)
                members = [d for d in session.defined.get(c.path, ()) if any(d.startswith(f"{x}.") for x in c.symbols)
                           and not any(y.startswith(f"{x}.") for x in c.symbols for y in direct)]
                for sym in [*c.symbols, *members]:
                    owner = sym.rsplit(".", 1)[0] if "." in sym else ""
                    hit = sym if text and _mentions(text, sym) else \
                        owner if owner and text is sentence and _mentions(text, owner) else ""
                    if hit and (c.path, hit) not in named:
                        named.append((c.path, hit))
            named = _code_not_tests(session, named)
            raised = _error_types(session)  # "raise a new `UnbalancedEntry`": about the code that raises it
            if any(n not in raised for c in in_turn if not _TEST_PATH.search(c.path) for n in c.symbols):
                named = [r for r in named if r[1] not in raised]
            shapes = _type_decls(session)  # "pass an `AbortSignal` to async validators": about the code that does
            if any(n not in shapes for c in in_turn if not _TEST_PATH.search(c.path) for n in c.symbols):
                named = [r for r in named if r[1] not in shapes]
            if any(not _TEST_PATH.search(c.path) for c in edits or pool):  # a test's name ("async validators",
                # `describe("fractional keys")`) is not what a note is about when code changed
                named = [r for r in named if not _TEST_PATH.search(r[0])]
            if named:  # a class named, and the methods of it the turn changed ("a counter in `AsyncRunner`")
                changed = [(c.path, x) for c in pool for x in c.symbols for path, n in named
                           if c.path == path and x.startswith(f"{n}.")]
                return _with(named, changed + asked)
    # what the person named, unless the turn's code edits touched none of it (then those edits first)
    touched = {(c.path, n) for c in edits if not _TEST_PATH.search(c.path) for n in c.symbols}
    if asked and (set(asked) & touched or not touched):
        return asked[:MAX_SYMBOLS]
    if not edits:
        return [(GLOB_ALL, "")]
    pool = [c for c in edits if c.symbols] or edits
    pool = [c for c in pool if not _TEST_PATH.search(c.path)] or pool
    pool = [c for c in pool if set(c.symbols) - _error_types(session)] or pool  # what raises, not what is raised
    pool = [c for c in pool if set(c.symbols) - _type_decls(session)] or pool  # what does, not the shapes it takes
    pool = [c for c in pool if c.index > at] or pool  # the work it leads to, not the work that led to it
    words = _content(sentence)
    best = max(pool, key=lambda c: (len(words & _content(c.text + " " + " ".join(c.symbols))),
                                    -abs(c.index - at), c.index > at))
    ranked = [best, *sorted((c for c in pool if c is not best), key=lambda c: (abs(c.index - at), c.index < at))]
    # the work a statement leads to is every definition its turn's edits touched, the likeliest first (tests only
    # when it is about one: a `describe("moveCard")` block is not what a rule on `moveCard` governs)
    code = not _TEST_PATH.search(ranked[0].path)
    return _with(_refs_of(ranked[0]), [r for c in ranked[1:] if not (code and _TEST_PATH.search(c.path))
                                       for r in _refs_of(c) if r[1]] + asked)


_ERROR_CLASS = re.compile(r"\bclass\s+(\w+)\s*(?:\(\s*[\w.]*(?:Error|Exception|Warning)\s*\)|"
                          r"extends\s+[\w.]*(?:Error|Exception))")


_TYPE_DECL = re.compile(r"^\s*(?:export\s+)?(?:interface|type)\s+(\w+)", re.M)


def _type_decls(session: Session) -> set[str]:
    """The types the session's edits declare (``interface JoinOn``, ``type Cell = …``)."""
    return _declared(session)[1]


def _error_types(session: Session) -> set[str]:
    """The error classes the session's edits declare (``class RateMissing(LookupError)``,
    ``class Timeout extends Error``), and the classes of the code it touched named as errors
    (``PageRangeError``): what code raises, not what a statement is about."""
    named = {n for names in session.defined.values() for n in names if _ERROR_NAME.match(n)}
    return _declared(session)[0] | named


_ERROR_NAME = re.compile(r"^[A-Z]\w*(?:Error|Exception)$")


def _declared(session: Session) -> tuple[set[str], set[str]]:
    """(error classes, types) the session's edits declare, read once a session."""
    if getattr(session, "_declared", None) is None:
        session._declared = ({m.group(1) for c in session.edits() for m in _ERROR_CLASS.finditer(c.text)},
                             {m.group(1) for c in session.edits() for m in _TYPE_DECL.finditer(c.text)})
    return session._declared


def _with(refs: list[tuple[str, str]], more: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``refs``, then ``more`` that are not in it yet, up to :data:`MAX_SYMBOLS`."""
    out = list(refs)
    for r in more:
        if r not in out and len(out) < MAX_SYMBOLS and r[0] != GLOB_ALL and all(n for _, n in out):
            out.append(r)
    return out[:MAX_SYMBOLS]


def _as_code(text: str, qualname: str) -> bool:
    """The text names the definition as code: in backticks or called (`` `convert` ``, ``convert(``)."""
    short = re.escape(qualname.rsplit(".", 1)[-1])
    return re.search(rf"`{short}(?![\w.])|\b{short}\(", text) is not None


def _code_not_tests(session: Session, refs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A name found in a test the session edited stands for the same name in edited code
    (``describe("deepMerge")`` is about ``src/merge.ts:deepMerge``); code first."""
    out = []
    for path, name in refs:
        if _TEST_PATH.search(path):
            path = next((p for p, names in session.defined.items() if not _TEST_PATH.search(p) and name in names), path)
        if (path, name) not in out:
            out.append((path, name))
    return sorted(out, key=lambda r: bool(_TEST_PATH.search(r[0])))


_DISTINCT = re.compile(r"_|[a-z][A-Z]")  # a name that reads as code, not as a word


# the sentence after a rule that says where it holds: "It's a GDPR thing and it applies everywhere in mailq"
_APPLIES = re.compile(r"^(?:(?:it's|this is|that's) [^.]{0,40}?\band\s+)?(?:it|this|that|the rule|which)\s+"
                      r"(?:applies|holds|goes)\b", re.I)


def _scope_of(session: Session, whole: re.Match) -> list[tuple[str, str]] | None:
    """Where a rule "for the whole X package" applies: the folder named X that holds files
    the session touched, as ``folder/**/*.ext`` (their common extension) — the repository
    (``**``) for "the whole codebase", or when no such folder was touched. "In this lib",
    "for this codebase", "anywhere in ledgerline": the top folder of the code the session
    touched (or the one named). "Everything in format.ts": that file. None: "anywhere in the
    logs" names no place in the code."""
    touched = [c.path for c in session.calls() if c.path]
    if whole.group("file"):
        named = whole.group("file").lower()
        path = next((p for p in touched if p.lower() == named or p.lower().endswith("/" + named)), None)
        return [(path, "")] if path else None
    if whole.group("this") or whole.group("where") or whole.group("core"):  # "in this lib", "anywhere in
        # ledgerline": the package the session worked in (the top folder of the code it touched), or the one named
        code = [p for p in touched if not _TEST_PATH.search(p) and "/" in p]
        tops = {p.split("/")[0] for p in code}
        where = (whole.group("where") or "").lower().strip(".-")
        if where in (p.split("/")[0].lower() for p in touched):
            tops = {next(p.split("/")[0] for p in touched if p.split("/")[0].lower() == where)}
        elif where and where not in ("codebase", "code", "repo", "repository", "project", "lib", "library", "app"):
            return None  # "never anywhere in the logs": no place in the code
        if len(tops) == 1:
            top = tops.pop()
            exts = {q.rsplit(".", 1)[-1] for q in code if q.startswith(top + "/") and "." in q}
            return [(f"{top}/**/*.{exts.pop()}" if len(exts) == 1 else f"{top}/**", "")]
        return [(GLOB_ALL, "")]
    name = (whole.group("name") or "").lower()
    if whole.group("what") and whole.group("what").lower() in ("package", "module", "folder", "directory") and name:
        for path in touched:
            parts = path.split("/")
            if name in (x.lower() for x in parts[:-1]):
                folder = "/".join(parts[:[x.lower() for x in parts].index(name) + 1])
                exts = {q.rsplit(".", 1)[-1] for q in touched if q.startswith(folder + "/") and "." in q}
                return [(f"{folder}/**/*.{exts.pop()}" if len(exts) == 1 else f"{folder}/**", "")]
    return [(GLOB_ALL, "")]


# a comment line in code an edit wrote: "# …", "// …", "/* …", " * …", "-- …"
_COMMENT = re.compile(r"^\s*(?:#(?!!)|//|/\*+|\*(?!/)|--)\s?(?P<text>.*?)\s*(?:\*/)?$")


def _commented(session: Session, said: list[Proposal]) -> list[Proposal]:
    """Why odd code is there, said in a comment the agent wrote with it ("// Workaround for
    spreadsheet formula injection: …", "# deliberately synchronous: …"): a workaround on what
    the edit touched — or more evidence for what the chat already proposes on that code (a
    comment that records a choice made in words: "// hand-written on purpose: no dependencies")."""
    out: list[Proposal] = []
    for c in session.edits():
        for block in _comment_blocks(c.text):
            first = sentences(block)[0] if sentences(block) else ""
            if not first or not (_HACK.search(block) or _DELIBERATE.search(block)) or _NOT_DELIBERATE.search(block) \
                    or _PAST_HACK.search(block):
                continue
            refs = _refs_of(c)
            evidence = Evidence(session.id, ASSISTANT, c.at, f"(a comment in {c.path}) {block}"[:400], c.line)
            known = next((p for p in said + out if set(p.refs) & set(refs)), None)
            if known is not None:
                known.evidence.append(evidence)
                continue
            out.append(Proposal("workaround", title_of(first), 0.6, refs, [evidence], works_around=_around(block)))
    return out


def _comment_blocks(code: str) -> list[str]:
    """The comments of a piece of code, consecutive comment lines joined."""
    blocks, current = [], []
    for line in code.split("\n"):
        m = _COMMENT.match(line)
        if m and m.group("text"):
            current.append(m.group("text"))
            continue
        if current:
            blocks.append(" ".join(current))
            current = []
    if current:
        blocks.append(" ".join(current))
    return blocks
