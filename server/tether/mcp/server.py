"""``tether mcp``: the MCP server face, on standard input/output.

A flat list of tools, each a short function that makes the core calls the CLI makes and
returns the same JSON shapes (``tether list --json``, ``check --format json``, …). A
refused request (an unknown kind or note, a path outside the workspace, a line past the
end of the file) comes back as a tool error that says why; the server keeps serving.

One workspace per process. Tools run on the SDK's worker threads, so one lock keeps the
core to one call at a time here; note files written by other processes are seen on the
next call (the core reconciles with the notes folder every time), and writes from
several processes are serialized by the core's file lock."""

from __future__ import annotations

import threading
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from .. import __version__
from ..capture import candidates as capture
from ..capture import observations
from ..checks import findings
from ..checks.worker import compiles
from ..context.calls import warm
from ..context.ranking import DEFAULT_BUDGET, Context, context_for, note_markdown
from ..context.search import search, since_iso
from ..core import anchors as A
from ..core.files import FolderChanges, is_under
from ..core.languages import GrammarError
from ..core.notes import CHECK_KINDS, KINDS, SEVERITIES, CheckError, Note, NoteError
from ..core.resolution import note_json
from ..core.text import split_lines
from ..core.workspace import Place, Workspace, WorkspaceError

REFUSED = (WorkspaceError, NoteError, CheckError, GrammarError)

server = MCPServer(
    "tether", version=__version__, log_level="WARNING",
    instructions="tether keeps the why of this codebase next to the code: decisions (and the options "
                 "rejected), invariants, boundaries, intents and deliberate workarounds, each anchored to "
                 "code. Call get_context for a file and line before changing code there; record_note when "
                 "a decision is made or a rule is found; check after editing. Paths are relative to the "
                 "workspace root; lines are 1-based.")


class Served:
    """The workspace this process serves. Until it has a ``.tether/`` folder, reads answer
    "no notes" (nothing is created by reading) and the first write creates it."""

    def __init__(self):
        self.ws: Workspace | None = None
        self.lock = threading.Lock()

    def open(self, root: Path) -> None:
        try:
            self.ws = Workspace.find(root)
        except WorkspaceError:
            self.ws = Workspace(Path(root))
        self.ws.repo.watch()  # else every call scans the notes folder
        # and the sources: else the call graph walks the tree again each second (a p99 of 190 ms at 20,000 files)
        self.ws.tree.changes = FolderChanges.open(self.ws.root, tree=True)

    def close(self) -> None:
        if self.ws.tree.changes is not None:
            self.ws.tree.changes.close()
        self.ws.close()

    @property
    def ready(self) -> bool:
        return self.ws.notes_dir.is_dir()

    def for_writing(self) -> Workspace:
        if not self.ready:
            Workspace.init(self.ws.root, exact=True)
            self.ws.repo.watch()
        return self.ws


STATE = Served()


def tool(*, reads: bool):
    """Register a tool that runs alone and turns a refusal into a tool error. ``reads``:
    it changes nothing (hosts may run such tools without asking)."""
    hints = ToolAnnotations(read_only_hint=True, open_world_hint=False) if reads else \
        ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

    def register(fn):
        @wraps(fn)
        def run(**kwargs):
            with STATE.lock:
                try:
                    return fn(**kwargs)
                except REFUSED as e:
                    raise ToolError(str(e)) from None
        server.tool(annotations=hints)(run)
        return fn
    return register


# -- parameter types (their JSON schema is what an agent sees) ----------------------------

Line = Annotated[int, Field(ge=1, description="1-based line number")]
NoteId = Annotated[str, Field(min_length=1, description="a note id, or a unique prefix of it (4+ characters)")]


class Rejected(BaseModel):
    model_config = ConfigDict(extra="forbid")
    option: str = Field(min_length=1, description="an option that was considered")
    rejected_because: str = Field("", description="why it was not chosen")


