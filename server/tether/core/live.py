"""The *edits* path: a document receiving LSP incremental changes. The tree is edited and
re-parsed incrementally; every anchor's range is shifted exactly by each change (as an
editor moves a decoration) and then re-validated structurally against the snapshot the
anchors were last resolved in."""

from __future__ import annotations

from .anchors import AMBIGUOUS, CHANGED, MOVED, Anchor, Resolution, Resolver
from .languages import Language, for_path
from .syntax import MAX_PARSE_BYTES, SourceFile
from .text import Positions, Range


class LiveDocument:
    def __init__(self, text: str, lang: Language | None):
        self.lang = lang
        self.base = SourceFile(text, lang)  # the text anchors were last resolved in
        self.text = text
        # edits go to a copy: the snapshot's own tree must keep describing its text
        self._tree = self.base.tree.copy() if self.base.tree is not None else None
        self._dirty = False
        self._current: SourceFile | None = self.base
        self._tracked: dict[int, tuple[int, int] | None] = {}  # anchor slot -> str offsets
        self._pos: Positions | None = None  # of self.text, while it does not change

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
        self._tracked[slot] = (p.offset(rng.sl, rng.sc), p.offset(rng.el, rng.ec))

    def tracked(self, slot: int) -> Range | None:
        off = self._tracked.get(slot)
        if off is None:
            return None
        return _range_of_offsets(self.positions, *off)

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
        for slot, off in self._tracked.items():
            if off is not None:
                self._tracked[slot] = _shift(off, a, b, delta)
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
        self._dirty = True

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

    def resolve(self, anchors: list[Anchor]) -> list[Resolution]:
        """Resolve anchors (slot = position in the list) in the current text. Structure
        decides; where it finds several equally good places, the one the edits carried
        the anchor to exactly is taken."""
        resolver = Resolver(self.current, self.base)
        out = []
        for slot, a in enumerate(anchors):
            res = resolver.resolve(a)
            if res.state == AMBIGUOUS and res.candidates:
                hint = self.tracked(slot)
                exact = [c for c in res.candidates if hint is not None and (c.sl, c.el) == (hint.sl, hint.el)]
                if len(exact) == 1:
                    res = Resolution(MOVED if a.range and exact[0] != a.range else CHANGED, exact[0], res.name)
            out.append(res)
        return out

    def rebase(self) -> None:
        """The current text becomes the snapshot anchors are resolved against."""
        self.base = self.current


def _shift(off: tuple[int, int], a: int, b: int, delta: int) -> tuple[int, int] | None:
    s, e = off
    if b <= s:  # before the range (an insertion at its start pushes it down)
        return s + delta, e + delta
    if a >= e:  # entirely after
        return off
    if a <= s and b >= e:  # the change swallows the range
        return None
    return min(s, a) if a < s else s, max(e + delta, a)


def _range_of_offsets(p: Positions, s: int, e: int) -> Range:
    return Range(*p.position(s), *p.position(e))


class LiveFile:
    """An open document of a workspace: its notes' anchors followed through the editor's
    changes (the edits path), stored as the last resolution when the document is saved."""

    def __init__(self, ws, rel: str, text: str):
        self.ws, self.rel = ws, rel
        self.doc = LiveDocument(text, for_path(rel))
        self.located = []
        self.reload()

    @property
    def text(self) -> str:
        return self.doc.text

    def reload(self) -> None:
        """Resolve from the store against the current text (on open, and when notes change)."""
        self.located = self.ws.locate(self.rel, self.doc.text)
        self._start_tracking()

    def _start_tracking(self) -> None:
        self.doc.rebase()
        self._probes = [loc.current() for loc in self.located]
        self.doc._tracked.clear()
        for slot, (loc, probe) in enumerate(zip(self.located, self._probes)):
            self.doc.track(slot, probe.range if loc.resolution.attached else None)
        self._stale = False

    def apply(self, rng: Range | None, text: str) -> None:
        self.doc.apply(rng, text)
        self._stale = True

    def resolve(self):
        """The anchors now, after the changes applied so far."""
        if self._stale:
            from .workspace import Located, _against_note, _params_at
            results = self.doc.resolve(self._probes)
            cur = self.doc.current
            self.located = [
                Located(loc.note, loc.index, loc.anchor, _against_note(loc.anchor, res), loc.place,
                        _params_at(cur, res) if res.attached else "")
                for loc, res in zip(self.located, results)]
            self._stale = False
        return self.located

    def save(self) -> None:
        """Keep the current resolutions (didSave / didClose) and track from here on."""
        located = self.resolve()
        self.ws.keep_located(self.doc.text, located)
        self._start_tracking()
