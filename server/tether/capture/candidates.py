"""The review queue (LMDB ``candidates``): candidate notes proposed by :mod:`distill`, each
with its quoted evidence, a confidence and anchors on code the session touched. A candidate
stays until it is accepted (it becomes a note file through the workspace's write path, its
evidence in the body), merged into an existing note, or dismissed. The same proposal made
again — in the same session or in another — adds its evidence to the one candidate; one
already accepted or dismissed is not proposed again.

Every face calls these functions: the CLI (``tether review``, ``accept``, ``dismiss``), the
language server and the MCP server (``candidates``, ``places``, ``accept``, ``dismiss``).
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from dataclasses import dataclass, field


from ..core import anchors as A
from ..core.files import glob_match
from ..core.languages import for_path
from ..core.notes import KINDS, Alternative, Note, new_id, now
from ..core.resolution import anchor_json, anchored_in
from ..core.syntax import SourceFile
from ..core.text import Range, dice
from ..core.workspace import Place as NotePlace
from ..core.workspace import Workspace, WorkspaceError

# -- candidates: kinds and statuses ----------------------------------------------------------

CANDIDATE_KINDS = KINDS
# a candidate keeps its fields as a workaround's (what it works around, when it can go): a gotcha's
# becomes the note's failure, and its rationale the cause
NOTE_FIELDS = {"gotcha": {"works_around": "failure", "rationale": "cause"}}
PENDING, ACCEPTED, MERGED, DISMISSED = "pending", "accepted", "merged", "dismissed"
STATUSES = (PENDING, ACCEPTED, MERGED, DISMISSED)

SAME_TEXT = 0.5  # token Dice at or above which two statements of one kind on one code are one
SAME_WORDS = 0.6  # … and at or above which two of one kind from two sessions are one, wherever they are
MAX_EVIDENCE = 20  # evidence kept per candidate (the first ones, and the latest)



class NearDuplicate(WorkspaceError):
    """Accepting would duplicate an existing note: merge into it instead (or dismiss)."""

    def __init__(self, cand: Candidate, notes: list[Note]):
        n = notes[0]
        super().__init__(
            f"candidate {cand.id} repeats note {n.id} \"{n.title}\" (same code, similar text); "
            f"`tether accept {cand.id} --merge {n.id}` adds its evidence to that note, "
            f"`tether dismiss {cand.id}` drops it")
        self.candidate, self.notes = cand, notes


@dataclass
class Evidence:
    session: str
    who: str  # user | assistant | tool
    at: str  # ISO-8601, as the transcript (or the log) says
    quote: str
    line: int = 0  # transcript line; 0 when it comes from the observation log

    def key(self) -> tuple:
        return self.session, self.line, self.quote

    def to_json(self) -> dict:
        return {"session": self.session, "who": self.who, "at": self.at, "quote": self.quote, "line": self.line}


@dataclass
class Candidate:
    id: str
    kind: str  # one of CANDIDATE_KINDS
    title: str
    confidence: float
    anchors: list[A.Anchor]
    evidence: list[Evidence]
    rationale: str = ""
    alternatives: list[Alternative] = field(default_factory=list)
    works_around: str = ""
    remove_when: str = ""
    status: str = PENDING
    note: str = ""  # the note it became (accepted) or was merged into
    created: str = ""
    updated: str = ""
    extractor: str = "rules"
    recalls: bool = False  # a proposal recalling an earlier decision (not stored: it joins that candidate)

    @property
    def note_kind(self) -> str:
        return self.kind

    @property
    def sessions(self) -> list[str]:
        return list(dict.fromkeys(e.session for e in self.evidence))

    def to_json(self, places: list[Place] = (), near: list[Note] = ()) -> dict:
        """The documented shape (``tether review --json``, the MCP tools, the editor)."""
        by_index = {p.index: p.resolution for p in places}
        anchors = [anchor_json(a, by_index.get(i)) for i, a in enumerate(self.anchors)]
        return {"id": self.id, "kind": self.kind, "note_kind": self.note_kind, "title": self.title,
                "confidence": round(self.confidence, 2), "status": self.status, "note": self.note or None,
                "rationale": self.rationale or None,
                "alternatives": [{"option": a.option, "rejected_because": a.rejected_because} for a in self.alternatives],
                "works_around": self.works_around or None, "remove_when": self.remove_when or None,
                "created": self.created, "updated": self.updated, "extractor": self.extractor,
                "sessions": self.sessions, "anchors": anchors, "evidence": [e.to_json() for e in self.evidence],
                "near_duplicates": [{"id": n.id, "kind": n.kind, "title": n.title} for n in near]}


@dataclass
class Place:
    """One anchor of a pending candidate, resolved in the current text of its file."""

    candidate: Candidate
    index: int
    anchor: A.Anchor
    resolution: A.Resolution
    repeats: list[Note] = field(default_factory=list)  # active notes it would duplicate (near_duplicates)

    @property
    def range(self) -> Range | None:
        return self.resolution.range


# -- records ------------------------------------------------------------------------------------

def _anchor_dict(a: A.Anchor) -> dict:
    return {"type": a.type, "path": a.path, "pattern": a.pattern, "lang": a.lang, "node": a.node, "name": a.name,
            "params": a.params, "hash": a.hash, "sketch": a.sketch, "range": list(a.range) if a.range else None}


def _anchor_from(d: dict) -> A.Anchor:
    return A.Anchor(d["type"], d.get("path", ""), d.get("pattern", ""), d.get("lang", ""), d.get("node", ""),
                    d.get("name", ""), d.get("params", ""), d.get("hash", ""), list(d.get("sketch") or []),
                    Range(*d["range"]) if d.get("range") else None)


def _to_record(c: Candidate) -> dict:
    return {"id": c.id, "kind": c.kind, "title": c.title, "confidence": c.confidence,
            "anchors": [_anchor_dict(a) for a in c.anchors], "evidence": [e.to_json() for e in c.evidence],
            "rationale": c.rationale, "alternatives": [[a.option, a.rejected_because] for a in c.alternatives],
            "works_around": c.works_around, "remove_when": c.remove_when, "status": c.status, "note": c.note,
            "created": c.created, "updated": c.updated, "extractor": c.extractor}


def _from_record(d: dict) -> Candidate:
    return Candidate(d["id"], d["kind"], d["title"], d["confidence"], [_anchor_from(a) for a in d["anchors"]],
                     [Evidence(**e) for e in d["evidence"]], d.get("rationale", ""),
                     [Alternative(o, w) for o, w in d.get("alternatives", [])], d.get("works_around", ""),
                     d.get("remove_when", ""), d.get("status", PENDING), d.get("note", ""), d.get("created", ""),
                     d.get("updated", ""), d.get("extractor", "rules"))


# -- the review queue ---------------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9_]+")
_STOP = frozenset("""a an the and or but so to of in on at for from by with as is are be been was were it its this
that these those we us our i you your they them he she will would should must can could may might shall not no do
does did done have has had just also then than there here into onto over under about use using used keep make
let lets let's ll ve re going go went via per all any each every only very too more most less""".split())