class CheckSpec(BaseModel):
    """A structural check of an invariant, as in the note file's [[checks]]."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal[CHECK_KINDS]
    pattern: str = Field("", description="for forbid-call, require-call, forbid-import, forbid-identifier: "
                                         "a dotted name with * wildcards (time.sleep, requests.*, *.delete)")
    query: str = Field("", description="for forbid / require: a tree-sitter query with at least one capture")
    lang: str = Field("", description="for forbid / require: the language the query is written for")
    message: str = Field("", description="what a violation says (default: the rule)")
    severity: Literal[SEVERITIES] = "error"
    id: str = Field("", description="default: KIND:PATTERN")

    def to_dict(self) -> dict:
        d = {k: v for k, v in self.model_dump().items() if v and k != "severity"}
        d["id"] = self.id or (f"{self.kind}:{self.pattern}" if self.pattern else self.kind)
        if self.severity != "error":
            d["severity"] = self.severity
        return d


# -- tools --------------------------------------------------------------------------------

@tool(reads=True)
def get_context(path: Annotated[str, Field(description="a file, relative to the workspace root")],
                line: Line | None = None,
                budget: Annotated[int, Field(ge=1, description="answer within this many tokens")] = DEFAULT_BUDGET,
                ) -> CallToolResult:
    """The tether notes that apply at a place in the code, ranked: notes on the code at the
    line and on the definitions around it, on the file, on what that code calls, and
    path-pattern notes. Without a line: every note on the file. Markdown within the token
    budget: every note named first (kind, title, id), then the best told in full while
    they fit; `get_note` gives the whole of one only named."""
    ws = STATE.ws
    rel = existing_file(ws, path)
    line0 = None if line is None else line_in(ws, rel, line) - 1
    ctx = context_for(ws, rel, line0, budget=budget) if STATE.ready else Context(rel, line0, [], [], budget)
    return CallToolResult(content=[TextContent(type="text", text=ctx.to_markdown())],
                          structured_content=ctx.to_json())


@tool(reads=True)
def get_note(id: NoteId) -> CallToolResult:
    """One note in full, as `tether show` prints it: what it says, and where each of its
    anchors' code is now and in what state (the resource tether://note/{id} as a tool)."""
    note, located, text = _shown(id)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=note_json(note, located))


@tool(reads=True)
def list_notes(path: Annotated[str | None, Field(description="only the notes that apply to this file or folder")]
               = None) -> dict[str, Any]:
    """Every note (or those that apply to a file or folder), each with its kind, title, id,
    status and its anchors' states (ok, moved, changed, renamed, orphaned, ambiguous) and
    current ranges (0-based)."""
    ws = STATE.ws
    rel = known_path(ws, path) if path is not None else None
    if not STATE.ready:
        return {"notes": [], "broken": []}
    notes = ws.notes_in(rel) if rel is not None and rel != "." else ws.notes()
    located = ws.locate_notes(notes)
    return {"notes": [note_json(n, located[n.id]) for n in notes],
            "broken": [{"file": e.path, "line": e.line, "reason": e.reason} for e in ws.broken()]}


@tool(reads=True)
def search_notes(query: Annotated[str, Field(min_length=1)],
                 since: Annotated[str | None, Field(description="only what changed or happened since: a date "
                                                                "(2026-11-20), a time, or an age (6h, 2d, 1w)")] = None,
                 session: Annotated[str | None, Field(description="only what comes from this agent session "
                                                                  "(an id or a unique prefix)")] = None,
                 ) -> dict[str, Any]:
    """What the repository remembers, found by words, best first: notes (title, tags,
    rationale, rejected options, body), candidate notes waiting for review (with their
    quoted evidence), and the agents' observation log (prompts, files read and edited,
    commands, failures) — the same search as `tether search`. Each hit with its score and
    the fields that matched; notes as in list_notes, candidates as in list_candidates."""
    ws = STATE.ws
    if not STATE.ready:
        return {"query": query, "notes": [], "candidates": [], "observations": []}
    sid = observations.find_session(ws, session)["id"] if session else None
    more = capture.documents(ws) + observations.documents(ws, sid)
    hits = search(ws, query, more, since=since_iso(since) if since else None, session=sid)
    out = {"query": query, "notes": [], "candidates": [], "observations": []}
    for h in hits:
        extra = {"score": h.score, "matched": h.matched}
        if h.doc.type == "note":
            out["notes"].append({**note_json(h.note, ws.locate_note(h.note)), **extra})
        elif h.doc.type == "candidate":
            out["candidates"].append({**h.doc.item.to_json(), **extra})
        else:
            out["observations"].append({**h.doc.item, **extra})
    return out


