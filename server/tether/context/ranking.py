"""The notes that apply at a place in the code, ranked, as data and as Markdown an agent
(or a person) can read. Every face calls ``context_for``; the LSP hover, the CLI, the MCP
server and the agent hooks only choose how to show it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core import anchors as A
from ..core.files import glob_match
from ..core.notes import FIELDS, Note
from ..core.resolution import Located, note_json
from ..core.workspace import Workspace

# tiers, best first. A note whose code is gone, or not found for certain (several places match, a
# rename only offered), is never handed over: it says what the code was, not what it is, and would
# take the place of one that applies. It is counted in the last line (``tether list`` shows it)
ON_SYMBOL, ENCLOSING, ON_FILE, CALLEE, ON_PATTERN, LOST, GONE = 1, 2, 3, 4, 5, 6, 7
DEFAULT_BUDGET = 2000
_STATUS_ORDER = {"active": 0, "superseded": 1}


def estimate_tokens(text: str) -> int:
    """A documented estimate, not a tokenizer (no tokenizer installs offline with its
    vocabulary): the larger of one token per 4 characters and 1.3 per word, which
    over-counts code-heavy text a little rather than under-counting it."""
    return tokens_of(len(text), len(text.split()))


def tokens_of(chars: int, words: int) -> int:
    """:func:`estimate_tokens` of a text of this many characters and words (both add up)."""
    return max((chars + 3) // 4, (words * 13 + 9) // 10)


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
    gone: list[Item] = field(default_factory=list)  # notes on code gone or not found for certain: counted only
    handle: Callable[[str], str] = str  # a note id as the agent may write it back (a unique short form)

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
                              "reason": i.reason} for i in self.left_out],
                "gone": [{"id": i.note.id, "kind": i.note.kind, "title": i.note.title, "reason": i.reason}
                         for i in self.gone]}

    def _markdown(self, items: list[Item], left_out: list[Item]) -> str:
        """Lean: what each note says (kind, title, rationale, rejected options, body) under
        where it applies, one heading for the notes that apply the same way; a note's id only
        as the short handle the agent can write back; what did not fit said in one line."""
        what = self.where or "this repository"
        if not items and not left_out and not self.gone:
            return f"No tether notes apply to {what}.\n"
        out = [f"# tether notes for {what}"]
        last = None
        for i in items:
            if i.reason != last:
                out += ["", f"## {i.reason}"]
                last = i.reason
            out += ["", i.text]
        line = self._not_shown(left_out)
        if line:
            out += ["", line]
        return "\n".join(out).rstrip() + "\n"

    def _not_shown(self, left_out: list[Item]) -> str:
        parts = []
        if left_out:
            kinds = Counter(i.note.kind for i in left_out)
            need = self.budget + sum(i.tokens + 8 for i in left_out)
            cmd = f"`tether context {self.where} --budget {-(-need // 100) * 100}`" if self.path else "`tether list`"
            parts.append(f"{len(left_out)} over the budget ("
                         + ", ".join(f"{k} {kind}" if k > 1 else kind for kind, k in kinds.most_common()) + f"): {cmd}")
        if self.gone:
            parts.append(f"{len(self.gone)} on code deleted or not found: `tether list {self.path}`")
        return f"Not shown: {'; '.join(parts)}." if parts else ""

    def fit(self, ranked: list[Item]) -> None:
        """Hand over the best-ranked notes that fit the budget, in rank order. A note too big
        for what is left is left out (and counted in the last line) and smaller ones after it
        still get in: rank orders what is handed, it does not make a lesser note wait on a
        better one that cannot come anyway."""
        for item in ranked:
            item.text = "\n".join(item_markdown(item, self.handle)).rstrip()
        # the frame: the heading, and the last line at its longest once anything is left out.
        # The estimate is of characters and words, both additive: each part adds its own and
        # the two blank-line joints before it, so what is handed is counted exactly
        for frame in (self._markdown([], []), self._markdown([], ranked)):
            self.items, self.left_out, last = [], [], None
            chars, words = len(frame), len(frame.split())
            for item in ranked:
                part = item.text if item.reason == last else f"## {item.reason}\n\n{item.text}"
                c, w = chars + len(part) + 2, words + len(part.split())
                if tokens_of(c, w) <= self.budget:
                    self.items.append(item)
                    chars, words, last = c, w, item.reason
                else:
                    self.left_out.append(item)
            if not self.left_out:
                break
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
        if loc.path == rel:  # not an anchor of this file whose code is in another one now
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
    ranked = sorted((i for i in items if i.note.status in _STATUS_ORDER and i.tier < LOST),
                    key=lambda i: (_STATUS_ORDER[i.note.status], i.tier, _span(i), i.reason, i.note.id))
    ctx = Context(rel, line, [], [], budget, [i for i in items if i.tier >= LOST and i.note.status == "active"],
                  ws.repo.short_id)
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
    ctx = Context("", None, [], [], budget, handle=ws.repo.short_id)
    ctx.fit(ranked)
    return ctx


def is_repo_wide(pattern: str) -> bool:
    return pattern.strip("/") in ("**", "**/*", "*")


def _pattern_reason(pattern: str, rel: str) -> str:
    return "On the whole repository" if is_repo_wide(pattern) else f"On `{pattern}`"


def _anchor_words(a: A.Anchor) -> str:
    if a.type == A.GLOB:
        return f"`{a.pattern}`"
    return f"`{a.name}` in {a.path}" if a.name else a.path


def _rank(locs: list[Located], line: int | None) -> tuple[int | None, str]:
    """The best tier of a note's anchors in the touched file, and where it applies, said
    short (it heads the notes that apply the same way). At a line, notes on other
    definitions of the file are not about the touched code and are left out (unless the
    touched code calls them: the callee tier)."""
    best = (None, "")
    for loc in locs:
        a, r = loc.anchor, loc.range
        label = f"`{loc.resolution.name or a.name}`" if a.name else "lines"
        if a.type in (A.SPAN, A.LINES) and r is not None:
            label = f"a statement in {label}" if a.name else f"lines {r.sl + 1}-{r.el + 1}"
        came = f" (moved here from {a.path})" if loc.resolution.path and loc.resolution.path != a.path else ""
        if a.type == A.FILE:
            cand = (ON_FILE, "On this file" + came)
        elif loc.state == A.ORPHANED:
            cand = (GONE, f"On {label}, which is gone")
        elif r is None:
            cand = (LOST, f"On {label}, not found for certain ({loc.state})")
        elif line is None or r.sl == line or (r.sl <= line <= r.el and a.type != A.SYMBOL):
            cand = (ON_SYMBOL, f"On {label}{came}")
        elif r.sl <= line <= r.el:
            cand = (ENCLOSING, f"On {label}{came}, enclosing")
        else:
            continue
        if loc.state == A.CHANGED and cand[0] < LOST:
            cand = (cand[0], cand[1] + ", its code changed since")
        if best[0] is None or cand[0] < best[0]:
            best = cand
    return best


def _span(item: Item) -> int:
    """Smaller anchored ranges (inner code) before larger ones within a tier."""
    sizes = [loc.range.el - loc.range.sl for loc in item.located if loc.range is not None]
    return min(sizes) if sizes else 1 << 30


def item_markdown(item: Item, handle: Callable[[str], str] = str) -> list[str]:
    """A note as an agent needs it: kind, title and its short id, then rationale, rejected
    options, what it works around and until when, its checks, and its text. A superseded
    note in one line (its successor, when it applies, is shown in full)."""
    note = item.note
    if note.status == "superseded":
        return [f"Superseded {note.kind} ({handle(note.id)}, by {handle(note.superseded_by)}): {note.title}"]
    out = [f"{note.kind}: {note.title} ({handle(note.id)})"]
    if note.rationale:
        out.append(f"Rationale: {note.rationale}")
    if note.alternatives:
        out.append("Rejected: " + "; ".join(
            a.option + (f" ({a.rejected_because})" if a.rejected_because else "") for a in note.alternatives))
    if note.works_around:
        out.append(f"Works around: {note.works_around}")
    if note.remove_when:
        out.append(f"Can go when: {note.remove_when}")
    if note.checks:  # an agent about to edit should know what will be flagged
        out.append("Checked: " + "; ".join(f"{c.get('kind', '?')} {c.get('pattern') or 'query'}"
                                           + (f" ({c['message']})" if c.get("message") else "") for c in note.checks))
    if note.body.strip():
        out.append(note.body.strip())
    return out


def where(loc: Located) -> str:
    a, r = loc.anchor, loc.range
    if a.type == A.GLOB:
        return f"pattern `{a.pattern}`"
    if a.type == A.FILE:
        return f"file {loc.path}" + (f" (was {a.path})" if loc.path != a.path else "")
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


def note_markdown(note: Note, reason: str = "", located: list[Located] = ()) -> list[str]:
    """A note in full as Markdown, written as plain facts (``show``, hover, review)."""
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
    for field, label in FIELDS.items():  # a workaround's, a gotcha's
        if getattr(note, field):
            out += ["", f"{label}: {getattr(note, field)}"]
    if note.checks:  # an agent about to edit should know what will be flagged
        out += ["", "Checked automatically:"]
        out += [f"- {c.get('kind', '?')} {c.get('pattern') or 'query'}" + (f": {c['message']}" if c.get("message") else "")
                for c in note.checks]
    if note.body.strip():
        out += ["", note.body.strip()]
    author = note.author or "unknown author"
    out += ["", f"(note {note.id}, {author}, {note.created[:10]})", ""]
    return out


def item_json(item: Item) -> dict:
    d = note_json(item.note, item.located)
    d["tier"], d["reason"] = item.tier, item.reason
    return d
