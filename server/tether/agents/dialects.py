"""``tether hook cursor`` and ``tether hook gemini``: the moments of ``tether hook claude-code``
in the hook contracts of Cursor and Gemini CLI.

Each agent is a table (:data:`DIALECTS`): which Claude Code events each of its events stands
for, its field and tool names in Claude Code's vocabulary, and where its reply carries text.
One event becomes the Claude Code events it stands for, each answered by
:func:`tether.agents.hooks.answer` (the one place that decides what to say), and what they
say is joined into the agent's reply.

Both agents' events before a tool can only allow, deny or rewrite it (Cursor's ``preToolUse``
and ``beforeReadFile``, Gemini's ``BeforeTool``), so the notes for a file come with the event
right after the read or edit (``postToolUse``, ``AfterTool``), added to the tool's result,
together with the edit's findings. Neither agent starts a session after compacting; its next
answer that can carry text gives what ``SessionStart`` after a compaction gives.

Every event gets a valid reply and exit 0: with nothing to say, outside a tether repository,
on bad input or an internal error, the event's neutral reply (an error also writes one line
on standard error, the details going to ``.tether/cache/hooks.log``).
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable

from ..core.records import dataclass, field
from ..core.store import json_text
from ..core.workspace import Workspace, WorkspaceError
from . import hooks

# tether's own moments, beside Claude Code's events
COMPACTED, AFTER_COMPACTION = "tether:compacted", "tether:after-compaction"
OWN: dict[str, Callable[[Workspace, str], str]] = {COMPACTED: hooks.compacted,
                                                   AFTER_COMPACTION: hooks.after_compaction}
AROUND_TOOL = (AFTER_COMPACTION, "PreToolUse", "PostToolUse")  # the notes, then the edit's findings


def _zero_based_offset(ti: dict) -> dict:
    """Gemini's read_file counts ``offset`` from 0, Claude Code's Read from 1."""
    offset = ti.get("offset")
    return {**ti, "offset": offset + 1} if hooks._num(offset) else ti


@dataclass(frozen=True)
class Dialect:
    events: dict[str, tuple[str, ...]]  # the agent's event -> the moments it stands for, in order
    fields: dict[str, tuple[str, ...]]  # a Claude Code field -> the agent's names for it (first present wins)
    tools: dict[str, tuple[str, Callable[[dict], dict] | None]]  # the agent's tool -> Claude Code's, input fix
    carries: frozenset[str]  # the events whose reply can carry text
    reply: Callable[[str, str], dict]  # (event, text) -> the reply that carries text
    neutral: dict[str, dict] = field(default_factory=dict)  # the reply that says nothing (default {})
    # at the end of a turn: the reply that hands the agent tether's request as its next step, and whether the agent
    # is already answering one (so it is not asked again: no loop)
    stop_reply: Callable[[str], dict] | None = None
    continuing: Callable[[dict], bool] = lambda event: event.get("stop_hook_active") is True
    only: dict[str, Callable[[dict], bool]] = field(default_factory=dict)  # an event that counts only when this holds


CURSOR = Dialect(  # https://cursor.com/docs/hooks
    events={
        "sessionStart": ("SessionStart",),
        "beforeSubmitPrompt": ("UserPromptSubmit",),
        "postToolUse": AROUND_TOOL,
        "postToolUseFailure": ("PostToolUseFailure",),
        "preCompact": (COMPACTED,),
        "stop": ("Stop",),
        "sessionEnd": ("SessionEnd",),
    },
    fields={"session_id": ("conversation_id", "session_id"), "cwd": ("cwd", "workspace_roots"),
            "source": ("source",), "prompt": ("prompt",), "tool_use_id": ("tool_use_id",),
            "tool_response": ("tool_output",), "error": ("error_message",), "is_interrupt": ("is_interrupt",)},
    tools={"Read": ("Read", None), "Write": ("Write", None), "Shell": ("Bash", None)},
    carries=frozenset({"sessionStart", "postToolUse"}),
    reply=lambda event, text: {"additional_context": text},
    stop_reply=lambda text: {"followup_message": text},  # sent as the next user message
    continuing=lambda event: not isinstance(event.get("loop_count"), int) or event["loop_count"] > 0 or
    event.get("status", "completed") != "completed",  # a follow-up's own stop, or a turn aborted or failed
    neutral={**dict.fromkeys(("preToolUse", "beforeReadFile", "beforeShellExecution", "beforeMCPExecution",
                              "subagentStart", "beforeTabFileRead"), {"permission": "allow"}),
             "beforeSubmitPrompt": {"continue": True}},
)

GEMINI = Dialect(  # https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/reference.md
    events={
        "SessionStart": ("SessionStart",),
        "BeforeAgent": (AFTER_COMPACTION, "UserPromptSubmit"),
        "AfterTool": AROUND_TOOL,
        "PreCompress": (COMPACTED,),
        "AfterAgent": ("Stop",),
        "SessionEnd": ("SessionEnd",),
    },
    fields={"session_id": ("session_id",), "cwd": ("cwd",), "source": ("source",), "prompt": ("prompt",),
            "tool_response": ("tool_response",)},
    tools={"read_file": ("Read", _zero_based_offset), "write_file": ("Write", None), "replace": ("Edit", None),
           "run_shell_command": ("Bash", None)},
    carries=frozenset({"SessionStart", "BeforeAgent", "AfterTool"}),
    reply=lambda event, text: {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}},
    stop_reply=lambda text: {"decision": "deny", "reason": text},  # the reason becomes the agent's next prompt
    # Gemini CLI 0.61 fires PreCompress "auto" before every model request, before it checks whether the
    # history is long enough to compress (seen in tests/test_agents_real.py); taken as a compaction it made
    # tether distil the session and hand every note over again at each turn. /compress ("manual") always
    # compresses.
    only={"PreCompress": lambda event: event.get("trigger") == "manual"},
)

DIALECTS = {"cursor": CURSOR, "gemini": GEMINI}


def tool_matcher(d: Dialect) -> str:
    """The tools worth calling the hook for, as the agent's matcher regex."""
    return "|".join(d.tools)


