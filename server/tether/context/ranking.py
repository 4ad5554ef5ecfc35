"""The notes that apply at a place in the code, ranked, as data and as Markdown an agent
(or a person) can read. Every face calls ``context_for``; the LSP hover, the CLI, the MCP
server and the agent hooks only choose how to show it."""

from __future__ import annotations

from dataclasses import dataclass

from ..core import anchors as A
from ..core.files import glob_match
from ..core.notes import FIELDS, Note
from ..core.resolution import Located, note_json
from ..core.workspace import Workspace

# tiers, best first; a note whose code is gone (orphaned, ambiguous) comes after every note on
# code that is there: it says what the code was, not what it is
ON_SYMBOL, ENCLOSING, ON_FILE, CALLEE, ON_PATTERN, LOST = 1, 2, 3, 4, 5, 6
DEFAULT_BUDGET = 2000
_STATUS_ORDER = {"active": 0, "superseded": 1}


def estimate_tokens(text: str) -> int:
    """A documented estimate, not a tokenizer (no tokenizer installs offline with its
    vocabulary): the larger of one token per 4 characters and 1.3 per word, which
    over-counts code-heavy text a little rather than under-counting it."""
    return max((len(text) + 3) // 4, (len(text.split()) * 13 + 9) // 10)


@dataclass
class Item:
    note: Note
    tier: int
    reason: str
    located: list[Located]  # the note's anchors in the touched file (empty for other notes)
    text: str = ""  # as handed over (Markdown)

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)


@dataclass
class Context:
    path: str  # "" for the repository as a whole
    line: int | None  # 0-based
    items: list[Item]  # handed over, best first
    left_out: list[Item]  # over the budget, best first
    budget: int

    @property
    def where(self) -> str:
        return self.path if self.line is None else f"{self.path}:{self.line + 1}"

    def to_markdown(self) -> str:
        return self._markdown(self.items, self.left_out)

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.to_markdown())

    def to_json(self) -> dict:
        return {"path": self.path, "line": self.line, "budget": self.budget, "tokens": self.tokens,
                "notes": [item_json(i) for i in self.items],
                "left_out": [{"id": i.note.id, "kind": i.note.kind, "title": i.note.title, "tier": i.tier,
                              "reason": i.reason} for i in self.left_out]}

    def _markdown(self, items: list[Item], left_out: list[Item]) -> str:
        what = self.where or "this repository"
        if not items and not left_out:
            return f"No tether notes apply to {what}.\n"
        out = [f"# tether notes for {what}", ""]
        out += [i.text for i in items]
        if left_out:
            ids = ", ".join(f"{i.note.id} ({i.note.kind})" for i in left_out[:5])
            more = f" and {len(left_out) - 5} more" if len(left_out) > 5 else ""
            cmd = f"`tether context {self.where} --budget N`" if self.path else "`tether list`"
            out += [f"Left out to fit {self.budget} tokens: {ids}{more}. {cmd} shows more.", ""]
        return "\n".join(out).rstrip() + "\n"

    def fit(self, ranked: list[Item]) -> None:
        """Hand over the best-ranked notes that fit the budget, in rank order; a note too
        big for what is left is skipped (and listed as left out) so smaller ones after it
        still get in."""
        self.items, self.left_out = [], []
        for item in ranked:
            item.text = "\n".join(item_markdown(item)).rstrip() + "\n"
        used = estimate_tokens(self._markdown([], ranked))  # the frame: heading and a full left-out list
        for item in ranked:
            if used + item.tokens + 1 <= self.budget:
                self.items.append(item)
                used += item.tokens + 1
            else:
                self.left_out.append(item)
        while self.items and self.tokens > self.budget:  # the estimate is not additive: make sure
            self.left_out.insert(0, self.items.pop())
        rank = {id(item): k for k, item in enumerate(ranked)}  # (ranked.index compared items field by field: 25 ms at 200 notes)
        self.left_out.sort(key=lambda item: rank[id(item)])


