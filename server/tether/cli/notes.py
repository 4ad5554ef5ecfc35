"""Commands that create, show and change notes: init, record, amend, list, show, edit,
retire, supersede, confirm, reanchor, sync, reindex."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from ..checks.worker import compiles
from ..context.ranking import note_markdown, where
from ..core import anchors as A
from ..core.files import TETHER_DIR
from ..core.languages import by_name, for_path
from ..core.resolution import note_json
from ..core.workspace import Place, Workspace
from .common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    lsp_col,
    note_ref,
    out_json,
    parse_position,
    workspace,
)


def cmd_init(args) -> int:
    agents = _agents(args.agents) if args.agents is not None else ()
    start, exact = Path(args.path) if args.path else Path.cwd(), bool(args.path)
    made = not (Workspace.top(start, exact) / TETHER_DIR).exists()
    ws, created = Workspace.init(start, exact)
    changed = []
    try:
        ws.refresh()
        if agents:
            from ..agents.setup import set_up_agents
            changed = set_up_agents(ws, agents)
    except BaseException:
        if made:  # a refusal changes nothing: not even the .tether/ made for it
            ws.close()
            shutil.rmtree(ws.dir, ignore_errors=True)
        raise
    if args.json:
        out_json({"root": str(ws.root), "created": created, "agent_files": changed})
    else:
        print(f"{'created' if created else 'already set up:'} {ws.dir}")
        for rel in changed:
            print(f"wrote {rel}")
        if created and not agents:  # what a first day does next
            print("tether: next, `tether record decision PATH:LINE --title TITLE`, and `tether init --agents claude` "
                  "(or codex, cursor, gemini, vscode) for your agents; commit .tether/ with the code", file=sys.stderr)
        elif changed:
            print("tether: commit these with .tether/ so the team's agents are set up alike; `tether doctor` says "
                  "when a hook command cannot start", file=sys.stderr)
    return EXIT_OK


def _agents(spec: str) -> tuple[str, ...]:
    """``--agents`` alone, ``all`` or comma-separated names of agents."""
    from ..agents.setup import AGENTS, DEFAULT_AGENTS
    if spec == "":
        return DEFAULT_AGENTS
    names = [n.strip().lower() for n in spec.split(",") if n.strip()] or [spec]
    if names == ["all"]:
        return tuple(AGENTS)
    bad = next((n for n in names if n not in AGENTS), None)
    if bad is not None:
        raise UsageError(f"--agents: unknown agent '{bad}'; the agents are {', '.join(AGENTS)} (comma-separated), or all")
    return tuple(dict.fromkeys(names))


def cmd_record(args) -> int:
    ws = workspace()
    rejected = [rejected_option(option, why) for option, why in args.rejected]
    body = sys.stdin.read() if args.body == "-" else args.body
    places = places_of(ws, args.position, args) + [Place(g, how=A.GLOB) for g in args.glob]
    fields = dict(body=body, rationale=args.rationale, rejected=rejected, works_around=args.works_around,
                  remove_when=args.remove_when, failure=args.failure, cause=args.cause)
    if args.joins:
        if checks_from_args(args) or args.tag:
            raise UsageError("--joins adds to a note what a restatement says; its checks and tags stay as they are")
        note = ws.join(note_ref(args.joins), places, title=args.title or "", or_statement=True, **fields)
    else:
        if not places:
            raise UsageError("give PATH:LINE (or PATH with --file, or --glob PATTERN); several for several places")
        if not (args.title or "").strip():
            raise UsageError("a note needs a title (--title): the decision or rule itself")
        first, *more = places
        note = ws.record(args.kind, first.path, first.line, first.col, how=first.how, end=first.end, more=more,
                         title=args.title, tags=args.tag, checks=checks_from_args(args), compile=compiles,
                         or_statement=True, **fields)
    if args.json:
        out_json(note_json(note, ws.locate_note(note)))
    else:
        print(note.id)  # the id alone on standard output (scripts read it); what was anchored for people
        verb = "joined" if args.joins else "on"
        print(f"tether: {note.kind} {note.id} {verb} {anchored(ws, note)}", file=sys.stderr)
    return EXIT_OK


def cmd_amend(args) -> int:
    ws = workspace()
    body = sys.stdin.read() if args.body == "-" else args.body
    places = places_of(ws, args.add_place, args) + [Place(g, how=A.GLOB) for g in args.add_glob]
    drop = [_place_index(ws, ws.get(note_ref(args.id)), spec) for spec in args.drop_place]
    note = ws.amend(note_ref(args.id), places, kind=args.kind, title=args.title, body=body, rationale=args.rationale,
                    rejected=[rejected_option(option, why) for option, why in args.rejected],
                    drop_rejected=args.drop_rejected, works_around=args.works_around, remove_when=args.remove_when,
                    failure=args.failure, cause=args.cause, drop_places=drop,
                    or_statement=True)
    if args.json:
        out_json(note_json(note, ws.locate_note(note)))
    else:
        print(note.id)
        print(f"tether: {note.kind} {note.id} amended, on {anchored(ws, note)}", file=sys.stderr)
    return EXIT_OK


def _place_index(ws: Workspace, note, spec: str) -> int:
    """``--drop-place``: N (the Nth place, as `tether show` lists them), PATH:LINE, PATH or a pattern."""
    if spec.strip().isdigit():
        return int(spec) - 1
    if "*" in spec or "?" in spec:
        return ws.place_index(note, spec)
    path, line, _, _ = parse_position(spec)
    return ws.place_index(note, ws.rel(path, Path.cwd()), None if line is None else line - 1)


def rejected_option(option: str, why: str | None) -> tuple[str, str]:
    """A rejected option and its reason: given apart (``--rejected OPTION --because WHY``: any
    text in either), or as one ``OPTION: WHY`` when it holds one ': ' (an option that holds
    more is ambiguous: refused, naming ``--because``)."""
    if why is None:
        parts = re.split(r":\s+", option.strip())
        if len(parts) > 2:
            raise UsageError(f"--rejected '{option}': where the option ends and its reason starts is not clear; "
                             f"give them apart: --rejected OPTION --because WHY")
        option, why = parts if len(parts) == 2 else (parts[0], "")
    if not option.strip():
        raise UsageError("--rejected: the option is empty")
    return option.strip(), why.strip()


def places_of(ws: Workspace, positions: list[str], args) -> list[Place]:
    """The places of the command line. ``--span`` with several is refused: it would turn every
    definition among them into a statement, where people mean one (say that one as PATH:A-B)."""
    if getattr(args, "span", False) and len(positions) > 1:
        raise UsageError("--span applies to every position: to anchor one statement among several places, give its "
                         "lines as PATH:A-B (a span without --span) and drop --span")
    return [place(ws, p, args) for p in positions]


def place(ws: Workspace, position: str, args) -> Place:
    """A position of the command line as a place to anchor (``--span``, ``--file``: how)."""
    path, line, col, end = parse_position(position)
    rel = ws.rel(path, Path.cwd())
    if args.file:
        return Place(rel, how=A.FILE)
    if line is None:
        if not ws.abs(rel).exists():  # `record decision a.py:3 "A title"`: the title taken for a place
            title = "" if getattr(args, "title", None) else f'; a title goes in --title "{position}"'
            raise UsageError(f"{path}: no such file{title}")
        raise UsageError(f"{path}: give a line (PATH:LINE), or --file for the whole file")
    return Place(rel, line - 1, lsp_col(ws, rel, line - 1, col), A.SPAN if args.span or end is not None else A.SYMBOL,
                 (end - 1, 1 << 30) if end is not None else None)


def checks_from_args(args) -> list[dict]:
    checks = []
    for kind in ("forbid-call", "require-call", "forbid-import", "forbid-identifier"):
        for pattern in getattr(args, kind.replace("-", "_")):
            checks.append({"id": f"{kind}:{pattern}", "kind": kind, "pattern": pattern})
    for kind, files in (("forbid", args.query_forbid), ("require", args.query_require)):
        for f in files:
            path = Path(f)
            try:
                query = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                raise UsageError(f"{f}: cannot read the query ({e})") from None
            lang = for_path(parse_position(args.position[0])[0]) if args.position and not args.glob else None
            checks.append({"id": f"{kind}:{path.stem}", "kind": kind, "query": query,
                           "lang": lang.name if lang else _lang_from_query_name(path)})
    if args.message:
        for c in checks:
            c["message"] = args.message
    return checks


def _lang_from_query_name(path: Path) -> str:
    """A glob invariant's query names its language: ``no-sleep.python.scm``."""
    parts = path.name.split(".")
    if len(parts) >= 3 and by_name(parts[-2]):
        return parts[-2]
    raise UsageError(f"{path}: name the query's language in the file name (e.g. {path.stem}.python.scm)")


