"""Commands of the capture pipeline: log, distill, review, accept, dismiss; and search, over the
notes, the candidates and the log."""

from __future__ import annotations

import sys
from pathlib import Path

from ..capture import candidates as capture
from ..capture import observations
from ..capture.gate import tethers_request
from ..core import anchors as A
from ..context.search import search, since_iso
from ..core.notes import short_ids
from ..core.resolution import note_json
from .common import EXIT_FINDINGS, EXIT_OK, note_ref, out_json, workspace
from .notes import cmd_edit


def cmd_log(args) -> int:
    ws = workspace()
    sid = observations.find_session(ws, args.session)["id"] if args.session else None
    entries = observations.observations(ws, sid)
    if args.json:
        out_json({"entries": entries, "sessions": [m for m in observations.sessions(ws) if sid in (None, m["id"])]})
        return EXIT_OK
    if not entries:
        print("the observation log is empty (the agent hooks fill it: `tether init --agents`)")
    shown = None
    for e in entries:
        if e["session"] != shown:
            shown = e["session"]
            print(f"session {shown}")
        print(f"  {e['at']}  {e['kind']:<8} {log_line(e)}")
    return EXIT_OK


def log_line(e: dict) -> str:
    kind = e["kind"]
    if kind == "prompt" and tethers_request(e.get("text", "")):  # handed back as a prompt (Cursor, Gemini CLI)
        return "(tether's own request at Stop, handed back by the agent: not the person's words)"
    if kind in ("prompt", "reply", "summary"):  # the model's reply and a compaction's summary: from the proxy
        return one_line(e.get("text", ""))
    if kind in ("read", "edit"):
        lines = e.get("lines")
        where = e["path"]
        if kind == "read" and lines:
            where += f":{lines[0] + 1}-{lines[1] + 1}" if lines[1] < 1 << 29 else f":{lines[0] + 1}-"
        symbols = ", ".join(e.get("symbols") or [])
        return where + (f" ({symbols})" if symbols else "")
    if kind == "command":
        return "$ " + one_line(e.get("command", ""))
    if kind == "failure":
        what = "$ " + one_line(e["command"]) if e.get("command") else e.get("path") or e.get("tool", "")
        return f"{e.get('tool', '')}: {what} -> {one_line(e.get('error', ''))}"
    if kind == "distill":
        return f"{len(e.get('new', []))} new candidate(s), {len(e.get('updated', []))} with new evidence" + \
            (" (cut by the time budget)" if e.get("cut") else "")
    return one_line(str({k: v for k, v in e.items() if k not in ("session", "at", "kind")}))


