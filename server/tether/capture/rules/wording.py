"""Vets how each proposal is worded before it is offered. A candidate is a hint the session's
agent checks at Stop, and an agent in a hurry accepts it as it stands: one the rules cannot word
right is dropped rather than offered misleading (the agent writes that note itself).

| what | done |
|---|---|
| a title led by a hedge, an aside, a count or the note it restates ("I think …", "Honestly …", "I get the risk, but …", "Third, …", "(2) …", "Same as in money.py, …"), by the agent's plan ("I'll open the file with …"), or ending "please" | the lead-in and "please" dropped: "Open the file with …" |
| a title that is a remark, not a statement: a generic word ("Option", "Order"), an apology or a slip owned up to ("Sorry …", "Forgot the import"), an aside ("That while I'm in here"), a pronoun with a verb and nothing named ("They get english", "It is on purpose", "I know this one") | titled by the first statement its quotes make; dropped when they make none |
| a title that is a question's words ("The breaker be keyed by the endpoint URL", of "Should the breaker be keyed by …?") | said as a statement: "The breaker is keyed by …" |
| a title that puts the choice off ("Let me think about it, I need to talk to Ana …") | the proposal dropped |
| a process instruction: the package's version, its changelog or lock file ("leave package.json version alone") | the proposal dropped |
| a rule that is the spec of new code asked for ("need canArchiveColumn(user, board, columnId) in board.ts: owners can always, …") | the proposal dropped |
| a rejected option that is a fragment: it ends on what it points at ("do that", "one of these"), an assent ("go ahead"), a lone word that names nothing ("before"), a piece of a markdown table ("ignore \\; good: delta\\") | the option dropped; a stray backtick or a trailing "— e.g" taken off, a dangling "(…" closed |
| what a workaround works around, when the words caught name no cause ("why in a comment", "the same thing") | left empty |
| a rejected option with no reason, that the person's words name ("1. Full jitter means an attempt can come back after 0 seconds.") | that sentence is its reason |
| a rejected option's reason that gives none: a question ("Clamp or raise?"), a preamble ("Before I do that, I'd push back …"), a description in brackets, what follows from the choice ("so let it pass a transaction id …") | left empty: no reason rather than a wrong one |
"""

from __future__ import annotations

import re

from ...core.notes import Alternative
from ..session import Proposal
from .sentences import main_clause, sentences, skipped, _stems, title_of

# what leads a title and says nothing of it; taken off until none is left
_LEAD = re.compile(r"^(?:(?:honestly|frankly|tbh|imo|anyway|btw|by the way|plus|oh|hmm+|well)\b[,:]?\s+|"
                   r"(?:first|second|third|fourth|fifth|finally|lastly)\s*[,:]\s*|\(?\d\)\s+|"
                   r"i (?:think|guess|know|mean|believe|suppose|reckon|feel like)\s+(?:that\s+)?|"
                   r"i'?m (?:pretty |fairly )?sure\s+(?:that\s+)?|"
                   r"i (?:get|see|hear|understand) (?:the|your) \w+,?\s+but\s+|"  # "I get the risk, but …"
                   r"no\s+(?=(?:leave|keep|don'?t|just|use|stay)\b)|"  # "no leave the max one alone"
                   r"(?:the\s+)?same\s+(?:as|like)\s+(?:in|with|for)\s+[\w.`/-]+\s*[,:;—–-]\s*)", re.I)  # "same as in
# money.py, …": which note it restates, not the rule
# the agent's plan, said as one: "I'll open the file with …" is "Open the file with …"
_PLAN = re.compile(r"^(?:i'll|i will|we'll|we will|let'?s)\s+(?=[a-z`])(?!not\b|never\b|be\b)", re.I)
# a title that is one word naming no choice
_GENERIC = frozenset("""option options order approach way choice plan fix idea thing stuff yes no ok okay done good
fine sure this that it one""".split())
# a remark about the conversation or the work, not about the code
_REMARK = re.compile(r"^(?:sorry|thanks|thank you|oops|whoops|my bad|my mistake|forgot|missed|typo|good catch|"
                     r"nice|great|cool|lovely|perfect)\b|\bwhile i'?m (?:in )?(?:here|at it)\b", re.I)