def cmd_list(args) -> int:
    ws = workspace()
    with ws.snapshot():  # the notes folder scanned once, not once a note
        notes = ws.notes()
        if args.paths:
            scope = {}
            for p in args.paths:
                rel = ws.rel(p, Path.cwd())
                found = ws.notes_in(rel)
                if not found and not ws.abs(rel).exists():  # a typo is not "no notes" (a file gone may have some)
                    raise UsageError(f"{p}: no such file or folder, and no note names it")
                scope.update((n.id, n) for n in found)
            notes = sorted(scope.values(), key=lambda n: n.id)
        located = ws.locate_notes(notes)
        broken = ws.broken()
        short = ws.short_ids() if notes and not args.json else {}  # what people type: `tether show` takes it
    if args.json:
        out_json({"notes": [note_json(n, located[n.id]) for n in notes],
                  "broken": [{"file": e.path, "line": e.line, "reason": e.reason} for e in broken]})
        return EXIT_OK
    if not notes:
        print("no notes" + (f" for {', '.join(args.paths)}" if args.paths else "") + " (record one with `tether record`)")
    for n in notes:
        status = "" if n.status == "active" else f" ({n.status})"
        print(f"{short.get(n.id, n.id):<12}  {n.kind:<10} {n.title}{status}")
        for loc in located[n.id]:
            state = f"[{loc.state}]"
            print(f"    {state:<12} {where(loc)}")
    for e in broken:
        print(f"{e.path}:{e.line}: error: {e.reason}", file=sys.stderr)
    lost = sum(loc.state in (A.ORPHANED, A.AMBIGUOUS) for n in notes for loc in located[n.id])
    if lost:  # the list says what became of the code; doctor says what to run about it
        print(f"tether: {lost} anchor(s) lost: `tether doctor` names the candidates and the command for each",
              file=sys.stderr)
    return EXIT_OK


