"""The notes that apply at a place in the code, ranked, as data and as Markdown an agent
(or a person) can read. Every face calls ``context_for``; the LSP hover, the CLI, the MCP
server and the agent hooks only choose how to show it."""

from __future__ import annotations

from dataclasses import dataclass

from . import anchors as A
from .notes import Note
from .workspace import Located, Workspace, glob_match

# tiers, best first
ON_SYMBOL, ENCLOSING, ON_FILE, ON_PATTERN = 1, 2, 3, 4


@dataclass
class Item:
    note: Note
    tier: int
    reason: str
    located: list[Located]  # the note's anchors in this file (empty for glob notes)


@dataclass
class Context:
    path: str
    line: int | None  # 0-based
    items: list[Item]

    def to_json(self) -> dict:
        return {"path": self.path, "line": self.line, "notes": [item_json(i) for i in self.items]}

    def to_markdown(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line + 1}"
        if not self.items:
            return f"No tether notes apply to {where}.\n"
        out = [f"# tether notes for {where}", ""]
        for item in self.items:
            out += note_markdown(item.note, item.reason, item.located)
        return "\n".join(out).rstrip() + "\n"


def context_for(ws: Workspace, rel: str, line: int | None = None, text: str | None = None) -> Context:
    """Notes on the innermost anchored code at ``line`` and what encloses it, then notes on
    the file, then path-pattern notes. Without a line: every note on the file."""
    located = ws.locate(rel, text)
    by_note: dict[str, list[Located]] = {}
    for loc in located:
        by_note.setdefault(loc.note.id, []).append(loc)
    items: list[Item] = []
    for nid, locs in by_note.items():
        note = locs[0].note
        tier, reason = _rank(locs, line)
        if tier is not None:
            items.append(Item(note, tier, reason, locs))
    seen = set(by_note)
    for note in ws.notes_on(rel):
        if note.id in seen:
            continue
        pats = [a.pattern for a in note.anchors if a.type == A.GLOB and glob_match(a.pattern, rel)]
        if pats:
            items.append(Item(note, ON_PATTERN, f"the pattern `{pats[0]}` covers {rel}", []))
    active = {"active": 0, "superseded": 1, "retired": 2}
    items.sort(key=lambda i: (active.get(i.note.status, 3), i.tier, _span(i), i.note.id))
    return Context(rel, line, [i for i in items if i.note.status != "retired"])


def _rank(locs: list[Located], line: int | None) -> tuple[int | None, str]:
    best = (None, "")
    for loc in locs:
        a, r = loc.anchor, loc.range
        label = f"`{loc.resolution.name or a.name}`" if a.name else f"lines of {a.path}"
        if a.type in (A.SPAN, A.LINES) and r is not None:
            label = f"a statement in {label}" if a.name else f"lines {r.sl + 1}-{r.el + 1}"
        if a.type == A.FILE:
            cand = (ON_FILE, f"anchored on the file {a.path}")
        elif line is None:
            cand = (ON_SYMBOL, f"anchored on {label}")
        elif r is None:
            cand = (ON_FILE, f"anchored on {label} in this file, which is {loc.state}")
        elif r.sl == line or (r.sl <= line <= r.el and a.type != A.SYMBOL):
            cand = (ON_SYMBOL, f"anchored on {label}")
        elif r.sl <= line <= r.el:
            cand = (ENCLOSING, f"anchored on {label}, which encloses line {line + 1}")
        else:
            cand = (ON_FILE, f"anchored on {label} elsewhere in this file")
        if best[0] is None or cand[0] < best[0]:
            best = cand
    return best


def _span(item: Item) -> int:
    """Smaller anchored ranges (inner code) before larger ones within a tier."""
    sizes = [loc.range.el - loc.range.sl for loc in item.located if loc.range is not None]
    return min(sizes) if sizes else 1 << 30


def where(loc: Located) -> str:
    a, r = loc.anchor, loc.range
    if a.type == A.GLOB:
        return f"pattern `{a.pattern}`"
    if a.type == A.FILE:
        return f"file {a.path}"
    name = loc.resolution.name or a.name
    place = f"{a.path}:{r.sl + 1}-{r.el + 1}" if r is not None else f"{a.path} (last seen at line {a.range.sl + 1})" \
        if a.range is not None else a.path
    if a.type == A.SPAN:
        return f"a statement in `{name}` at {place}"
    return f"`{name}` at {place}" if name else f"lines at {place}" if a.type == A.LINES else place


STATE_WORDS = {
    A.OK: "", A.MOVED: "moved", A.RENAMED: "renamed", A.CHANGED: "code changed since the note was written",
    A.ORPHANED: "orphaned: the code it was about is gone", A.AMBIGUOUS: "ambiguous: several places match",
}


def note_markdown(note: Note, reason: str = "", located: list[Located] = ()) -> list[str]:
    head = f"## {note.kind}: {note.title}"
    out = [head]
    facts = []
    if reason:
        facts.append(f"Applies here: {reason}.")
    if note.status == "superseded":
        facts.append(f"Status: superseded by {note.superseded_by}; kept for history.")
    elif note.status == "retired":
        facts.append("Status: retired.")
    for loc in located:
        state = STATE_WORDS.get(loc.state, loc.state)
        facts.append(f"Anchor: {where(loc)}" + (f" ({state})." if state else "."))
    if facts:
        out.append(" ".join(facts))
    if note.rationale:
        out += ["", f"Rationale: {note.rationale}"]
    if note.alternatives:
        out += ["", "Rejected options:"]
        out += [f"- {a.option}" + (f": {a.rejected_because}" if a.rejected_because else "") for a in note.alternatives]
    if note.works_around:
        out += ["", f"Works around: {note.works_around}"]
    if note.remove_when:
        out += ["", f"Can go when: {note.remove_when}"]
    if note.body.strip():
        out += ["", note.body.strip()]
    out += ["", f"(note {note.id}, {note.author or 'unknown author'}, {note.created[:10]})", ""]
    return out


def item_json(item: Item) -> dict:
    d = note_json(item.note, item.located)
    d["tier"], d["reason"] = item.tier, item.reason
    return d


def note_json(note: Note, located: list[Located] = ()) -> dict:
    loc_by = {loc.index: loc for loc in located}
    anchors = []
    for i, a in enumerate(note.anchors):
        loc = loc_by.get(i)
        d = {"type": a.type}
        if a.type == A.GLOB:
            d["pattern"] = a.pattern
        else:
            d["path"] = a.path
        if a.name:
            d["name"] = a.name
        if loc is not None:
            d["state"] = loc.state
            d["range"] = loc.range.to_lsp() if loc.range else None
            if loc.resolution.name and loc.resolution.name != a.name:
                d["now_named"] = loc.resolution.name
            if loc.resolution.candidates:
                d["candidates"] = [c.to_lsp() for c in loc.resolution.candidates]
        anchors.append(d)
    return {
        "id": note.id, "kind": note.kind, "title": note.title, "status": note.status,
        "superseded_by": note.superseded_by or None, "author": note.author, "created": note.created,
        "updated": note.updated, "tags": note.tags, "rationale": note.rationale or None,
        "alternatives": [{"option": a.option, "rejected_because": a.rejected_because} for a in note.alternatives],
        "works_around": note.works_around or None, "remove_when": note.remove_when or None,
        "body": note.body, "file": note.path, "anchors": anchors,
    }
