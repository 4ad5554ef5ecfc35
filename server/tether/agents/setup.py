"""``tether init --agents``: point the agents at tether in one idempotent step.

- MCP server entries: ``.mcp.json`` (Claude Code, ``mcpServers``), ``.vscode/mcp.json``
  (VS Code, ``servers``), ``.cursor/mcp.json`` (Cursor, ``mcpServers``).
- Claude Code hooks in ``.claude/settings.json`` (``hooks.<Event>: [{matcher, hooks:
  [{type, command, timeout}]}]``): SessionStart, PreToolUse on reads and edits,
  PostToolUse on reads, edits and Bash, UserPromptSubmit, PostToolUseFailure, Stop,
  PreCompact and SessionEnd (the observation log and distillation), each running
  ``tether hook claude-code``.
- ``.tether/agents.toml`` with ``ask_at_stop = true`` (the Stop hook asks the agent to
  record what its session decided), when there is none yet.
- VS Code agent hooks (Copilot) in ``.github/hooks/tether.json`` (``hooks.<Event>:
  [{type, command, timeout}]``): SessionStart, PreToolUse, PostToolUse and PreCompact, each
  running ``tether hook copilot``.
- Then the rule files of ``tether export all``.

Existing files are merged, never replaced: tether adds or updates only its own entries
and keeps every other key, in its order, with the file's indentation. A file that is not
valid JSON is refused (file, line, column) and nothing at all is written. Everything is
planned before the first write, so a refusal anywhere leaves every file as it was.
"""

from __future__ import annotations

import json
import re

from ..core.workspace import Workspace, WorkspaceError
from .export import Plan, plan_export

SERVER = {"type": "stdio", "command": "tether", "args": ["mcp"]}
MCP_CONFIGS = ((".mcp.json", "mcpServers"), (".vscode/mcp.json", "servers"), (".cursor/mcp.json", "mcpServers"))
HOOK_TIMEOUT = 15  # seconds; the hook answers in well under one, and never fails the agent

CLAUDE_SETTINGS = ".claude/settings.json"
CLAUDE_HOOK = "tether hook claude-code"
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

# At Stop, when the session changed code and tether found candidate notes in it, block the
# stop once and ask the agent to record the ones that hold and dismiss the rest.
# false: never ask (the candidates still wait in `tether review`).
ask_at_stop = true
"""

COPILOT_HOOKS = ".github/hooks/tether.json"
COPILOT_HOOK = "tether hook copilot"
# VS Code applies no tool matchers (the hook filters by tool) and has no SessionStart after a
# compaction: PreCompact lets the hook hand the notes over again once the conversation lost them
COPILOT_EVENTS = ("SessionStart", "PreToolUse", "PostToolUse", "PreCompact")


def set_up_agents(ws: Workspace) -> list[str]:
    """Write or merge every agent config, then export the rule files; returns the
    workspace-relative files written or changed (none on a second run)."""
    plan = Plan(ws)
    for rel, key in MCP_CONFIGS:
        _merge_json(plan, rel, lambda data, rel=rel, key=key: _add_server(data, rel, key))
    _merge_json(plan, CLAUDE_SETTINGS, _add_claude_hooks)
    _merge_json(plan, COPILOT_HOOKS, _add_copilot_hooks)
    if plan.read(SETTINGS) is None:
        plan.put(SETTINGS, SETTINGS_TEXT)
    plan_export(plan, "all")
    return plan.apply()


# -- one JSON file, merged ------------------------------------------------------------------

def _merge_json(plan: Plan, rel: str, change) -> None:
    text = plan.read(rel)
    data = _parse(text, rel) if text is not None and text.strip() else {}
    before = json.dumps(data, sort_keys=False)
    change(data)
    if text is not None and json.dumps(data, sort_keys=False) == before:
        return  # already as wanted: the file is not even reformatted
    plan.put(rel, _format(data, text))


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


# -- tether's entries -----------------------------------------------------------------------

def _add_server(data: dict, rel: str, key: str) -> None:
    servers = _object(data, key, rel, key)
    entry = servers.get("tether")
    servers["tether"] = {**entry, **SERVER} if isinstance(entry, dict) else dict(SERVER)


def _runs(hook, command: str) -> bool:
    return isinstance(hook, dict) and hook.get("command") == command


def _add_claude_hooks(data: dict) -> None:
    hooks = _object(data, "hooks", CLAUDE_SETTINGS, "hooks")
    for event, matcher in CLAUDE_EVENTS:
        groups = _array(hooks, event, CLAUDE_SETTINGS, f"hooks.{event}")
        ours = {"hooks": [{"type": "command", "command": CLAUDE_HOOK, "timeout": HOOK_TIMEOUT}]}
        if matcher is not None:
            ours = {"matcher": matcher, **ours}

        def inner(g) -> list:
            return g.get("hooks") if isinstance(g, dict) and isinstance(g.get("hooks"), list) else []

        same = (None, "", "*") if matcher is None else (matcher,)
        if any(any(_runs(h, CLAUDE_HOOK) for h in inner(g)) and g.get("matcher") in same for g in groups):
            continue  # already there (possibly with the user's own timeout): leave it
        own = [i for i, g in enumerate(groups) if inner(g) and all(_runs(h, CLAUDE_HOOK) for h in inner(g))]
        if own:
            groups[own[0]] = ours  # tether's own group, with an outdated matcher
        else:
            groups.append(ours)


def _add_copilot_hooks(data: dict) -> None:
    hooks = _object(data, "hooks", COPILOT_HOOKS, "hooks")
    for event in COPILOT_EVENTS:
        entries = _array(hooks, event, COPILOT_HOOKS, f"hooks.{event}")
        if not any(_runs(h, COPILOT_HOOK) for h in entries):
            entries.append({"type": "command", "command": COPILOT_HOOK, "timeout": HOOK_TIMEOUT})