def cmd_show(args) -> int:
    ws = workspace()
    note = ws.get(note_ref(args.id))
    located = ws.locate_note(note)
    if args.json:
        out_json(note_json(note, located))
    else:
        print("\n".join(note_markdown(note, "", located)).rstrip())
        print(f"\nfile: {note.path}")
    return EXIT_OK


def cmd_edit(args) -> int:
    ws = workspace()
    note = ws.get(note_ref(args.id))
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    path = ws.root / note.path
    try:
        r = subprocess.run([*shlex.split(editor), str(path)])
    except OSError as e:
        raise UsageError(f"cannot start the editor '{editor}' ($VISUAL, $EDITOR): {e.strerror}") from None
    broken = [e for e in ws.broken() if e.path == note.path]
    for e in broken:
        print(f"{e.path}:{e.line}: error: {e.reason}", file=sys.stderr)
    if r.returncode != 0:
        print(f"tether: the editor exited with {r.returncode}; the note file is as it was last saved", file=sys.stderr)
    return EXIT_USAGE if broken or r.returncode != 0 else EXIT_OK


def cmd_retire(args) -> int:
    ws = workspace()
    note = ws.retire(note_ref(args.id))
    if args.json:
        out_json(note_json(note))
    else:
        print(f"retired {note.id}  {note.title}")
    return EXIT_OK


def cmd_supersede(args) -> int:
    ws = workspace()
    note = ws.supersede(note_ref(args.id), note_ref(args.by))
    if args.json:
        out_json(note_json(note))
    else:
        print(f"{note.id} is superseded by {note.superseded_by}")
    return EXIT_OK


def cmd_confirm(args) -> int:
    ws = workspace()
    note = ws.confirm(note_ref(args.id))
    if args.json:
        out_json(note_json(note, ws.locate_note(note)))
    else:
        print(f"confirmed {note.id}  {note.title}")
    return EXIT_OK


def cmd_reanchor(args) -> int:
    ws = workspace()
    path, line, col, _ = parse_position(args.position)
    if line is None:
        raise UsageError(f"{args.position}: give PATH:LINE")
    rel = ws.rel(path, Path.cwd())
    note = ws.reanchor(note_ref(args.id), args.anchor - 1, rel, line - 1, lsp_col(ws, rel, line - 1, col),
                       how=A.SPAN if args.span else A.SYMBOL if args.definition else None)
    if args.json:
        out_json(note_json(note, ws.locate_note(note)))
    else:
        loc = ws.locate_note(note)[args.anchor - 1]
        print(f"{note.id} now anchored on {where(loc)}")
    return EXIT_OK


def cmd_sync(args) -> int:
    ws = workspace()
    rels = [ws.rel(p, Path.cwd()) for p in args.paths] or None
    changed = ws.sync(rels, write=not args.check)
    if args.json:
        out_json({"changed": [{"id": n.id, "file": n.path, "anchor": i, "name": a.name or None,
                               "range": a.range.to_lsp() if a.range else None} for n, i, a, _ in changed]})
    else:
        verb = "would update" if args.check else "updated"
        for n, i, a, was in changed:
            print(f"{verb} {n.path}: {_anchor_change(was, a)}")
        if not changed:
            print("every anchor's fingerprint is current")
    return EXIT_FINDINGS if args.check and changed else EXIT_OK


def _anchor_change(was: A.Anchor, now: A.Anchor) -> str:
    """What `sync` wrote down, saying only what differs: the file, the name, the place."""
    def named(a: A.Anchor) -> str:
        return f"`{a.name}`" if a.type == A.SYMBOL else f"a statement in `{a.name}`" if a.name else "lines"
    at = f"{now.path}:{now.range.sl + 1}" if now.range else now.path
    if now.type == A.FILE:
        return f"the file, moved from {was.path} to {now.path}"
    what = named(was) if was.name == now.name else f"{named(was)} renamed `{now.name}`"
    return f"{what}, moved from {was.path} to {at}" if was.path != now.path else f"{what}, now at {at}"


def cmd_reindex(args) -> int:
    ws = workspace()
    notes, broken = ws.reindex()
    if args.json:
        out_json({"notes": notes, "broken": broken})
    else:
        print(f"indexed {notes} notes" + (f", {broken} note files could not be read (see `tether doctor`)" if broken else ""))
    return EXIT_OK


def anchored(ws, note) -> str:
    """``BaseClient._merge_url at httpx/_client.py:391-411``, ``the file x.py``, ``pattern src/**``;
    every place of a note on several."""
    return "; ".join(where(loc) for loc in ws.locate_note(note)) or "nothing"