def text_tokens(*texts: str) -> Counter:
    """Content words of a text, lower-cased, lightly stemmed (plural -s): what two
    wordings of one statement share."""
    out: Counter = Counter()
    for t in texts:
        for w in _WORD.findall(t.lower().replace("_", " ")):
            if w in _STOP or len(w) < 2:
                continue
            if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
                w = w[:-1]
            out[w] += 1
    return out


def _similarity(a_title: str, a_more: str, b_title: str, b_more: str) -> float:
    return max(dice(text_tokens(a_title), text_tokens(b_title)),
               dice(text_tokens(a_title, a_more), text_tokens(b_title, b_more)))


def _more(c) -> str:
    return " ".join([c.rationale or "", *(a.option for a in c.alternatives)])


_CODE_SPAN = re.compile(r"`([^`\n]{1,60})`")


def _idents(text: str) -> set[str]:
    """Identifiers as written (``lru_cache`` stays one), lower-cased, without the common words."""
    return {w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in _STOP}


def _code_words(text: str) -> set[str]:
    """The identifiers of what a text quotes as code (`urljoin`, `functools.lru_cache`)."""
    return {w for span in _CODE_SPAN.findall(text) for w in _idents(span)}


def restates(a, b, names: set[str] = frozenset()) -> bool:
    """Two statements of one kind about the same code say the same thing (``a`` and ``b``:
    candidates or notes): similar words; or a rejected option they share; or a piece of
    code one of them quotes that the other names — other than the code they are both on
    (``names``: its words), which every statement about it names."""
    if _similarity(a.title, _more(a), b.title, _more(b)) >= SAME_TEXT:
        return True
    if any(dice(text_tokens(x.option), text_tokens(y.option)) >= SAME_TEXT
           for x in a.alternatives for y in b.alternatives):
        return True
    text_a, text_b = f"{a.title} {_more(a)}", f"{b.title} {_more(b)}"
    return bool((_code_words(text_a) - names) & _idents(text_b) or (_code_words(text_b) - names) & _idents(text_a))