def context_for(ws: Workspace, rel: str, line: int | None = None, budget: int = DEFAULT_BUDGET,
                text: str | None = None) -> Context:
    """The notes an agent (or a person) needs at ``line`` of ``rel`` (0-based), best first,
    within ``budget`` tokens: notes on the code at the line and on the definitions around
    it; notes on the file; notes on what that code calls or imports from elsewhere in the
    workspace; path-pattern and repository-wide notes. Without a line: every note on the
    file. Active notes before superseded ones; retired notes never."""
    with ws.snapshot():
        return _context_for(ws, rel, line, budget, text)


def _context_for(ws: Workspace, rel: str, line: int | None, budget: int, text: str | None) -> Context:
    located = ws.locate(rel, text)
    by_note: dict[str, list[Located]] = {}
    for loc in located:
        by_note.setdefault(loc.note.id, []).append(loc)
    items: list[Item] = []
    for locs in by_note.values():
        tier, reason = _rank(locs, line)
        if tier is not None:
            items.append(Item(locs[0].note, tier, reason, locs))
    seen = {i.note.id for i in items}
    if line is not None:
        from .calls import callee_notes  # the call graph is only needed at a line
        for note, reason in callee_notes(ws, rel, line, text):
            if note.id not in seen:
                seen.add(note.id)
                items.append(Item(note, CALLEE, reason, []))
    for note in ws.notes_on(rel):
        if note.id in seen:
            continue
        pats = [a.pattern for a in note.anchors if a.type == A.GLOB and glob_match(a.pattern, rel)]
        if pats:
            items.append(Item(note, ON_PATTERN, _pattern_reason(pats[0], rel), []))
    ranked = sorted((i for i in items if i.note.status in _STATUS_ORDER),
                    key=lambda i: (_STATUS_ORDER[i.note.status], i.tier, _span(i), i.note.id))
    ctx = Context(rel, line, [], [], budget)
    ctx.fit(ranked)
    return ctx


def repo_context(ws: Workspace, budget: int = DEFAULT_BUDGET, recent: int = 5) -> Context:
    """What a new agent session starts with: repository-wide notes (invariants and
    boundaries first), then the most recent decisions anywhere."""
    ranked: list[Item] = []
    wide = [n for n in ws.notes() if n.status == "active"
            and any(a.type == A.GLOB and is_repo_wide(a.pattern) for a in n.anchors)]
    first = {"invariant": 0, "boundary": 1}
    for n in sorted(wide, key=lambda n: (first.get(n.kind, 2), n.id)):
        ranked.append(Item(n, ON_PATTERN, "it covers the whole repository", []))
    seen = {i.note.id for i in ranked}
    decisions = [n for n in ws.notes() if n.kind == "decision" and n.status == "active" and n.id not in seen]
    for n in sorted(decisions, key=lambda n: (n.updated or n.created, n.id), reverse=True)[:recent]:
        ranked.append(Item(n, ON_FILE, f"a recent decision ({(n.updated or n.created)[:10]}) on "
                                       f"{', '.join(_anchor_words(a) for a in n.anchors) or 'no code'}", []))
    ctx = Context("", None, [], [], budget)
    ctx.fit(ranked)
    return ctx


def is_repo_wide(pattern: str) -> bool:
    return pattern.strip("/") in ("**", "**/*", "*")


def _pattern_reason(pattern: str, rel: str) -> str:
    return "it covers the whole repository" if is_repo_wide(pattern) else f"the pattern `{pattern}` covers {rel}"


def _anchor_words(a: A.Anchor) -> str:
    if a.type == A.GLOB:
        return f"`{a.pattern}`"
    return f"`{a.name}` in {a.path}" if a.name else a.path