def one_line(text: str, width: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def cmd_distill(args) -> int:
    from ..capture.distill import distill
    ws = workspace()
    transcript = str(Path(args.transcript).resolve()) if args.transcript else None
    done = distill(ws, args.session, transcript)
    for k in done.skipped:  # what could not be read; everything else was
        print(f"tether: skipped {k}", file=sys.stderr)
    if args.json:
        out_json(done.to_json())
        return EXIT_OK
    print(f"session {done.session}: {done.lines} transcript lines" if done.transcript else
          f"session {done.session}: from the observation log (no transcript)")
    for label, cands in (("new", done.queued.new), ("more evidence", done.queued.updated)):
        for c in cands:
            print(f"  {label}: {c.id}  {c.kind:<10} {c.title}")
    if done.queued.settled:
        print(f"  {len(done.queued.settled)} already accepted or dismissed: not proposed again")
    if not done.candidates:
        print("  no candidate notes")
    else:
        print("`tether review` lists them; `tether accept ID` or `tether dismiss ID`")
    return EXIT_OK


def review_rows(ws, status: str | None = capture.PENDING) -> list[tuple]:
    """The candidates, each with where its anchors are now and the notes it would repeat."""
    cands = capture.candidates(ws, status)
    paths = sorted({a.path for c in cands if c.status == capture.PENDING for a in c.anchors if a.type != A.GLOB})
    found = [p for path in paths for p in capture.places(ws, path)]
    rows = []
    for c in cands:
        pending = c.status == capture.PENDING
        rows.append((c, [p for p in found if p.candidate.id == c.id], capture.near_duplicates(ws, c) if pending else []))
    return rows


def cmd_review(args) -> int:
    ws = workspace()
    rows = review_rows(ws, None if args.all else capture.PENDING)
    if args.json:
        out_json({"candidates": [c.to_json(places, near) for c, places, near in rows]})
        return EXIT_OK
    if not rows:
        print("no candidate notes to review (`tether distill` proposes them from an agent session)")
        return EXIT_OK
    short = {**ws.short_ids(), **short_ids(c.id for c in capture.candidates(ws, None))}
    for c, places, near in rows:
        status = "" if c.status == capture.PENDING else f" ({c.status}{' as ' + c.note if c.note else ''})"
        n = len(c.sessions)
        print(f"{short[c.id]:<12}  {c.kind:<10} {c.title}{status}")
        print(f"    confidence {c.confidence:.2f}, {len(c.evidence)} piece(s) of evidence from {n} session(s)")
        by_index = {p.index: p for p in places}
        for i, a in enumerate(c.anchors):
            print(f"    on {candidate_where(a, by_index.get(i), c.status == capture.PENDING)}")
        for alt in c.alternatives:
            print(f"    rejected: {alt.option}" + (f" ({alt.rejected_because})" if alt.rejected_because else ""))
        for e in c.evidence[:3]:
            print(f"    \"{one_line(e.quote, 90)}\" ({e.who}, {e.at})")
        if len(c.evidence) > 3:
            print(f"    … and {len(c.evidence) - 3} more")
        for note in near[:1]:
            print(f"    repeats note {short.get(note.id, note.id)} \"{note.title}\": "
                  f"`tether accept {short[c.id]} --merge {short.get(note.id, note.id)}`")
    return EXIT_OK


def candidate_where(a: A.Anchor, place, pending: bool = True) -> str:
    if a.type == A.GLOB:
        return f"the repository (pattern `{a.pattern}`)" if a.pattern == "**" else f"pattern `{a.pattern}`"
    if a.type == A.FILE:
        return f"file {a.path}"
    if place is not None and place.range is not None:
        r = place.range
        return f"`{place.resolution.name or a.name}` at {a.path}:{r.sl + 1}-{r.el + 1}"
    return f"`{a.name}` in {a.path}" + (" (not found there now)" if pending else "")


def cmd_accept(args) -> int:
    ws = workspace()
    try:
        note = capture.accept(ws, args.id, merge_into=note_ref(args.merge) if args.merge else None)
    except capture.NearDuplicate as e:
        if args.json:
            out_json({"near_duplicates": [note_json(n) for n in e.notes]})
        print(f"tether: {e}", file=sys.stderr)
        return EXIT_FINDINGS
    if args.json:
        out_json(note_json(note, ws.locate_note(note)))
    else:
        print(f"{'merged into' if args.merge else 'recorded'} {note.id}  {note.path}")
    if args.edit:
        args.id = note.id
        return cmd_edit(args)
    return EXIT_OK


def cmd_dismiss(args) -> int:
    ws = workspace()
    c = capture.dismiss(ws, args.id)
    if args.json:
        out_json(c.to_json())
    else:
        print(f"dismissed {c.id}  {c.title}")
    return EXIT_OK


def search_hits(ws, query: str, since: str | None, session: str | None, limit: int = 20):
    """``tether search``: the notes, the pending candidates and the observation log, ranked."""
    sid = observations.find_session(ws, session)["id"] if session else None
    more = capture.documents(ws) + observations.documents(ws, sid)
    return search(ws, query, more, since=since_iso(since) if since else None, session=sid, limit=limit)


def hit_json(ws, h) -> dict:
    d = h.doc
    what = {"note": note_json(d.item, ws.locate_note(d.item))} if d.type == "note" else \
        {"candidate": d.item.to_json()} if d.type == "candidate" else {"entry": d.item}
    return {"type": d.type, "id": d.id, "at": d.at or None, "sessions": d.sessions, "score": h.score,
            "matched": h.matched, **what}


def cmd_search(args) -> int:
    ws = workspace()
    hits = search_hits(ws, args.query, args.since, args.session, args.limit)
    if args.json:
        out_json({"query": args.query, "results": [hit_json(ws, h) for h in hits]})
        return EXIT_OK
    if not hits:
        print(f"nothing matches '{args.query}'")
        return EXIT_OK
    short = {**ws.short_ids(), **short_ids(c.id for c in capture.candidates(ws, None))}
    for h in hits:
        d = h.doc
        if d.type == "note":
            status = f" ({d.item.status})" if d.item.status != "active" else ""
            line = f"{short.get(d.id, d.id):<12}  {d.item.kind:<10} {d.item.title}{status}"
        elif d.type == "candidate":
            line = f"{short.get(d.id, d.id):<12}  {d.item.kind:<10} {d.item.title} (proposed; `tether review`)"
        else:
            line = f"{d.at}  session {d.sessions[0][:8]}  {log_line(d.item)}"
        print(f"{d.type:<9}  {line}")
        print(f"           matched in {', '.join(h.matched)}")
    return EXIT_OK