class At(BaseModel):
    """One more place a note governs."""

    model_config = ConfigDict(extra="forbid")
    path: str = Field(min_length=1, description="a file relative to the workspace root, or a path pattern "
                                                "such as src/auth/**")
    line: Line | None = Field(None, description="the definition at this line (none: the whole file)")


# what a note says, as record_note and amend_note take it (None: not given)
Title = Annotated[str | None, Field(description="the decision or rule itself, as a sentence")]
Rationale = Annotated[str | None, Field(description="why (a decision's reason)")]
WorksAround = Annotated[str | None, Field(description="workarounds: the problem it works around")]
RemoveWhen = Annotated[str | None, Field(description="workarounds: when it can go")]
Failure = Annotated[str | None, Field(description="gotchas: what fails (the error or symptom)")]
Cause = Annotated[str | None, Field(description="gotchas: why it fails")]
MorePlaces = Annotated[list[At] | None, Field(description="more places the note governs, each {path, line}")]


@tool(reads=False)
def record_note(kind: Literal[KINDS],
                path: Annotated[str | None, Field(description="a file relative to the workspace root, or a path "
                                                              "pattern such as src/auth/** (none with joins alone)")]
                = None,
                line: Line | None = None, *,
                title: Title = None,
                rationale: Rationale = None,
                body: Annotated[str | None, Field(description="Markdown: what must stay true, what is left out, "
                                                              "what the code is for, what it works around")] = None,
                alternatives: Annotated[list[Rejected] | None, Field(description="options rejected, and why")] = None,
                works_around: WorksAround = None,
                remove_when: RemoveWhen = None,
                failure: Failure = None,
                cause: Cause = None,
                also: MorePlaces = None,
                joins: Annotated[str | None, Field(description="an existing note's id this restates: add to it "
                                                               "(its words, places, rejected options) instead of a "
                                                               "second note; a title becomes the note's, to say "
                                                               "the rule as it now stands")] = None,
                checks: Annotated[list[CheckSpec] | None, Field(description="invariants only: rules `check` "
                                                                            "enforces in the anchored code")] = None,
                ) -> dict[str, Any]:
    """Record a note anchored to code. With a line: the innermost definition at that line
    (the statement or lines there when no definition encloses it); without: the whole
    file; a path with * or ? is a path pattern (such as src/auth/**); `also`: more places.
    Decisions carry a rationale and the alternatives rejected; workarounds what they work
    around and when they can go; gotchas the failure and its cause; invariants may carry
    checks that `check` then enforces. `joins`: a restatement of that note, added to it
    (a title given becomes the note's title). Returns the note."""
    ws = STATE.ws
    places = ([_place(ws, path, line)] if path else []) + [_place(ws, a.path, a.line) for a in also or ()]
    fields = dict(rationale=rationale or "", body=body or "",
                  rejected=[(a.option, a.rejected_because) for a in alternatives or ()],
                  works_around=works_around or "", remove_when=remove_when or "", failure=failure or "",
                  cause=cause or "")
    ws = STATE.for_writing()
    if joins:
        note = ws.join(joins, places, title=title or "", or_statement=True, **fields)
        return note_json(note, ws.locate_note(note))
    if not places:
        raise WorkspaceError("give the path (and line) of the code the note is about")
    if not (title or "").strip():
        raise WorkspaceError("a note needs a title: the decision or rule itself")
    first, *more = places
    note = ws.record(kind, first.path, first.line, how=first.how, more=more, title=title, or_statement=True,
                     checks=[c.to_dict() for c in checks or ()], compile=compiles, **fields)
    return note_json(note, ws.locate_note(note))


