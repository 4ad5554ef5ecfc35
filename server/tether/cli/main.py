"""The ``tether`` command: each subcommand opens the workspace, makes one core call and
prints the result for people (text) or programs (``--json``). Positions in text are
1-based ``path:line[:col]``; in JSON they are 0-based LSP ranges."""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
from pathlib import Path

from .. import __version__
from ..context.ranking import DEFAULT_BUDGET
from ..core.notes import KINDS, NoteError
from ..core.workspace import WorkspaceError
from .client import HOOK_AGENTS
from .common import EXIT_OK, EXIT_USAGE, UsageError


def main(argv: list[str] | None = None) -> int:
    if argv and argv[0] == "help":  # `tether help [COMMAND]`, as git and pip take it
        argv = [*argv[1:2], "--help"]
    parser = build_parser(argv[0] if argv else None)
    args, extra = parser.parse_known_args(argv)
    if extra:  # positions after an option (record KIND --span A:1 B:2): argparse leaves them over
        if not isinstance(getattr(args, "position", None), list) or any(e.startswith("-") for e in extra):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.position += extra
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    module, name = args.func.split(":")  # imported here: a hook call needs none of the other commands' modules
    func = globals()[name] if module == "main" else getattr(importlib.import_module(f".{module}", __package__), name)
    try:
        return func(args) or EXIT_OK
    except (WorkspaceError, UsageError, NoteError) as e:
        print(f"tether: {e}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130


def cmd_serve(args) -> int:
    from .resident import Refused, serve
    try:
        refused = serve(Path(args.path).resolve(), idle=args.idle, run=main)
    except Refused as e:
        print(f"tether: not serving: {e}", file=sys.stderr)
        return EXIT_USAGE
    if refused:
        print("tether: a server already serves this workspace", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


@functools.cache
def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line; with ``only`` a command's name, just that command's parser (building
    every one costs a hook call more than answering it); any other word: all of them. Built once a
    process (the resident server runs every request through it)."""
    p = argparse.ArgumentParser(prog="tether", description="Keep the why of the code attached to the code.")
    p.add_argument("--version", action="version", version=f"tether {__version__}")
    sub = p.add_subparsers(title="commands", metavar="COMMAND")
    names: list[str] = []

    def cmd(name, func, help_):
        """``func``: MODULE:FUNCTION of this package, imported when the command runs."""
        names.append(name)
        if only is not None and name != only:
            return _Unbuilt()
        c = sub.add_parser(name, help=help_, description=help_)
        c.set_defaults(func=func)
        return c

    c = cmd("init", "notes:cmd_init", "create .tether/ at the top of this git repository (or in this folder)")
    c.add_argument("path", nargs="?", help="create it exactly here instead")
    c.add_argument("--agents", nargs="?", const="", metavar="NAMES",
                   help="also set agents up (MCP server, hooks, rule files): comma-separated names of claude, "
                        "codex, cursor, gemini, vscode, or all; alone: claude,cursor,vscode")
    c.add_argument("--json", action="store_true")

    c = cmd("record", "notes:cmd_record", "record a note anchored to code (several places: give each)")
    c.add_argument("kind", choices=KINDS)
    c.add_argument("position", nargs="*", help="PATH:LINE[:COL] (1-based): the definition there (the statement where none "
                                               "encloses the line); PATH:LINE-LINE: those lines; PATH with --file; "
                                               "several when the note governs several places")
    note_fields(c, "")
    c.add_argument("--joins", metavar="NOTE_ID", help="a restatement of this note: add to it (the places and rejected "
                                                      "options it lacks, its words) instead of a second note; a "
                                                      "--title becomes the note's title, to say the rule as it now "
                                                      "stands (the old title is kept in its body)")
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
    how.add_argument("--span", action="store_true", help="anchor the statement at each position, not the definition")
    how.add_argument("--file", action="store_true", help="anchor each whole file")
    c.add_argument("--glob", action="append", default=[], metavar="PATTERN",
                   help="anchor a path pattern such as 'src/auth/**' (repeatable; with positions or alone)")
    c.add_argument("--json", action="store_true", help="print the whole note as JSON")

    c = cmd("amend", "notes:cmd_amend", "correct a note without an editor: each option given replaces (or adds to) "
                                         "what the note says; the rest stays")
    c.add_argument("id", help="the note's id, or a unique prefix of it (4+ characters)")
    c.add_argument("--kind", choices=KINDS, help="what kind of note it is")
    note_fields(c, None)
    c.add_argument("--drop-rejected", action="append", default=[], metavar="OPTION",
                   help="remove this rejected option (repeatable)")
    c.add_argument("--add-place", action="append", default=[], metavar="PATH:LINE",
                   help="one more place the note governs: the definition at PATH:LINE (the statement where none "
                        "encloses the line), PATH:LINE-LINE those lines, PATH with --file (repeatable)")
    c.add_argument("--add-glob", action="append", default=[], metavar="PATTERN",
                   help="one more place: a path pattern such as 'src/auth/**' (repeatable)")
    c.add_argument("--drop-place", action="append", default=[], metavar="PLACE",
                   help="remove one of its places: PATH:LINE (the place whose code holds the line), PATH, a "
                        "pattern, or N (the Nth, as `tether show` lists them) (repeatable)")
    how = c.add_mutually_exclusive_group()
    how.add_argument("--span", action="store_true", help="anchor the statement at each added position")
    how.add_argument("--file", action="store_true", help="anchor each added file whole")
    c.add_argument("--json", action="store_true", help="print the whole note as JSON")

    c = cmd("list", "notes:cmd_list", "list notes, each anchor with its state and current place")
    c.add_argument("paths", nargs="*", metavar="PATH", help="only notes that apply to these files or folders")
    c.add_argument("--json", action="store_true")

    c = cmd("show", "notes:cmd_show", "show one note")
    c.add_argument("id")
    c.add_argument("--json", action="store_true")

    c = cmd("edit", "notes:cmd_edit", "open a note file in $VISUAL / $EDITOR (without one: `tether amend`)")
    c.add_argument("id")

    c = cmd("retire", "notes:cmd_retire", "mark a note retired (kept in history, no longer shown as current)")
    c.add_argument("id")
    c.add_argument("--json", action="store_true")

    c = cmd("supersede", "notes:cmd_supersede", "mark a note superseded by a newer one")
    c.add_argument("id")
    c.add_argument("--by", required=True, metavar="NEW_ID")
    c.add_argument("--json", action="store_true")

    c = cmd("confirm", "notes:cmd_confirm", "an invariant still holds: record its code's current fingerprint")
    c.add_argument("id")
    c.add_argument("--json", action="store_true")

    c = cmd("reanchor", "notes:cmd_reanchor", "tie a note (an orphaned or ambiguous anchor) to the code at PATH:LINE")
    c.add_argument("id")
    c.add_argument("position", help="PATH:LINE[:COL] (1-based)")
    c.add_argument("--anchor", type=int, default=1, metavar="N", help="which anchor of the note (default 1)")
    how = c.add_mutually_exclusive_group()  # neither: the kind of anchor it was
    how.add_argument("--span", action="store_true", help="the statement there")
    how.add_argument("--definition", action="store_true", help="the definition there")
    c.add_argument("--json", action="store_true")

    c = cmd("sync", "notes:cmd_sync", "write anchors that moved, changed or were renamed back into their note files")
    c.add_argument("paths", nargs="*", metavar="PATH", help="only notes anchored in these files")
    c.add_argument("--check", action="store_true", help="change nothing; exit 1 when a note file would change")
    c.add_argument("--json", action="store_true")

    c = cmd("context", "faces:cmd_context", "the notes that apply at PATH[:LINE], for an agent or a person")
    c.add_argument("position", help="PATH or PATH:LINE")
    c.add_argument("--budget", type=int, default=DEFAULT_BUDGET, metavar="TOKENS",
                   help=f"fit the answer in this many tokens (default {DEFAULT_BUDGET})")
    c.add_argument("--format", choices=("md", "json"), default="md")

    c = cmd("mcp", "faces:cmd_mcp", "run the MCP server (tools and note resources for agents) on standard input/output")

    c = cmd("hook", "faces:cmd_hook", "answer an agent's hook event (JSON on standard input); never fails the agent")
    c.add_argument("agent", choices=HOOK_AGENTS)
    c.add_argument("--serve", action="store_true",
                   help="ask the workspace's resident server first, and start one when none answers")

    c = cmd("serve", "main:cmd_serve", "answer agents' hook events from a resident process (started by `hook --serve`)")
    c.add_argument("path", nargs="?", default=".", help="the workspace (default: the one holding this folder)")
    c.add_argument("--idle", type=float, default=1800, metavar="SECONDS", help="exit after this long unasked")

    c = cmd("proxy", "faces:cmd_proxy", "run a local proxy between an agent and its model's API: notes for the files "
                                         "it touches, its session captured for review (docs/proxy.md)")
    c.add_argument("--port", type=int, default=8766, help="port on 127.0.0.1 (default 8766; 0: any free port)")
    c.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; another needs "
                                                       "--allow-remote)")
    c.add_argument("--allow-remote", action="store_true",
                   help="listen on a non-loopback --host: anyone who reaches it uses your keys")
    for family, where in (("anthropic", "https://api.anthropic.com"), ("openai", "https://api.openai.com"),
                          ("gemini", "https://generativelanguage.googleapis.com")):
        c.add_argument(f"--{family}-upstream", metavar="URL", help=f"where {family} requests go (default {where})")
    c.add_argument("--no-inject", action="store_true", help="capture only: add no notes to requests")
    c.add_argument("--distil-on-compaction", action="store_true",
                   help="ask a compaction for what the conversation settled, as candidates (changes what the model "
                        "is asked; removed from the summary the agent gets)")
    c.add_argument("--workspace", metavar="DIR", help="the repository with .tether/ (default: the one holding this "
                                                      "folder)")

    c = cmd("export", "faces:cmd_export", "write the notes as rule files for agents that only read files")
    c.add_argument("target", nargs="?", choices=("agents", "claude", "cursor", "copilot", "all"),
                   help="default: the agents `init --agents` set up here (and files an earlier export wrote)")
    how = c.add_mutually_exclusive_group()
    how.add_argument("--write", action="store_true", help="write the files (the default)")
    how.add_argument("--check", action="store_true", help="change nothing; exit 1 when a file is stale")

    c = cmd("check", "findings:cmd_check", "run invariant checks and drift guards; report lost anchors and broken notes")
    c.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: every file a note applies to)")
    c.add_argument("--format", choices=("text", "json", "sarif", "github", "markdown"), default="text",
                   help="markdown: a pull request comment (with --changed-since, also the notes on the changed code)")
    c.add_argument("--changed-since", metavar="REV", help="only files changed since this git revision")
    c.add_argument("--jobs", type=int, metavar="N", help="processes to share a large check (default: one a core)")

    c = cmd("site", "faces:cmd_site", "write a static site of the notes for people: files, notes, decisions, what needs attention")
    c.add_argument("--out", metavar="DIR", help="the folder to write (default .tether/cache/site)")

    c = cmd("log", "review:cmd_log", "the agents' observation log: prompts, files read and edited, commands, failures")
    c.add_argument("--session", metavar="ID", help="only this session (an id or a unique prefix of it)")
    c.add_argument("--json", action="store_true")

    c = cmd("search", "review:cmd_search", "search the notes, the candidate notes and the agents' observation log, best first")
    c.add_argument("query")
    c.add_argument("--since", metavar="WHEN", help="only what changed or happened since: 2026-11-20, "
                                                   "2026-11-20T09:00, or an age such as 6h, 2d, 1w")
    c.add_argument("--session", metavar="ID", help="only what comes from this agent session (an id or a unique prefix)")
    c.add_argument("--limit", type=int, default=20, metavar="N", help="at most N results (default 20)")
    c.add_argument("--json", action="store_true")

    c = cmd("distill", "review:cmd_distill", "propose candidate notes from an agent session (transcript and observation log)")
    c.add_argument("--session", metavar="ID", help="a session of the observation log (default: the latest)")
    c.add_argument("--transcript", metavar="PATH", help="a Claude Code transcript (.jsonl) or a VS Code chat session (chatSessions/*.json)")
    c.add_argument("--json", action="store_true")

    c = cmd("review", "review:cmd_review", "list the candidate notes waiting for review")
    c.add_argument("--all", action="store_true", help="also the accepted, merged and dismissed ones")
    c.add_argument("--json", action="store_true")

    c = cmd("accept", "review:cmd_accept", "turn a candidate into a note file, its evidence in the body")
    c.add_argument("id")
    c.add_argument("--merge", metavar="NOTE_ID", help="add its evidence to this existing note instead")
    c.add_argument("--edit", action="store_true", help="then open the note in $VISUAL / $EDITOR")
    c.add_argument("--json", action="store_true")

    c = cmd("dismiss", "review:cmd_dismiss", "drop a candidate note (restating it later does not bring it back)")
    c.add_argument("id")
    c.add_argument("--json", action="store_true")

    c = cmd("lsp", "faces:cmd_lsp", "run the language server on standard input/output")
    c.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP port instead (for debugging)")

    c = cmd("reindex", "notes:cmd_reindex", "rebuild the index in .tether/cache from the note files")
    c.add_argument("--json", action="store_true")

    c = cmd("doctor", "findings:cmd_doctor", "report broken note files, orphaned or ambiguous anchors, index problems")
    c.add_argument("--json", action="store_true")
    return p if only is None or only in names else build_parser()


def note_fields(c, default) -> None:
    """What a note says, as ``record`` and ``amend`` take it; ``default``: what an option not
    given is (``amend``: None, the note's stays)."""
    c.add_argument("--title", help="the decision or rule itself, as a sentence")
    c.add_argument("--body", default=default, help="Markdown body ('-' reads standard input)")
    c.add_argument("--rationale", default=default, help="why (decisions)")
    c.add_argument("--rejected", action=Rejected, default=[], metavar="OPTION",
                   help="an option considered and rejected (repeatable); its reason in the --because after it, "
                        "or (when the option holds no ': ') as 'OPTION: WHY'")
    c.add_argument("--because", action=Because, dest="rejected", metavar="WHY",
                   help="why the --rejected option before it was rejected (any text); "
                        "leave it out when nobody said why")
    c.add_argument("--works-around", default=default, help="workarounds: the problem it works around")
    c.add_argument("--remove-when", default=default, help="workarounds: when it can go")
    c.add_argument("--failure", default=default, help="gotchas: what fails (the error or the symptom)")
    c.add_argument("--cause", default=default, help="gotchas: why it fails")


class Rejected(argparse.Action):
    """``--rejected OPTION``: a new rejected option, its reason still open (``--because``)."""

    def __call__(self, parser, namespace, value, option_string=None):
        getattr(namespace, self.dest).append([value, None])


class Because(argparse.Action):
    """``--because WHY``: the reason of the ``--rejected`` option just before it."""

    def __call__(self, parser, namespace, value, option_string=None):
        options = getattr(namespace, self.dest)
        if not options or options[-1][1] is not None:
            parser.error("--because WHY follows the --rejected OPTION it gives the reason for")
        options[-1][1] = value


class _Unbuilt:
    """The parser of a command this run does not need: every call is taken and ignored."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: self
