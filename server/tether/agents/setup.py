"""``tether init --agents [NAMES]``: point the chosen agents at tether in one idempotent step.

What each agent gets (:data:`AGENTS`; without names: claude, cursor and vscode):

- ``claude``: the MCP server in ``.mcp.json`` (``mcpServers``); hooks in
  ``.claude/settings.json`` (``hooks.<Event>: [{matcher, hooks: [{type, command, timeout}]}]``):
  SessionStart, PreToolUse on reads and edits, PostToolUse on reads, edits and Bash,
  UserPromptSubmit, PostToolUseFailure, Stop, PreCompact and SessionEnd (the observation log
  and distillation), each running ``tether hook claude-code``; ``CLAUDE.md`` and ``.claude/rules/``.
- ``cursor``: ``.cursor/mcp.json`` (``mcpServers``); hooks in ``.cursor/hooks.json``
  (``{"version": 1, "hooks": {event: [{command, matcher, timeout}]}}``) for the events of
  :data:`tether.agents.dialects.CURSOR`, running ``tether hook cursor``; ``AGENTS.md`` and
  ``.cursor/rules/``.
- ``vscode``: ``.vscode/mcp.json`` (``servers``); VS Code agent hooks (Copilot) in
  ``.github/hooks/tether.json`` (``hooks.<Event>: [{type, command, timeout}]``): SessionStart,
  PreToolUse, PostToolUse and PreCompact, each running ``tether hook copilot``; ``AGENTS.md``
  and ``.github/instructions/``.
- ``gemini``: ``.gemini/settings.json``: ``mcpServers`` and ``hooks`` (``{event: [{matcher,
  hooks: [{type, command, name, timeout}]}]}``, timeouts in milliseconds) for the events of
  :data:`tether.agents.dialects.GEMINI`, running ``tether hook gemini``.
- ``codex``: ``[mcp_servers.tether]`` in ``.codex/config.toml`` (Codex reads a project's file
  when the project is trusted); ``AGENTS.md``.

With an agent whose end of turn takes tether's request (``claude``, ``vscode``, ``cursor``,
``gemini``): ``.tether/agents.toml`` with ``ask_at_stop = true`` (at the end of a session that
changed code, its agent is asked to record what the session settled), when there is none yet.

The entries name ``tether`` plainly when PATH finds it (the same on every machine of a team
that installed it so), else the absolute path of the one that runs ``init``
(:func:`tether_command`), so an agent started without the virtual environment on its PATH still
finds it; the hook commands, run as a new process on every tool call, then name this
interpreter and this package's ``__main__.py`` and skip ``site`` (:func:`hook_launcher`): ~5 ms
sooner.

Existing files are merged, never replaced: tether adds or updates only its own entries
(recognised by the command they run, whatever path names tether) and keeps every other key,
in its order, with the file's indentation; in the files their agents read with comments
(:data:`JSONC`: VS Code's, Gemini CLI's) every comment too. A file that is not valid JSON
(or TOML) is refused (file, line, column) and nothing at all is written. Everything is
planned before the first write and written all or nothing (``Plan.apply``), so a refusal
anywhere, or a folder that cannot be written, leaves every file as it was.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..core.workspace import Workspace, WorkspaceError
from . import jsonc
from .dialects import CURSOR, GEMINI, Dialect, tool_matcher
from .export import TARGETS, Plan, collect, exported_targets, plan_export

HOOK_TIMEOUT = 15  # seconds; the hook answers in well under one, and never fails the agent

CLAUDE_SETTINGS = ".claude/settings.json"
CLAUDE_EVENTS = (  # event, tool matcher (None: every occurrence)
    ("SessionStart", None),
    ("UserPromptSubmit", None),  # the observation log: prompts …
    ("PreToolUse", "Read|Edit|Write|MultiEdit|NotebookEdit"),
    ("PostToolUse", "Read|Edit|Write|MultiEdit|NotebookEdit|Bash"),  # … reads, edits, commands …
    ("PostToolUseFailure", None),  # … and failures with their error text
    ("Stop", None),  # distil the session into candidate notes for review (and ask the agent about them)
    ("PreCompact", None),  # … and before its conversation is compacted
    ("SessionEnd", None),
)

# what the hooks may do beyond handing notes over; written once, then the team's to change
SETTINGS = ".tether/agents.toml"
SETTINGS_TEXT = """\
# Settings of tether's agent hooks (written by `tether init --agents`).