def _rank(locs: list[Located], line: int | None) -> tuple[int | None, str]:
    """The best tier of a note's anchors in the touched file. At a line, notes on other
    definitions of the file are not about the touched code and are left out (unless
    the touched code calls them: the callee tier)."""
    best = (None, "")
    for loc in locs:
        a, r = loc.anchor, loc.range
        label = f"`{loc.resolution.name or a.name}`" if a.name else f"lines of {a.path}"
        if a.type in (A.SPAN, A.LINES) and r is not None:
            label = f"a statement in {label}" if a.name else f"lines {r.sl + 1}-{r.el + 1}"
        if a.type == A.FILE:
            cand = (ON_FILE, f"anchored on the file {a.path}")
        elif r is None:
            cand = (LOST, f"anchored on {label} in this file, which is {loc.state}: its code is not found")
        elif line is None:
            cand = (ON_SYMBOL, f"anchored on {label}")
        elif r.sl == line or (r.sl <= line <= r.el and a.type != A.SYMBOL):
            cand = (ON_SYMBOL, f"anchored on {label}")
        elif r.sl <= line <= r.el:
            cand = (ENCLOSING, f"anchored on {label}, which encloses line {line + 1}")
        else:
            continue
        if best[0] is None or cand[0] < best[0]:
            best = cand
    return best


def _span(item: Item) -> int:
    """Smaller anchored ranges (inner code) before larger ones within a tier."""
    sizes = [loc.range.el - loc.range.sl for loc in item.located if loc.range is not None]
    return min(sizes) if sizes else 1 << 30


def item_markdown(item: Item) -> list[str]:
    """A note as context: the full note, or one line for a superseded one (its
    successor, when it applies, is shown in full)."""
    note = item.note
    if note.status == "superseded":
        return [f"- Superseded {note.kind} (by {note.superseded_by}): {note.title}. Applies here: {item.reason}. "
                f"(note {note.id})", ""]
    return note_markdown(note, item.reason, item.located, brief=True)


def where(loc: Located) -> str:
    a, r = loc.anchor, loc.range
    if a.type == A.GLOB:
        return f"pattern `{a.pattern}`"
    if a.type == A.FILE:
        return f"file {a.path}"
    name = loc.resolution.name or a.name
    place = f"{loc.path}:{r.sl + 1}-{r.el + 1}" if r is not None else f"{a.path} (last seen at line {a.range.sl + 1})" \
        if a.range is not None else a.path
    if a.type == A.SPAN:
        return f"a statement in `{name}` at {place}"
    return f"`{name}` at {place}" if name else f"lines at {place}" if a.type == A.LINES else place


STATE_WORDS = {
    A.OK: "", A.MOVED: "moved", A.RENAMED: "renamed", A.CHANGED: "code changed since the note was written",
    A.ORPHANED: "orphaned: the code it was about is gone", A.AMBIGUOUS: "ambiguous: several places match",
}


def note_markdown(note: Note, reason: str = "", located: list[Located] = (), brief: bool = False) -> list[str]:
    """A note as Markdown, written as plain facts. ``brief`` (context for agents): an
    anchor is described only when it is not simply where it was."""
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
        if state or not brief:
            facts.append(f"Anchor: {where(loc)}" + (f" ({state})." if state else "."))
    if facts:
        out.append(" ".join(facts))
    if note.rationale:
        out += ["", f"Rationale: {note.rationale}"]
    if note.alternatives:
        out += ["", "Rejected options:"]
        out += [f"- {a.option}" + (f": {a.rejected_because}" if a.rejected_because else "") for a in note.alternatives]
    for field, label in FIELDS.items():  # a workaround's, a gotcha's
        if getattr(note, field):
            out += ["", f"{label}: {getattr(note, field)}"]
    if note.checks:  # an agent about to edit should know what will be flagged
        out += ["", "Checked automatically:"]
        out += [f"- {c.get('kind', '?')} {c.get('pattern') or 'query'}" + (f": {c['message']}" if c.get("message") else "")
                for c in note.checks]
    if note.body.strip():
        out += ["", note.body.strip()]
    author = (note.author.split("<")[0].strip() if brief else note.author) or "unknown author"
    out += ["", f"(note {note.id}, {author}, {note.created[:10]})", ""]
    return out


def item_json(item: Item) -> dict:
    d = note_json(item.note, item.located)
    d["tier"], d["reason"] = item.tier, item.reason
    return d
