"""Core results -> LSP types. No state, no I/O."""

from __future__ import annotations

from collections import Counter

from lsprotocol import types as T

from ..capture.candidates import Place
from ..checks.findings import AMBIGUOUS, DRIFT, ORPHANED, VIOLATION, Finding
from ..context.ranking import note_markdown
from ..core import anchors as A
from ..core.resolution import Located
from ..core.text import Range, utf16_len

SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
            "info": T.DiagnosticSeverity.Information, "hint": T.DiagnosticSeverity.Hint}


def lsp_range(r: Range | None) -> T.Range:
    r = r or Range(0, 0, 0, 0)
    return T.Range(T.Position(r.sl, r.sc), T.Position(r.el, r.ec))


def core_range(r: T.Range) -> Range:
    return Range(r.start.line, r.start.character, r.end.line, r.end.character)


def coalesced(changes: list) -> list:
    """Content changes with each run of insertions typed one after another on one line
    (each starting where the last one's text ended) made one insertion: an edit storm of
    1,000 keystrokes is one edit to apply, not 1,000."""
    out: list = []
    for ch in changes:
        prev = out[-1] if out else None
        if prev is not None and _insertion(prev) and _insertion(ch) and "\n" not in prev.text \
                and "\r" not in prev.text and ch.range.start.line == prev.range.start.line \
                and ch.range.start.character == prev.range.start.character + utf16_len(prev.text):
            out[-1] = T.TextDocumentContentChangePartial(range=prev.range, text=prev.text + ch.text)
        else:
            out.append(ch)
    return out


def _insertion(ch) -> bool:
    return isinstance(ch, T.TextDocumentContentChangePartial) and ch.range.start == ch.range.end


def diagnostic(f: Finding, note_uri: str | None, severity: str | None = None) -> T.Diagnostic:
    related = None
    if note_uri:
        related = [T.DiagnosticRelatedInformation(T.Location(note_uri, lsp_range(Range(0, 0, 0, 0))),
                                                  f"note {f.note_id}")]
    return T.Diagnostic(
        range=lsp_range(f.range), message=f.message, severity=SEVERITY[severity or f.severity],
        code=f.code, source="tether", related_information=related,
        data={"note": f.note_id, **f.extra} if f.note_id else dict(f.extra),
    )


PROPOSED = "proposed-note"


def proposal(p: Place, severity: str | None = None) -> T.Diagnostic:
    """A candidate note from an agent session, shown on its code until someone decides."""
    c = p.candidate
    how = f"repeats note “{p.repeats[0].title}”: merge or dismiss" if p.repeats else "accept, edit or dismiss"
    return T.Diagnostic(
        range=lsp_range(p.range), severity=SEVERITY[severity or "hint"], code=PROPOSED, source="tether",
        message=f"proposed {c.note_kind}: {c.title} (from an agent session; {how})",
        data={"candidate": c.id})


def hover_markdown(locs: list[Located]) -> str:
    """Innermost anchored code first, then what encloses it; one section per note."""
    parts, seen = [], set()
    for loc in locs:
        if loc.note.id in seen:
            continue
        seen.add(loc.note.id)
        lines = note_markdown(loc.note, "", [loc])
        lines[0] = lines[0].replace("## ", "### ", 1)
        parts.append("\n".join(lines).strip())
    return "\n\n---\n\n".join(parts)


def lens_title(locs: list[Located]) -> str:
    kinds = Counter(loc.note.kind for loc in locs)
    order = ("decision", "invariant", "boundary", "intent", "workaround", "gotcha")
    return " · ".join(f"{kinds[k]} {k}{'s' if kinds[k] != 1 else ''}" for k in order if kinds[k])


def contains(r: Range, line: int, col: int) -> bool:
    if (line, col) < (r.sl, r.sc) or (line, col) > (r.el, r.ec):
        return False
    return True


def innermost_first(locs: list[Located], line: int, col: int) -> list[Located]:
    hits = [loc for loc in locs if loc.range is not None and contains(loc.range, line, col)]
    return sorted(hits, key=lambda loc: (loc.range.el - loc.range.sl, loc.range.ec - loc.range.sc))


def lost(loc: Located) -> bool:
    return loc.anchor.is_code and loc.state in (A.ORPHANED, A.AMBIGUOUS)


def note_fixes(d, where: dict, d_range: dict) -> list[tuple[str, str, dict]]:
    """The quick fixes of a diagnostic on a note: (title, command, argument)."""
    nid = d.data["note"]
    fixes = []
    if d.code == DRIFT:
        fixes.append(("Still holds (confirm invariant)", "tether.confirm", {"id": nid}))
    if d.code == VIOLATION and d.data.get("check"):
        fixes.append(("Ignore this once (a reviewed exception)", "tether.ignoreOnce",
                      {"id": nid, "check": d.data["check"], "uri": where["uri"], "range": d_range}))
    if d.code in (ORPHANED, AMBIGUOUS):
        fixes.append(("Re-anchor note here", "tether.reanchor", {"id": nid, "anchor": d.data.get("anchor", 0), **where}))
    return fixes + [("Show note", "tether.showNote", {"id": nid}), ("Retire note", "tether.retire", {"id": nid})]


def rejected_options(alternatives: list) -> list[tuple[str, str]]:
    """Rejected options as a client sends them: ``{option, rejected_because|why}`` or "option: why"."""
    out = []
    for a in alternatives:
        if isinstance(a, dict):
            out.append((a.get("option", ""), a.get("rejected_because") or a.get("why", "")))
        else:
            opt, _, why = str(a).partition(":")
            out.append((opt, why))
    return out
