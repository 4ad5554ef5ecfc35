"""A session as an extractor sees it: what was said and the tool calls, in order, split into
turns (a turn starts at each prompt), and what an extractor proposes from it. :mod:`distill`
builds sessions and queues proposals; an :class:`Extractor` (:mod:`rules`, or a model-based
one) turns a session into proposals.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

from ..core.notes import Alternative
from .candidates import Evidence

GLOB_ALL = "**"  # a proposal about no particular code: the repository as a whole
MAX_SYMBOLS = 3  # an edit touching more definitions than this is about its file


@dataclass
class Utterance:
    index: int  # position in the session
    turn: int
    who: str  # user | assistant
    text: str
    at: str
    line: int  # transcript line (0: from the log)


@dataclass
class Call:
    index: int
    turn: int
    tool: str
    at: str
    line: int
    id: str = ""
    path: str = ""  # workspace-relative file it read or edited
    edit: bool = False
    symbols: list[str] = field(default_factory=list)  # definitions an edit touched (or a read window lies in)
    command: str = ""  # a shell command
    text: str = ""  # the code an edit wrote (its new strings or content), when the transcript says
    error: bool = False
    output: str = ""  # the tool's output or error text


@dataclass
class Session:
    id: str
    transcript: str  # "" when read from the log alone
    lines: int  # transcript lines read
    events: list[Utterance | Call]
    deadline: float | None = None  # time.monotonic() by which an extractor stops (most recent first)
    cut: bool = False  # an extractor stopped at the deadline
    defined: dict[str, list[str]] = field(default_factory=dict)  # edited file -> its definitions now

    def out_of_time(self) -> bool:
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.cut = True
        return self.cut

    def __post_init__(self):
        self._said = [e for e in self.events if isinstance(e, Utterance)]
        self._calls = [e for e in self.events if isinstance(e, Call)]
        self._edits = [c for c in self._calls if c.edit and c.path]
        self._by_turn: dict[int, list[Call]] = {}
        for c in self._calls:
            self._by_turn.setdefault(c.turn, []).append(c)

    def said(self) -> list[Utterance]:
        return self._said

    def calls(self, turns: set[int] | None = None) -> list[Call]:
        """The tool calls, in order (of these turns only)."""
        if turns is None:
            return self._calls
        return sorted((c for t in turns for c in self._by_turn.get(t, ())), key=lambda c: c.index)

    def edits(self, turns: set[int] | None = None) -> list[Call]:
        """The calls that edited a file of the workspace (in these turns)."""
        return self._edits if turns is None else [c for c in self.calls(turns) if c.edit and c.path]


@dataclass
class Proposal:
    """What an extractor proposes: a candidate note before it is fingerprinted and queued.
    ``refs``: the code it is about, as ``(path, qualified name)`` (name "" = the file;
    path ``**`` = the repository)."""

    kind: str
    title: str
    confidence: float
    refs: list[tuple[str, str]]
    evidence: list[Evidence]
    rationale: str = ""
    alternatives: list[Alternative] = field(default_factory=list)
    works_around: str = ""
    remove_when: str = ""
    recalls: bool = False  # a decision made before, recalled ("remember we …"): joins it wherever it is


@dataclass
class Lead:
    """Where the person may have settled something no proposal covers: the agent asks the
    session's own agent about it at Stop (it knows what was meant)."""

    line: int  # transcript line (0: from the log)
    at: str
    why: str  # what made it a lead: "answered options" | "turned down" | "sounds like a rule"
    quote: str  # the person's words (and the options they answered), short

    def to_json(self) -> dict:
        return {"line": self.line, "at": self.at, "why": self.why, "quote": self.quote}


class Extractor(Protocol):
    """Turns a session into proposals. ``name`` is recorded with each candidate. When
    ``session.out_of_time()`` says so, it returns what it has, the most recent part of the
    session first (at the end of every turn the hook distils the session again, so what an
    earlier run covered is in the queue already)."""

    name: str

    def propose(self, session: Session) -> list[Proposal]: ...