def _said(c) -> str:
    return f"{c.title} {c.rationale or ''}"


def _quoted(c) -> str:
    """What a candidate's evidence says: a rule said again about the same file shares its words
    ("we never mutate or overwrite a stored row" … "we don't delete or overwrite rows, ever")."""
    return " ".join(e.quote for e in c.evidence)


def _shared(a: str, b: str) -> int:
    return len(set(text_tokens(a)) & set(text_tokens(b)))


def _overlap(a: str, b: str) -> bool:
    """Two content words in common, for a statement that says it recalls an earlier one
    ("ledger times are UTC instants, like we settled" after "we store everything as UTC
    instants"): said again, a decision is rarely said in the same words."""
    return _shared(a, b) >= 2


def _names(anchors: list[A.Anchor]) -> set[str]:
    """The code's own names (``Ledger.correct``: ledger, correct) and file names."""
    return _idents(" ".join(f"{a.name} {a.path.rsplit('/', 1)[-1].rsplit('.', 1)[0]}" for a in anchors))


def _files(anchors: list[A.Anchor]) -> set[str]:
    """The names of the files anchors are in, without extension (``permissions``)."""
    return set(text_tokens(" ".join(a.path.rsplit("/", 1)[-1].rsplit(".", 1)[0] for a in anchors if a.path)))


def _keys(anchors: list[A.Anchor]) -> set[tuple]:
    out = set()
    for a in anchors:
        if a.type == A.GLOB:
            out.add(("glob", a.pattern))
        elif a.type == A.SYMBOL:
            out.add(("sym", a.path, a.name))
        else:
            out.add(("file", a.path))
    return out


def _same_code(a: list[A.Anchor], b: list[A.Anchor]) -> bool:
    """The same symbol (or pattern), or one of them is the whole file the other is in."""
    ka, kb = _keys(a), _keys(b)
    if ka & kb:
        return True
    files_a = {k[1] for k in ka if k[0] == "file"}
    files_b = {k[1] for k in kb if k[0] == "file"}
    paths_a = {k[1] for k in ka if k[0] != "glob"}
    paths_b = {k[1] for k in kb if k[0] != "glob"}
    return bool(files_a & paths_b or files_b & paths_a)


def _same_file(a: list[A.Anchor], b: list[A.Anchor]) -> bool:
    return bool({x.path for x in a if x.type != A.GLOB} & {x.path for x in b if x.type != A.GLOB})


def _load(ws: Workspace, txn) -> list[Candidate]:
    return [_from_record(v) for _, v in ws.store.items(txn, "candidates")]


