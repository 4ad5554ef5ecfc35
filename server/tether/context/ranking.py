"""The notes that apply at a place in the code, ranked, as data and as Markdown an agent
(or a person) can read. Every face calls ``context_for``; the LSP hover, the CLI, the MCP
server and the agent hooks only choose how to show it."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core import anchors as A
from ..core.files import glob_match
from ..core.notes import FIELDS, Note
from ..core.records import dataclass, field
from ..core.resolution import Located, note_json
from ..core.workspace import Workspace

# tiers, best first. A note whose code is gone, or not found for certain (several places match, a
# rename only offered), is never handed over: it says what the code was, not what it is, and would
# take the place of one that applies. It is counted in the last line (``tether list`` shows it)
ON_SYMBOL, ENCLOSING, ON_FILE, CALLEE, ON_PATTERN, LOST, GONE = 1, 2, 3, 4, 5, 6, 7
DEFAULT_BUDGET = 2000
# the headings notes are handed under, one for each way of applying (an agent reads where
# a note applies from it; the note's own line adds only what the heading leaves unsaid)
GROUPS = {ON_SYMBOL: "On the code here", ENCLOSING: "On the code around it", ON_FILE: "On this file",
          CALLEE: "On code it calls", ON_PATTERN: "On files like this one"}
REPO_WIDE = "On the whole repository"
_STATUS_ORDER = {"active": 0, "superseded": 1}


# What a byte-pair tokenizer makes one token of, about: a word (a capitalised part of an
# identifier counts as a word of its own), up to three digits, a punctuation mark, a newline
# (Anthropic's tokenizer counts each one of a blank line). Spaces ride on the word after them.
_PIECE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d{1,3}|[^\sA-Za-z\d]|\n")
# an id or a hash: digits and letters interleaved (a note's handle, a commit), found from a
# digit before a letter (a scan for whole runs costs the estimate twice its time)
_DIGIT_LETTER = re.compile(r"\d[a-z]")
_RUN = re.compile(r"[a-z\d]*")
_GROUPS = re.compile(r"\d+|[a-z]+")
_LETTERS = re.compile(r"[a-z]{3,}")


def estimate_tokens(text: str) -> int:
    """A documented estimate, not a tokenizer (a real one brings megabytes of vocabulary to
    every install, and agents' models differ): one token a piece (:data:`_PIECE`), one more
    for every 12 letters of a long word, and the letters of an id or a hash one token for
    every two (they are no word a tokenizer knows).
    ``bench/tokens.py`` measures it against two real tokenizers (OpenAI's o200k_base and
    Anthropic's published one), the larger count of the two: on notes, tether's Markdown
    and the project's docs it is within 4 % on the whole, and 19 texts in 20 are within 7 %
    under. (1.3 tokens a word counts notes 10 % under and code-heavy text 20-40 % under; a
    quarter of the characters counts prose 25 % over.)"""
    pieces = _PIECE.findall(text)  # (a list, then one pass: a third of a loop over matches)
    return len(pieces) + sum(len(p) // 12 for p in pieces if len(p) >= 12 and p[0].isalpha()) + _id_letters(text)


def _id_letters(text: str) -> int:
    """What the letters of the ids and hashes in ``text`` cost beyond one token a run of them."""
    n = end = 0
    for m in _DIGIT_LETTER.finditer(text):
        at = m.start()
        if at < end:
            continue  # in the run just counted
        start = at
        while start and (text[start - 1].isdigit() or "a" <= text[start - 1] <= "z"):
            start -= 1
        end = _RUN.match(text, at).end()
        run = text[start:end]
        if len(run) >= 6 and len(_GROUPS.findall(run)) >= 3:  # not a unit or a version: 100ms, sha256
            n += sum((len(x) - 1) // 2 for x in _LETTERS.findall(run))
    return n


@dataclass
class Item:
    """A note that applies where code is touched: why (tier, reason, where in the file) and how it is handed over."""

    note: Note
    tier: int
    reason: str
    located: list[Located]  # the note's anchors in the touched file (empty for other notes)
    group: str = ""  # the heading it is handed under: how notes there apply
    tag: str = ""  # what its heading leaves unsaid: which definition, moved, changed
    brief: bool = False  # named only: the budget had no room for its text
    full: str = ""  # the note in full, and (head) its first line as a list item, with their estimates
    full_tokens: int = 0
    head: str = ""
    head_tokens: int = 0

    @property
    def text(self) -> str:
        """As handed over (Markdown): in full, or named only (its first line)."""
        return self.head if self.brief else self.full

    @property
    def tokens(self) -> int:
        return self.head_tokens if self.brief else self.full_tokens


@dataclass
class Context:
    """The notes handed over for one touch, fitted to a token budget (``fit``)."""

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
        """Lean: one heading for each way the notes under it apply; each note's first line
        its kind, what the heading leaves unsaid, its title and the short handle the agent
        can write back, then what it says (rationale, rejected options, body); a note the
        budget has room only to name, that line alone as a list item; what was not shown
        said in one line."""
        what = self.where or "this repository"
        if not items and not left_out and not self.gone:
            return f"No tether notes apply to {what}.\n"
        out, last, listed = [f"# tether notes for {what}"], None, False
        for i in items:
            if i.group != last:
                out += ["", f"## {i.group}"]
                last, listed = i.group, False
            if i.brief and listed:  # a list of names reads as one block
                out.append(i.text)
            else:
                out += ["", i.text]
            listed = i.brief
        line = self._not_shown(sum(i.brief for i in items), left_out, sum(i.full_tokens - i.tokens for i in items))
        if line:
            out += ["", line]
        return "\n".join(out).rstrip() + "\n"

    def _not_shown(self, named: int, left_out: list[Item], more: int) -> str:
        """``named``: notes handed by their line only, ``more`` tokens short of their text."""
        parts = []
        if named:
            parts.append(f"the text of the {named} named (`tether show ID`)")
        if left_out:  # (their kinds would cost a tenth of a tight budget)
            need = self.budget + more + sum(i.full_tokens + 5 for i in left_out)
            cmd = f"`tether context {self.where} --budget {-(-need // 100) * 100}`" if self.path else "`tether list`"
            parts.append(f"{len(left_out)} more: {cmd}")
        if self.gone:
            parts.append(f"{len(self.gone)} on code gone or not found: `tether list {self.path}`")
        return f"Not shown: {'; '.join(parts)}." if parts else ""

    @property
    def target(self) -> int:
        """What the packing fills: the budget less the estimate's error — it runs up to a few
        per cent under a real tokenizer on some answers (``bench/tokens.py``), and an answer
        must not cost the agent more than it asked for."""
        return self.budget - -(-self.budget // 40)

    def fit(self, ranked: list[Item]) -> None:
        """Hand over the notes within the budget, in rank order: first every note named by
        its first line (kind, where, title — the title states the rule — and the handle that
        fetches the rest) while the names fit, then, best first, named notes told in full
        while the budget allows. An agent learns every rule that applies before it reads a
        lesser one's rationale; a note too big for what is left stays named, and smaller
        ones after it still get their turn; what did not fit even named is counted in the
        last line. What is counted is the whole Markdown handed over."""
        for item in ranked:
            lines = item_markdown(item, self.handle)
            item.full = "\n".join(lines).rstrip()
            item.full_tokens = estimate_tokens(item.full)
            item.head = f"- {lines[0]}" if len(lines) > 1 else item.full
            item.head_tokens = estimate_tokens(item.head)
        # the frame: the heading, and the last line at its longest for what the packing left
        # unshown. The estimate adds up over the parts: each adds its own and the newlines before it
        heads = {g: estimate_tokens(f"## {g}") + 1 for g in {i.group for i in ranked}}
        briefs, left, cut = False, False, 0
        while True:  # (a few rounds: what the last line must say only grows, and so does the cut)
            frame = f"# tether notes for {self.where or 'this repository'}\n\n" + self._not_shown(
                len(ranked) if briefs else 0, ranked if left else [], sum(i.full_tokens for i in ranked))
            self._pack(ranked, heads, self.target - estimate_tokens(frame) - cut)
            now = (briefs or any(i.brief for i in self.items), left or bool(self.left_out))
            over = self.tokens - self.target if now == (briefs, left) else 0
            if now == (briefs, left) and (over <= 0 or not self.items):
                break
            briefs, left, cut = *now, cut + max(over, 0)  # (a part's edges can join into one piece)
        rank = {id(item): k for k, item in enumerate(ranked)}  # (ranked.index compared items field by field: 25 ms at 200 notes)
        self.left_out.sort(key=lambda item: rank[id(item)])

    def _pack(self, ranked: list[Item], heads: dict[str, int], room: int) -> None:
        """:meth:`fit` within ``room`` tokens for the notes (the frame is counted apart)."""
        self.items, self.left_out, last, used = [], [], None, 0
        for item in ranked:  # every note named, best first, while the names fit
            item.brief = item.head is not item.full
            cost = item.tokens + 1 + (heads[item.group] if item.group != last else 0)
            if used + cost <= room:
                self.items.append(item)
                used, last = used + cost, item.group
            else:
                self.left_out.append(item)
        for item in self.items:  # then told in full, best first, while they fit
            more = item.full_tokens - item.head_tokens
            if item.brief and used + more <= room:
                item.brief, used = False, used + more


def context_for(ws: Workspace, rel: str, line: int | None = None, budget: int = DEFAULT_BUDGET,
                text: str | None = None) -> Context:
    """The notes an agent (or a person) needs at ``line`` of ``rel`` (0-based), best first,
    within ``budget`` tokens: notes on the code at the line and on the definitions around
    it; notes on the file; notes on what that code calls or imports from elsewhere in the
    workspace; path-pattern and repository-wide notes. Without a line: every note on the
    file. Active notes before superseded ones; retired notes never."""
    with ws.snapshot():
        ranked, gone = _ranked(ws, rel, line, text)
    ctx = Context(rel, line, [], [], budget, gone, ws.repo.short_id)
    ctx.fit(ranked)
    return ctx


def ranked_at(ws: Workspace, rel: str, line: int | None = None, text: str | None = None) -> list[Item]:
    """Every note :func:`context_for` would hand over at ``line`` of ``rel``, best first, not
    yet written out or fitted to a budget (the hooks first leave out what a session was given)."""
    with ws.snapshot():
        return _ranked(ws, rel, line, text)[0]


def _ranked(ws: Workspace, rel: str, line: int | None, text: str | None) -> tuple[list[Item], list[Item]]:
    """(the notes that apply, best first; the active ones on code gone or not found for certain)."""
    located = ws.locate(rel, text)
    by_note: dict[str, list[Located]] = {}
    for loc in located:
        if loc.path == rel:  # not an anchor of this file whose code is in another one now
            by_note.setdefault(loc.note.id, []).append(loc)
    items: list[Item] = []
    at = line
    if line is not None:
        from .calls import callee_notes, declared_line  # the call graph is only needed at a line
        at = declared_line(ws, rel, line, text)  # (on an @overload stub: its implementation)
    for locs in by_note.values():
        tier, reason, tag = _rank(locs, at)
        if tier is not None:
            group = "On code in this file" if line is None and tier == ON_SYMBOL else GROUPS.get(tier, "")
            items.append(Item(locs[0].note, tier, reason, locs, group, tag))
    seen = {i.note.id for i in items}
    if line is not None:
        for note, reason, tag in callee_notes(ws, rel, at, text):
            if note.id not in seen:
                seen.add(note.id)
                items.append(Item(note, CALLEE, reason, [], GROUPS[CALLEE], tag))
    for note in ws.notes_on(rel):
        if note.id in seen:
            continue
        pats = [a.pattern for a in note.anchors if a.type == A.GLOB and glob_match(a.pattern, rel)]
        if pats:
            wide = is_repo_wide(pats[0])
            items.append(Item(note, ON_PATTERN, "on the whole repository" if wide else f"on `{pats[0]}`", [],
                              REPO_WIDE if wide else GROUPS[ON_PATTERN]))
    ranked = sorted((i for i in items if i.note.status in _STATUS_ORDER and i.tier < LOST),
                    key=lambda i: (_STATUS_ORDER[i.note.status], i.tier, _span(i), i.reason, i.note.id))
    return ranked, [i for i in items if i.tier >= LOST and i.note.status == "active"]


def repo_context(ws: Workspace, budget: int = DEFAULT_BUDGET, recent: int = 5) -> Context:
    """What a new agent session starts with: repository-wide notes (invariants and
    boundaries first), then the most recent decisions anywhere."""
    ranked: list[Item] = []
    wide = [n for n in ws.notes() if n.status == "active"
            and any(a.type == A.GLOB and is_repo_wide(a.pattern) for a in n.anchors)]
    first = {"invariant": 0, "boundary": 1}
    for n in sorted(wide, key=lambda n: (first.get(n.kind, 2), n.id)):
        ranked.append(Item(n, ON_PATTERN, "on the whole repository", [], REPO_WIDE))
    seen = {i.note.id for i in ranked}
    decisions = [n for n in ws.notes() if n.kind == "decision" and n.status == "active" and n.id not in seen]
    for n in sorted(decisions, key=lambda n: (n.updated or n.created, n.id), reverse=True)[:recent]:
        on = f"{', '.join(_anchor_words(a) for a in n.anchors) or 'no code'}, {(n.updated or n.created)[:10]}"
        ranked.append(Item(n, ON_FILE, f"on {on}", [], "Recent decisions", on))
    ctx = Context("", None, [], [], budget, handle=ws.repo.short_id)
    ctx.fit(ranked)
    return ctx


def is_repo_wide(pattern: str) -> bool:
    return pattern.strip("/") in ("**", "**/*", "*")


def _anchor_words(a: A.Anchor) -> str:
    if a.type == A.GLOB:
        return f"`{a.pattern}`"
    return f"`{a.name}` in {a.path}" if a.name else a.path


def _rank(locs: list[Located], line: int | None) -> tuple[int | None, str, str]:
    """The best tier of a note's anchors in the touched file, and where it applies, said
    short, and what of that its group's heading leaves unsaid (its tag). At a line, notes on other
    definitions of the file are not about the touched code and are left out (unless the
    touched code calls them: the callee tier)."""
    best = (None, "", "")
    for loc in locs:
        a, r = loc.anchor, loc.range
        name = loc.resolution.name or a.name
        label = f"`{name}`" if a.name else "lines"
        if a.type in (A.SPAN, A.LINES) and r is not None:
            label = f"a statement in {label}" if a.name else f"{'line' if r.sl == r.el else 'lines'} {line_span(r.sl, r.el)}"
        short = label.replace(f"`{name}`", f"`{name.rsplit('.', 1)[-1]}`") if a.name else label  # the file is known
        came = f"moved here from {a.path}" if loc.resolution.path and loc.resolution.path != a.path else ""
        if a.type == A.FILE:
            cand = (ON_FILE, "on this file", came)
        elif loc.state == A.ORPHANED:
            cand = (GONE, f"on {label}, which is gone", "")
        elif r is None:
            cand = (LOST, f"on {label}, not found for certain ({loc.state})", "")
        elif line is None or r.sl == line or (r.sl <= line <= r.el and a.type != A.SYMBOL):
            # at a line the heading says it is the code there; a statement or lines say which
            named = line is None or a.type != A.SYMBOL
            cand = (ON_SYMBOL, f"on {label}", ", ".join(filter(None, (short if named else "", came))))
        elif r.sl <= line <= r.el:
            cand = (ENCLOSING, f"on enclosing {label}", ", ".join(filter(None, (short, came))))
        else:
            continue
        if loc.state == A.CHANGED and cand[0] < LOST:
            cand = (cand[0], cand[1], ", ".join(filter(None, (cand[2], "code changed since"))))
        if came:
            cand = (cand[0], f"{cand[1]}, {came}", cand[2])
        if best[0] is None or cand[0] < best[0]:
            best = cand
    return best


def _span(item: Item) -> int:
    """Smaller anchored ranges (inner code) before larger ones within a tier."""
    sizes = [loc.range.el - loc.range.sl for loc in item.located if loc.range is not None]
    return min(sizes) if sizes else 1 << 30


def item_markdown(item: Item, handle: Callable[[str], str] = str) -> list[str]:
    """A note as an agent needs it: kind, what its heading leaves unsaid of where it applies,
    title and short id in one line, then rationale, rejected options, what it works around and
    until when (a gotcha: how it fails and why), its checks, and its text. A superseded note in
    one line (its successor, when it applies, is shown in full)."""
    note = item.note
    tag = _unsaid(item.tag, note.title)
    tag = f" ({tag})" if tag else ""
    if note.status == "superseded":
        return [f"Superseded {note.kind}{tag} ({handle(note.id)}, by {handle(note.superseded_by)}): {note.title}"]
    out = [f"{note.kind}{tag}: {note.title} ({handle(note.id)})"]
    if note.rationale:
        out.append(f"Rationale: {note.rationale}")
    if note.alternatives:
        out.append("Rejected: " + "; ".join(
            a.option + (f" ({a.rejected_because})" if a.rejected_because else "") for a in note.alternatives))
    out += [f"{label}: {getattr(note, f)}" for f, label in FIELDS.items() if getattr(note, f)]  # a workaround's, a gotcha's
    if note.checks:  # an agent about to edit should know what will be flagged
        out.append("Checked: " + "; ".join(f"{c.get('kind', '?')} {c.get('pattern') or 'query'}"
                                           + (f" ({c['message']})" if c.get("message") else "") for c in note.checks))
    if note.body.strip():
        out.append(note.body.strip())
    return out


_TAG_NAME = re.compile(r"`([^`]+)`,? ?")
_LAST_PART = re.compile(r"\.|::")
_WORDISH = re.compile(r"[\w$]")


def _unsaid(tag: str, title: str) -> str:
    """``tag`` less the definition's name it starts with when the title says that name (a
    method with its class): an agent reads it there, and a name said twice costs every
    note's line a few tokens."""
    m = _TAG_NAME.match(tag)
    if m is None:
        return tag
    parts = _LAST_PART.split(m[1])[-2:]
    names = parts if len(parts) == 1 else [f"{parts[0]}.{parts[1]}", f"{parts[0]}::{parts[1]}"]
    return tag[m.end():] if any(_says(title, name) for name in names) else tag


def _says(text: str, name: str) -> bool:
    """``name`` is in ``text``, not as part of a longer word (no pattern compiled for each
    name: a hook ranks 200 notes of a file, and compiling theirs was ~10 ms of it)."""
    at = text.find(name)
    while at >= 0:
        if not (at and _WORDISH.match(text, at - 1)) and not _WORDISH.match(text, at + len(name)):
            return True
        at = text.find(name, at + 1)
    return False


def where(loc: Located) -> str:
    a, r = loc.anchor, loc.range
    if a.type == A.GLOB:
        return f"pattern `{a.pattern}`"
    if a.type == A.FILE:
        return f"file {loc.path}" + (f" (was {a.path})" if loc.path != a.path else "")
    name = loc.resolution.name or a.name
    place = f"{loc.path}:{line_span(r.sl, r.el)}" if r is not None else f"{a.path} (last seen at line {a.range.sl + 1})" \
        if a.range is not None else a.path
    if a.type == A.SPAN:
        return f"a statement in `{name}` at {place}"
    one = r is not None and r.sl == r.el
    return f"`{name}` at {place}" if name else f"line{'' if one else 's'} at {place}" if a.type == A.LINES else place


def line_span(sl: int, el: int) -> str:
    """0-based first and last line as people read them: ``12`` for one line, ``12-15``."""
    return f"{sl + 1}" if el == sl else f"{sl + 1}-{el + 1}"


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
    d["shown"] = "title" if item.brief else "full"  # what the Markdown has of it
    return d
