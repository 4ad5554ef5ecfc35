"""The *edits* path: a document receiving LSP incremental changes.

The tree is edited and re-parsed incrementally, and every anchor's range is shifted
exactly by each change, as an editor moves a decoration. Resolving then costs what the
edits touched, not what the file holds: an anchor no change reached keeps its identity at
its shifted range; one a change reached is re-validated on the new tree at its shifted
place (the same definition or statement starting there); only an anchor that fails that
check goes through the full structural resolution against the snapshot."""

from __future__ import annotations

from .anchors import (AMBIGUOUS, CHANGED, FILE, GLOB, LINES, MOVED, OK, SPAN, SYMBOL, Anchor, Resolution,
                      Resolver)
from .languages import Language, for_path
from .resolution import Located, against_note
from .syntax import MAX_PARSE_BYTES, SourceFile
from .text import Positions, Range, digest, normalize


class _Tracked:
    __slots__ = ("start", "end", "touched")

    def __init__(self, start: int, end: int):
        self.start, self.end, self.touched = start, end, False


class LiveDocument:
    def __init__(self, text: str, lang: Language | None):
        self.lang = lang
        self.base = SourceFile(text, lang)  # the text anchors were last resolved in
        self.text = text
        # edits go to a copy: the snapshot's own tree must keep describing its text
        self._tree = self.base.tree.copy() if self.base.tree is not None else None
        self._dirty = False
        self._current: SourceFile | None = self.base
        self._tracked: dict[int, _Tracked | None] = {}  # anchor slot -> str offsets now
        self._pos: Positions | None = None  # of self.text, while it does not change
        self._typed: list[str] = []  # the lines edited since the last resolve

    @property
    def positions(self) -> Positions:
        if self._pos is None or self._pos.text is not self.text:
            self._pos = Positions(self.text)
        return self._pos

    # -- anchors followed through edits ----------------------------------------------------
    def track(self, slot: int, rng: Range | None) -> None:
        """Follow ``rng`` (in the current text) through the coming edits."""
        if rng is None:
            self._tracked[slot] = None
            return
        p = self.positions
        self._tracked[slot] = _Tracked(p.offset(rng.sl, rng.sc), p.offset(rng.el, rng.ec))

    def tracked(self, slot: int) -> Range | None:
        t = self._tracked.get(slot)
        if t is None:
            return None
        p = self.positions
        return Range(*p.position(t.start), *p.position(t.end))

    def apply(self, rng: Range | None, new_text: str) -> None:
        """One ``textDocument/didChange`` content change (``rng`` None: full text)."""
        if rng is None:
            self.text = new_text
            self._tree = None  # a full replacement: nothing to reuse, nothing to track
            self._tracked = {k: None for k in self._tracked}
            self._dirty = True
            return
        p = self.positions
        a, b = p.offset(rng.sl, rng.sc), p.offset(rng.el, rng.ec)
        b = max(a, b)
        delta = len(new_text) - (b - a)
        for slot, t in self._tracked.items():
            if t is not None and not _shift(t, a, b, delta):
                self._tracked[slot] = None
        if self._tree is not None:
            sl, sc = p.clamp(rng.sl, rng.sc)
            el, ec = p.clamp(rng.el, rng.ec)
            sb, eb = p.byte(sl, sc), p.byte(el, ec)
            eb = max(sb, eb)
            ins = new_text.encode("utf-8", "surrogatepass")
            start_pt = (sl, sb - p.byte_starts[sl])
            old_end_pt = (el, eb - p.byte_starts[el])
            nl = ins.count(b"\n")
            new_end_pt = (sl + nl, (start_pt[1] + len(ins)) if nl == 0 else len(ins) - ins.rfind(b"\n") - 1)
            self._tree.edit(sb, eb, sb + len(ins), start_pt, old_end_pt, new_end_pt)
        self.text = self.text[:a] + new_text + self.text[b:]
        self._pos = p.edited(self.text, a, b, new_text)
        self._dirty = True
        if len(self._typed) < 64:
            ls, le = self.text.rfind("\n", 0, a) + 1, self.text.find("\n", a + len(new_text))
            self._typed.append(self.text[ls:le if le >= 0 else len(self.text)][:4096])

    @property
    def current(self) -> SourceFile:
        """The current text, parsed (incrementally, reusing the edited tree)."""
        if self._dirty or self._current is None:
            tree = None
            if self.lang is not None and self._tree is not None and len(self.text) <= MAX_PARSE_BYTES:
                tree = self.lang.parser().parse(self.text.encode("utf-8", "surrogatepass"), self._tree)
            self._current = SourceFile(self.text, self.lang, tree)
            self._tree = self._current.tree.copy() if self._current.tree is not None else None
            self._dirty = False
        return self._current

    def resolve(self, anchors: list[Anchor], previous: list[Resolution] | None = None) -> list[Resolution]:
        """Resolve anchors (slot = position in the list) in the current text. ``previous``:
        their last resolutions, reused for anchors no change reached."""
        out: list[Resolution | None] = []
        for slot, a in enumerate(anchors):
            t = self._tracked.get(slot)
            prev = previous[slot] if previous is not None and slot < len(previous) else None
            res = None
            if a.type in (FILE, GLOB):
                res = Resolution(OK)
            elif prev is not None and not prev.attached and not self._could_return(a):
                res = prev  # still lost: no edit typed its name back
            elif t is not None and prev is not None and prev.attached and not t.touched:
                res = Resolution(prev.state, self.tracked(slot), prev.name, hash=prev.hash, params=prev.params)
            elif t is not None:
                res = self._validate(a, t)
            out.append(res)
        missing = [slot for slot, res in enumerate(out) if res is None]
        if missing:
            resolver = Resolver(self.current, self.base)
            for slot in missing:
                res = resolver.resolve(anchors[slot])
                if res.state == AMBIGUOUS and res.candidates:
                    # structure found several equally good places: the one the edits carried
                    # the anchor to exactly is the same code
                    hint = self.tracked(slot)
                    exact = [c for c in res.candidates if hint is not None and (c.sl, c.el) == (hint.sl, hint.el)]
                    if len(exact) == 1:
                        res = Resolution(CHANGED, exact[0], res.name)
                out[slot] = res
        self._typed.clear()
        return out

    def _could_return(self, a: Anchor) -> bool:
        """Whether the edits since the last resolve may have brought a lost anchor's code
        back: its name was typed on an edited line (a full text replacement: always)."""
        if self._tree is None or len(self._typed) >= 64:
            return True
        name = a.name.rsplit(".", 1)[-1] if a.type == SYMBOL else ""
        return any(name in line for line in self._typed) if name else bool(self._typed)

    def _validate(self, a: Anchor, t: _Tracked) -> Resolution | None:
        """The anchored code, checked at the place the edits carried it: the definition (or
        statement) of the same kind and name must start exactly there."""
        cur = self.current
        if cur.tree is None:
            return None
        p = cur.pos
        start = p.byte(*p.position(t.start))
        r0 = Range(*p.position(t.start), *p.position(t.end))
        if a.type == SYMBOL:
            for d in reversed(cur.defs_around(start)):
                if d.start == start and d.qualname == a.name and d.node_type == a.node:
                    return self._state(a, cur.def_range(d), d.qualname, cur.def_hash(d), d.params)
            return None
        if a.type == SPAN:
            node = cur.tree.root_node.descendant_for_byte_range(start, start)
            while node is not None and not (node.start_byte == start and node.type == a.node):
                node = node.parent
            if node is None:
                return None
            owners = [d for d in cur.defs_around(start) if d.kind in ("function", "method")
                      and d.node.start_byte <= start < d.node.end_byte]
            if not owners or owners[-1].qualname != a.name:
                return None
            end = cur._eff_end(node).end_byte
            h = digest(normalize(cur.slice(start, end)))
            if h != a.hash:  # edited: whether it is still this statement is for the alignment
                return None
            return self._state(a, cur.range_of(start, end), a.name, h, owners[-1].params)
        if a.type == LINES:
            lines = p.lines[r0.sl:r0.el + 1]
            if digest(normalize("\n".join(lines))) == a.hash:
                return Resolution(OK, Range(r0.sl, 0, r0.el, len(lines[-1]) if lines else 0), hash=a.hash)
        return None

    @staticmethod
    def _state(a: Anchor, r: Range, name: str, h: str, params: str) -> Resolution:
        state = CHANGED if h != a.hash else OK if a.range is None or (r.sl, r.el) == (a.range.sl, a.range.el) \
            else MOVED
        return Resolution(state, r, name, hash=h, params=params)

    def rebase(self) -> None:
        """The current text becomes the snapshot anchors are resolved against."""
        self.base = self.current
        self._tracked.clear()