# At Stop, when the session changed code and the person said more than bare commands, keep the
# agent going once with a request to record as notes what the session settled (tether's
# candidate notes come with it, as hints). false: never ask (candidates wait in `tether review`).
ask_at_stop = true
"""

COPILOT_HOOKS = ".github/hooks/tether.json"
# VS Code applies no tool matchers (the hook filters by tool) and has no SessionStart after a
# compaction: PreCompact lets the hook hand the notes over again once the conversation lost them
COPILOT_EVENTS = ("SessionStart", "PreToolUse", "PostToolUse", "PreCompact", "Stop")

CURSOR_HOOKS = ".cursor/hooks.json"
GEMINI_SETTINGS = ".gemini/settings.json"
CODEX_CONFIG = ".codex/config.toml"
DEFAULT_AGENTS = ("claude", "cursor", "vscode")  # what `init --agents` set up before agents could be named


def set_up_agents(ws: Workspace, agents: tuple[str, ...] = DEFAULT_AGENTS, command: list[str] | None = None) -> list[str]:
    """Write or merge the configs of ``agents`` (names of :data:`AGENTS`), then export their
    rule files; returns the workspace-relative files written or changed (none on a second run)."""
    cmd = command or tether_command()
    plan = Plan(ws)
    for name in agents:
        AGENTS[name].configure(plan, cmd)
    if {"claude", "vscode", "cursor", "gemini"} & set(agents) and plan.read(SETTINGS) is None:  # their end of a
        # turn takes the request
        plan.put(SETTINGS, SETTINGS_TEXT)
    targets = dict.fromkeys(t for name in agents for t in AGENTS[name].export)
    if targets:
        notes = collect(ws)
        for target in targets:
            plan_export(plan, target, notes)
    return plan.apply()


def tether_command() -> list[str]:
    """How an agent should start tether: plain ``tether`` only when a login shell's PATH finds
    this very tether (an agent started from the desktop, or from a terminal without this virtual
    environment, gets that PATH), else the absolute path of the running command
    (``python -P -m tether`` when it was started that way: ``-P``, or a ``tether`` folder in the
    repository an agent runs it in would be imported instead)."""
    argv0 = sys.argv[0] if sys.argv else ""
    script = Path(argv0).absolute() if Path(argv0).stem == "tether" and os.sep in argv0 else None
    login = login_path()
    found = shutil.which("tether", path=login) if login is not None else None
    if found and _same_tether(Path(found), script):
        return ["tether"]
    return [str(script)] if script else [sys.executable, "-P", "-m", "tether"]


def _same_tether(found: Path, script: Path | None) -> bool:
    """``found`` runs the tether that is running: the same script, or (run as ``python -m
    tether``) a script whose ``#!`` names this interpreter. A wrapper (a pyenv shim, a shell
    script) may pick another one by the folder it runs in: not the same."""
    try:
        if script is not None:
            return os.path.samefile(found, script)
        with open(found, "rb") as f:
            first = f.readline(512)
        interpreter = first[2:].split()[0].decode() if first.startswith(b"#!") and first[2:].split() else ""
        return bool(interpreter) and os.path.samefile(interpreter, sys.executable)
    except (OSError, UnicodeDecodeError):
        return False


def login_path() -> str | None:
    """The PATH a login shell of this user starts with (what an agent started outside this
    terminal gets); None when the shell cannot say within a few seconds."""
    shell = os.environ.get("SHELL") or "/bin/sh"
    home = os.environ.get("HOME") or "/"
    env = {k: os.environ[k] for k in ("HOME", "USER", "LOGNAME", "SHELL", "LANG") if k in os.environ}
    try:
        r = subprocess.run([shell, "-l", "-c", 'printf "\\n@tether-path@%s\\n" "$PATH"'], cwd=home, env=env,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    for line in r.stdout.decode(errors="replace").splitlines():
        if line.startswith("@tether-path@"):
            return line[len("@tether-path@"):]
    return None


# -- one JSON file, merged ------------------------------------------------------------------

JSONC = (".vscode/mcp.json", GEMINI_SETTINGS)  # read with comments by their agents (VS Code, Gemini CLI)


def _merge_json(plan: Plan, rel: str, change) -> None:
    text = plan.read(rel)
    if rel in JSONC and text is not None and text.strip():
        return _merge_jsonc(plan, rel, text, change)
    data = _parse(text, rel) if text is not None and text.strip() else {}
    before = json.dumps(data, sort_keys=False)
    change(data)
    if text is not None and json.dumps(data, sort_keys=False) == before:
        return  # already as wanted: the file is not even reformatted
    plan.put(rel, _format(data, text))


def _merge_jsonc(plan: Plan, rel: str, text: str, change) -> None:
    """A JSON-with-comments file, changed where tether's entries are: every comment kept."""
    try:
        data, tree = jsonc.parse(text)
    except jsonc.JsoncError as e:
        raise WorkspaceError(f"{rel}:{e.line}:{e.col}: not valid JSON ({e.msg}); fix it or add tether's entry "
                             f"by hand (nothing was changed)") from None
    if not isinstance(data, dict):
        raise WorkspaceError(f"{rel}:1: expected a JSON object {{…}} at the top (nothing was changed)")
    new = copy.deepcopy(data)
    change(new)
    if new != data:
        try:
            plan.put(rel, jsonc.patch(text, tree, new))
        except ValueError:  # the edit would not read back as meant: never written
            raise WorkspaceError(f"{rel}: tether cannot merge its entries into this file; add them by hand "
                                 f"(nothing was changed)") from None