# a title that puts the choice off ("Let me think about it, I need to talk to Ana …"): nothing settled, no candidate
_DEFERS = re.compile(r"^(?:let me|i'?ll|i need to|i have to|we need to)\s+(?:think|talk|check|ask|get back|sleep on|"
                     r"discuss)\b", re.I)
# the words a title needs besides these to say something
_EMPTY = frozenset("""i i'm i'd i'll me my we we're us you you're they them their he she it it's its this that these
those one ones here there is are was were be been do does did get gets got have has had will would can could just
so then now also too very really on purpose deliberate deliberately intentional intentionally by design a an the
and or but of in to for with as at know think guess see""".split())
_PRONOUN_SUBJECT = re.compile(r"^(?:i|you|they|he|she)\b", re.I)  # (a title's "it" is said of its code)
# how the work is released rather than how the code behaves
_PROCESS = re.compile(r"\b(?:package(?:-lock)?\.json|changelog|lock ?file|bump\w* (?:the )?version|"
                      r"version (?:number|bump))\b", re.I)

# a question's subject and verb left as asked: "The breaker be keyed by …"
_BE = re.compile(r"^(?P<s>(?:the|a|an|every|each|our|all)\s+[\w`.-]+(?:\s+[\w`.-]+)?)\s+be\s+(?=\w)", re.I)

# a request for new code with its spec after a colon: the feature asked for, not a rule of the code
_SPEC = re.compile(r"^\W*(?:(?:i|we)\s+)?(?:need|add|write|implement|create|build)\s+(?:a\s+|an\s+|the\s+)?"
                   r"`?[A-Za-z_]\w*`?\([^:!?]{0,60}:\s", re.I)

# what a workaround works around, when a rule caught words that name no cause
_NO_CAUSE = re.compile(r"^\W*(?:\S+(?:\s+\S+)?\W*$|(?:why|how|what|it|this|that|the same|no|leave|keep)\b)", re.I)

# a rejected option that is no option: what it points at is elsewhere, or it is a word that names nothing
_POINTS = re.compile(r"^\W*(?:\S+\s+){0,2}(?:that|this|it|one of (?:these|those|them))\W*$|"  # "do that", "charge that"
                     r"^(?:go ahead|do it|ok(?:ay)?|yes|sure|fine|sounds good|as is|same)\W*$", re.I)
_FUNCTION_WORDS = frozenset("""before after then now later first last next again also instead otherwise either both
neither none this that it here there yes no ok more less""".split())
_TABLE_BITS = re.compile(r"\\[|;]|\\$|^\s*\||\|\s*$")
_DANGLING = re.compile(r"\s*[—–-]\s*(?:e\.?g|i\.?e)\.?$", re.I)


def worded(proposals: list[Proposal]) -> list[Proposal]:
    """The proposals worded as hints that do not mislead; the ones that cannot be, left out."""
    out = []
    for p in proposals:
        title = re.sub(r"[,\s]+(?:please|pls|thanks)\W*$", "", without_lead(p.title), flags=re.I)  # "… please"
        if _DEFERS.match(title):
            continue
        if remark(title):  # what the quote says after the remark ("I think I know this one. `to_cents` …")
            title = next((title_of(main_clause(without_lead(x))) for e in p.evidence if e.who != "tool" and
                          not e.quote.startswith("fixed by editing") for x in sentences(e.quote)
                          if not skipped(x) and len(x.split()) >= 4 and not remark(without_lead(x))), "")
        if not title or _PROCESS.search(title):
            continue
        if p.kind in ("invariant", "boundary") and p.evidence and _SPEC.match(p.evidence[0].quote):
            continue  # "need canArchiveColumn(…) in board.ts: owners can always, …": what to build, asked for
        be = _BE.match(title)  # "Should the breaker be keyed by …?" answered "yes": "The breaker is keyed by …"
        if be:
            title = f"{be.group('s')} {'are' if be.group('s').endswith('s') else 'is'} {title[be.end():]}"
        p.title = title
        if p.kind == "workaround" and _NO_CAUSE.match(p.works_around):
            p.works_around = ""  # "why in a comment", "the same thing": what the rule caught says nothing of it
        p.alternatives = [_said_of_it(a, p) for a in (_option(a) for a in p.alternatives) if a is not None]
        out.append(p)
    return out