def claude_event(d: Dialect, event: dict, moment: str) -> dict:
    """``event`` in Claude Code's vocabulary, as the moment ``moment``."""
    out: dict = {"hook_event_name": moment}
    for key, names in d.fields.items():
        for n in names:
            v = event.get(n)
            if isinstance(v, list):  # Cursor's workspace_roots: the first is the project
                v = next((x for x in v if isinstance(x, str) and x), None)
            if v not in (None, ""):
                out[key] = v
                break
    tool, ti = event.get("tool_name"), event.get("tool_input")
    if isinstance(tool, str) and tool in d.tools:
        name, fix = d.tools[tool]
        out["tool_name"], out["tool_input"] = name, fix(ti) if fix and isinstance(ti, dict) else ti
    return out


def respond(d: Dialect, ws: Workspace, event: dict) -> dict:
    """The agent's reply to ``event``: what its moments say, in the shape the event takes."""
    name = event.get("hook_event_name")
    if not isinstance(name, str):
        return {}
    if name in d.only and not d.only[name](event):
        return d.neutral.get(name, {})
    texts = []
    for moment in d.events.get(name, ()):
        ev = claude_event(d, event, moment)
        if moment in OWN:
            sid = ev.get("session_id")
            texts.append(OWN[moment](ws, sid.replace("\0", "") if isinstance(sid, str) else ""))
        elif moment == "Stop" and d.stop_reply is not None:  # tether's request, as the agent takes a next step
            out = hooks.answer(ws, {**ev, "stop_hook_active": d.continuing(event)}) or {}
            if out.get("decision") == "block":
                return d.stop_reply(out["reason"])
        else:
            out = hooks.answer(ws, ev, can_block=False) or {}
            texts.append(out.get("hookSpecificOutput", {}).get("additionalContext", ""))
    text = "\n".join(t for t in texts if t.strip())
    if text and name in d.carries:
        return d.reply(name, hooks._cap(text))
    return d.neutral.get(name, {})


def run(agent: str, stdin, stdout, stderr) -> int:
    """Answer one hook event for ``agent``: always a valid reply, always exit 0."""
    d = DIALECTS[agent]
    ws: Workspace | None = None
    event: dict = {}
    reply: dict = {}
    stray = io.StringIO()  # warnings and the like: into the log, never into the reply
    try:
        with contextlib.redirect_stderr(stray):
            event = hooks.read_event(stdin.read())
            name = event.get("hook_event_name")
            reply = d.neutral.get(name, {}) if isinstance(name, str) else {}
            cwd = claude_event(d, event, "").get("cwd")
            try:  # one look at the notes folder for the event, as hooks.run
                ws = Workspace.find(cwd if isinstance(cwd, str) else os.getcwd(), auto_refresh=False)
            except WorkspaceError:
                ws = None  # not a tether repository: nothing to say
            if ws is not None:
                reply = respond(d, ws, event)
        if stray.getvalue():
            hooks._log(ws, agent, event, stray.getvalue())
    except Exception as e:  # noqa: BLE001 — a hook never breaks the agent's session
        hooks._log(ws, agent, event, hooks._traceback() + stray.getvalue())
        why = " ".join(str(e).split())
        stderr.write(f"tether hook {agent}: {type(e).__name__}: {why} (answered as if tether had nothing to say; "
                     f"details in .tether/cache/hooks.log)\n")
    finally:
        if ws is not None:
            with contextlib.suppress(Exception):
                ws.close()
    stdout.write(json_text(reply) + "\n")
    stdout.flush()
    return 0