def _parse(text: str, rel: str) -> dict:
    def pairs(items):
        seen = set()
        for k, _ in items:
            if k in seen:
                raise WorkspaceError(f"{rel}: the key \"{k}\" appears twice in one object; keep one and run "
                                     f"`tether init --agents` again (nothing was changed)")
            seen.add(k)
        return dict(items)

    try:
        data = json.loads(text.lstrip("\ufeff"), object_pairs_hook=pairs)
    except json.JSONDecodeError as e:
        raise WorkspaceError(f"{rel}:{e.lineno}:{e.colno}: not valid JSON ({e.msg}); fix it (comments and trailing "
                             f"commas are not JSON) or add tether's entry by hand (nothing was changed)") from None
    if not isinstance(data, dict):
        raise WorkspaceError(f"{rel}:1: expected a JSON object {{…}} at the top (nothing was changed)")
    return data


def _format(data: dict, old: str | None) -> str:
    """JSON in the old file's style: its indentation, line endings and final newline."""
    indent: str | int = 2
    if old is not None:
        m = re.search(r"\n([ \t]+)\S", old)
        if m:
            indent = m.group(1)
    out = json.dumps(data, indent=indent, ensure_ascii=False)
    if old is None or old.endswith("\n") or not old.strip():
        out += "\n"
    if old is not None and "\r\n" in old:
        out = out.replace("\n", "\r\n")
    if old is not None and old.startswith("\ufeff"):
        out = "\ufeff" + out
    return out


def _object(parent: dict, key: str, rel: str, where: str) -> dict:
    value = parent.setdefault(key, {})
    if not isinstance(value, dict):
        raise WorkspaceError(f"{rel}: \"{where}\" should be a JSON object; fix it (nothing was changed)")
    return value