def _shift(t: _Tracked, a: int, b: int, delta: int) -> bool:
    """Move a tracked range through one change [a, b) -> delta; False when swallowed."""
    s, e = t.start, t.end
    if b <= s:  # before the range (an insertion at its start pushes it down)
        t.start, t.end = s + delta, e + delta
        return True
    if a > e or (a == e and b > a):  # after it
        return True
    if a == e:  # typed right at its end: whether that is part of it is for the parse to say
        t.touched = True
        return True
    if a <= s and b >= e:  # the change swallows the range
        return False
    t.touched = True
    t.start = min(s, a) if a < s else s
    t.end = max(e + delta, a)
    return True


class LiveFile:
    """An open document of a workspace: its notes' anchors followed through the editor's
    changes (the edits path), stored as the last resolution when the document is saved."""

    def __init__(self, ws, rel: str, text: str):
        self.ws, self.rel = ws, rel
        self.doc = LiveDocument(text, for_path(rel))
        self.located = []
        self.notes = []
        self.reload()

    @property
    def text(self) -> str:
        return self.doc.text

    def reload(self) -> None:
        """Resolve from the store against the current text (on open, and when notes change)."""
        self.located = self.ws.locate(self.rel, self.doc.text)
        self.notes = self.ws.notes_on(self.rel)  # anchored here or covering it by a glob
        self._start_tracking()

    def _start_tracking(self) -> None:
        self.doc.rebase()
        self._probes = [loc.current() for loc in self.located]
        self._previous = [loc.resolution for loc in self.located]
        for slot, (loc, probe) in enumerate(zip(self.located, self._probes)):
            self.doc.track(slot, probe.range if loc.resolution.attached else None)
        self._stale = False

    def apply(self, rng: Range | None, text: str) -> None:
        self.doc.apply(rng, text)
        self._stale = True

    def resolve(self):
        """The anchors now, after the changes applied so far."""
        if self._stale:
            results = self.doc.resolve(self._probes, self._previous)
            self._previous = results
            self.located = [
                Located(loc.note, loc.index, loc.anchor, _here(loc, against_note(loc.anchor, res)), loc.place, res.params)
                for loc, res in zip(self.located, results)]
            self._stale = False
        return self.located

    def save(self) -> None:
        """Keep the current resolutions (didSave / didClose) and track from here on."""
        located = self.resolve()
        self.ws.keep_located(self.doc.text, located)
        self._start_tracking()


def _here(loc: Located, res: Resolution) -> Resolution:
    """An anchor of another file whose code moved into this one stays a moved one of this file
    while it is edited here."""
    if loc.resolution.path and res.attached:
        res.path, res.state = loc.resolution.path, MOVED
    return res
