"""Distillation: read what a session said and did, propose candidate notes.

A session is read from the agent's transcript (:mod:`transcript`) and the
observation log (:mod:`observations`): the log says which symbols each edit touched
when it happened (by ``tool_use_id``); without a transcript the log alone is read (the
prompts, edits, commands and failures, without the agent's words). Both become one
:class:`Session`: what was said and the tool calls, in order, split into turns (a turn
starts at each prompt).

An :class:`Extractor` turns a session into proposals. The one shipped,
:class:`rules.RuleExtractor`, is deterministic and rule-based (phrases and
sequences, documented there); a model-based extractor would implement the same
``propose(session)`` and be passed to :func:`distill`. Proposals name the code they are
about as ``(path, qualified name)`` pairs of code the session touched; :func:`distill`
fingerprints that code as it is now (structural anchors, like any note) and hands the
candidates to the review queue, where a restated proposal joins the one already there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from ..core import anchors as A
from ..core.languages import for_path
from ..core.syntax import SourceFile
from ..core.workspace import Workspace, WorkspaceError
from . import candidates as K
from . import observations as O
from .gate import tethers_request
from .rules import RuleExtractor, leads
from .session import GLOB_ALL, MAX_SYMBOLS, Call, Extractor, Lead, Session, Utterance
from .transcript import ASSISTANT, USER, Said, Skipped, Transcript, read_transcript

# -- building a session --------------------------------------------------------------------------

# the tools that edit a file, as Claude Code and VS Code (by name or contributed id) call them
EDIT_TOOLS = frozenset(("Edit", "MultiEdit", "Write", "NotebookEdit", "replace_string_in_file", "copilot_replaceString",
                        "multi_replace_string_in_file", "copilot_multiReplaceString", "create_file",
                        "copilot_createFile", "insert_edit_into_file", "copilot_insertEdit", "textEditGroup"))
def session_from(ws: Workspace, transcript: Transcript | None, log: list[dict]) -> Session:
    """One session from its transcript (when there is one) and its observation log."""
    by_call = {e["tool_use_id"]: e for e in log if e.get("tool_use_id")}
    events: list[Utterance | Call] = []
    turn = 0
    if transcript is None:
        for e in log:
            if e["kind"] == "prompt" and tethers_request(e.get("text", "")):
                continue  # tether's own request at Stop, as the agent's next prompt: not the person's words
            if e["kind"] == "prompt":
                turn += 1
                events.append(Utterance(len(events), turn, USER, e.get("text", ""), e["at"], 0))
            elif e["kind"] == "reply":  # the model's words, as the proxy saw them
                events.append(Utterance(len(events), turn, ASSISTANT, e.get("text", ""), e["at"], 0))
            elif e["kind"] in ("read", "edit", "command", "failure", "tool"):
                events.append(Call(len(events), turn, e.get("tool", ""), e["at"], 0, e.get("tool_use_id", ""),
                                   e.get("path", ""), e["kind"] == "edit", list(e.get("symbols", [])),
                                   e.get("command", ""), error=e["kind"] == "failure", output=e.get("error", "")))
        sid = log[0]["session"] if log else ""
        return Session(sid, "", 0, events)
    files: dict[str, str | None] = {}
    rels: dict[str, str] = {}
    for ev in transcript.events:
        if isinstance(ev, Said):
            if ev.who == USER and tethers_request(ev.text):
                continue
            if ev.who == USER:
                turn += 1
            events.append(Utterance(len(events), turn, ev.who, ev.text, ev.at, ev.line))
            continue
        call = Call(len(events), turn, ev.name, ev.at, ev.line, ev.id, error=ev.error, output=ev.result or "")
        inp = ev.input
        if isinstance(inp.get("command"), str):
            call.command = inp["command"]
        path = inp.get("file_path") or inp.get("notebook_path") or inp.get("filePath")
        if isinstance(path, str) and path:
            if path not in rels:
                try:
                    rels[path] = ws.rel(path)
                except WorkspaceError:
                    rels[path] = ""  # outside the workspace
            call.path = rels[path]
        call.edit = ev.name in EDIT_TOOLS and not ev.error
        if call.edit:
            call.text = "\n".join(new for _, new in O.replacements(inp))
        seen = by_call.get(ev.id)
        if seen is not None and seen.get("kind") in ("edit", "read"):
            call.symbols = list(seen.get("symbols", []))
        elif call.path and not ev.error and (call.edit or ev.name == "Read"):
            call.symbols = _symbols_now(ws, call.path, ev.name, inp, ev.response, files)
        if seen is not None and seen.get("kind") == "failure" and not call.output:
            call.error, call.output = True, seen.get("error", "")
        events.append(call)
    return Session(transcript.session, transcript.path, transcript.lines, events)


def _symbols_now(ws: Workspace, rel: str, tool: str, inp: dict, response, files: dict[str, str | None]) -> list[str]:
    """What an edit (or a read window) touched, found in the file as it is now: used when
    the observation log did not see the call (no hooks, or the log's cap evicted it)."""
    if rel not in files:
        try:
            files[rel] = ws.read_source(rel)
        except WorkspaceError:
            files[rel] = None
    text = files[rel]
    if text is None:
        return []
    if tool == "Read":
        off, lim = inp.get("offset"), inp.get("limit")
        if not isinstance(off, int) or not isinstance(lim, int):
            return []
        names = O.edited_symbols(text, rel, [(max(off - 1, 0), max(off - 1, 0) + lim - 1)])
        return names if len(names) == 1 else []
    if tool in ("Write", "create_file", "copilot_createFile"):
        if inp.get("content") != text:
            return []  # changed since: what this write touched cannot be told from the file now
        patch = response.get("structuredPatch") if isinstance(response, dict) else None
        ranges = O.patch_lines(patch) if patch else [(0, text.count("\n"))]
    else:
        ranges = O.edit_lines(text, O.replacements(inp))
    return O.edited_symbols(text, rel, ranges)


# -- distilling --------------------------------------------------------------------------------------

@dataclass
class Distilled:
    session: str
    transcript: str
    lines: int
    seconds: float
    queued: K.Queued
    cut: bool = False  # the time budget ran out before every proposal was queued
    skipped: list[Skipped] = field(default_factory=list)  # transcript lines left out, and why
    edited: list[str] = field(default_factory=list)  # the files the session edited
    leads: list[Lead] = field(default_factory=list)  # what the person said that no candidate covers
    session_read: Session | None = None  # the session as the extractor read it (for the gate at Stop)

    @property
    def candidates(self) -> list[K.Candidate]:
        return self.queued.new + self.queued.updated

    def to_json(self) -> dict:
        return {"session": self.session, "transcript": self.transcript or None, "lines": self.lines,
                "seconds": round(self.seconds, 3), "cut": self.cut,
                "new": [c.to_json() for c in self.queued.new],
                "updated": [c.to_json() for c in self.queued.updated],
                "settled": [{"id": c.id, "status": c.status, "note": c.note or None} for c in self.queued.settled],
                "skipped": [k.to_json() for k in self.skipped], "edited": self.edited,
                "leads": [x.to_json() for x in self.leads]}


MIN_CONFIDENCE = 0.5  # proposals below this are not queued


def default_extractor() -> Extractor:
    return RuleExtractor()


def distill(ws: Workspace, session: str | None = None, transcript: str | Path | None = None, *,
            extractor: Extractor | None = None, budget: float | None = None) -> Distilled:
    """Distil one session into the review queue. The session is the transcript's (given),
    else ``session`` (an id or unique prefix, its transcript found in the observation log),
    else the most recently active session in the log. A transcript that cannot be read
    raises :class:`~transcript.TranscriptError` before anything is queued.
    ``budget``: seconds; proposals left when it runs out are not queued (``cut``)."""
    start = time.monotonic()
    extractor = extractor or default_extractor()
    tr = None
    if transcript is not None:
        tr = read_transcript(transcript)
        sid = session or tr.session
    else:
        meta = O.find_session(ws, session)
        sid = meta["id"]
        if meta.get("transcript") and Path(meta["transcript"]).is_file():
            tr = read_transcript(meta["transcript"])
    log = O.observations(ws, sid)
    if tr is not None:
        tr.session = sid
    sess = session_from(ws, tr, log)
    sess.id = sid
    files: dict[str, SourceFile | None] = {}
    edited = list(dict.fromkeys(c.path for c in sess.edits()))
    for path in edited:
        src = _source(ws, path, files)
        if src is not None:
            sess.defined[path] = [d.qualname for d in src.defs]
    sess.deadline = start + budget if budget is not None else None
    proposed = extractor.propose(sess)
    proposals = [p for p in proposed if p.confidence >= MIN_CONFIDENCE]
    # what the person said that no proposal quotes (one too unsure to queue is a lead, not a candidate)
    found = leads(sess, {e.line or e.at for p in proposals for e in p.evidence}) if not sess.cut else []
    for p in proposals:
        if p.kind not in K.CANDIDATE_KINDS:
            raise WorkspaceError(f"the {extractor.name} extractor proposed a {p.kind!r}: candidates are one of "
                                 f"{', '.join(K.CANDIDATE_KINDS)}")
    cands, cut = [], sess.cut
    for p in proposals:
        if sess.out_of_time():
            cut = True
            break
        anchors = _anchors(ws, p.refs, files)
        if not anchors:
            continue
        cands.append(K.Candidate("", p.kind, p.title, round(p.confidence, 2), anchors, p.evidence, p.rationale,
                                 p.alternatives, p.works_around, p.remove_when, extractor=extractor.name,
                                 recalls=p.recalls))
    queued = K.queue(ws, cands)
    return Distilled(sid, tr.path if tr else "", tr.lines if tr else 0, time.monotonic() - start, queued, cut,
                     tr.skipped if tr else [], edited, found, sess)


def _source(ws: Workspace, path: str, files: dict[str, SourceFile | None]) -> SourceFile | None:
    """A file of the workspace as it is now, parsed once per distillation (None: gone)."""
    if path not in files:
        try:
            files[path] = SourceFile(ws.read_source(path), for_path(path))
        except WorkspaceError:
            files[path] = None
    return files[path]


def _anchors(ws: Workspace, refs: list[tuple[str, str]], files: dict[str, SourceFile | None]) -> list[A.Anchor]:
    """Fingerprints of the code a proposal names, as it is now. A symbol that is gone or
    that several definitions now share falls back to its file (which the session touched);
    a file that is gone is dropped."""
    out: list[A.Anchor] = []
    for path, name in refs:
        if path == GLOB_ALL or "*" in path:  # the repository, or a pattern such as src/billing/**/*.py
            out.append(A.Anchor(A.GLOB, pattern=path))
            continue
        src = _source(ws, path, files)
        if src is None:
            continue
        found = [d for d in src.defs if d.qualname == name] if name else []
        anchor = A.symbol_anchor(src, path, found[0]) if len(found) == 1 else A.Anchor(A.FILE, path=path)
        if all(A.Anchor(a.type, a.path, a.pattern, name=a.name) != A.Anchor(anchor.type, anchor.path, anchor.pattern,
                                                                            name=anchor.name) for a in out):
            out.append(anchor)
    if any(a.type == A.SYMBOL for a in out):  # a symbol of a file says more than the file
        out = [a for a in out if a.type != A.FILE or not any(b.path == a.path and b.type == A.SYMBOL for b in out)]
    return out[:MAX_SYMBOLS]