def _said_of_it(a: Alternative, p: Proposal) -> Alternative:
    """A rejected option the rules found no reason for, with the person's sentence that names it
    (by a word the choice lacks): "1. Full jitter means an attempt can come back after 0 seconds."
    — what they held against it, as they said it."""
    if a.rejected_because:
        return a
    key = _stems(a.option) - _stems(p.title)
    said = [x for e in p.evidence if e.who == "user" for x in sentences(e.quote)]
    chosen = _stems(p.title)
    why = next((x for x in said if key & _stems(x) and len(x.split()) >= 5 and not skipped(x) and _HELD.search(x) and
                not _CHOOSES.search(x) and len(chosen & _stems(x)) < max(2, len(chosen) // 2)), "")  # (not the
    # sentence that makes the choice: "normalise the range like Excel does it, and not raise an error")
    return Alternative(a.option, re.sub(r"^\W*\d+[.)]\s+", "", why).rstrip(".")) if why else a


# words that hold something against what they speak of ("hides the feeds", "means an attempt can come back after 0 s")
_HELD = re.compile(r"\b(?:not|no|never|nothing|too|means|wast\w*|problem\w*|slow\w*|wrong|break\w*|fail\w*|los[et]|"
                   r"hides?|drift\w*|hate\w*|confus\w*|stuck|worse|risk\w*|weird|shouldn'?t|don'?t|can'?t|won'?t|"
                   r"doesn'?t|isn'?t)\b|n't\b", re.I)
# a sentence that takes the option rather than holding something against it
_CHOOSES = re.compile(r"\b(?:let'?s|go with|use|pick|take|keep|prefer|agreed|fine|good|yes)\b", re.I)


def without_lead(title: str) -> str:
    t = title
    while True:
        m = _LEAD.match(t) or _PLAN.match(t)
        if m is None or not t[m.end():].strip():
            break
        t = t[m.end():]
    if t == title:
        return title
    t = t.strip(" ,;:")
    return t if re.match(r"^\w*(?:_|[a-z][A-Z])|^`", t) else t[:1].upper() + t[1:]  # a name from the code as written


def remark(title: str) -> bool:
    words = [w.strip(".`'()-") for w in re.findall(r"[\w'`.()-]+", title.lower())]
    if len(words) == 1 and words[0] in _GENERIC:
        return True
    if _REMARK.search(title):
        return True
    named = [w for w in words if w not in _EMPTY and len(w) > 1]
    return not named or _PRONOUN_SUBJECT.match(title) is not None and len(words) <= 3 and "`" not in title


def _option(a: Alternative) -> Alternative | None:
    option = _DANGLING.sub("", a.option.strip()).strip(" ,;:—–-")
    if option.count("(") > option.count(")"):
        option = re.sub(r"\s*\([^()]*`[^()`]*$", "", option)  # "(`new Date(y, m": cut inside code
        option += ")" * (option.count("(") - option.count(")"))  # "Transliterate (German rules": closed
    if option.count("`") % 2:
        option = option.replace("`", "")
    option = re.sub(r"^or\s+", "", option, flags=re.I)
    head = re.split(r",\s|\s[—–]\s", option)[0]  # (what was said of it follows a comma or a dash)
    if not option or _POINTS.search(head) or _TABLE_BITS.search(option) or head.lower() in _FUNCTION_WORDS:
        return None
    why = "" if _NO_REASON.search(a.rejected_because) else a.rejected_because
    return Alternative(option, why) if (option, why) != (a.option, a.rejected_because) else a


# a reason that is none: a question ("Clamp or raise?"), the agent's preamble ("Before I do that, I'd push back a bit
# on fail-fast."), the option's own description in brackets, what follows from the choice ("so let it pass …")
_NO_REASON = re.compile(r"\?\s*$|^\W*(?:before i do that|i'?d push back|let me push back)\b|^\s*\([^()]*\)\W*$|"
                        r"^\W*so\s+(?:let|we|i|just)\b", re.I)