def candidates(ws: Workspace, status: str | None = PENDING) -> list[Candidate]:
    """The queue (pending candidates by default; ``None``: every status), oldest first."""
    with ws.store.read() as txn:
        out = _load(ws, txn)
    return sorted((c for c in out if status is None or c.status == status), key=lambda c: c.id)


def candidate(ws: Workspace, ref: str) -> Candidate:
    """A candidate by id or unique id prefix (4+ characters)."""
    ref = ref.strip().lower()
    everything = candidates(ws, None)
    hits = [c for c in everything if c.id == ref] or \
        ([c for c in everything if c.id.startswith(ref)] if len(ref) >= 4 else [])
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise WorkspaceError(f"'{ref}' matches {len(hits)} candidates: give more of the id")
    raise WorkspaceError(f"no candidate '{ref}' (see `tether review`)")


@dataclass
class Queued:
    new: list[Candidate] = field(default_factory=list)  # proposed for the first time
    updated: list[Candidate] = field(default_factory=list)  # pending ones with new evidence
    settled: list[Candidate] = field(default_factory=list)  # already accepted or dismissed: not proposed again


def queue(ws: Workspace, proposals: list[Candidate]) -> Queued:
    """Add proposals to the queue: one that restates a queued candidate (same kind, same
    code, and :func:`restates` — in this session or another; or, recalling an earlier
    decision, a pending one from another session on any code) adds its evidence to it — and,
    said in another session about other code, the file or folder both are in to its anchors;
    evidence already there is not added twice, so distilling a session again changes
    nothing."""
    s = ws.store
    result = Queued()

    def txn_fn(txn):
        known = _load(ws, txn)
        for p in proposals:
            same = next((c for c in known if c.kind == p.kind and _same_code(c.anchors, p.anchors)
                         and restates(c, p, _names(c.anchors + p.anchors))), None)
            if same is None:  # said again in another session: on other code of the same file, or anywhere
                # in nearly the same words
                same = next((c for c in known if c.kind == p.kind and c.status == PENDING and c.sessions != p.sessions
                             and (_same_file(c.anchors, p.anchors) and (restates(c, p, _names(c.anchors + p.anchors))
                                                                        or _shared(_quoted(c), _quoted(p)) >= 3)
                                  or _similarity(c.title, _more(c), p.title, _more(p)) >= SAME_WORDS)), None)
            if same is None and p.recalls:  # "remember, we …" while working on other code: the decision it names best
                earlier = [c for c in known if c.status == PENDING and c.sessions != p.sessions
                           and (restates(c, p, _names(c.anchors + p.anchors)) or _overlap(_said(c), _said(p))
                                or _overlap(_said(c), _quoted(p))  # the earlier rule's words in what recalls it,
                                or _files(c.anchors) & set(text_tokens(_quoted(p))))]  # or its file ("same as in
                # permissions.ts")
                same = max(earlier, key=lambda c: (c.kind == p.kind, _shared(_said(c), _said(p))), default=None)
            if same is None:
                p.id = p.id or new_id()
                p.created = p.updated = p.created or now()
                known.append(p)
                s.put(txn, "candidates", p.id, _to_record(p))
                result.new.append(p)
                continue
            if not _absorb(same, p):
                continue
            s.put(txn, "candidates", same.id, _to_record(same))
            bucket = result.updated if same.status == PENDING else result.settled
            if same not in result.new and same not in bucket:
                bucket.append(same)
    s.write(txn_fn)
    return result


