"""Reads what no rule could: where the session may have settled something that no proposal
quotes — the person answering options, turning the agent down, accepting a plan in a word or
saying something with a rule's words before code changed; the agent calling code it changed
deliberate. They are not candidates: the request at Stop asks the session's own agent what was
settled there.
"""

from __future__ import annotations

import re

from ..session import Lead, Session
from ..transcript import ASSISTANT
from .sentences import (
    _around_sentence, _ASSENT, _DELIBERATE, _HACK, _LOOKS, _NOT_DELIBERATE, sentences, skipped, _stems,
)
from .options import options_in
from .answers import _NEITHER, _PROPOSAL, _TURN_DOWN


MAX_LEADS = 5
# words a rule or a choice is said with, whatever the phrasing around them
_RULE_WORD = re.compile(r"\b(?:must|never|always|only|has to|have to|needs? to|should(?:n't| not)?|don'?t ever|"
                        r"from now on|no longer|instead|rather|keep|stays?|remains?|out of scope|for now)\b", re.I)


# the person not settling: unsure, putting it off, only asking, guessing at what the code does today
_UNSETTLED = re.compile(r"^\W*(?:hm+\W+)?(?:(?:i'?m )?not sure|no idea|dunno|i don'?t know|i think|i guess|i believe|"
                        r"maybe|perhaps)\b|\blet me (?:think|check|ask|ping|talk|sleep on)\b|"
                        r"\b(?:i'?m|i am) (?:only |just )?asking\b", re.I)


def leads(session: Session, covered: set[int | str]) -> list[Lead]:
    """Where the person may have settled something no proposal quotes (``covered``: the
    transcript lines the proposals quote, or for what was read from the observation log, which
    has no lines, the times it was said), before code changed: an answer to options the
    agent laid out, a turn-down of what it proposed or did, a sentence said like a rule. The
    structure, not the phrasing: the agent that asked is the one to say what was meant. The
    most recent first."""
    said = session.said()
    last_edit = max((c.index for c in session.edits()), default=-1)
    out: list[Lead] = []
    for k in range(len(said) - 1, -1, -1):
        u = said[k]
        if (u.line or u.at) in covered or not u.text.strip():
            continue
        words = " ".join(u.text.split())
        if u.who == ASSISTANT:  # "That's deliberate — cheap trackers report dates years ahead …" (also after the edit)
            odd = next((x for x in sentences(u.text) if (_DELIBERATE.search(x) or _LOOKS.search(x) or _HACK.search(x))
                        and not _NOT_DELIBERATE.search(x) and not skipped(x)), "")
            if odd and session.edits({u.turn}):  # about code its turn changed
                out.append(Lead(u.line, u.at, "the agent called its code deliberate",
                                f"\"{_around_sentence(u.text, odd)[:200]}\""))
            continue
        if u.index > last_edit:
            continue  # no code changed after the person said it
        agent = next((a for a in reversed(said[:k]) if a.who == ASSISTANT), None)
        opts = options_in(agent.text) if agent is not None and agent.turn == u.turn - 1 else []
        plan = next((x for x in sentences(agent.text) if _PROPOSAL.search(x)), "") \
            if agent is not None and agent.turn == u.turn - 1 else ""
        if opts and not any(not skipped(x) and not _UNSETTLED.search(x) for x in sentences(u.text)):
            continue  # "hmm not sure. what does the cli do with …?": asked back, nothing picked
        if opts:  # the sentence of a long reply that speaks of the options, not its greeting
            named = max(sentences(u.text) or [words], key=lambda x: max(len(_stems(x) & _stems(o.head)) for o in opts))
            spoken = words if len(words) <= 160 or not any(_stems(named) & _stems(o.head) for o in opts) else \
                _around_sentence(u.text, named)
            why, quote = "answered options", f"{' / '.join(o.head for o in opts[:4])} → \"{spoken[:160]}\""
        elif agent is not None and (_TURN_DOWN.match(u.text) or _NEITHER.match(u.text)):
            why, quote = "turned down", f"\"{words[:200]}\""
        elif plan and _ASSENT.match(u.text) and len(u.text.split()) <= 6:  # "👍" to "I'll key it by (customer, id)"
            why, quote = "accepted the agent's plan", f"\"{plan[:160]}\" → \"{words[:40]}\""
        elif rules := [x for x in sentences(u.text) if _RULE_WORD.search(x) and not skipped(x) and
                       not _UNSETTLED.search(x) and not _UNSETTLED.search(u.text[:120])]:  # quoted from the
            # sentence that says it, not from the start of a long message
            why, quote = "sounds like a rule", f"\"{_around_sentence(u.text, rules[0])[:200]}\""
        else:
            continue
        out.append(Lead(u.line, u.at, why, quote))
        if len(out) == MAX_LEADS:
            break
    return out