def _array(parent: dict, key: str, rel: str, where: str) -> list:
    value = parent.setdefault(key, [])
    if not isinstance(value, list):
        raise WorkspaceError(f"{rel}: \"{where}\" should be a JSON array; fix it (nothing was changed)")
    return value


def hook_launcher(cmd: list[str]) -> list[str]:
    """How a hook command starts tether, ``cmd`` being how an agent finds it
    (:func:`tether_command`): plain ``tether`` as it is (the same on every machine of a team
    that installed it so: the command is committed with the repository); else, the path being
    this machine's anyway, this interpreter without ``site`` (``-S``: its start,
    a venv's setuptools ``.pth`` among it, is ~5 ms of a served hook's ~25) running this
    package's ``__main__.py`` by path, which puts the folder the package was imported from
    first on ``sys.path`` — the install location, taken from the running tether, not guessed
    from the interpreter's layout (a ``--user``, ``--prefix`` or PYTHONPATH install differs).
    A hook the resident server answers needs nothing else; one it does not runs site then
    (``tether.cli.with_site``). ``-P``: not the package's own folder on ``sys.path``, whose
    ``mcp`` and ``site`` would hide the real ones. A tether with no ``__main__.py`` on disk
    (in a zip) is started as ``cmd``."""
    main = Path(__file__).resolve().parent.parent / "__main__.py"
    if cmd == ["tether"] or not sys.executable or not main.is_file():
        return cmd
    return [sys.executable, "-P", "-S", str(main)]


# -- tether's entries -----------------------------------------------------------------------

def _hook_command(cmd: list[str], agent: str) -> str:
    """``--serve``: the first hook starts a resident ``tether serve`` that answers the next
    ones in milliseconds (agents/resident.py); drop it to have every hook work alone."""
    return shlex.join([*hook_launcher(cmd), "hook", agent, "--serve"])


def _mcp_server(cmd: list[str], **kw) -> dict:
    return {**kw, "command": cmd[0], "args": [*cmd[1:], "mcp"]}


def _ours(entry, agent: str) -> bool:
    """An entry that runs ``tether hook AGENT``, whichever path or interpreter names tether."""
    command = entry.get("command") if isinstance(entry, dict) else None
    try:
        words = shlex.split(command) if isinstance(command, str) else []
    except ValueError:
        return False
    words = words[:-1] if words[-1:] == ["--serve"] else words
    return (len(words) >= 3 and words[-2:] == ["hook", agent]
            and (Path(words[0]).stem == "tether" or words[-4:-2] == ["-m", "tether"]
                 or Path(words[-3]).parts[-2:] == ("tether", "__main__.py")))


def _add_server(data: dict, rel: str, key: str, server: dict) -> None:
    servers = _object(data, key, rel, key)
    entry = servers.get("tether")
    servers["tether"] = {**entry, **server} if isinstance(entry, dict) else dict(server)


def _grouped_hooks(data: dict, rel: str, events, hook: dict, agent: str) -> None:
    """Claude Code's and Gemini CLI's shape: ``hooks.<Event>: [{matcher, hooks: [hook]}]``."""
    hooks = _object(data, "hooks", rel, "hooks")
    for event, matcher in events:
        groups = _array(hooks, event, rel, f"hooks.{event}")
        ours = {"hooks": [dict(hook)]}
        if matcher is not None:
            ours = {"matcher": matcher, **ours}

        def inner(g) -> list:
            return g.get("hooks") if isinstance(g, dict) and isinstance(g.get("hooks"), list) else []

        same = (None, "", "*") if matcher is None else (matcher,)
        placed = [h for g in groups if inner(g) and g.get("matcher") in same for h in inner(g) if _ours(h, agent)]
        for h in placed:  # already there (possibly with the user's own timeout): only the command is kept current
            h["command"] = hook["command"]
        if placed:
            continue
        own = [i for i, g in enumerate(groups) if inner(g) and all(_ours(h, agent) for h in inner(g))]
        if own:
            groups[own[0]] = ours  # tether's own group, with an outdated matcher
        else:
            groups.append(ours)


