"""Commands for agents, editors and people: context, the faces it starts (mcp, hook, export, lsp) and the
static site (site)."""

from __future__ import annotations

import sys
from pathlib import Path

from ..context.ranking import context_for
from ..core.files import git_toplevel
from ..core.workspace import WorkspaceError
from .common import EXIT_FINDINGS, EXIT_OK, UsageError, out_json, parse_position, workspace


def cmd_context(args) -> int:
    ws = workspace()
    path, line, _, _ = parse_position(args.position)
    rel = ws.rel(path, Path.cwd())
    if not ws.abs(rel).exists():
        raise WorkspaceError(f"{rel}: no such file")
    if line is not None and ws.abs(rel).is_file():
        count = len(ws.read_source(rel).split("\n"))
        if line > count:
            raise UsageError(f"{rel}:{line}: line out of range (the file has {count} lines)")
    if args.budget < 1:
        raise UsageError("--budget: give a positive number of tokens")
    ctx = context_for(ws, rel, line - 1 if line else None, budget=args.budget)
    if args.format == "json":
        out_json(ctx.to_json())
    else:
        sys.stdout.write(ctx.to_markdown())
    return EXIT_OK


def cmd_mcp(args) -> int:
    from ..mcp.server import main as serve
    try:
        root = workspace().root
    except WorkspaceError:  # not set up yet: reads answer "no notes", the first record creates .tether/
        root = git_toplevel(Path.cwd()) or Path.cwd()
    serve(root)
    return EXIT_OK


def cmd_hook(args) -> int:
    from ..agents import hooks
    if args.agent in hooks.AGENTS:  # (the other agents' dialects are not imported for these)
        return hooks.run(args.agent, sys.stdin, sys.stdout)
    from ..agents import dialects
    return dialects.run(args.agent, sys.stdin, sys.stdout, sys.stderr)


def cmd_proxy(args) -> int:
    import asyncio

    from ..proxy.capture import Options
    from ..proxy.server import is_loopback, serve
    from ..core.workspace import Workspace
    if not is_loopback(args.host) and not args.allow_remote:
        raise UsageError(f"--host {args.host}: not a loopback address; the proxy forwards your API keys, so "
                         f"listening elsewhere needs --allow-remote")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: give 0 to 65535")
    ws = Workspace.find(Path(args.workspace).resolve() if args.workspace else Path.cwd())
    upstreams = {f: u for f in ("anthropic", "openai", "gemini") if (u := getattr(args, f"{f}_upstream"))}
    for f, u in upstreams.items():
        if not u.startswith(("http://", "https://")):
            raise UsageError(f"--{f}-upstream {u}: give an http:// or https:// URL")
    options = Options(inject=not args.no_inject, distil_on_compaction=args.distil_on_compaction)
    if not is_loopback(args.host):
        print(f"tether proxy: warning: listening on {args.host}: anyone who reaches it can use the keys of the "
              f"agents that use it", file=sys.stderr)

    def ready(base: str) -> None:
        print(f"tether proxy: {base} (workspace {ws.root})\n"
              f"  ANTHROPIC_BASE_URL={base}\n  OPENAI_BASE_URL={base}/v1\n  GOOGLE_GEMINI_BASE_URL={base}", flush=True)
    try:
        asyncio.run(serve(ws, args.host, args.port, upstreams, options, ready))
    except OSError as e:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    finally:
        ws.close()
    return EXIT_OK


def cmd_export(args) -> int:
    from ..agents.export import TARGETS, export, out_of_date
    ws = workspace()
    if args.target:
        targets = list(TARGETS) if args.target == "all" else [args.target]
    else:  # what `init --agents` (or an earlier export) set up: not every agent's files for a team using one
        from ..agents.setup import export_targets
        targets = export_targets(ws)
        if not targets:
            print("tether: no agent here reads rule files yet: `tether init --agents` sets them up "
                  "(`tether export all` writes every agent's)", file=sys.stderr)
            return EXIT_OK
    if not args.check:
        for rel in export(ws, targets):
            print(f"wrote {rel}")
        return EXIT_OK
    behind = out_of_date(ws, targets)
    for state, rel in behind:
        print(f"{state} {rel}")
    if behind:
        print(f"tether: {len(behind)} rule file(s) not as the notes say: `tether export` writes them", file=sys.stderr)
    return EXIT_FINDINGS if behind else EXIT_OK


def cmd_lsp(args) -> int:
    from ..lsp.server import main as serve
    serve(tcp=args.tcp)
    return EXIT_OK


def cmd_site(args) -> int:
    from ..checks.findings import check
    from ..site.pages import build
    from .review import review_rows
    ws = workspace()
    out = Path(args.out).resolve() if args.out else ws.dir / "cache" / "site"
    findings = [f.to_json() for f in check(ws)]
    candidates = [c.to_json(places, near) for c, places, near in review_rows(ws)]
    done = build(ws, out, findings, candidates)
    notes, files = (f"{n} {what}{'s' if n != 1 else ''}" for n, what in ((done["notes"], "note"), (done["files"], "file")))
    print(f"wrote {done['pages']} pages ({notes}, {files}): {Path(done['out']) / 'index.html'}")
    return EXIT_OK