@tool(reads=False)
def amend_note(id: NoteId,
               kind: Literal[KINDS] | None = None,
               title: Title = None,
               rationale: Rationale = None,
               body: Annotated[str | None, Field(description="Markdown body")] = None,
               alternatives: Annotated[list[Rejected] | None, Field(description="options rejected, and why: each "
                                                                                "added, or its reason replaced")] = None,
               drop_alternatives: Annotated[list[str] | None, Field(description="rejected options to remove, "
                                                                               "by name")] = None,
               works_around: WorksAround = None,
               remove_when: RemoveWhen = None,
               failure: Failure = None,
               cause: Cause = None,
               add_places: MorePlaces = None,
               drop_places: Annotated[list[At] | None, Field(description="places to remove, each {path, line}: "
                                                                         "the place whose code holds the line, "
                                                                         "a file's or a pattern's")] = None,
               ) -> dict[str, Any]:
    """Correct a note in place, as `tether amend` does: each field given replaces the note's
    ("" clears it), the rest stays; alternatives are added (or their reasons replaced);
    places are added and removed. Returns the note."""
    ws = STATE.ws
    if not STATE.ready:
        raise WorkspaceError(f"no note '{id}': this workspace has no notes yet")
    note = ws.get(id)
    places = [_place(ws, a.path, a.line) for a in add_places or ()]
    drop = [ws.place_index(note, a.path if "*" in a.path or "?" in a.path else ws.rel(a.path),
                           None if a.line is None else a.line - 1) for a in drop_places or ()]
    ws = STATE.for_writing()
    note = ws.amend(note.id, places, kind=kind, title=title, rationale=rationale, body=body,
                    rejected=[(a.option, a.rejected_because) for a in alternatives or ()],
                    drop_rejected=drop_alternatives or [], works_around=works_around, remove_when=remove_when,
                    failure=failure, cause=cause, drop_places=drop, or_statement=True)
    return note_json(note, ws.locate_note(note))


def _place(ws, path: str, line: int | None) -> Place:
    """A place as a tool call gives it: a pattern, a file, or the definition at a line."""
    if "*" in path or "?" in path:
        if line is not None:
            raise WorkspaceError(f"{path}: a path pattern is anchored as a whole; give no line")
        return Place(path, how=A.GLOB)
    target = ws.rel(path)
    if ws.abs(target).is_dir():
        raise WorkspaceError(f"{target}: a folder; anchor a pattern such as '{target.rstrip('/')}/**', or a file")
    if line is None:
        return Place(target, how=A.FILE)
    line_in(ws, target, line)
    return Place(target, line - 1)


@tool(reads=False)
def supersede_note(id: NoteId, by: Annotated[str, Field(description="the id (or a unique prefix) of the note that "
                                                                     "replaces it")]) -> dict[str, Any]:
    """A decision reversed: the note ``id`` is replaced by the note ``by`` (recorded first), as
    `tether supersede ID --by NEW` does. The old note stays as history, handed to no agent. Returns it."""
    if not STATE.ready:
        raise WorkspaceError(f"no note '{id}': this workspace has no notes yet")
    return note_json(STATE.for_writing().supersede(id, by))


@tool(reads=False)
def confirm_invariant(id: NoteId) -> dict[str, Any]:
    """An invariant still holds after its code changed: record the code's current
    fingerprint (clears its invariant-drift finding). Returns the note."""
    ws = STATE.ws
    if not STATE.ready:
        raise WorkspaceError(f"no note '{id}': this workspace has no notes yet")
    note = ws.confirm(id)
    return note_json(note, ws.locate_note(note))


@tool(reads=True)
def check(paths: Annotated[list[str] | None, Field(description="files or folders (default: every file "
                                                                  "a note applies to)")] = None) -> dict[str, Any]:
    """Run invariant checks and drift guards (default: every file a note applies to) and
    report violations, drifted invariants, lost anchors and broken note files. Lines are
    1-based; ranges 0-based."""
    ws = STATE.ws
    rels = None
    if paths:
        rels = []
        for p in paths:
            rel = known_path(ws, p)
            rels += [f for f in ws.files() if is_under(f, rel)] if ws.abs(rel).is_dir() else [rel]
    if not STATE.ready:
        return {"findings": []}
    return {"findings": [f.to_json() for f in findings.check(ws, rels)]}


# -- proposed notes (the review queue agent sessions fill) -----------------------------------

CandidateId = Annotated[str, Field(min_length=1, description="a candidate id, or a unique prefix of it (4+ characters)")]