def _flat_hooks(data: dict, rel: str, events, hook: dict, agent: str) -> None:
    """VS Code's and Cursor's shape: ``hooks.<event>: [hook]``, Cursor's with a ``matcher``."""
    hooks = _object(data, "hooks", rel, "hooks")
    for event, matcher in events:
        entries = _array(hooks, event, rel, f"hooks.{event}")
        ours = {**hook, "matcher": matcher} if matcher else dict(hook)
        placed = [h for h in entries if _ours(h, agent)]
        for h in placed:
            h.update({k: ours[k] for k in ("command", "matcher") if k in ours})
        if not placed:
            entries.append(ours)


def _dialect_events(d: Dialect) -> list[tuple[str, str | None]]:
    """A hook dialect's events, the ones around a tool with its tool matcher."""
    around = {"PreToolUse", "PostToolUse"}
    return [(event, tool_matcher(d) if around & set(moments) else None) for event, moments in d.events.items()]


def _claude(plan: Plan, cmd: list[str]) -> None:
    _merge_json(plan, ".mcp.json", lambda data: _add_server(data, ".mcp.json", "mcpServers",
                                                            _mcp_server(cmd, type="stdio")))
    hook = {"type": "command", "command": _hook_command(cmd, "claude-code"), "timeout": HOOK_TIMEOUT}
    _merge_json(plan, CLAUDE_SETTINGS, lambda data: _grouped_hooks(data, CLAUDE_SETTINGS, CLAUDE_EVENTS, hook,
                                                                   "claude-code"))


def _vscode(plan: Plan, cmd: list[str]) -> None:
    _merge_json(plan, ".vscode/mcp.json", lambda data: _add_server(data, ".vscode/mcp.json", "servers",
                                                                   _mcp_server(cmd, type="stdio")))
    hook = {"type": "command", "command": _hook_command(cmd, "copilot"), "timeout": HOOK_TIMEOUT}
    events = [(e, None) for e in COPILOT_EVENTS]
    _merge_json(plan, COPILOT_HOOKS, lambda data: _flat_hooks(data, COPILOT_HOOKS, events, hook, "copilot"))


def _cursor(plan: Plan, cmd: list[str]) -> None:
    _merge_json(plan, ".cursor/mcp.json", lambda data: _add_server(data, ".cursor/mcp.json", "mcpServers",
                                                                   _mcp_server(cmd, type="stdio")))
    hook = {"command": _hook_command(cmd, "cursor"), "timeout": HOOK_TIMEOUT}

    def change(data: dict) -> None:
        data.setdefault("version", 1)
        _flat_hooks(data, CURSOR_HOOKS, _dialect_events(CURSOR), hook, "cursor")
    _merge_json(plan, CURSOR_HOOKS, change)


def _gemini(plan: Plan, cmd: list[str]) -> None:
    hook = {"type": "command", "command": _hook_command(cmd, "gemini"), "name": "tether",
            "timeout": HOOK_TIMEOUT * 1000}  # milliseconds

    def change(data: dict) -> None:
        _add_server(data, GEMINI_SETTINGS, "mcpServers", _mcp_server(cmd))
        _grouped_hooks(data, GEMINI_SETTINGS, _dialect_events(GEMINI), hook, "gemini")
    _merge_json(plan, GEMINI_SETTINGS, change)


# -- Codex: one TOML table --------------------------------------------------------------------

_CODEX_TABLE = re.compile(r"""^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:tether|"tether"|'tether')[ \t]*\][^\n]*\n?""",
                          re.M)
