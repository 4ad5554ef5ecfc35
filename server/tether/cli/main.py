"""The ``tether`` command: each subcommand opens the workspace, makes one core call and
prints the result for people (text) or programs (``--json``). Positions in text are
1-based ``path:line[:col]``; in JSON they are 0-based LSP ranges."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import orjson

from .. import __version__
from ..capture import candidates as capture
from ..capture import observations
from ..checks.findings import Finding, check, doctor
from ..context.ranking import DEFAULT_BUDGET, context_for, note_markdown, where
from ..core import anchors as A
from ..core.files import git_toplevel, is_under
from ..core.languages import by_name, for_path
from ..core.notes import KINDS, NoteError
from ..core.resolution import note_json
from ..core.text import utf16_len
from ..core.workspace import Workspace, WorkspaceError

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.func(args) or EXIT_OK
    except (WorkspaceError, UsageError, NoteError) as e:
        print(f"tether: {e}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tether", description="Keep the why of the code attached to the code.")
    p.add_argument("--version", action="version", version=f"tether {__version__}")
    sub = p.add_subparsers(title="commands", metavar="COMMAND")

    def cmd(name, func, help_):
        c = sub.add_parser(name, help=help_, description=help_)
        c.set_defaults(func=func)
        return c

    c = cmd("init", cmd_init, "create .tether/ at the top of this git repository (or in this folder)")
    c.add_argument("path", nargs="?", help="create it exactly here instead")
    c.add_argument("--agents", action="store_true",
                   help="also set agents up: MCP configs, Claude Code hooks and the exported rule files")
    c.add_argument("--json", action="store_true")

    c = cmd("record", cmd_record, "record a note anchored to code")
    c.add_argument("kind", choices=KINDS)
    c.add_argument("position", nargs="?", help="PATH:LINE[:COL] (1-based), PATH:LINE-LINE with --span, or PATH with --file")
    c.add_argument("--title", required=True)
    c.add_argument("--body", default="", help="Markdown body ('-' reads standard input)")
    c.add_argument("--rationale", default="", help="why (decisions)")
    c.add_argument("--rejected", action="append", default=[], metavar="OPTION: WHY",
                   help="an option considered and rejected, and why (repeatable)")
    c.add_argument("--works-around", default="", help="the problem a workaround works around")
    c.add_argument("--remove-when", default="", help="when a workaround can go")
    c.add_argument("--tag", action="append", default=[])
    for flag, what in (("forbid-call", "a call that must not appear (time.sleep, requests.*, *.delete)"),
                       ("require-call", "a call that must appear at least once (audit.log)"),
                       ("forbid-import", "a module that must not be imported (sqlalchemy.*)"),
                       ("forbid-identifier", "a name that must not be used")):
        c.add_argument(f"--{flag}", action="append", default=[], metavar="NAME", help=f"invariants: {what}")
    c.add_argument("--query-forbid", action="append", default=[], metavar="FILE.scm",
                   help="invariants: a tree-sitter query that must not match")
    c.add_argument("--query-require", action="append", default=[], metavar="FILE.scm",
                   help="invariants: a tree-sitter query that must match")
    c.add_argument("--message", default="", help="invariants: what a violation says (default: the rule)")
    how = c.add_mutually_exclusive_group()
    how.add_argument("--span", action="store_true", help="anchor the statement at the position, not the definition")
    how.add_argument("--file", action="store_true", help="anchor the whole file")
    how.add_argument("--glob", metavar="PATTERN", help="anchor a path pattern such as 'src/auth/**'")
    c.add_argument("--json", action="store_true", help="print the whole note as JSON")

    c = cmd("list", cmd_list, "list notes, each anchor with its state and current place")
    c.add_argument("path", nargs="?", help="only notes that apply to this file or folder")
    c.add_argument("--json", action="store_true")

    c = cmd("show", cmd_show, "show one note")
    c.add_argument("id")
    c.add_argument("--json", action="store_true")

    c = cmd("edit", cmd_edit, "open a note file in $VISUAL / $EDITOR")
    c.add_argument("id")

    c = cmd("retire", cmd_retire, "mark a note retired (kept in history, no longer shown as current)")
    c.add_argument("id")
    c.add_argument("--json", action="store_true")

    c = cmd("supersede", cmd_supersede, "mark a note superseded by a newer one")
    c.add_argument("id")
    c.add_argument("--by", required=True, metavar="NEW_ID")
    c.add_argument("--json", action="store_true")

    c = cmd("confirm", cmd_confirm, "an invariant still holds: record its code's current fingerprint")
    c.add_argument("id")
    c.add_argument("--json", action="store_true")

    c = cmd("reanchor", cmd_reanchor, "tie a note (an orphaned or ambiguous anchor) to the code at PATH:LINE")
    c.add_argument("id")
    c.add_argument("position", help="PATH:LINE[:COL] (1-based)")
    c.add_argument("--anchor", type=int, default=1, metavar="N", help="which anchor of the note (default 1)")
    c.add_argument("--span", action="store_true", help="the statement there, not the definition")
    c.add_argument("--json", action="store_true")

    c = cmd("sync", cmd_sync, "write anchors that moved, changed or were renamed back into their note files")
    c.add_argument("paths", nargs="*", metavar="PATH", help="only notes anchored in these files")
    c.add_argument("--check", action="store_true", help="change nothing; exit 1 when a note file would change")
    c.add_argument("--json", action="store_true")

    c = cmd("context", cmd_context, "the notes that apply at PATH[:LINE], for an agent or a person")
    c.add_argument("position", help="PATH or PATH:LINE")
    c.add_argument("--budget", type=int, default=DEFAULT_BUDGET, metavar="TOKENS",
                   help=f"fit the answer in this many tokens (default {DEFAULT_BUDGET})")
    c.add_argument("--format", choices=("md", "json"), default="md")

    c = cmd("mcp", cmd_mcp, "run the MCP server (tools and note resources for agents) on standard input/output")

    c = cmd("hook", cmd_hook, "answer an agent's hook event (JSON on standard input); never fails the agent")
    c.add_argument("agent", choices=("claude-code", "copilot"))

    c = cmd("export", cmd_export, "write the notes as rule files for agents that only read files")
    c.add_argument("target", nargs="?", choices=("agents", "claude", "cursor", "copilot", "all"), default="all")
    how = c.add_mutually_exclusive_group()
    how.add_argument("--write", action="store_true", help="write the files (the default)")
    how.add_argument("--check", action="store_true", help="change nothing; exit 1 when a file is stale")

    c = cmd("check", cmd_check, "run invariant checks and drift guards; report lost anchors and broken notes")
    c.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: every file a note applies to)")
    c.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text")
    c.add_argument("--changed-since", metavar="REV", help="only files changed since this git revision")
    c.add_argument("--jobs", type=int, metavar="N", help="processes to share a large check (default: one a core)")

    c = cmd("log", cmd_log, "the agents' observation log: prompts, files read and edited, commands, failures")
    c.add_argument("--session", metavar="ID", help="only this session (an id or a unique prefix of it)")
    c.add_argument("--json", action="store_true")

    c = cmd("distill", cmd_distill, "propose candidate notes from an agent session (transcript and observation log)")
    c.add_argument("--session", metavar="ID", help="a session of the observation log (default: the latest)")
    c.add_argument("--transcript", metavar="PATH", help="a Claude Code transcript (.jsonl)")
    c.add_argument("--json", action="store_true")

    c = cmd("review", cmd_review, "list the candidate notes waiting for review")
    c.add_argument("--all", action="store_true", help="also the accepted, merged and dismissed ones")
    c.add_argument("--json", action="store_true")

    c = cmd("accept", cmd_accept, "turn a candidate into a note file, its evidence in the body")
    c.add_argument("id")
    c.add_argument("--merge", metavar="NOTE_ID", help="add its evidence to this existing note instead")
    c.add_argument("--edit", action="store_true", help="then open the note in $VISUAL / $EDITOR")
    c.add_argument("--json", action="store_true")

    c = cmd("dismiss", cmd_dismiss, "drop a candidate note (restating it later does not bring it back)")
    c.add_argument("id")
    c.add_argument("--json", action="store_true")

    c = cmd("lsp", cmd_lsp, "run the language server on standard input/output")
    c.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP port instead (for debugging)")

    c = cmd("reindex", cmd_reindex, "rebuild the index in .tether/cache from the note files")
    c.add_argument("--json", action="store_true")

    c = cmd("doctor", cmd_doctor, "report broken note files, orphaned or ambiguous anchors, index problems")
    c.add_argument("--json", action="store_true")
    return p


# -- helpers ------------------------------------------------------------------------------

def out_json(obj) -> None:
    sys.stdout.write(orjson.dumps(obj, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode() + "\n")


def parse_position(spec: str) -> tuple[str, int | None, int | None, int | None]:
    """``path[:line[-end_line][:col]]`` (1-based) -> (path, line, col, end_line), read from
    the right so paths may hold colons."""
    m = re.fullmatch(r"(.+?)(?::(\d+)(?:-(\d+))?(?::(\d+))?)?", spec)
    if not m or not m.group(1):
        raise UsageError(f"'{spec}': expected PATH:LINE[:COL] or PATH:LINE-LINE")
    path, line, end, col = m.group(1), m.group(2), m.group(3), m.group(4)
    line, end, col = (int(x) if x else None for x in (line, end, col))
    if any(x is not None and x < 1 for x in (line, end, col)):
        raise UsageError(f"'{spec}': lines and columns start at 1")
    if end is not None and end < line:
        raise UsageError(f"'{spec}': the end line comes before the start line")
    return path, line, col, end


def workspace() -> Workspace:
    return Workspace.find(Path.cwd())


def note_ref(ref: str) -> str:
    """A note id (or prefix), or a note file path relative to the current folder."""
    return str(Path(ref).resolve()) if ref.endswith(".md") else ref


def lsp_col(ws: Workspace, rel: str, line0: int, col1: int | None) -> int:
    """1-based character column -> 0-based UTF-16 column on that line."""
    if not col1:
        return 0
    try:
        text = ws.read_source(rel).split("\n")
    except WorkspaceError:
        return col1 - 1
    if line0 >= len(text):
        return col1 - 1
    return utf16_len(text[line0][:col1 - 1])


# -- commands -----------------------------------------------------------------------------

def cmd_init(args) -> int:
    ws, created = Workspace.init(Path(args.path) if args.path else Path.cwd(), exact=bool(args.path))
    ws.refresh()
    changed = []
    if args.agents:
        from ..agents.setup import set_up_agents
        changed = set_up_agents(ws)
    if args.json:
        out_json({"root": str(ws.root), "created": created, "agent_files": changed})
    else:
        print(f"{'created' if created else 'already set up:'} {ws.dir}")
        for rel in changed:
            print(f"wrote {rel}")
    return EXIT_OK


def cmd_record(args) -> int:
    ws = workspace()
    rejected = []
    for r in args.rejected:
        opt, sep, why = r.partition(":")
        if not opt.strip():
            raise UsageError(f"--rejected '{r}': expected 'OPTION: WHY'")
        rejected.append((opt, why if sep else ""))
    body = sys.stdin.read() if args.body == "-" else args.body
    common = dict(title=args.title, body=body, rationale=args.rationale, rejected=rejected, tags=args.tag,
                  works_around=args.works_around, remove_when=args.remove_when, checks=checks_from_args(args))
    if args.glob:
        note = ws.record(args.kind, args.glob, how=A.GLOB, **common)
    else:
        if not args.position:
            raise UsageError("give PATH:LINE (or PATH with --file, or --glob PATTERN)")
        path, line, col, end = parse_position(args.position)
        rel = ws.rel(path, Path.cwd())
        if args.file:
            note = ws.record(args.kind, rel, how=A.FILE, **common)
        else:
            if line is None:
                raise UsageError(f"{path}: give a line (PATH:LINE), or --file for the whole file")
            if end is not None and not args.span:
                raise UsageError("a line range (PATH:LINE-LINE) anchors lines: add --span")
            note = ws.record(args.kind, rel, line - 1, lsp_col(ws, rel, line - 1, col),
                             how=A.SPAN if args.span else A.SYMBOL,
                             end=(end - 1, 1 << 30) if end is not None else None, **common)
    if args.json:
        out_json(note_json(note, ws.locate_note(note)))
    else:
        print(note.id)
    return EXIT_OK


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
            lang = for_path(parse_position(args.position)[0]) if args.position and not args.glob else None
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
    notes = ws.notes()
    if args.path:
        rel = ws.rel(args.path, Path.cwd())
        scope = [n for n in notes if any(is_under(a.path, rel)
                                         for a in n.anchors if a.type != A.GLOB)]
        scope += [n for n in ws.notes_on(rel) if n not in scope]
        notes = sorted(scope, key=lambda n: n.id)
    located = {n.id: ws.locate_note(n) for n in notes}
    if args.json:
        out_json({"notes": [note_json(n, located[n.id]) for n in notes],
                  "broken": [{"file": e.path, "line": e.line, "reason": e.reason} for e in ws.broken()]})
        return EXIT_OK
    if not notes:
        print("no notes" + (f" for {args.path}" if args.path else "") + " (record one with `tether record`)")
    for n in notes:
        status = "" if n.status == "active" else f" ({n.status})"
        print(f"{n.id}  {n.kind:<10} {n.title}{status}")
        for loc in located[n.id]:
            state = f"[{loc.state}]"
            print(f"    {state:<12} {where(loc)}")
    for e in ws.broken():
        print(f"{e.path}:{e.line}: error: {e.reason}", file=sys.stderr)
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
    r = subprocess.run([*shlex.split(editor), str(path)])
    if r.returncode != 0:
        print(f"tether: the editor exited with {r.returncode}; the note file is as it was saved", file=sys.stderr)
    broken = [e for e in ws.broken() if e.path == note.path]
    for e in broken:
        print(f"{e.path}:{e.line}: error: {e.reason}", file=sys.stderr)
    return EXIT_USAGE if broken else EXIT_OK


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
                       how=A.SPAN if args.span else None)
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
                               "range": a.range.to_lsp() if a.range else None} for n, i, a in changed]})
    else:
        verb = "would update" if args.check else "updated"
        for n, i, a in changed:
            print(f"{verb} {n.path}: anchor {i + 1} -> {a.name or a.path} at {a.path}:{a.range.sl + 1}")
        if not changed:
            print("every anchor's fingerprint is current")
    return EXIT_FINDINGS if args.check and changed else EXIT_OK


def cmd_context(args) -> int:
    ws = workspace()
    path, line, _, _ = parse_position(args.position)
    rel = ws.rel(path, Path.cwd())
    if not ws.abs(rel).exists():
        raise WorkspaceError(f"{rel}: no such file")
    if args.budget < 1:
        raise UsageError("--budget: give a positive number of tokens")
    ctx = context_for(ws, rel, line - 1 if line else None, budget=args.budget)
    if args.format == "json":
        out_json(ctx.to_json())
    else:
        sys.stdout.write(ctx.to_markdown())
    return EXIT_OK


def cmd_check(args) -> int:
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs: give a positive number of processes")
    ws = workspace()
    ws.jobs = args.jobs
    rels = None
    if args.paths:
        rels = []
        for p in args.paths:
            rel = ws.rel(p, Path.cwd())
            target = ws.abs(rel)
            rels += [f for f in ws.files() if is_under(f, rel)] \
                if target.is_dir() else [rel]
    if args.changed_since:
        r = subprocess.run(["git", "diff", "--name-only", "--relative", args.changed_since, "--"],
                           cwd=ws.root, capture_output=True, text=True)
        if r.returncode != 0:
            raise UsageError(f"--changed-since {args.changed_since}: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else 'git failed'}")
        changed = set(r.stdout.split())
        changed |= set(subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], cwd=ws.root,
                                      capture_output=True, text=True).stdout.split())
        rels = sorted(changed if rels is None else changed & set(rels))
    findings = check(ws, rels)
    if args.format == "json":
        out_json({"findings": [f.to_json() for f in findings]})
    elif args.format == "sarif":
        out_json(sarif(findings))
    elif args.format == "github":
        for f in findings:
            level = {"error": "error", "warning": "warning"}.get(f.severity, "notice")
            col = f",col={f.range.sc + 1}" if f.range else ""
            msg = f.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
            print(f"::{level} file={f.path},line={f.line}{col},title=tether {f.code}::{msg}")
    else:
        for f in findings:
            print(f.to_text())
        print("no findings" if not findings else f"{len(findings)} finding(s)", file=sys.stderr)
    return EXIT_FINDINGS if findings else EXIT_OK


def sarif(findings) -> dict:
    """SARIF 2.1.0: one run, one rule per finding code (checks: per check id)."""
    rules, results = {}, []
    for f in findings:
        rule = f.extra.get("check") or f.code
        rules.setdefault(rule, {"id": rule, "name": f.code, "shortDescription": {"text": f.code.replace("-", " ")}})
        region = {"startLine": f.line}
        if f.range:
            region.update(startLine=f.range.sl + 1, startColumn=f.range.sc + 1, endLine=f.range.el + 1,
                          endColumn=f.range.ec + 1)
        result = {"ruleId": rule, "level": {"error": "error", "warning": "warning"}.get(f.severity, "note"),
                  "message": {"text": f.message},
                  "locations": [{"physicalLocation": {"artifactLocation": {"uri": f.path, "uriBaseId": "SRCROOT"},
                                                      "region": region}}]}
        if f.note_id:
            result["properties"] = {"note": f.note_id}
        results.append(result)
    return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": "tether", "version": __version__, "rules": list(rules.values())}},
                      "results": results}]}


def cmd_mcp(args) -> int:
    from ..mcp.server import main as serve
    try:
        root = workspace().root
    except WorkspaceError:  # not set up yet: reads answer "no notes", the first record creates .tether/
        root = git_toplevel(Path.cwd()) or Path.cwd()
    serve(root)
    return EXIT_OK


def cmd_hook(args) -> int:
    from ..agents.hooks import run
    return run(args.agent, sys.stdin, sys.stdout)


def cmd_export(args) -> int:
    from ..agents.export import export
    ws = workspace()
    stale = export(ws, args.target, check=args.check)
    for rel in stale:
        print(f"{'stale' if args.check else 'wrote'} {rel}")
    return EXIT_FINDINGS if args.check and stale else EXIT_OK


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
    if kind == "prompt":
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


def cmd_review(args) -> int:
    ws = workspace()
    cands = capture.candidates(ws, None if args.all else capture.PENDING)
    paths = sorted({a.path for c in cands if c.status == capture.PENDING for a in c.anchors if a.type != A.GLOB})
    found = [p for path in paths for p in capture.places(ws, path)]
    rows = []
    for c in cands:
        pending = c.status == capture.PENDING
        rows.append((c, [p for p in found if p.candidate.id == c.id], capture.near_duplicates(ws, c) if pending else []))
    if args.json:
        out_json({"candidates": [c.to_json(places, near) for c, places, near in rows]})
        return EXIT_OK
    if not rows:
        print("no candidate notes to review (`tether distill` proposes them from an agent session)")
    for c, places, near in rows:
        status = "" if c.status == capture.PENDING else f" ({c.status}{' as ' + c.note if c.note else ''})"
        n = len(c.sessions)
        print(f"{c.id}  {c.kind:<10} {c.title}{status}")
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
            print(f"    repeats note {note.id} \"{note.title}\": `tether accept {c.id} --merge {note.id}`")
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


def cmd_lsp(args) -> int:
    from ..lsp.server import main as serve
    serve(tcp=args.tcp)
    return EXIT_OK


def cmd_reindex(args) -> int:
    ws = workspace()
    notes, broken = ws.reindex()
    if args.json:
        out_json({"notes": notes, "broken": broken})
    else:
        print(f"indexed {notes} notes" + (f", {broken} note files could not be read (see `tether doctor`)" if broken else ""))
    return EXIT_OK


def cmd_doctor(args) -> int:
    ws = workspace()
    findings = doctor(ws)
    if args.json:
        out_json({"findings": [{"file": f.path, "line": f.line, "severity": f.severity, "code": f.code,
                                "message": f.message, "note": f.note_id or None} for f in findings]})
    else:
        for f in findings:
            print(f"{f.path}:{f.line}: {f.severity}: {f.message}" + (f" [{f.note_id}]" if f.note_id else ""))
        print("no problems found" if not findings else f"{len(findings)} problem(s)", file=sys.stderr)
    return EXIT_FINDINGS if findings else EXIT_OK


__all__ = ["main", "build_parser", "Finding"]