@tool(reads=True)
def list_candidates(path: Annotated[str | None, Field(description="only candidates on this file or folder")] = None,
                    ) -> dict[str, Any]:
    """Notes proposed from agent sessions and waiting for review: each with its kind,
    title, confidence, the quoted evidence (who said it, when), the code it would be
    anchored on, and existing notes it would repeat (accept with merge_into one of them)."""
    ws = STATE.ws
    rel = known_path(ws, path) if path else None
    if not STATE.ready:
        return {"candidates": []}
    out = []
    for c in capture.candidates(ws):
        if rel is not None and not any(a.type != A.GLOB and is_under(a.path, rel) for a in c.anchors):
            continue
        out.append(c.to_json(near=capture.near_duplicates(ws, c)))
    return {"candidates": out}


@tool(reads=False)
def accept_candidate(id: CandidateId, merge_into: Annotated[str | None, Field(
        description="an existing note's id: add the candidate's evidence to it instead of a new note")] = None,
                     ) -> dict[str, Any]:
    """Turn a proposed note into a note file (its evidence in the body), or merge it into
    an existing note it repeats. Refused, naming the notes, when it would duplicate one.
    Returns the note."""
    ws = STATE.ws
    if not STATE.ready:
        raise WorkspaceError(f"no candidate '{id}': this workspace has no notes yet")
    note = capture.accept(ws, id, merge_into)
    return note_json(note, ws.locate_note(note))


@tool(reads=False)
def dismiss_candidate(id: CandidateId) -> dict[str, Any]:
    """Drop a proposed note from review (it is not proposed again). Returns the candidate."""
    ws = STATE.ws
    if not STATE.ready:
        raise WorkspaceError(f"no candidate '{id}': this workspace has no notes yet")
    return capture.dismiss(ws, id).to_json()


# -- the note resource --------------------------------------------------------------------

@server.resource("tether://note/{id}", name="note", mime_type="text/markdown",
                 description="One tether note, as `tether show` prints it")
def note_resource(id: str) -> str:
    """The note rendered (what `tether show` prints) rather than its file's text: the
    rendering says where each anchor's code is now and in what state, where the file keeps
    fingerprints and the ranges recorded when it was last written. The file's path is at
    the end for an agent that means to edit it."""
    with STATE.lock:
        try:
            return _shown(id)[2]
        except REFUSED as e:
            raise ResourceNotFoundError(str(e)) from None


def _shown(ref: str) -> tuple[Note, list, str]:
    """A note by its id or short form, where its anchors' code is now, and what `tether show` prints."""
    if not STATE.ready:
        raise WorkspaceError(f"no note '{ref}': this workspace has no notes yet")
    ws = STATE.ws
    note = ws.get(ref)
    located = ws.locate_note(note)
    text = "\n".join(note_markdown(note, "", located)).rstrip()
    return note, located, f"{text}\n\nfile: {note.path}\n"


# -- helpers ------------------------------------------------------------------------------

def _warm() -> None:
    """The call graph of a fresh clone, a batch at a time between tool calls."""
    more = True
    while more:
        with STATE.lock:
            more = STATE.ready and warm(STATE.ws)


def existing_file(ws: Workspace, path: str) -> str:
    rel = ws.rel(path)
    target = ws.abs(rel)
    if target.is_dir():
        raise WorkspaceError(f"{rel}: a folder; give a file")
    if not target.exists():
        raise WorkspaceError(f"{rel}: no such file")
    return rel


def known_path(ws: Workspace, path: str) -> str:
    """A file or folder that exists, or a path notes are still anchored on (a deleted file
    whose notes are now orphaned)."""
    rel = ws.rel(path)
    if ws.abs(rel).exists() or (STATE.ready and any(
            a.type != A.GLOB and is_under(a.path, rel) for n in ws.notes() for a in n.anchors)):
        return rel
    raise WorkspaceError(f"{rel}: no such file or folder")


def line_in(ws: Workspace, rel: str, line: int) -> int:
    count = len(split_lines(ws.read_source(rel)))
    if line > count:
        raise WorkspaceError(f"{rel}:{line}: line out of range (the file has {count} lines)")
    return line


def main(root: Path) -> None:
    STATE.open(root)
    threading.Thread(target=_warm, daemon=True).start()
    try:
        server.run()
    finally:
        if STATE.ws is not None:
            STATE.close()