_TOML_TABLE = re.compile(r"^[ \t]*\[", re.M)
_TOML_KEY = re.compile(r"^[ \t]*(?:command|args)[ \t]*=[^\n]*\n?", re.M)


def _codex(plan: Plan, cmd: list[str]) -> None:
    """``[mcp_servers.tether]`` with ``command`` and ``args``; the rest of the file as it was."""
    rel = CODEX_CONFIG
    text = plan.read(rel) or ""
    want = _mcp_server(cmd)
    servers = _toml(text, rel).get("mcp_servers", {})
    have = servers.get("tether") if isinstance(servers, dict) else None
    if isinstance(have, dict) and all(have.get(k) == v for k, v in want.items()):
        return
    nl = "\r\n" if "\r\n" in text else "\n"
    keys = nl.join([f"command = {_toml_str(want['command'])}",
                    f"args = [{', '.join(_toml_str(a) for a in want['args'])}]"]) + nl
    m = _CODEX_TABLE.search(text)
    if m is None:
        gap = "" if not text.strip() else nl if text.endswith("\n") else nl + nl
        new = f"{text}{gap}[mcp_servers.tether]{nl}{keys}"
    else:  # the table's own command and args replaced, its other keys kept
        end = (_TOML_TABLE.search(text, m.end()) or re.compile(r"\Z").search(text)).start()
        head = text[:m.end()] if text[:m.end()].endswith("\n") else text[:m.end()] + nl
        new = head + keys + _TOML_KEY.sub("", text[m.end():end]) + text[end:]
    try:
        got = tomllib.loads(new)["mcp_servers"]["tether"]
        ok = all(got.get(k) == v for k, v in want.items())
    except (tomllib.TOMLDecodeError, KeyError, TypeError, AttributeError):
        ok = False
    if not ok:
        raise WorkspaceError(f"{rel}: tether cannot rewrite the mcp_servers.tether written there; set it by hand "
                             f"to {keys.strip()!r} under [mcp_servers.tether] (nothing was changed)")
    plan.put(rel, new)


def _toml(text: str, rel: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\s*\(at line (\d+), column (\d+)\)", str(e))
        where = f"{rel}:{m.group(1)}:{m.group(2)}" if m else rel
        why = str(e)[:m.start()] if m else str(e)
        raise WorkspaceError(f"{where}: not valid TOML ({why}); fix it or add tether's entry by hand "
                             f"(nothing was changed)") from None


def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)  # a TOML basic string: JSON's escapes are TOML's


# -- the agents -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Agent:
    configure: Callable[[Plan, list[str]], None]  # its MCP and hook configs, naming the given tether command
    export: tuple[str, ...] = ()  # the `tether export` targets it reads
    mcp: tuple[str, str] = ("", "")  # the file and key of its MCP entry: how a later command sees it was set up


AGENTS = {
    "claude": Agent(_claude, ("claude",), (".mcp.json", "mcpServers")),
    "codex": Agent(_codex, ("agents",), (CODEX_CONFIG, "mcp_servers")),
    "cursor": Agent(_cursor, ("agents", "cursor"), (".cursor/mcp.json", "mcpServers")),
    "gemini": Agent(_gemini, (), (GEMINI_SETTINGS, "mcpServers")),
    "vscode": Agent(_vscode, ("agents", "copilot"), (".vscode/mcp.json", "servers")),
}


def agents_set_up(ws: Workspace) -> list[str]:
    """The agents ``init --agents`` set up here: those whose MCP config names tether's server."""
    out = []
    for name, agent in AGENTS.items():
        rel, key = agent.mcp
        try:
            text = (ws.root / rel).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        try:
            data = tomllib.loads(text) if rel.endswith(".toml") else json.loads(text.lstrip("\ufeff"))
            found = isinstance(data, dict) and isinstance(data.get(key), dict) and "tether" in data[key]
        except ValueError:  # JSON with comments, a hand edit half done: what it names is enough
            found = '"tether"' in text or "mcp_servers.tether" in text
        if found:
            out.append(name)
    return out