def _absorb(c: Candidate, p: Candidate) -> bool:
    """Add ``p``'s evidence (and rejected options, a missing rationale, the code it is on
    when that is other code) to ``c``; False when it brings nothing new."""
    have = {e.key() for e in c.evidence}
    fresh = [e for e in p.evidence if e.key() not in have]
    if not fresh:
        return False
    another = bool(set(p.sessions) - set(c.sessions))
    c.evidence = sorted(c.evidence + fresh, key=lambda e: (e.at, e.line))
    have = _keys(c.anchors)
    elsewhere = [a for a in p.anchors if not _keys([a]) & have]
    if elsewhere and another:  # said again in another session about other code: the rule
        # holds for what both are on — their file, or the folder of their files (or a pattern said for them all)
        scope = next((a for a in elsewhere if a.type == A.GLOB and all(glob_match(a.pattern, b.path) for b in c.anchors
                                                                       if b.type != A.GLOB)), None) \
            or _scope(c.anchors + elsewhere)
        if scope is not None:
            c.anchors = [scope] + [a for a in c.anchors if _keys([a]) != _keys([scope])]
    c.anchors += [a for a in elsewhere if not _keys([a]) & _keys(c.anchors)][:max(0, 3 - len(c.anchors))]
    c.anchors = c.anchors[:3]
    if len(c.evidence) > MAX_EVIDENCE:
        c.evidence = c.evidence[:MAX_EVIDENCE // 2] + c.evidence[-MAX_EVIDENCE // 2:]
    options = {a.option.lower(): i for i, a in enumerate(c.alternatives)}
    for a in p.alternatives:
        i = options.get(a.option.lower())
        if i is None:
            c.alternatives.append(a)
        elif not c.alternatives[i].rejected_because:
            c.alternatives[i] = Alternative(c.alternatives[i].option, a.rejected_because)
    c.rationale = c.rationale or p.rationale
    c.works_around = c.works_around or p.works_around
    c.remove_when = c.remove_when or p.remove_when
    restated = len(c.sessions) - 1
    c.confidence = round(min(0.95, max(c.confidence, p.confidence) + 0.05 * min(restated, 3)), 2)
    c.updated = now()
    return True




# a test file: what a rule is said about in a test is the code it tests
TEST_PATH = re.compile(r"(?:^|/)(?:tests?|spec|__tests__)/|(?:^|/)test_[^/]*$|_test\.\w+$|\.(?:test|spec)\.\w+$")


def _scope(anchors: list[A.Anchor]) -> A.Anchor | None:
    """What code anchors on several places share: their file (``src/dom.ts``), or the
    folder of their files as a pattern (``geofence/**/*.py``), tests left out; None when
    that is the whole repository or they are patterns already."""
    if any(a.type == A.GLOB for a in anchors):
        return None
    paths = {a.path for a in anchors if not TEST_PATH.search(a.path)} or {a.path for a in anchors}
    if len(paths) == 1:
        return A.Anchor(A.FILE, path=next(iter(paths)))
    folder = posixpath.commonpath([posixpath.dirname(p) for p in paths])
    exts = {p.rsplit(".", 1)[-1] for p in paths if "." in p.rsplit("/", 1)[-1]}
    if not folder:
        return None
    return A.Anchor(A.GLOB, pattern=f"{folder}/**/*.{exts.pop()}" if len(exts) == 1 else f"{folder}/**")


def _set_status(ws: Workspace, cid: str, status: str, note: str = "") -> Candidate:
    s = ws.store

    def txn_fn(txn):
        rec = s.get(txn, "candidates", cid)
        if rec is None:
            raise WorkspaceError(f"no candidate '{cid}' (see `tether review`)")
        rec.update(status=status, note=note, updated=now())
        s.put(txn, "candidates", cid, rec)
        return _from_record(rec)
    return s.write(txn_fn)


def _pending(ws: Workspace, ref: str) -> Candidate:
    c = candidate(ws, ref)
    if c.status == PENDING:
        return c
    if c.status == DISMISSED:
        raise WorkspaceError(f"candidate {c.id} was dismissed")
    raise WorkspaceError(f"candidate {c.id} was already {c.status} ({'as' if c.status == ACCEPTED else 'into'} "
                         f"note {c.note})")


def dismiss(ws: Workspace, ref: str) -> Candidate:
    """Drop a candidate from review; restating it later does not bring it back."""
    return _set_status(ws, _pending(ws, ref).id, DISMISSED)


def near_duplicates(ws: Workspace, c: Candidate) -> list[Note]:
    """Active notes a candidate would repeat: of the same kind on the same code (symbol,
    file or pattern) that it :func:`restates`; most similar first."""
    found = []
    paths = {a.path for a in c.anchors if a.type != A.GLOB}
    pool = {n.id: n for p in paths for n in ws.notes_on(p)} if paths else {}
    if any(a.type == A.GLOB for a in c.anchors):
        pool.update({n.id: n for n in ws.notes() if any(a.type == A.GLOB for a in n.anchors)})
    for n in pool.values():
        if n.status != "active" or n.kind != c.note_kind:
            continue
        names = _note_names(ws, n)
        if not _same_code(c.anchors, names) or not restates(c, n, _names(c.anchors + names)):
            continue
        found.append((_similarity(c.title, _more(c), n.title, _more(n)), n))
    return [n for _, n in sorted(found, key=lambda t: (-t[0], t[1].id))]


# the person recalls a decision made before ("remember we …", "what we agreed last week — …")
_REMINDER = re.compile(r"\b(?:remember|reminder|keep in mind|still (?:stands|holds|applies)|"
                       r"(?:as|like) (?:we|i) (?:said|agreed|decided|discussed|settled)|"
                       r"what we (?:agreed|decided|discussed)|from last (?:week|time)|like last (?:week|time)|as before|"
                       r"the \w+ (?:thing|fix|rule) (?:from )?last (?:week|time)|"
                       r"we already|same (?:rule|deal|thing|principle|(?:as|like) (?:before|last time|with|in|for))|as usual|again:|"
                       r"\bsame\b[^.;]{0,30}\blast (?:week|time)\b|"  # "the same like with the names last week"
                       r"as i said|like i said|i said it|"
                       r"the other (?:week|day))", re.I)


def restated_note(ws: Workspace, c: Candidate) -> Note | None:
    """The active note a candidate says again: one it would duplicate (:func:`near_duplicates`),
    or — when its words say they recall one ("same as in permissions.ts", "the same like with
    the names last week") — the note they name: by its file, else the one sharing the most words
    with what was said (two at least). The agent joins it there rather than keeping a second."""
    near = near_duplicates(ws, c)
    if near:
        return near[0]
    said = _quoted(c)
    if not _REMINDER.search(said):
        return None
    words = set(text_tokens(said))
    scored = [((any(a.path.rsplit("/", 1)[-1] in said for a in n.anchors if a.path), n.kind == c.note_kind,
                len(words & set(text_tokens(_said(n))))), n) for n in ws.notes() if n.status == "active"]
    scored = [(k, n) for k, n in scored if k[0] or k[2] >= 2]
    return max(scored, key=lambda kn: kn[0])[1] if scored else None


def _note_names(ws: Workspace, n: Note) -> list[A.Anchor]:
    """A note's anchors under their current names (a renamed symbol is compared by its new name)."""
    out = []
    for loc in ws.locate_note(n):
        a = loc.anchor
        name = loc.resolution.name or a.name if loc.resolution.attached else a.name
        out.append(A.Anchor(a.type, a.path, a.pattern, name=name))
    return out


def documents(ws: Workspace) -> list[dict]:
    """The pending candidates as search documents (:mod:`tether.context.search` ranks them)."""
    return [{"type": "candidate", "id": c.id, "at": c.updated, "sessions": c.sessions, "item": c, "fields": {
        "title": c.title, "rationale": c.rationale, "works_around": c.works_around,
        "alternatives": " ".join(f"{a.option} {a.rejected_because}" for a in c.alternatives),
        "evidence": " ".join(e.quote for e in c.evidence),
        "anchors": " ".join(a.name or a.pattern or a.path for a in c.anchors)}} for c in candidates(ws)]


def evidence_markdown(c: Candidate) -> str:
    lines = []
    for e in c.evidence:
        quote = "\n".join("> " + ln for ln in e.quote.strip().splitlines() or [""])
        lines += [quote, f"> — {e.who}, {e.at}, session {e.session[:8]}", ""]
    return "\n".join(lines)


def note_body(c: Candidate) -> str:
    n = len(c.sessions)
    return (f"Proposed by `tether distill` ({c.extractor}) from {n} agent session{'s' if n > 1 else ''}; "
            f"candidate {c.id}.\n\n## Evidence\n\n" + evidence_markdown(c))


def accept(ws: Workspace, ref: str, merge_into: str | None = None) -> Note:
    """Turn a pending candidate into a note file (its evidence in the body) through the
    workspace's write path — or, with ``merge_into``, add its evidence (and any rejected
    option the note lacks) to that existing note. A candidate that repeats an existing
    note raises :class:`NearDuplicate`, which names the notes to merge into."""
    c = _pending(ws, ref)
    if merge_into is not None:
        target = ws.get(merge_into)

        def change(n: Note):
            known = {a.option.lower() for a in n.alternatives}
            n.alternatives += [Alternative(a.option, a.rejected_because) for a in c.alternatives
                               if a.option.lower() not in known]
            body = n.body.rstrip("\n")
            more = f"## More evidence (candidate {c.id})\n\n" + evidence_markdown(c)
            n.body = (body + "\n\n" if body else "") + more
        note = ws.update(target.id, change)
        _set_status(ws, c.id, MERGED, note.id)
        return note
    dups = near_duplicates(ws, c)
    if dups:
        raise NearDuplicate(c, dups)
    (path, line, col, how), *rest = [_current(ws, c, a) for a in c.anchors]
    fields = dict(rationale=c.rationale, works_around=c.works_around, remove_when=c.remove_when)
    fields = {NOTE_FIELDS.get(c.kind, {}).get(k, k): v for k, v in fields.items()}
    note = ws.record(c.kind, path, line, col, how=how, more=[NotePlace(*r) for r in rest], title=c.title,
                     body=note_body(c), rejected=[(a.option, a.rejected_because) for a in c.alternatives], **fields)
    _set_status(ws, c.id, ACCEPTED, note.id)
    return note


def _current(ws: Workspace, c: Candidate, a: A.Anchor) -> tuple[str, int | None, int, str]:
    """Where a candidate's anchor is now, as ``Workspace.record`` takes it."""
    if a.type == A.GLOB:
        return a.pattern, None, 0, A.GLOB
    if a.type == A.FILE:
        return a.path, None, 0, A.FILE
    src = SourceFile(ws.read_source(a.path), for_path(a.path))
    res = A.resolve(a, src)
    if not res.attached or res.range is None:
        raise WorkspaceError(f"candidate {c.id}: its code (`{a.name or a.path}` in {a.path}) is {res.state} now; "
                             f"dismiss it, or record the note where the code is with `tether record`")
    return a.path, res.range.sl, res.range.sc, A.SYMBOL if a.type == A.SYMBOL else A.SPAN


def places(ws: Workspace, rel: str, text: str | None = None, src: SourceFile | None = None) -> list[Place]:
    """The anchors of pending candidates in ``rel``, resolved in ``text`` (an editor's
    buffer) or the file on disk, each with the notes its candidate would repeat: where the
    editor shows "proposed decision: …". ``src``: that text already parsed."""
    todo = anchored_in(rel, candidates(ws))
    if not todo:
        return []
    if text is None:
        try:
            text = ws.read_source(rel)
        except WorkspaceError:
            return []
    if src is None or src.text != text:
        src = SourceFile(text, for_path(rel))
    resolver = A.Resolver(src, None)
    out, repeats = [], {}
    for c, i, a in todo:
        res = A.Resolution(A.OK, Range(0, 0, 0, 0)) if a.type == A.FILE else resolver.resolve(a)
        if res.attached:
            if c.id not in repeats:
                repeats[c.id] = near_duplicates(ws, c)
            out.append(Place(c, i, a, res, repeats[c.id]))
    return out
