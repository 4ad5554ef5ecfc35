"""Structural anchors: what a note is tied to, and where that code is now.

``record`` turns a position in a file into an :class:`Anchor` (a fingerprint of the
code there); ``resolve`` finds the anchor in a new version of the file. Both are pure:
no I/O, no store. Resolution, cheapest first: same qualified name → same normalized text
→ token alignment of the old and new definition → rename detection among definitions
whose names are new (look-alikes renamed together: jointly, ``Resolver._paired``).
Anything doubtful is ``ambiguous`` or ``orphaned``: a note is never silently attached to
other code (misattachment is the worst failure tether can have).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter

from .records import dataclass, field
from .syntax import Definition, SourceFile, Statement
from .text import Range, digest, dice, line_counts, normalize, sketch, sketch_similarity, tokens, utf16_len

# -- the one list of anchor types and resolution states ----------------------------------

SYMBOL, SPAN, LINES, FILE, GLOB = "symbol", "span", "lines", "file", "glob"
ANCHOR_TYPES = (SYMBOL, SPAN, LINES, FILE, GLOB)

OK, MOVED, RENAMED, CHANGED, ORPHANED, AMBIGUOUS = (
    "ok", "moved", "renamed", "changed", "orphaned", "ambiguous")
STATES = (OK, MOVED, RENAMED, CHANGED, ORPHANED, AMBIGUOUS)
ATTACHED = (OK, MOVED, RENAMED, CHANGED)

# Thresholds (Dice of token multisets). A renamed definition must keep half its tokens
# (its own name masked) and clearly beat every other candidate; a statement edited in
# place must keep most of its tokens in place. Real histories put deleted code below
# these values (see bench/anchors.py and the benchmark's SPEC).
RENAME_MIN = 0.5
RENAME_MARGIN = 0.15
SKETCH_OFFER = 0.8  # without the old text, only this close a definition is offered
STMT_SIMILAR = 0.6
STMT_EDITED = 0.5
STMT_KEPT = 0.75

PAIR_WORK = 2500  # likenesses (gone x new definitions) weighed to find a group of renamed look-alikes, at most
REPLACED_LINES = 0.3  # line Dice under which a file with none of its old definitions is another file
FUNCTION_KINDS = ("function", "method")


class AnchorError(ValueError):
    """A position that cannot be anchored (says why)."""


class NoDefinition(AnchorError):
    """A definition asked for where none encloses the position."""


@dataclass(slots=True)
class Anchor:
    """Where a note is tied: a definition, a span, lines, a file or a path pattern, with what finds it again."""

    type: str
    path: str = ""
    pattern: str = ""  # glob anchors
    lang: str = ""
    node: str = ""  # node type of the anchored code
    name: str = ""  # qualified name (symbol) or the enclosing definition's (span)
    params: str = ""  # parameter list, to tell overloads apart
    hash: str = ""  # digest of the whitespace-normalized text
    sketch: list[int] = field(default_factory=list)  # similarity sketch of its tokens
    range: Range | None = None  # last known range
    # a digest of the file's text this anchor was written in and of the anchor itself, set
    # when it resolves there exactly as written: a file with that text needs no parse (vouch())
    vouched: str = ""

    @property
    def is_code(self) -> bool:
        return self.type in (SYMBOL, SPAN, LINES)


@dataclass(slots=True)
class Resolution:
    """Where an anchor is found now, or why not (``state``)."""

    state: str
    range: Range | None = None
    name: str = ""  # qualified name now (differs after a rename)
    candidates: list[Range] = field(default_factory=list)  # places to offer when ambiguous
    hash: str = ""  # digest of the code found, normalized (compare with Anchor.hash)
    params: str = ""  # parameter list of the definition found (of the enclosing one, for a span)
    path: str = ""  # the file it is in now, when another than the anchor's (see ``follow``)
    candidate_paths: list[str] = field(default_factory=list)  # the file of each candidate, when elsewhere
    offered: bool = False  # ambiguous only for renames offered: the name itself is gone from the file

    @property
    def attached(self) -> bool:
        return self.state in ATTACHED


# -- recording ----------------------------------------------------------------------------

def record(src: SourceFile, path: str, line: int, col: int = 0, *, how: str = SYMBOL,
           end: tuple[int, int] | None = None) -> Anchor:
    """Anchor the code at an LSP position: the innermost definition (``symbol``), the
    statement there (``span``), or the whole file (``file``). Without a grammar, or
    outside any function, a span becomes a ``lines`` anchor on the selected lines."""
    if how == FILE:
        return Anchor(FILE, path=path)
    if not 0 <= line < len(src.pos.lines):
        raise AnchorError(f"{path}:{line + 1}: line out of range (the file has {len(src.pos.lines)} lines)")
    text = src.pos.lines[line]
    # a blank line outside any definition names no code (a note there would hold an empty line)
    blank = AnchorError(f"{path}:{line + 1}: the line is blank; give a line of the code the note is about") \
        if not text.strip() and end is None else None
    indent = utf16_len(text[:len(text) - len(text.lstrip())])
    if col < indent:  # a position in the indentation means the code that starts the line
        col = indent
    byte = src.pos.byte(line, col)
    if how == SYMBOL:
        d = None
        if src.tree is not None:  # a method's @overload stub declares the method, not its class
            d = src.implementation_of_stub(byte) or src.def_at(byte) or _documented_def(src, byte)
        if d is None:
            if blank:
                raise blank
            where = "no grammar for this file type" if src.tree is None else "no definition here"
            raise NoDefinition(f"{path}:{line + 1}: {where}; anchor a span (--span) or the file (--file)")
        return vouched(symbol_anchor(src, path, d), src)
    if how == SPAN:
        if blank:
            raise blank
        s = stmt_at(src, byte, src.pos.byte(*end) if end else None)
        if s is None and end is None:
            s = _commented_stmt(src, byte)
        if s is not None:
            return vouched(span_anchor(src, path, s), src)
        el = end[0] if end else _top_level_end(src, byte, line)
        return vouched(lines_anchor(src, path, line, max(line, el)), src)
    raise AnchorError(f"unknown anchor type {how!r}")


def vouch(a: Anchor, h: str, lang: str) -> str:
    """What ``a.vouched`` holds when ``a`` resolves as written (:func:`as_written`) in the
    text of digest ``h`` parsed as ``lang``: an anchor edited since, or another text or
    grammar, does not match it."""
    return digest(f"{h}|{lang}|{a.type}|{a.path}|{a.node}|{a.name}|{a.params}|{a.hash}|{tuple(a.range or ())}")


def as_written(a: Anchor) -> Resolution:
    """The resolution of an anchor in the very text it was written in."""
    return Resolution(OK, a.range, a.name, [], a.hash, a.params)


def vouched(a: Anchor, src: SourceFile) -> Anchor:
    """``a``, just written in ``src``, with ``vouched`` set if it resolves there as written
    (it does not where another definition looks just like it)."""
    if a.is_code and resolve(a, src) == as_written(a):
        a.vouched = vouch(a, digest(src.text), src.lang.name if src.lang else "")
    return a


def _documented_def(src: SourceFile, byte: int) -> Definition | None:
    """On a comment just above a definition (its doc comment), that definition."""
    node = src.tree.root_node.descendant_for_byte_range(byte, byte)
    while node is not None and node.type in src.lang.comments:
        node = node.next_named_sibling
        if node is not None and node.type not in src.lang.comments:
            d = src.def_at(node.start_byte)
            return d if d is not None and d.node.start_byte >= node.start_byte else None
    return None


def _top_level_end(src: SourceFile, byte: int, line: int) -> int:
    """Outside any function, the last line of the top-level statement that starts on ``line``
    (a constant's table, a multi-line call): the lines of all of it, not its first line alone."""
    if src.tree is None:
        return line
    for node in src.tree.root_node.named_children:
        if node.start_byte <= byte < node.end_byte:
            return node.end_point[0] if node.start_point[0] == line and node.type not in src.lang.comments else line
    return line


def _commented_stmt(src: SourceFile, byte: int) -> Statement | None:
    """On a comment inside a function, the statement it comments: the next one there."""
    if src.tree is None:
        return None
    node = src.tree.root_node.descendant_for_byte_range(byte, byte)
    if node is None or node.type not in src.lang.comments:
        return None
    owner = src.def_at(byte)
    after = [st for st in src.stmts if st.start > byte and owner is not None and st.owner == owner.index]
    return min(after, key=lambda st: st.start) if after else None


def symbol_anchor(src: SourceFile, path: str, d: Definition) -> Anchor:
    return Anchor(SYMBOL, path=path, lang=src.lang.name, node=d.node_type, name=d.qualname,
                  params=d.params, hash=src.def_hash(d), sketch=sketch(src.def_tokens(d)),
                  range=src.def_range(d))


def span_anchor(src: SourceFile, path: str, s: Statement) -> Anchor:
    owner = src.defs[s.owner]
    return Anchor(SPAN, path=path, lang=src.lang.name, node=s.node_type, name=owner.qualname,
                  params=owner.params, hash=digest(src.stmt_norm(s)), sketch=sketch(src.stmt_tokens(s)),
                  range=src.range_of(s.start, s.end))


def lines_anchor(src: SourceFile, path: str, sl: int, el: int) -> Anchor:
    lines = src.pos.lines[sl:el + 1]
    text = "\n".join(lines)
    return Anchor(LINES, path=path, lang=src.lang.name if src.lang else "", hash=digest(normalize(text)),
                  sketch=sketch(tokens(text)), range=Range(sl, 0, el, len(lines[-1]) if lines else 0))


def stmt_at(src: SourceFile, byte: int, end: int | None = None) -> Statement | None:
    """The innermost statement containing the position (or the selection)."""
    end = byte if end is None else end
    best = None
    for s in src.stmts:
        if s.start <= byte and end <= s.end and (best is None or s.end - s.start <= best.end - best.start):
            best = s
    return best


# -- resolution ---------------------------------------------------------------------------

def resolve(anchor: Anchor, new: SourceFile, old: SourceFile | None = None) -> Resolution:
    """Where ``anchor`` is in ``new``. ``old`` is the text the anchor was last resolved in,
    when known (it allows a token alignment); without it the fingerprint alone decides,
    more conservatively."""
    return Resolver(new, old).resolve(anchor)


def resolve_all(anchors: list[Anchor], new: SourceFile, old: SourceFile | None = None) -> list[Resolution]:
    """Resolve several anchors of one file, sharing the work between them."""
    ctx = Resolver(new, old)
    return [ctx.resolve(a) for a in anchors]


class Resolver:
    def __init__(self, new: SourceFile, old: SourceFile | None):
        self.new, self.old = new, old
        self._new_keys = _index(new)
        self._old_keys = _index(old) if old is not None else None
        self._gone_defs: list[Definition] | None = None  # old definitions whose key the new text lacks
        self._pairs: dict[int, Definition | None] = {}  # id of an old definition -> its rename, told jointly
        self._sims: dict[tuple[int, int], float] = {}  # (old index, new index) -> token similarity (_paired)
        self._sym_cache: dict[tuple, tuple[Definition | None, Resolution]] = {}
        self._align_cache: dict[tuple[int, int], dict] = {}
        self._replaced_cache: bool | None = None

    def resolve(self, a: Anchor) -> Resolution:
        if a.type in (FILE, GLOB):
            return Resolution(OK)
        if a.type == LINES or self.new.tree is None or not a.name:
            return _resolve_lines(a, self.new, self.old)
        if a.type == SYMBOL:
            return self.symbol(a)[1]
        return self.span(a)

    # -- symbols --------------------------------------------------------------------------
    def old_def(self, a: Anchor) -> Definition | None:
        """The anchor's definition in the old text: by its range, else by its name."""
        if self.old is None or self.old.tree is None:
            return None
        named = self._old_keys.get(a.name, [])
        if a.range is not None:
            for d in named or self.old.defs:
                r = self.old.def_range(d)
                if r.sl == a.range.sl and r.el == a.range.el:
                    return d
        if len(named) == 1:
            return named[0]
        same = [d for d in named if d.params == a.params]
        return same[0] if len(same) == 1 else None

    def symbol(self, a: Anchor) -> tuple[Definition | None, Resolution]:
        key = (a.name, a.params, a.range)
        hit = self._sym_cache.get(key)
        if hit is None:
            hit = self._sym_cache[key] = self._symbol(a)
        return hit

    def _symbol(self, a: Anchor) -> tuple[Definition | None, Resolution]:
        new, old_def = self.new, self.old_def(a)
        cands = self._new_keys.get(a.name, [])
        if old_def is not None:  # an interface and a const of one name (TypeScript) are two things
            cands = [d for d in cands if _family(d.kind) == _family(old_def.kind)]
        if len(cands) > 1:
            cands = [d for d in cands if d.params == a.params] or cands
        if len(cands) > 1:
            cands = [d for d in cands if _def_hash(new, d) == a.hash] or cands
        if len(cands) > 1 and old_def is not None:
            cands = [d for d in cands if self._aligned_def(old_def, d)] or cands
        if len(cands) > 1:
            cands = self._twin(a, old_def, cands)
        if len(cands) == 1:
            d = cands[0]
            return d, Resolution(self._content_state(a, d), new.def_range(d), d.qualname,
                                 hash=_def_hash(new, d), params=d.params)
        if len(cands) > 1:
            return None, Resolution(AMBIGUOUS, None, a.name, [new.def_range(d) for d in cands])
        return self._renamed(a, old_def)

    def _twin(self, a: Anchor, old_def: Definition | None, cands: list[Definition]) -> list[Definition]:
        """Identical definitions under one name (twins in the branches of an ``if``, a method
        assigned twice): told apart by where they sit — the branch, the headers of what
        encloses them — and, among twins that sit alike, by their order, when the text they
        were last seen in has as many of them. Unchanged and unseen before: the one exactly
        at the anchor's range."""
        if old_def is None:
            exact = [d for d in cands if self.new.def_range(d) == a.range]
            return exact or cands
        sig = _place(self.old, old_def)
        cands = [d for d in cands if _place(self.new, d) == sig] or cands
        if len(cands) == 1:
            return cands
        twins = [d for d in self._old_keys.get(old_def.qualname, []) if d.params == old_def.params
                 and _def_hash(self.old, d) == _def_hash(self.old, old_def) and _place(self.old, d) == sig]
        return [cands[twins.index(old_def)]] if len(twins) == len(cands) and old_def in twins else cands

    def _content_state(self, a: Anchor, d: Definition) -> str:
        if _def_hash(self.new, d) != a.hash:
            return CHANGED
        r = self.new.def_range(d)
        return OK if a.range is None or (r.sl, r.el) == (a.range.sl, a.range.el) else MOVED

    def _renamed(self, a: Anchor, old_def: Definition | None) -> tuple[Definition | None, Resolution]:
        """The name is gone: a definition with a *new* name (absent from the old text) and
        most of the old tokens is the same code renamed or moved into another scope."""
        new = self.new
        if self._replaced():
            return None, Resolution(ORPHANED, None, a.name)
        cls = _family(old_def.kind) if old_def is not None else None
        old_names = set(self._old_keys) if self._old_keys is not None else None
        short = a.name.rsplit(".", 1)[-1]
        parent = a.name.rsplit(".", 1)[0] if "." in a.name else ""
        scored = []
        for d in new.defs:
            if old_names is not None and d.key in old_names:
                continue  # an existing definition: never the renamed one
            if cls is not None and _family(d.kind) != cls:
                continue
            if old_def is not None:
                sim = _def_similarity(self.old, old_def, new, d)
            else:  # a sketch cannot tell a near-copy from the same code: offer, never take
                sim = sketch_similarity(a.sketch, sketch(new.def_tokens(d)))
            if sim >= RENAME_MIN - RENAME_MARGIN:
                d_parent = d.qualname.rsplit(".", 1)[0] if "." in d.qualname else ""
                related = d_parent == parent or d.name.rsplit(".", 1)[-1] == short
                scored.append((sim, related, d))
        scored.sort(key=lambda t: -t[0])
        rivals = [(t[0], id(t[2])) for t in scored]  # every look-alike counts against the margin
        best = scored[0][0] if scored else 0.0
        if old_def is not None:  # one old definition a new one: not one another gone definition is likelier
            scored = [t for t in scored if not self._likelier_elsewhere(old_def, t[2], t[0])]
        if scored:
            sim, related, d = scored[0]
            runner = max((s for s, i in rivals if i != id(d)), default=0.0)
            # (one set aside as another's and likelier than d: d is a second choice, never taken)
            if old_def is not None and sim >= max(RENAME_MIN, best) and related and sim - runner >= RENAME_MARGIN:
                return d, Resolution(RENAMED, new.def_range(d), d.qualname, hash=_def_hash(new, d), params=d.params)
            # its class (or function) renamed: the one new definition keeping the anchor's own
            # name, as like it as the likest (the class's other methods may be as like it)
            same = [x for s, _, x in scored if s >= sim and x.qualname.rsplit(".", 1)[-1] == short]
            if old_def is not None and sim >= max(RENAME_MIN, best) and len(same) == 1 and \
                    sum(1 for _, _, x in scored if x.qualname.rsplit(".", 1)[-1] == short) == 1:
                d = same[0]
                return d, Resolution(RENAMED, new.def_range(d), d.qualname, hash=_def_hash(new, d), params=d.params)
            d = self._paired(old_def) if old_def is not None else None
            if d is not None:
                return d, Resolution(RENAMED, new.def_range(d), d.qualname, hash=_def_hash(new, d), params=d.params)
            offer = RENAME_MIN if old_def is not None else SKETCH_OFFER
            offered = [new.def_range(x) for s, _, x in scored[:3] if s >= offer]
            if offered:
                return None, Resolution(AMBIGUOUS, None, a.name, offered, offered=True)
        return None, Resolution(ORPHANED, None, a.name)

    def _likelier_elsewhere(self, old_def: Definition, d: Definition, sim: float) -> bool:
        """Is the new definition ``d`` more like another definition of the old text whose name
        is gone too (renamed itself), than like ``old_def``? Then it is that one's rename, and
        ``old_def`` went elsewhere (moved to another file) or was deleted."""
        gone = self._gone_defs
        if gone is None:
            gone = self._gone_defs = [o for o in self.old.defs if o.key not in self._new_keys]
        cls = _family(old_def.kind)
        return any(o is not old_def and _family(o.kind) == cls and _def_similarity(self.old, o, self.new, d) > sim
                   for o in gone)

    def _paired(self, old_def: Definition) -> Definition | None:
        """The rename of ``old_def`` told jointly with its look-alikes, when no margin tells it
        alone: near twins renamed together (``load_a``, ``load_b`` to ``read_a``, ``read_b``)
        are each nearly as like the other's new self as their own (:func:`_paired_group`)."""
        if id(old_def) not in self._pairs:
            if self._gone_defs is None:
                self._gone_defs = [o for o in self.old.defs if o.key not in self._new_keys]
            cls = _family(old_def.kind)
            gone = [o for o in self._gone_defs if _family(o.kind) == cls]
            fresh = [d for d in self.new.defs if d.key not in self._old_keys and _family(d.kind) == cls]
            group, pairs = _paired_group(old_def, gone, fresh, self._similarity, RENAME_MARGIN, RENAME_MIN)
            for o in group or [old_def]:
                self._pairs[id(o)] = pairs.get(id(o)) if pairs else None
        return self._pairs[id(old_def)]

    def _similarity(self, o: Definition, d: Definition) -> float:
        key = (o.index, d.index)
        if key not in self._sims:
            self._sims[key] = _def_similarity(self.old, o, self.new, d)
        return self._sims[key]

    def _replaced(self) -> bool:
        """Another file took this path (a file deleted, another moved onto its name): no
        definition of the old text is left in the new one, and few of its lines. Nothing
        there is a rename of the old code."""
        if self._replaced_cache is None:
            self._replaced_cache = self._old_keys is not None and len(self._old_keys) >= 2 and \
                not any(k in self._new_keys for k in self._old_keys) and \
                dice(line_counts(self.old.pos.lines), line_counts(self.new.pos.lines)) < REPLACED_LINES
        return self._replaced_cache

    def _aligned_def(self, old_def: Definition, d: Definition) -> bool:
        return _def_similarity(self.old, old_def, self.new, d) >= 0.9

    # -- spans ----------------------------------------------------------------------------
    def old_stmt(self, a: Anchor, owner: Definition | None) -> Statement | None:
        if self.old is None or owner is None:
            return None
        for s in self.old.stmts_of(owner.index):
            r = self.old.range_of(s.start, s.end)
            if a.range is not None and (r.sl, r.el) == (a.range.sl, a.range.el) and s.node_type == a.node:
                return s
        for s in self.old.stmts_of(owner.index):
            if digest(self.old.stmt_norm(s)) == a.hash:
                return s
        return None

    def span(self, a: Anchor) -> Resolution:
        owner_anchor = Anchor(SYMBOL, name=a.name, params=a.params, range=None)
        old_owner = self.old_def(owner_anchor) if self.old is not None else None
        if old_owner is not None:
            owner_anchor.range = self.old.range_of(old_owner.start, old_owner.end)
            owner_anchor.hash = _def_hash(self.old, old_owner)
        old_s = self.old_stmt(a, old_owner)
        owner, ores = self.symbol(owner_anchor) if old_owner is not None else self._owner_without_old(a)
        if owner is None:
            moved = self._moved_out(a, old_s, None, old_owner)
            if moved is not None:
                return moved
            return Resolution(AMBIGUOUS if ores.state == AMBIGUOUS else ORPHANED, None, a.name, offered=ores.offered)
        return self.in_owner(a, owner, old_owner, old_s)

    def in_owner(self, a: Anchor, owner: Definition, old_owner: Definition | None,
                 old_s: Statement | None) -> Resolution:
        """The statement ``a`` (``old_s`` of ``old_owner`` in the old text) inside ``owner``."""
        new = self.new
        stmts = new.stmts_of(owner.index)
        same = [s for s in stmts if digest(new.stmt_norm(s)) == a.hash]
        if len(same) == 1:
            return self._found(a, owner, same[0], exact=True)
        aligned = self._align(old_owner, owner, old_s) if old_s is not None else None
        if len(same) > 1:
            if aligned is not None and aligned[0] in same:
                return self._found(a, owner, aligned[0], exact=True)
            return Resolution(AMBIGUOUS, None, owner.qualname, [new.range_of(s.start, s.end) for s in same])
        if aligned is not None and self._same_statement(old_s, *aligned):
            return self._found(a, owner, aligned[0], exact=False)
        moved = self._moved_out(a, old_s, owner, old_owner)
        if moved is not None:
            return moved
        if old_s is None:  # fingerprint only: the most similar statement, if clearly so
            best = sorted(((sketch_similarity(a.sketch, sketch(new.stmt_tokens(s))), s.index, s)
                           for s in stmts if s.node_type == a.node), reverse=True)[:2]
            if best and best[0][0] >= 0.8 and (len(best) == 1 or best[0][0] - best[1][0] >= 0.2):
                return self._found(a, owner, best[0][2], exact=False)
        return Resolution(ORPHANED, None, owner.qualname)

    def _same_statement(self, s: Statement, t: Statement, kept: float, kept_new: float, sim: float) -> bool:
        """Is ``t`` (the statement the alignment carried ``s`` to) ``s`` edited in place?
        Similar text, or the same block header, or a small edit that kept nearly all
        tokens on both sides; a statement replaced by another one fails all three."""
        if t.node_type != s.node_type or kept < 0.5:
            return False
        if sim >= STMT_SIMILAR:
            return True
        old, new = self.old, self.new
        if _first_line(old, s) == _first_line(new, t) and old.pos.line_of_byte(s.end) > old.pos.line_of_byte(s.start) \
                and kept >= 0.8:
            return True
        return sim >= STMT_EDITED and kept >= STMT_KEPT and kept_new >= STMT_KEPT

    def _owner_without_old(self, a: Anchor) -> tuple[Definition | None, Resolution]:
        cands = self._new_keys.get(a.name, [])
        if len(cands) > 1:
            cands = [d for d in cands if d.params == a.params]
        if len(cands) == 1:
            return cands[0], Resolution(OK)
        return None, Resolution(AMBIGUOUS if cands else ORPHANED)

    def _found(self, a: Anchor, owner: Definition, s: Statement, exact: bool) -> Resolution:
        r = self.new.range_of(s.start, s.end)
        if not exact:
            state = CHANGED
        elif a.range is None or (r.sl, r.el) == (a.range.sl, a.range.el):
            state = OK
        else:
            state = MOVED
        return Resolution(state, r, owner.qualname, hash=digest(self.new.stmt_norm(s)), params=owner.params)

    def _moved_out(self, a: Anchor, old_s: Statement | None, owner: Definition | None,
                   old_owner: Definition | None) -> Resolution | None:
        """The statement left its definition (extracted into a new helper): follow it when
        its exact text appears in exactly one definition that did not exist before, and
        more often outside its old definition than before."""
        new, old = self.new, self.old
        if old is None or old_s is None or self._replaced():
            return None
        outside_new = [s for s in new.stmts if (owner is None or s.owner != owner.index)
                       and digest(new.stmt_norm(s)) == a.hash]
        in_new_defs = [s for s in outside_new if new.defs[s.owner].key not in self._old_keys]
        if len(in_new_defs) != 1:
            return None
        outside_old = sum(1 for s in old.stmts if s.owner != old_owner.index
                          and digest(old.stmt_norm(s)) == a.hash)
        if outside_old >= len(outside_new):
            return None
        t = in_new_defs[0]
        holder = new.defs[t.owner]
        return Resolution(MOVED, new.range_of(t.start, t.end), holder.qualname, hash=a.hash, params=holder.params)

    def _align(self, old_owner: Definition, owner: Definition, old_s: Statement):
        """Token alignment of the old and new definition: the new statement that received
        most of ``old_s``'s tokens, if that statement's own best origin is ``old_s``.
        Returns (statement, share of old_s's tokens kept there, Dice similarity)."""
        key = (old_owner.index, owner.index)
        al = self._align_cache.get(key)
        if al is None:
            al = self._align_cache[key] = self._alignment(old_owner, owner)
        old_toks, new_toks, old_offs, new_offs, mapping, old_list, new_list = al
        o_first, o_last = _token_span(old_offs, old_s.start, old_s.end)
        found = _receiver(range(o_first, o_last), mapping, new_toks, new_list)
        if found is None:
            return None
        t, t_count = found
        # reverse check: t's best origin must be old_s
        n_first, n_last = _token_span(new_offs, t.start, t.end)
        origin = _receiver(range(n_first, n_last), {j: i for i, j in mapping.items()}, old_toks, old_list)
        if origin is None or origin[0] is not old_s:
            return None
        best, origin = (t, t_count), (old_s, origin[1])
        kept = best[1] / max(1, o_last - o_first)
        kept_new = origin[1] / max(1, n_last - n_first)
        sim = dice(Counter(self.old.stmt_tokens(old_s)), Counter(self.new.stmt_tokens(t)))
        return t, kept, kept_new, sim

    def _alignment(self, old_owner: Definition, owner: Definition):
        old_toks = _located_tokens(self.old, old_owner)
        new_toks = _located_tokens(self.new, owner)
        import difflib  # here: most resolutions find their code unchanged, and it costs each process 1 ms
        sm = difflib.SequenceMatcher(None, [t for _, t in old_toks], [t for _, t in new_toks], autojunk=False)
        mapping = {}
        for i, j, n in sm.get_matching_blocks():
            for k in range(n):
                mapping[i + k] = j + k
        return old_toks, new_toks, [o for o, _ in old_toks], [o for o, _ in new_toks], mapping, self.old.stmts_of(old_owner.index), \
            self.new.stmts_of(owner.index)


# -- across files -------------------------------------------------------------------------
# A definition gone from its file may have moved to another (a file renamed or split, a
# function cut and pasted). It is followed only where the evidence is clear: a definition
# that is new in its file since the anchor was last seen there, of the same family, that kept
# most of the old tokens and clearly beats every other candidate. A definition that was in its
# file before (a near copy with a history of its own) is never the moved one.

FOLLOW_MIN = 0.6  # token Dice (own name masked) of a moved definition that kept its name
FOLLOW_RENAMED = 0.75  # ... and of one renamed on the way
FOLLOW_MARGIN = 0.15
FOLLOW_TOKENS = 15  # a smaller definition is too generic to recognise by a part of its tokens ...
FOLLOW_SMALL = 0.9  # ... so it must keep nearly all of them

@dataclass
class Elsewhere:
    """A file a lost anchor may have moved to. ``fresh(d)``: the definition is new in this
    file since the anchor was last seen (True), was there already (False), unknown (None)."""

    path: str
    src: SourceFile
    fresh: object  # Callable[[Definition], bool | None]


def follow(a: Anchor, old: SourceFile | None, files: list[Elsewhere], present: set[str] | None = None) -> Resolution:
    """Where the code of ``a``, lost from its own file, is now among ``files``. ``old``: the
    text ``a`` was last seen in (its range and name are from there); without it only an
    unchanged definition (the same normalized text and name) in a fresh place is followed.
    ``present``: the qualified names its own file holds now (look-alikes that left it
    together are told apart jointly; None: not known)."""
    if a.type not in (SYMBOL, SPAN) or not a.name:
        return Resolution(ORPHANED, None, a.name)
    old_def = Resolver(old, old).old_def(a) if old is not None and old.tree is not None else None
    if a.type == SPAN:
        return _follow_span(a, old, old_def, files, present)
    return _follow_def(a, old, old_def, files, present)[1]


def _follow_def(a: Anchor, old: SourceFile | None, old_def: Definition | None, files: list[Elsewhere],
                present: set[str] | None = None) -> tuple[tuple[Elsewhere, Definition] | None, Resolution]:
    short = a.name.rsplit(".", 1)[-1]
    if old_def is None:  # the unchanged definition, once
        same = [(f, d) for f in files for d in f.src.defs
                if f.src.def_hash(d) == a.hash and d.name.rsplit(".", 1)[-1] == short and f.fresh(d) is not False]
        if len(same) == 1:
            return same[0], _moved(a, *same[0])
        return None, Resolution(ORPHANED, None, a.name)  # copies in several places are no evidence of a move
    family = _family(old_def.kind)
    old_toks = Counter(old.def_tokens(old_def))
    n_old, floor = len(old.def_tokens(old_def)), FOLLOW_MIN - FOLLOW_MARGIN

    def scored(keep) -> list[tuple]:
        out = []
        for f in files:
            for d in f.src.defs:
                if _family(d.kind) != family or not keep(d):
                    continue
                fresh = f.fresh(d)
                if fresh is False:
                    continue  # it was there before: another definition with a history of its own
                n = len(f.src.def_tokens(d))
                if 2 * min(n, n_old) < floor * (n + n_old):
                    continue  # so different in size that they cannot be that similar
                sim = dice(old_toks, f.src.def_counter(d))
                if sim >= floor:
                    out.append((sim, fresh, f, d))
        return sorted(out, key=lambda t: -t[0])
    # the same qualified name first, then the same own name; a new name only on clear evidence
    named = scored(lambda d: d.qualname == a.name) or scored(lambda d: d.name.rsplit(".", 1)[-1] == short)
    if named:
        pool, need = named, FOLLOW_MIN
    else:  # renamed on the way: a name built on the old one (get_x -> handle_get_x) counts as kept
        pool = scored(lambda d: True)
        need = FOLLOW_MIN if pool and _derived(pool[0][3].name.rsplit(".", 1)[-1], short) else FOLLOW_RENAMED
    if len(old.def_tokens(old_def)) < FOLLOW_TOKENS:
        pool, need = [t for t in pool if t[0] >= FOLLOW_SMALL], FOLLOW_SMALL
    if not pool:
        return None, Resolution(ORPHANED, None, a.name)
    sim, fresh, f, d = pool[0]
    runner = max((t[0] for t in pool[1:] if not _nested(t[3], d, t[2] is f)), default=0.0)
    # a file tether never saw (fresh is None): only a definition that kept its name is taken there
    if sim >= need and sim - runner >= FOLLOW_MARGIN and (fresh or (fresh is None and named)):
        return (f, d), _moved(a, f, d)
    together = _moved_together(old, old_def, files, present) if present is not None else None
    if together is not None:
        return together, _moved(a, *together)
    return None, _offered(a, [(t[2], t[3]) for t in pool if t[0] >= FOLLOW_MIN][:3])


def _moved_together(old: SourceFile, old_def: Definition, files: list[Elsewhere],
                    present: set[str]) -> tuple[Elsewhere, Definition] | None:
    """Where ``old_def`` went when look-alikes left its file together (cut into another
    module and renamed on the way, each as like the other's new self as its own): paired as
    a group (:func:`_paired_group`) among the definitions gone from the old file (not in
    ``present``) and those new in ``files`` since, as like as a rename on the way must be."""
    if old_def.qualname in present:
        return None  # its name is still there: not a group that left
    cls = _family(old_def.kind)
    olds = [o for o in old.defs if _family(o.kind) == cls and o.qualname not in present]
    news = [(f, d) for f in files for d in f.src.defs if _family(d.kind) == cls and f.fresh(d) is True]
    sims: dict[tuple[int, int], float] = {}

    def sim(o: Definition, t: tuple[Elsewhere, Definition]) -> float:
        if (id(o), id(t)) not in sims:
            f, d = t
            n, m = len(old.def_tokens(o)), len(f.src.def_tokens(d))
            sims[id(o), id(t)] = 0.0 if 2 * min(n, m) < (FOLLOW_RENAMED - FOLLOW_MARGIN) * (n + m) else \
                dice(old.def_counter(o), f.src.def_counter(d))
        return sims[id(o), id(t)]
    need = FOLLOW_SMALL if len(old.def_tokens(old_def)) < FOLLOW_TOKENS else FOLLOW_RENAMED
    _, pairs = _paired_group(old_def, olds, news, sim, FOLLOW_MARGIN, need,
                             defn=lambda x: x[1] if isinstance(x, tuple) else x)
    return pairs.get(id(old_def)) if pairs else None


def _follow_span(a: Anchor, old: SourceFile | None, old_owner: Definition | None,
                 files: list[Elsewhere], present: set[str] | None = None) -> Resolution:
    owner_anchor = Anchor(SYMBOL, a.path, lang=a.lang, name=a.name, params=a.params)
    if old_owner is not None:
        owner_anchor.hash = old.def_hash(old_owner)
    found, res = _follow_def(owner_anchor, old, old_owner, files, present)
    if found is None:
        return Resolution(AMBIGUOUS if res.state == AMBIGUOUS else ORPHANED, None, a.name)
    f, owner = found
    r = Resolver(f.src, old)
    old_s = r.old_stmt(a, old_owner) if old_owner is not None else None
    if old_s is None:  # fingerprint only: the same statement text, once
        same = [s for s in f.src.stmts_of(owner.index) if digest(f.src.stmt_norm(s)) == a.hash]
        if len(same) != 1:
            return Resolution(ORPHANED, None, a.name)
        res = r._found(a, owner, same[0], exact=True)
    else:
        res = r.in_owner(a, owner, old_owner, old_s)
    if not res.attached:
        return Resolution(res.state, None, a.name)
    return Resolution(MOVED if res.state == OK else res.state, res.range, res.name, hash=res.hash,
                      params=res.params, path=f.path)


def _moved(a: Anchor, f: Elsewhere, d: Definition) -> Resolution:
    state = RENAMED if d.qualname != a.name else MOVED
    return Resolution(state, f.src.def_range(d), d.qualname, hash=f.src.def_hash(d), params=d.params, path=f.path)


def _offered(a: Anchor, cands: list[tuple[Elsewhere, Definition]]) -> Resolution:
    if not cands:
        return Resolution(ORPHANED, None, a.name)
    return Resolution(AMBIGUOUS, None, a.name, [f.src.def_range(d) for f, d in cands],
                      candidate_paths=[f.path for f, _ in cands])


def _paired_group(seed, olds: list, news: list, sim, margin: float, need: float,
                  defn=lambda x: x) -> tuple[list, dict[int, object] | None]:
    """Look-alikes paired as a group: the old definitions gone from where ``seed`` was and
    the new ones (``olds``, ``news``; ``defn`` gives an item's definition) linked to ``seed``
    by a likeness (``sim``) within ``margin`` of either one's best; then each old one's new
    one (by ``id``) when the group pairs one to one and every pair is the strict best of both
    its sides by text and by name (Dice of the qualified names' letter pairs), at least
    ``need`` alike and related — else None: a deleted twin, a new copy, names that say
    another pairing or nothing leave it to be offered. Returns (the old side, the pairs)."""
    if len(olds) * len(news) > PAIR_WORK:
        return [seed], None  # too many renamed at once to weigh them all: offered
    bests: dict[int, float] = {}

    def best(x, is_old: bool) -> float:
        if id(x) not in bests:
            bests[id(x)] = max((sim(x, y) if is_old else sim(y, x) for y in (news if is_old else olds)), default=0.0)
        return bests[id(x)]
    # linked: alike enough, and within the margin of either one's best (the same group from any of its members)
    side_o, side_n, todo = {id(seed): seed}, {}, [(seed, True)]
    while todo:
        x, is_old = todo.pop()
        side = side_n if is_old else side_o
        for y in news if is_old else olds:
            v = sim(x, y) if is_old else sim(y, x)
            if v >= need - margin and id(y) not in side and (v > best(x, is_old) - margin or v > best(y, not is_old) - margin):
                side[id(y)] = y
                todo.append((y, not is_old))
    olds, news = list(side_o.values()), list(side_n.values())
    if len(olds) != len(news):
        return olds, None
    by_text = {(id(o), id(d)): sim(o, d) for o in olds for d in news}
    by_name = {(id(o), id(d)): dice(_bigrams(defn(o).qualname), _bigrams(defn(d).qualname)) for o in olds for d in news}
    pairs = {}
    for o in olds:
        for likeness in (by_text, by_name):  # both must say the same
            d = max(news, key=lambda d: likeness[id(o), id(d)])
            v = likeness[id(o), id(d)]
            rivals = [likeness[id(o), id(x)] for x in news if x is not d] + \
                     [likeness[id(x), id(d)] for x in olds if x is not o]
            if any(r >= v for r in rivals) or pairs.setdefault(id(o), d) is not d:
                return olds, None
        if by_text[id(o), id(d)] < need or not _related(defn(o), defn(d)):
            return olds, None
    return olds, pairs


def _related(o: Definition, d: Definition) -> bool:
    """In the same scope, or keeping its own name (its class renamed)."""
    scope = [q.rsplit(".", 1)[0] if "." in q else "" for q in (o.qualname, d.qualname)]
    return scope[0] == scope[1] or o.name.rsplit(".", 1)[-1] == d.name.rsplit(".", 1)[-1]


def _bigrams(name: str) -> Counter:
    s = name.lower()
    return Counter(s[i:i + 2] for i in range(len(s) - 1))


def _derived(name: str, old: str) -> bool:
    """``name`` is built on ``old`` (or the other way round): the old name kept as a part."""
    a, b = name.lower().strip("_$"), old.lower().strip("_$")
    return min(len(a), len(b)) >= 4 and (a in b or b in a)


def _nested(x: Definition, d: Definition, same_file: bool) -> bool:
    """``x`` is inside ``d`` or around it (in the same file): not a rival of ``d``."""
    return same_file and (d.start <= x.start and x.end <= d.end or x.start <= d.start and d.end <= x.end)


# -- helpers ------------------------------------------------------------------------------

def _index(src: SourceFile) -> dict[str, list[Definition]]:
    out: dict[str, list[Definition]] = {}
    for d in src.defs:
        out.setdefault(d.qualname, []).append(d)
    return out


def _place(src: SourceFile, d: Definition) -> tuple:
    """Where a definition sits: for each enclosing node, its type, the kind of child that
    leads to the definition (an ``if``'s body or its ``else``), and its first line."""
    out, child, node = [], d.node, d.node.parent
    while node is not None and node.parent is not None:
        out.append((node.type, child.type, normalize(src.pos.lines[node.start_point[0]])[:200]))
        child, node = node, node.parent
    return tuple(out)


def _family(kind: str) -> str:
    return "function" if kind in FUNCTION_KINDS else kind


def _first_line(src: SourceFile, s: Statement) -> str:
    line = src.pos.line_of_byte(s.start)
    return normalize(src.pos.lines[line])


def _def_hash(src: SourceFile, d: Definition) -> str:
    return src.def_hash(d)


def _def_similarity(old: SourceFile, a: Definition, new: SourceFile, b: Definition) -> float:
    return dice(Counter(old.def_tokens(a)), Counter(new.def_tokens(b)))


_TOKEN_RE = re.compile(rb"\w+|[^\w\s]")


def _located_tokens(src: SourceFile, d: Definition) -> list[tuple[int, bytes]]:
    """(byte offset, token) over a definition, its own name masked."""
    last = d.name.rsplit(".", 1)[-1].split(" ")[-1].encode()
    out = []
    for m in _TOKEN_RE.finditer(src.data, d.start, d.end):
        t = m.group()
        out.append((m.start(), b"\x00" if t == last else t))
    return out


def _token_span(offs: list[int], start: int, end: int) -> tuple[int, int]:
    return bisect.bisect_left(offs, start), bisect.bisect_left(offs, end)


def _receiver(indexes, mapping: dict[int, int], toks, stmts: list[Statement]):
    """The statement that received most of the given tokens through the alignment (the
    innermost on a tie), with how many it received; None when none arrived anywhere."""
    counts: Counter = Counter()
    for i in indexes:
        j = mapping.get(i)
        if j is not None:
            for st in _containing(stmts, toks[j][0]):
                counts[st] += 1
    if not counts:
        return None
    return max(counts.items(), key=lambda kv: (kv[1], -(kv[0].end - kv[0].start)))


def _containing(stmts: list[Statement], byte: int) -> list[Statement]:
    return [s for s in stmts if s.start <= byte < s.end]


# -- files without a grammar: line spans with text fingerprints ---------------------------

def _resolve_lines(a: Anchor, new: SourceFile, old: SourceFile | None) -> Resolution:
    r = a.range
    if r is None:
        return Resolution(ORPHANED)
    n = r.el - r.sl + 1
    lines = new.pos.lines
    hits = [i for i in range(0, len(lines) - n + 1)
            if digest(normalize("\n".join(lines[i:i + n]))) == a.hash]
    def rng(i):
        return Range(i, 0, i + n - 1, len(lines[i + n - 1]))
    if len(hits) == 1:
        return Resolution(OK if hits[0] == r.sl else MOVED, rng(hits[0]), hash=a.hash)
    if len(hits) > 1:
        if r.sl in hits:  # unchanged and still in place
            return Resolution(OK, rng(r.sl), hash=a.hash)
        return Resolution(AMBIGUOUS, None, "", [rng(i) for i in hits])
    if old is None:
        return Resolution(ORPHANED)
    # map the old lines through a line diff; accept when most of their tokens survived
    import difflib
    sm = difflib.SequenceMatcher(None, old.pos.lines, lines, autojunk=False)
    sl = el = None
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        for k, i in enumerate(range(i1, i2)):
            if i == r.sl:
                sl = j1 + min(k, max(0, j2 - j1 - 1)) if tag != "delete" else None
            if i == r.el:
                el = j1 + min(k, max(0, j2 - j1 - 1)) if tag != "delete" else None
    if sl is None or el is None or el < sl:
        return Resolution(ORPHANED)
    text = "\n".join(lines[sl:el + 1])
    if sketch_similarity(a.sketch, sketch(tokens(text))) < STMT_SIMILAR:
        return Resolution(ORPHANED)
    return Resolution(CHANGED, Range(sl, 0, el, len(lines[el])), hash=digest(normalize(text)))