def export_targets(ws: Workspace) -> list[str]:
    """What `tether export` keeps current by default: the targets of the agents set up here,
    and those whose files an earlier export wrote."""
    wanted = {t for name in agents_set_up(ws) for t in AGENTS[name].export} | set(exported_targets(ws))
    return [t for t in TARGETS if t in wanted]


# -- doctor: can the hook commands start? -----------------------------------------------------

HOOK_FILES = ((CLAUDE_SETTINGS, "claude-code", "claude"), (CURSOR_HOOKS, "cursor", "cursor"),
              (COPILOT_HOOKS, "copilot", "vscode"), (GEMINI_SETTINGS, "gemini", "gemini"))


def hook_commands(ws: Workspace) -> list[tuple[str, int, str, str]]:
    """tether's hook commands in the agents' configs, each once: (file, line, command, agent)."""
    seen, out = set(), []
    for rel, hook, agent in HOOK_FILES:
        try:
            text = (ws.root / rel).read_text(encoding="utf-8")
            data = json.loads(text.lstrip("\ufeff"))
        except (OSError, ValueError):  # no file, or one `init --agents` would refuse with its line
            continue
        for entry in _objects(data):
            command = entry.get("command")
            if _ours(entry, hook) and command not in seen:
                seen.add(command)
                at = text.find(json.dumps(command)[1:-1])
                out.append((rel, text.count("\n", 0, max(at, 0)) + 1, command, agent))
    return out


def _objects(data):
    if isinstance(data, dict):
        yield data
        for v in data.values():
            yield from _objects(v)
    elif isinstance(data, list):
        for v in data:
            yield from _objects(v)


def hooks_that_cannot_start(ws: Workspace) -> list[tuple[str, int, str]]:
    """Run each hook command once, as an agent started outside this terminal would (a login
    shell's PATH), from a folder in no workspace with an empty event: it answers nothing and
    starts no server. (file, line, why) for each that does not exit 0."""
    commands = hook_commands(ws)
    if not commands:
        return []
    login = login_path()
    env = {**os.environ, "PATH": login} if login is not None else dict(os.environ)
    where = "with a login shell's PATH" if login is not None else "here"
    out = []
    import tempfile
    with tempfile.TemporaryDirectory() as away:
        for rel, line, command, agent in commands:
            try:
                r = subprocess.run(["/bin/sh", "-c", command], cwd=away, env=env, input=b"{}", capture_output=True,
                                   timeout=HOOK_TIMEOUT)
                said = r.stderr.decode(errors="replace").strip().splitlines()
                why = None if r.returncode == 0 else f"{said[-1] if said else 'no message'} (exit {r.returncode})"
            except OSError as e:
                why = e.strerror
            except subprocess.TimeoutExpired:
                why = f"no answer within {HOOK_TIMEOUT} s"
            if why:
                out.append((rel, line, f"the hook command `{command}` cannot start {where}: {why}; the agent's "
                                       f"hooks fail silently. `tether init --agents {agent}` writes the path of the "
                                       f"tether that runs it"))
    return out


def hooks_written_before(ws: Workspace) -> list[tuple[str, int, str]]:
    """Hook commands that start this very tether the way an older ``init --agents`` wrote
    them (its script, with ``site``) where it now writes a faster start: (file, line, hint)."""
    cmd, dialect = tether_command(), {agent: hook for _, hook, agent in HOOK_FILES}
    out = []
    for rel, line, command, agent in hook_commands(ws):
        now = _hook_command(cmd, dialect[agent])
        if command != now and shlex.split(command)[:-3] == cmd:
            out.append((rel, line, f"the hook command `{command}` starts tether with `site` (~5 ms a hook); "
                                   f"`tether init --agents {agent}` writes `{now}`"))
    return out
