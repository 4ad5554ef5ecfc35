"""Whether a session is worth asking its agent about at Stop: it edited code, and the person
said more than bare commands there — whether or not the rules found anything in it.

A person's message is bare when every sentence of it is: a slash command; a few words that
say nothing of how (an ack, "ship", "everywhere incl tests", "fix."); or a chore asked for
in a short sentence — rename, run, format, lint, commit, push, continue, update, fix the
lint or the typos — with no reason, rule, choice, limit or question in it ("because",
"must", "never", "only", "instead", "not", "or", a colon, a dash, "?"). A session whose
person only gave such commands (a rename across files, "fix the lint warnings", "run ruff")
has nothing to record; nor has one that edited nothing. Anything else, however plain
("unmount() → widget comes back ~1s later. fix."), may have settled something the agent
knows and tether's rules did not read: it is asked.
"""

from __future__ import annotations

import re

from .session import Session
from .transcript import USER

# the words tether's own request opens with: handed to the agent as a prompt by some agents (Cursor's follow-up
# message, Gemini CLI's AfterAgent reason), they are no words of the person's
REQUEST_OPENS = "Before you finish, record as tether notes what it settled"
_BARE_MAX = 12  # words of a chore said in one sentence ("rename LoanBook.by_borrower -> lent_to everywhere")
_SAYS_MORE = re.compile(r"\b(?:because|since|so that|otherwise|must|never|always|only|instead|rather|prefer|don'?t|"
                        r"do not|not|no|keep|leave|should|shouldn'?t|has to|have to|needs? to|until|unless|every|each|"
                        r"than|over|deliberate\w*|on purpose|either|or|rule|why)\b|[:;—–?]|\s-\s", re.I)
_SLASH = re.compile(r"^\s*/\w")
_CHORE = re.compile(r"^\W*(?:please\s+|pls\s+|now\s+|then\s+|and\s+)*(?:rename|run|re-?run|format|re-?format|lint|"
                    r"commit|push|continue|proceed|go on|carry on|retry|try again|update|bump|sort|tidy|clean ?up|undo|"
                    r"revert|fix (?:the )?(?:lint\w*|typos?|format\w*|imports?|warnings?|style|whitespace|indentation)|"
                    r"remove (?:the )?unused)\b", re.I)


def tethers_request(text: str) -> bool:
    """``text`` is tether's own request at Stop, come back as a prompt."""
    return REQUEST_OPENS in text


def bare(text: str) -> bool:
    """The message only gives commands (see the module's documentation)."""
    return all(_bare_sentence(s) for s in re.split(r"(?<=[.!?])\s+|\n+", text.strip()))


def _bare_sentence(s: str) -> bool:
    s = s.strip()
    if not s or _SLASH.match(s):
        return True
    if _SAYS_MORE.search(s):
        return False
    n = len(s.split())
    return n <= 4 or (n <= _BARE_MAX and _CHORE.match(s) is not None)


def worth_asking(session: Session, after: int = 0) -> bool:
    """Since turn ``after`` (what an earlier request covered; 0: the whole session) the session
    edited code and the person said more than bare commands."""
    return any(c.turn > after for c in session.edits()) and \
        any(u.who == USER and u.turn > after and not bare(u.text) for u in session.said())


def last_turn(session: Session) -> int:
    return max((e.turn for e in session.events), default=0)
