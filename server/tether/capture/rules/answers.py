"""Reads the person's replies to the agent, over turns: the option they pick, what they turn
down, revert, keep or give in to, and what that settles.

Exchanges (:func:`exchanges`) read how the person answers the agent, over turns:

| the agent | the person | proposes |
|---|---|---|
| lays out options — the last ones in its message (a list after "options" / "two ways" / "fixes" / "either" / "do you want:" / "Should `has()`:", lettered, numbered, bulleted, "Option A:" lines, the rows of a markdown table — or its columns, when the first header cell is empty; or "either X, or Y", "Two alternatives: X, or Y", "should it return X or raise Y?") | picks one: a label ("B.", "yes, A", "hmm ok, I like 2", "nope. keep it sync. D", the last one said when thinking aloud: "C sounds right?? … ok B"), an ordinal ("the second"), "ok" / "go with that" for the agent's pick ("I'd go with B"), words that echo one ("Reject.", "decimal then", "half even" for `ROUND_HALF_EVEN` — not a sentence that waves it off: "fraction is overkill", nor words said after turning them all down), or a choosing word or topic far down a long reply ("So let's go with disallow all", "For the format, plain JSON …"); not "1, 2 and 4 yes" (the steps of a plan) | a decision; the other options rejected, each with what the agent said about it (a workaround when the agent then calls the choice odd on purpose); nothing when no code follows the pick within two turns |
| — (it takes one of its own: "I'll do the second as a deliberate workaround") | — | what its sentence says, about that option, the others rejected |
| describes one thing, in its last few messages ("`time.monotonic()` is made for this; `perf_counter` also works but …") | takes it: "monotonic then.", "k whatever. first match then." | a decision; what "also works but …" rejected |
| proposes ("I'll …", "I'd …", "We could …", "Plan: …", "the quickest fix is to …"), or did something ("I made …") | turns it down: "Reject.", "no —", "nah", "actually", "let's not" ("Neither." or, later in a long reply, "none of these three, really" for options laid out), or names it and waves it off ("78 is cute but nobody knows sysexits. exit 2") | the person's first rule (a "must" sentence; a workaround when the agent had taken the code for a bug and the person has it kept: "put it back … so nobody 'fixes' it") or decision (their directive with a reason: "format check only"), and any limit they set ("we only write yaml"); the proposal (every option, or the items of the list it introduces) as rejected, their reason |
| chose and did something, then says why when the person questions it ("why a hash though, random would've been one line") | keeps it: "ok fair, keep the hash" | a decision on the code it went into, the alternative the person named rejected |
| — | reverts an earlier choice: "revert X. Y", "back to Y", "scrap X, go with Y", "scratch that — … Y", "forget the ip thing … Y" | a decision for Y, X rejected (X: the earlier decision, or the plan the agent carried out last, or what it says it just did: "Added a 500ms window …") with the options X had turned down; the earlier decision withdrawn |
| lays out options, then the person picked one | changes their mind: "actualy no, thinking about it more 2 is weird — lets go with 1", "I change my mind: …, like your second proposition" | the new pick replaces the old, on the code it then changes |
| asks numbered questions ("1. Should restore refuse to overwrite …? … 3. Symlinks: (a) …, (b) …, or (c) …?") | answers by number ("1. yes", "3. c for now", "To 2: UTC days.") | per answer: the option picked (a limit when it holds "for now"/"later"), or the yes to a question that proposes something new (not "keep …?", not "later") |
| ends asking about one change: "Should the breaker be keyed by the URL instead of per subscription?" (or after "right now X") | "yes" | a decision, what it replaces rejected |
| "Plan: 1. … 2. … I considered X, but … Y is the middle ground; I'd go with Z since …" | "yes" | Z, with X and Y rejected (a plan's steps are no options) |
| reports what it chose as it worked: "- **Fixed in the display only.** … - **Did not round the stored value.** …" | agrees ("Good.") | the choice, what it did not do rejected |
| lays out options; the person describes what they want, and the agent says "That's Option B: …" | — | option B, the others rejected; the description its reason, no rule of its own |
| pushes back on what the person asked for ("I'd push back a bit on fail-fast … **collect errors and continue**") | gives in: "hm ok fair … collect errors and keep going" | the agent's way; what they asked for rejected, for the agent's reason |
| did something | overrides it: "I'm overriding that. Fail open: …", "Drop the guard. …" | their order said first is the choice (their rules its reason), or their rule |

Someone else at the keyboard ("lead here: raise.") answers like the person.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ...core.notes import Alternative
from ..candidates import Evidence
from ..session import GLOB_ALL, Proposal, Session, Utterance
from ..transcript import ASSISTANT, USER
from .sentences import (
    _alt, _ANYWHERE, _around_sentence, _ASSENT, _ASSENT_NOT, _choice_title, classify, _DELIBERATE, _EMPH, _GO_WITH, Hit,
    _LOOKS, main_clause, _NONE_IN, _NOT_DELIBERATE, _PRONOUN_END, reason_of, _rejected_reasons, _REMINDER, sentences,
    _stems, title_of, _tokens, _UNDECIDED, _UNIVERSAL, _WHOLE,
)
from .edits import anchor_refs, _scope_of
from .options import (
    _AGAINST, _listed_after, numbered_questions, Option, options_in, _ORDINAL, _PICK_ORDINAL, _PLAN_CUE, _PROPOSES,
    _question_options, _recommended, _resolve, _STATUS_QUO,
)


_PICK_LABEL = re.compile(r"^\s*(?:(?:hmm+|well|ah|oh|so)\b[,.!:]?\s*)?(?:(?:yes|ok|okay|sure|yep|yeah|right|fine|agreed)\b"
                         r"[,.!]?\s*)?(?:i\s+|i'd\s+)?"
                         r"(?:(?:prefer|pick|choose|take|want|like|go with|go for|vote for|let'?s (?:do|go with)|do|"
                         r"option)\s+)?"
                         r"(?:option\s+)?\(?(?P<label>[A-Ea-e]|[1-9])\)?(?=[\s.,!:;)]|$)", re.I)
_PICK_THAT = re.compile(r"\b(?:go with (?:that|it|this|your (?:pick|suggestion|recommendation))|do that|try it|"
                        r"sounds good|agreed|i agree|makes sense|let'?s do (?:it|that)|go ahead|fine by me|works for me|"
                        r"ship it|that one|your (?:pick|suggestion|recommendation))\b", re.I)
_CHOOSE_VERB = re.compile(r"\b(?:go with|prefer|let'?s|use|take|pick|choose|then|keep|want|is fine|works for me)\b",
                          re.I)
_TURN_DOWN = re.compile(r"^\s*(?:(?:hmm+|hm+|well|ugh|ah|oh|wait)[,.]?\s+)?(?:reject(?:ed)?|no+(?!\s+\w+(?:\s\w+)?\s+"
                        r"(?:here|for now|in v\d|yet)\b)|nah|nope|not that|"
                        r"not like that|stop|don'?t|please don'?t|wrong|let'?s not|"
                        r"i'?d rather not|rather not|actually)\b\s*[.,!:;—–-]*\s*",
                        re.I)
_RESTORE = re.compile(r"\b(?:put (?:it|them|that) back|restore it|bring it back|keep it|so (?:nobody|no one) "
                      r"(?:\W?fix|remove|touch|change)|(?:nobody|no one) \W?fixes it)", re.I)
# the person protecting odd code from the next "fix": "someone WILL "optimize" it back", "so nobody 'fixes' it"
_GUARD = re.compile(r"\b(?:so (?:nobody|no one)|someone|somebody|people|the next person) (?:will |would )?\W?"
                    r"(?:fix|optimi[sz]e|clean|simplif|tidy|refactor)\w*\W? (?:it|this|that)\b", re.I)
_PUT_BACK = re.compile(r"^\s*(?:please\s+|pls\s+)?(?:put (?:back|(?:it|them|that) back)|restore|bring back|undo that)\b",
                       re.I)  # "Please put back the 't' and 'f'! This is not leftover."
# the person has the agent take out what it just added: "Drop the guard. As I said …"
_TAKE_OUT = re.compile(r"^\s*(?:please\s+|pls\s+)?(?:drop|remove|take out|get rid of|rip out|lose) (?:the|that|this|your) "
                       r"[\w`.()' -]{2,30}?[.!]", re.I)
_BUGGY = re.compile(r"\b(?:leftovers?|looks like a bug|looked wrong|looks wrong|a bug|dead code|unused|no longer needed|"
                    r"redundant)\b", re.I)


def _past_turn_down(reply: str) -> str:
    """The reply after its turn-down word ("no — it must …" → "it must …"); a negated
    verb goes with what it negates: "don't do that, take it out of clear()" → "take it out …"."""
    m = _TURN_DOWN.match(reply)
    if m is None:
        return reply
    if re.search(r"(?:n'?t|\bnot)\W*$", m.group(0), re.I):
        end = re.search(r"[,.;!—–]", reply[m.end():m.end() + 40])
        return reply[m.end() + end.end():].lstrip() if end else reply
    return reply[m.end():]


_NEITHER = re.compile(r"^\s*(?:neither|none of (?:these|them|those|the above)|both (?:are|is) (?:not good|bad|wrong|no good)|"
                      r"i (?:don'?t|do not) like (?:either|both)(?: of them)?)\b[.,!:;—–-]*\s*", re.I)
# said later in a long reply: "… On the frontier itself: none of these three, really."
_NEITHER_LATER = re.compile(r"(?:^|[:.!]\s+)(?:neither(?: of (?:these|them|those))?|none of (?:these|them|those|the above)"
                            r"(?: \w+)?)(?:,\s*really)?[.!]", re.I | re.M)
_REVERT = re.compile(r"\b(?:revert(?:\s+(?:the|that|this|it))?|roll (?:it |that )?back|undo(?= (?:that|this|it|the|my|your)\b)|"
                     r"put it back|scrap|ditch|"
                     r"throw out|scratch (?:that|this|it)|forget (?:about )?(?=the\b|that\b|this\b)|"
                     r"(?:go |switch |revert |change it )?back to|revert to|"
                     r"rather (?:we |you )?(?:didn'?t|did not|don'?t|not) keep)\b"
                     r"\s*(?P<rest>[^.!?:;,—–]*)", re.I)
# a sentence that starts by saying what to do: "Show the key itself, like `minLength`.", "Fail open: call next()"
_DO = re.compile(r"^\W*(?:please\s+)?(?:show|return|raise|throw|fail|log|skip|reject|accept|drop|add|remove|store|"
                 r"send|compare|pass|treat|count|sort|retry|wait|write|print|emit|put|take|pick|switch|move|"
                 r"split|set|clear|reset|limit|cap|allow|block|ignore|warn|fall back|default to|round|"
                 r"truncate|cancel|abort|refuse|validate|check|require|cache|ask|let)\b", re.I)
_DIRECTIVE = re.compile(r"\b(?:only|keep|use|stay|stays|instead|just|back to|always|never|must|should|"
                        r"rather|prefer|do|make|leave)\b|" + _DO.pattern, re.I)
# the person overrides what the agent chose: "I'm overriding that.", "no, I'm going to overrule that"
_OVERRULED = re.compile(r"\b(?:i'?m (?:going to |gonna )?|i(?:'ll| will) |let me )(?:overrul|overrid)\w*\s+"
                        r"(?:that|this|you|it|the agent)\b[.!:;,—–-]*\s*", re.I)
_PROPOSAL = re.compile(r"\b(?:i'll|i will|i'd|i would|i'm going to|i plan to|plan:|we could|one option is|shall i|"
                       r"should i|(?:do you )?want me to|"
                       r"the (?:quickest|simplest|easiest|"
                       r"cleanest|best) (?:\w+ )?(?:is|would be) to|the (?:fix|plan|idea|approach) (?:is|would be) to|"
                       r"my plan is|i suggest|i propose|how about|let me|i(?:'ve)? (?:made|changed|switched|added)|"
                       r"my suggestion is)\b", re.I)


_GO_WITH_LABEL = re.compile(r"\b(?:let'?s (?:go with|do|take|pick)|(?:we'll|i'll) (?:go with|take)|go with)\s+"
                            r"(?:option\s+)?\(?(?P<label>[A-E1-9])\)?(?=\s*[.!,;:—–-]|\s*$)")
_SEVERAL = re.compile(r"^\s*(?:option\s+)?\(?[A-Ea-e1-9]\)?\s*(?:,|\+|&|and)\s*\(?[A-Ea-e1-9]\)?\b", re.I)


def _picked(reply: str, options: list[Option], agent_text: str, tersely: bool = True) -> Option | None:
    """The option the person's reply picks: by label, by ordinal, by "go with that" (the
    agent's recommendation; only right after the options, ``tersely``), or by naming it
    with a choosing word."""
    head = reply.strip()[:200]
    first = re.split(r"(?<=[.!?])\s", head, maxsplit=1)[0]
    # "nope. keep it sync. D", "hmm C sounds more correct?? … no wait. … ok B, last known rate": a label said on its
    # own (the last one said, when the person thinks aloud)
    for sent in reversed(re.split(r"(?<=[.!?,;])\s+|\n+", reply.strip()[:800])[1:]):
        said = _GO_WITH_LABEL.search(sent)  # "… nobody reads the logs. lets go with 1"
        hit = _resolve(said.group("label"), options) if said else None
        if hit is not None:
            return hit
        m = _PICK_LABEL.match(sent)
        if m and len(sent.split()) <= 2 and (m.group("label").isupper() or m.group("label").isdigit() or
                                             sent.lstrip().startswith("(")) and \
                not sent.rstrip().endswith("?"):
            hit = _resolve(m.group("label"), options)
            if hit is not None:
                return hit
    label = _PICK_LABEL.match(head)
    if label and re.search(r"\b(?:prefer|pick|choose|take|go with|go for|vote for|let'?s)\b", label.group(0), re.I):
        hit = _resolve(label.group("label"), options)  # "ok let's go with 1 then 👍 should it always be 5 …?"
        if hit is not None:
            return hit
    if _UNDECIDED.search(first) or first.rstrip().endswith("?") or \
            re.match(r"^\W*(?:hmm+\W*)?(?:i'?m\s+)?not sure\b", first, re.I):  # "hmm not sure. what does …?"
        return None  # (a side question after the pick is no doubt about it: "I like 2. side question: …?")
    if _SEVERAL.match(first):
        return None  # "1, 2 and 4 yes": the steps of a plan approved, not one option chosen among others
    if label and (label.group("label").isupper() or label.group("label").isdigit() or re.match(
            r"^\s*(?:(?:yes|ok|okay|sure)\b[,.!]?\s*)?(?:i\s+)?(?:prefer|pick|choose|take|option)\s", head, re.I)
                  or len(head.split()) <= 3):
        hit = _resolve(label.group("label"), options)
        if hit is not None:
            return hit
    m = _PICK_ORDINAL.search(head)
    if m and not re.search(r"\b(?:not|rather than|instead of)\s*$", head[:m.start()], re.I):  # "not the first one"
        # turns that one down
        n = _ORDINAL[m.group("n").lower()]
        if -len(options) <= n < len(options):
            return options[n]
    if tersely and (_ASSENT.match(head) or _PICK_THAT.search(head)):
        rec = _recommended(agent_text, options)
        but = _ASSENT_NOT.search(head[:60])
        other = _resolve(head[but.end():], options) if but else None  # "ok, but I'd rather go with banker's
        if rec is not None and (other is None or other is rec):  # rounding": another option named after the "but"
            return rec
    first = re.split(r"(?<=[.!?])\s", head, maxsplit=1)[0]
    short = [first] if len(first.split()) <= 2 else [head] if len(head.split()) <= 6 else []  # "Reject." / "the
    # lock file one" name an option by its words
    for sent in short + [x for x in re.split(r"(?<=[.!?])\s+|\n+", head) if x.strip()]:
        chose = re.match(r"^(?:let'?s|lets)\s+(?:do|go with|take|use)\b", sent, re.I)  # "lets do both for now, …
        # but not in this pr": the choice, then a limit
        if sent not in short and (_DISMISS.search(sent) or _TURN_DOWN.match(head)) and not chose:
            continue  # "fraction is overkill": the option turned down, not the one picked; "no, not now. only
            # comma csv …": words of an option said after turning them all down
        conceded = _CONCEDED.search(sent) if sent not in short and not chose else None
        if conceded and _AGAINST.search(sent[conceded.end():]):  # "Round half up is what I'd have said, but the
            sent = sent[conceded.end():]  # totals drift": the option before the "but" is weighed and turned down
            # (not "B is more work, but worth it"); what follows may name the pick
        hit = _resolve(sent, options)
        if hit is not None and (sent in short or _CHOOSE_VERB.search(sent) or _ASSENT.match(head) or
                                len(_stems(sent) & _stems(hit.head)) >= 2):
            return hit
    # a long reply about several things: "… So let's go with disallow all for 5xx and network errors, …"
    for sent in sentences(reply[len(head):] if len(reply) > len(head) else ""):
        chosen = _CHOSEN.search(sent)
        what = re.split(r"(?<=[.!?])\s+", sent[chosen.end():])[0] if chosen else ""
        hit = (_resolve(what, options) or _resolve(what.split(" and ")[0], options)) \
            if what and not _DISMISS.search(sent[:chosen.start()]) else None  # "count only hard bounces … and leave
        # the soft ones to the retry logic": the first clause says which
        if hit is not None and len(_stems(what) & _stems(hit.head)) >= min(2, len(_stems(hit.head))):
            return hit
    return None


_CHOSEN = re.compile(r"\b(?:let'?s (?:go with|use|do|take|pick|try)|(?:we'll|i'll|we will) go with|go with|i'd pick|"
                     r"i pick|pick|i choose|i prefer|could we(?: maybe| perhaps| just)?|can we(?: maybe| just)?)\s+|"
                     r"^(?:for|on|as for|regarding)\s+(?:the\s+)?[\w .-]{2,30}?[,:]\s+", re.I)  # "For the format, plain
# JSON with a version field, …": the topic, then the option chosen for it


# where a reply turns from an option weighed to what counts against it ("X is tempting, but …")
_CONCEDED = re.compile(r"(?:,|\s[—–-])?\s+(?:but|though|although|however|except that)\b\s*", re.I)


# a sentence of a reply that turns an option down rather than picking it
_DISMISS = re.compile(r"\b(?:overkill|tempting|too (?:much|slow|complex|complicated|heavy|fancy)|no|not|don'?t|didn'?t|never|nah|nope|"
                      r"bad|worse|hate|bit us|bites?|surprising|overengineered|over-engineered)\b", re.I)


def _reason_in(sents: list[str], skip: str = "") -> str:
    """The person's reason: a clause after "because"/"so"/a dash, else a sentence that is no
    directive."""
    for s in sents:
        r = reason_of(s)
        if r and s != skip:
            return r
    for s in sents:
        if s != skip and not _ORDERS.search(s) and not s.rstrip().endswith("?") and len(s.split()) >= 3 and \
                not (_TURN_DOWN.match(s) and len(s.split()) <= 5):  # not "hmm wait actually no.", not "the second"
            return s.rstrip(".!")
    return ""


# a sentence that tells rather than explains: it starts with what to do, or says what must be
_ORDERS = re.compile(r"^\W*(?:only|keep|use|stay|just|do|make|leave|put|drop|add|remove|go|switch|back to)\b|"
                     r"\b(?:must|should|never|always|instead|rather|prefer)\b", re.I)


@dataclass
class _Decided:
    proposal: Proposal
    head: str  # the option chosen
    said: tuple[Evidence, ...] = ()  # where a choice said in a sentence was said (its rule does not read it again)

    @property
    def about(self) -> str:
        """What the choice was between: the option taken and the ones rejected."""
        return " ".join([self.head, *(a.option for a in self.proposal.alternatives)])


# "monotonic then." / "ok, the lock then": the person takes what the agent just described
_THEN = re.compile(r"^(?:ok(?:ay)?,?\s+|fine,?\s+|right,?\s+)?(?P<x>(?!that\b|it\b|this\b)[\w`.()$ -]{2,40}?)\s+then\b"
                   r"\s*[.!]*$", re.I)
# "`perf_counter` also works but it's meant for benchmarks": another option, and why not
_ALSO_WORKS = re.compile(r"^(?P<alt>.{2,40}?)\s+(?:also works|works too|would (?:also )?work|is an option|could work)\b"
                         r".*?\bbut\s+(?P<why>.{4,})$", re.I)


def _said_choice(session: Session, earlier: list[Utterance], reply: str, turn: int) -> _Decided | None:
    """The choice a revert takes back when no options were laid out: the latest decision
    said in a sentence that the revert names, or one said in the last two turns."""
    for m in reversed(earlier):
        for x in reversed(sentences(m.text)):
            h = classify(x, person=m.who == USER)
            done = m.who == ASSISTANT and any(c.index > m.index for c in session.edits({m.turn}))  # a plan carried out
            if h is not None and h.kind == "decision" and (not h.proposal or done) and \
                    (_stems(h.title) & _stems(reply) or m.turn >= turn - 2):
                p = Proposal("decision", h.title, h.confidence, [], [], alternatives=list(h.alternatives))
                return _Decided(p, h.title, (Evidence(session.id, m.who, m.at, x, m.line),))
    for m in reversed(earlier):  # else the plan the agent carried out last ("I'll normalise everything to EUR …")
        if m.who != ASSISTANT or m.turn < turn - 2:
            continue
        edits = session.edits({m.turn})
        plan = next((x for x in sentences(m.text) if _PROPOSAL.search(x)), "") if any(c.index > m.index for c in edits) \
            else ""
        if not plan and any(c.index < m.index for c in edits):  # "Added a 500ms window to …", said after doing it
            plan = next((x for x in sentences(m.text)[:1] if _DONE.match(x)), "")
        if plan:
            head = main_clause(re.sub(r"^.*?\b(?:i'll|i will|i'm going to)\s+|^(?:done[.:]?\s*)?(?:i\s+)?(?:added|"
                                      r"changed|made|switched|replaced|moved|implemented|put in)\s+", "", plan,
                                      flags=re.I)).strip(" .:")
            p = Proposal("decision", _choice_title(head), 0.7, [], [])
            return _Decided(p, head, (Evidence(session.id, m.who, m.at, plan, m.line),))
    return None


# what the agent says it just did: "Added a 500ms window to `History.record`: …"
_DONE = re.compile(r"^(?:done[.:]?\s*)?(?:i\s+)?(?:added|changed|made|switched|replaced|moved|implemented|put in)\s", re.I)


def _words_of(text: str) -> set[str]:
    """Every word, short ones too ("forget the ip thing" names the "resolved ip" choice)."""
    return set(re.findall(r"\w+", text.lower())) - {"the", "that", "this", "thing", "a", "an", "it"}


def _revert_head(reply: str, rev: re.Match, psents: list[str]) -> str:
    """The choice a revert makes: "back to X" → X; "revert X. Y" → Y; "scrap X, go with Y" → Y;
    "" when it names none ("get back to you", "put it back")."""
    rest = rev.group("rest").strip(" .,:")
    at = next((i for i, x in enumerate(psents) if _REVERT.search(x)), -1)
    after = psents[at + 1:] if at >= 0 else []
    tail = reply[rev.end():].split("\n")[0].strip(" .,:;—–-")
    dashed = re.match(r"^\s*[—–:]\s*(?P<y>[^.!?\n]{4,})", reply[rev.end():])  # "revert the wait forever part — reject
    # after 5s w/ a clear error msg"
    instead = after[0] if after and re.search(r"\b(?:instead|rather)\b", after[0], re.I) else \
        next((x for x in after if re.match(r"^\W*(?:could|can|shall) (?:we|you)\b.*\binstead\b", x, re.I)), "")
    # "scratch that — rounding hides the bug. refuse sub-cent amounts instead", "… Could we truncate instead?": the
    # sentence that says "instead" is the choice
    head = rest if re.search(r"\b(?:back|revert) to\b", rev.group(0), re.I) and rest else \
        dashed.group("y").strip() if dashed and not instead else \
        (_ASKED_INSTEAD.sub("", instead) or after[0] if after else tail if _CHOOSE_VERB.match(tail) else "")
    return head if len(head.split()) >= 2 or head and instead else ""  # ("truncate instead": one word says it)


# a choice asked for in place of the one taken back: "Could we truncate instead?" → "truncate"
_ASKED_INSTEAD = re.compile(r"^\W*(?:could|can|shall) (?:we|you) (?:(?:please|just) )?(?:do |go with |use )?|"
                            r",?\s+instead\b.*$|\?$", re.I)


# the person questions what the agent chose, naming what they would have expected instead …
_CHALLENGE = re.compile(r"\bwhy\b[^.?!\n]{0,60}?\b(?:though|not|instead of|over|rather than)\b[,\s]*"
                        r"(?P<alt>[^.?!\n,]{2,60}?)?(?:\s+(?:would(?:'ve| have)? been|is|was)\b|[?.!,\n]|$)", re.I)
# … and, once the agent has said why, keeps it
_KEPT = re.compile(r"^\s*(?:(?:ok(?:ay)?|fine|fair|alright|right|got it|makes sense|true)\b[,.!]?\s*)*"
                   r"(?:(?:then\s+)?keep|stick with|leave)\s+(?P<x>(?:the\s+|it\s+)?[^.,;!\n]{2,40}?)"
                   r"(?:\s+(?:then|as is|as it is))?\s*[.!]*$", re.I)
# "1. yes", "3) c for now", "To 2: UTC days.", "Q1 - yes": an answer to the question of that number
_ANSWER_TO = re.compile(r"^\s*(?:(?:to|re|q|ad)\s*(?P<m>[1-9])\s*[:.)\-–—,]|(?P<n>[1-9])\s*(?:[.):\-–—]|(?=\s+\w)))\s*"
                        r"(?P<a>.*)$", re.I)
_DEFERRED = re.compile(r"\b(?:for now|later|not now|not yet|until|when (?:someone|somebody|a customer|users?) asks?|"
                       r"next (?:release|version|sprint)|v2|separate (?:ticket|issue|pr))\b", re.I)


def numbered_answers(reply: str) -> dict[str, str]:
    """A reply's answers by the number of the question they answer, one a line ("1. yes",
    "To 2: UTC days.") or in one line ("1 yes 2 no, keep it 3 later")."""
    out: dict[str, str] = {}
    at = ""
    for line in reply.strip().split("\n"):
        m = _ANSWER_TO.match(line)
        if m and m.group("a").strip():
            at = m.group("m") or m.group("n")
            out[at] = m.group("a").strip()
        elif at and line.strip():
            out[at] += " " + line.strip()
    if len(out) <= 1 and "\n" not in reply.strip():
        parts = re.split(r"(?:^|\s)([1-9])[.):]?\s+", " " + reply.strip())
        nums, texts = parts[1::2], parts[2::2]
        if len(nums) >= 2 and nums == [str(i + 1) for i in range(len(nums))]:
            out = {n: t.strip(" ,;") for n, t in zip(nums, texts)}
    return out


def _answered(session: Session, agent: Utterance, u: Utterance) -> list[Proposal] | None:
    """What a reply that answers the agent's numbered questions by number settles, a
    proposal an answer: an option picked (a limit when it holds "for now"), or the yes to a
    question that proposes something new. None when the reply is no such answer."""
    questions = numbered_questions(agent.text)
    answers = numbered_answers(u.text)
    if len(answers) < 2 or not set(answers) <= set(questions):
        return None
    out = []
    for n, answer in answers.items():
        question = questions[n]
        opts = _question_options(question)
        label = re.match(r"^\(?([a-e])\)?(?![\w'])", answer, re.I)  # "c for now": a letter of this question's options
        pick = None if len(opts) < 2 else \
            next((o for o in opts if label and o.label == label.group(1).lower()), None) or _picked(answer, opts, question)
        kind = "boundary" if _DEFERRED.search(answer) else "decision"
        if pick is not None:
            title, alternatives = _choice_title(pick.head), [o.rejected() for o in opts if o is not pick]
            if _PRONOUN_END.search(title) and ": " in question:  # "cancel it": what it is, the question's topic
                title = f"{question.split(': ', 1)[0]}: {pick.head}"
        elif _ASSENT.match(answer) and not _STATUS_QUO.search(question) and _PROPOSES.match(question) and \
                not _ASSENT_NOT.search(answer):
            title, alternatives, kind = _choice_title(_PROPOSES.sub("", question, count=1)), [], "decision"
        else:
            continue  # "later", "no", or an answer in words of its own (read like any other sentence)
        refs = anchor_refs(session, u.index, {u.turn}, f"{question} {answer}", f"{agent.text}\n{u.text}")
        if refs == [(GLOB_ALL, "")]:
            refs = anchor_refs(session, u.index, {u.turn, u.turn + 1}, f"{question} {answer}", u.text)
        if refs == [(GLOB_ALL, "")]:
            continue  # no code followed: talk
        out.append(Proposal(kind, title, 0.75, refs,
                            [Evidence(session.id, ASSISTANT, agent.at, f"{n}. {question}"[:400], agent.line),
                             Evidence(session.id, USER, u.at, f"{n}. {answer}"[:400], u.line)],
                            _reason_in(sentences(answer)[1:]), alternatives))
    return out


_BOLD = re.compile(r"\*\*([^*\n]{3,80})\*\*")  # what a message sets in bold: the name it gives a way


def _planned(session: Session, agent: Utterance, u: Utterance) -> Proposal | None:
    """The choice made inside a plan the person approves: "Plan: 1. … 2. Full jitter … I
    considered a fixed schedule, but … I'd go with full jitter since …" → "yes"."""
    if not (_ASSENT.match(u.text) and len(u.text.split()) <= 6) or _ASSENT_NOT.search(u.text) or \
            not any(_PLAN_CUE.match(x) for x in agent.text.split("\n")):
        return None
    sents = sentences(agent.text)
    said = next(((x, m) for x in sents for m in (_GO_WITH.search(x),) if m), None)
    if said is None:
        return None
    x, m = said
    head = re.split(r"\s+(?:since|because|as|so)\s+|[,;:]\s+", m.group("x"))[0].strip()
    refs = anchor_refs(session, u.index, {u.turn}, f"{head} {x}", agent.text)
    if refs == [(GLOB_ALL, "")] or len(head.split()) > 8:
        return None
    bold = next((b for b in _BOLD.findall(agent.text) if _stems(b) & _stems(head)), "")
    head = bold.strip(" .:") if bold and len(head.split()) <= 2 else head  # "refusing" → "**Refuse fractions of a cent.**"
    hit = _rejected_reasons(sents, Hit("decision", _choice_title(head), 0.75, rationale=reason_of(x)))
    return Proposal("decision", hit.title, 0.75, refs, [Evidence(session.id, ASSISTANT, agent.at, x, agent.line),
                                                          Evidence(session.id, USER, u.at, u.text.strip(), u.line)],
                    hit.rationale, list(hit.alternatives))


_INSTEAD_OF = re.compile(r"\b(?:instead of|rather than)\s+(?P<alt>[^,;?]{3,60})", re.I)
_AS_IS = re.compile(r"\b(?:right now|today|currently|at the moment)\b,?\s+(?P<alt>[^.;?]{3,80})", re.I)


def _yes_to(session: Session, agent: Utterance, u: Utterance, reply: str) -> Proposal | None:
    """A yes to the one thing the agent's message ends asking ("Should 4xx answers stop
    counting towards opening it?" → "yes. … only 5xx, 429 and timeouts should trip it"):
    what it proposes, what it would replace turned down."""
    if not re.match(r"^\W*(?:yes|yep|yeah|sure|ok(?:ay)?|please do|do it)\b", reply, re.I) or \
            _ASSENT_NOT.search(reply.split("\n")[0][:40]):
        return None
    sents = sentences(agent.text)
    question = sents[-1] if sents and sents[-1].rstrip().endswith("?") else ""
    if not _PROPOSES.match(question) or _STATUS_QUO.search(question) or " or " in question:
        return None  # (two ways in one question are options: read as such)
    refs = anchor_refs(session, u.index, {u.turn}, question, f"{agent.text}\n{reply}")
    if refs == [(GLOB_ALL, "")]:
        return None
    head = _PROPOSES.sub("", question.rstrip(" ?"), count=1)
    instead = _INSTEAD_OF.search(head)
    was = next((m for x in sents[:-1] for m in (_AS_IS.search(x),) if m), None)  # "right now any status >= 400 counts"
    alts = [Alternative(instead.group("alt").strip(), "")] if instead else \
        [Alternative(was.group("alt").strip(), "")] if was else []
    if not alts:
        return None  # a yes to "should it also tell the user?": a detail, not a way chosen over another
    title = _choice_title(head[:instead.start()].rstrip(" ,") if instead else head)
    return Proposal("decision", title, 0.75, refs, [Evidence(session.id, ASSISTANT, agent.at, question, agent.line),
                                                    Evidence(session.id, USER, u.at, reply[:400], u.line)],
                    _reason_in(sentences(reply)[1:]), alts)


# "- **Did not round the stored value.** …": what the agent turned down, in its report of what it chose
_DID_NOT = re.compile(r"^\s*(?:[-*•]\s+)?\*\*(?:did not|didn't|not|no)\s+(?P<x>[^*]{3,80}?)[.:]?\*\*", re.I | re.M)
_DID = re.compile(r"^\s*(?:[-*•]\s+)?\*\*(?!did not|didn't|not\b|no\b)(?P<x>[^*]{3,80}?)[.:]?\*\*\s*(?P<why>.*)$",
                  re.I | re.M)


def _reported_choice(session: Session, agent: Utterance, u: Utterance, reply: str) -> Proposal | None:
    """The agent chose as it worked and says so ("What I chose and why: - **Fixed in the
    display only.** … - **Did not round the stored value.** …"), and the person agrees: the
    choice, the ways it did not take turned down."""
    if not (_ASSENT.match(reply) or re.match(r"^\W*good\b", reply, re.I)) or _ASSENT_NOT.search(reply[:60]):
        return None
    turned = list(_DID_NOT.finditer(agent.text))
    took = _DID.search(agent.text)
    if not turned or took is None or not any(c.index < agent.index for c in session.edits({agent.turn})):
        return None
    refs = anchor_refs(session, agent.index, {agent.turn}, f"{took.group('x')} {took.group('why')}", agent.text)
    if refs == [(GLOB_ALL, "")]:
        return None
    alts = [_turned_down(m.group("x"), agent.text[m.end():].split("\n")[0]) for m in turned]
    title = _choice_title(took.group("x"))
    did = re.sub(r"\s*\([^()]*\)", "", (sentences(took.group("why")) or [""])[0])
    did = re.split(r",\s+(?:which|and|so|but)\b|:\s|\s[—–]\s", did)[0].strip(" .")
    if re.match(r"^\w+ed\b", title) and 3 <= len(did.split()) <= 14:  # "Fixed in the display only": what was done
        title = f"{title}: {did if did[:1] == '`' or did[1:2].isupper() else did[:1].lower() + did[1:]}"
    return Proposal("decision", title, 0.75, refs,
                    [Evidence(session.id, ASSISTANT, agent.at, agent.text[took.start():took.end() + 300].strip(),
                              agent.line), Evidence(session.id, USER, u.at, reply[:400], u.line)],
                    took.group("why").strip()[:300], alts)


def _turned_down(option: str, said: str) -> Alternative:
    """A way the agent says it did not take, with its first sentence after as the reason; an
    aside in brackets right after the option is part of it ("**Did not switch to a decimal
    library** (decimal.js or similar): every operator would change …")."""
    said = said.strip()
    aside = re.match(r"^\((?P<a>[^()]*)\)\s*:?\s*", said)
    if aside:
        option, said = f"{option.strip()} ({aside.group('a')})", said[aside.end():]
    first = sentences(said)[:1]
    return Alternative(option.strip(), first[0].rstrip(".") if first else "")


_CONCEDE = re.compile(r"^\W*(?:hm+\W+)?(?:ok(?:ay)?\W+)?(?:fair(?: enough| point)?|good point|you'?re right|"
                      r"convinced|you convinced me|makes sense|alright then)\b[.,!]*\s*", re.I)
_PUSHBACK = re.compile(r"\bpush back\b|\bi'?d (?:rather|argue|suggest)\b|\bbefore i do that\b|\bthe opposite\b|"
                       r"\bif you still want\b", re.I)
_ASKED_FOR = re.compile(r"\b(?:should|shoud|must|needs? to|make it)\s+(?P<x>[^.!?\n:]{3,60})", re.I)


def _conceded(session: Session, earlier: list[Utterance], agent: Utterance, u: Utterance,
              reply: str) -> Proposal | None:
    """The person gives in to the agent's push-back on what they asked for ("I'd push back
    a bit on fail-fast … **collect errors and continue** …" → "hm ok fair … collect errors
    and keep going"): the agent's way is the choice, what they asked for the option turned
    down, for the agent's reason."""
    given = _CONCEDE.match(reply)
    if given is None or not _PUSHBACK.search(agent.text):
        return None
    asked = next((x for x in reversed(earlier) if x.who == USER and x.turn == agent.turn), None)
    wanted = _ASKED_FOR.search(asked.text) if asked is not None else None
    bold = " ".join(_BOLD.findall(agent.text))
    then = sentences(reply[given.end():])
    choice = max((y for y in then if not y.rstrip().endswith("?")), key=lambda y: len(_stems(y) & _stems(bold)),
                 default="")
    if wanted is None or not choice or not bold or len(_stems(choice) & _stems(bold)) < 2:
        return None
    refs = anchor_refs(session, u.index, {u.turn}, f"{choice} {bold}", f"{agent.text}\n{reply}")
    if refs == [(GLOB_ALL, "")]:
        return None
    why = next((x for x in sentences(agent.text) if _PUSHBACK.search(x)), "")
    # the reason is what the push-back holds against what was asked, not its preamble ("Before I do that, I'd push
    # back a bit on fail-fast."): the first sentence after it that speaks of it
    said = sentences(agent.text)
    against = next((x for x in said[said.index(why) + 1:] if _stems(x) & _stems(wanted.group("x")) and
                    not x.rstrip().endswith("?") and not _PUSHBACK.search(x)), "") if why in said else ""
    head = main_clause(choice).rstrip(".")
    return Proposal("decision", _choice_title(head), 0.75, refs,
                    [Evidence(session.id, USER, asked.at, wanted.group(0), asked.line),
                     Evidence(session.id, ASSISTANT, agent.at, _around_sentence(agent.text, why)[:400], agent.line),
                     Evidence(session.id, USER, u.at, reply[:400], u.line)],
                    _reason_in([x for x in then if x != choice]),
                    [Alternative(wanted.group("x").strip(), against.rstrip(".") or reason_of(why) or
                                 (why.split(": ", 1)[1].rstrip(".") if ": " in why else ""))])


def _said_against(psents: list[str], option: str, choice: str) -> str:
    """The person's sentence that names the option they turn down by a word the choice does not
    have ("we tried read-only in the desktop app last year and users just got stuck"): why not
    that one, rather than why the choice."""
    key = _stems(option) - _stems(choice) - _stems("lean go use keep would rather")
    return next((y.rstrip(".!") for y in psents if y != choice and key & _stems(y) and
                 not y.rstrip().endswith("?")), "")


def _labelled(title: str, pick: Option) -> str:
    """A pick that is only a label ("Underlay") said with what the agent said it does, when that
    is short and holds nothing against it: "Underlay: merge the stamp beneath the page content
    instead of over it"."""
    if len(title.split()) > 2 or not pick.why or re.match(r"^\W*\w+\W*:", pick.why):  # (a table's "how: …")
        return title
    said = _EMPH.sub("", re.split(r"(?<=[.;!])\s", pick.why, maxsplit=1)[0])
    while re.search(r"\([^()]*\)", said):  # asides in brackets, nested ones too ("(`merge_page(…, over=False)`)")
        said = re.sub(r"\s*\([^()]*\)", "", said)
    said = said.strip(" .;!")
    if not said or len(said.split()) > 14 or _AGAINST.search(said) or said.endswith("?"):
        return title
    return f"{title}: {said}"


# the person takes back the option they picked: "actualy no, thinking about it more 2 is weird — lets go with 1"
_CHANGED_MIND = re.compile(r"\b(?:actual+y|on second thought|thinking about it (?:more|again)|chang(?:ed|e) my mind|"
                           r"i reflect again|on reflection|"
                           r"having slept on it|after all)\b[^.!?:]*?(?:[.!?:—–]|\s-\s)", re.I)


# someone else at the keyboard says who they are: "lead here: raise. don't clamp."
_SPEAKER = re.compile(r"^\s*(?:[\w-]+\s+){0,2}here\s*[:,—–-]\s*(?=\S)", re.I)
# the agent names the option the person described: "That's Option B: allow the drop and flag the column."
_THATS_OPTION = re.compile(r"^\W*(?:ok(?:ay)?[,.]?\s+|got it[,.—–-]?\s+)?(?:that'?s|that is|so that'?s|sounds like|so,?)\s+"
                           r"(?:option\s+)?\(?(?P<label>[A-E1-9])\)?(?=[\s.:;,—–-]|$)", re.I)


# what a question is about: "should the price cache go to redis?" → "the price cache"
_TOPIC = re.compile(r"\b(?:should|shall|do we|can we|could we|would|will)\s+(?P<t>(?:the|our|this|that)\s+[\w`.-]+"
                    r"(?:\s+[\w`.-]+){0,2}?)\s+(?:go|be|use|stay|live|move|get|keep|run|sit|work|come|store|persist|"
                    r"end up)\b", re.I)


def _named(head: str, *texts: str) -> str:
    """An option that says "it" ("Leave it in memory") with what "it" is, as the question
    that led to the options named it ("should the price cache go to redis?")."""
    if not re.search(r"\b(?:it|them)\b", head, re.I):
        return head
    topic = next((m.group("t") for text in texts for m in (_TOPIC.search(text),) if m), "")
    return re.sub(r"\b(?:it|them)\b", topic, head, count=1, flags=re.I) if topic else head


def exchanges(session: Session) -> list[Proposal]:
    """What the person's answers to the agent settle: an option picked among the ones the
    agent laid out (the others rejected, with what the agent said about them); the agent's
    proposal turned down ("Reject. …", "no — …", "nah, …": the proposal is the rejected
    option, the person's words the decision); a choice reverted later ("revert …", "back to
    …": the final one is the decision, the reverted one rejected)."""
    said = session.said()
    out: list[Proposal] = []
    last: _Decided | None = None
    answered: set[int] = set()  # options messages answered: a later "👍" picks nothing again
    chosen: dict[int, Proposal] = {}  # the option picked, by the message that laid them out: the person may change it
    for k, u in enumerate(said):
        if u.who != USER or k == 0:
            continue
        prior = [a for a in said[:k] if a.who == ASSISTANT and u.turn - 3 <= a.turn < u.turn]
        if not prior:
            continue
        agent = prior[-1]
        with_options = next(((a, o) for a in reversed(prior) for o in (options_in(a.text),) if o), None)
        refs_for = (lambda text: anchor_refs(session, u.index, {u.turn}, text, u.text))
        reply = _SPEAKER.sub("", u.text.strip(), count=1)  # "lead here: raise. don't clamp."
        overruled = _OVERRULED.search(reply[:300])  # "Hm. Thinking about who else calls this — no, I'm going to
        # overrule that. …": what follows says what instead
        psents = sentences(reply[overruled.end():] if overruled else
                           _NEITHER.sub("", _past_turn_down(reply), count=1)) or [reply]
        rev = _REVERT.search(reply)
        if rev and last is None:  # a choice said in a sentence ("let's use X"), not picked from options
            last = _said_choice(session, said[:k], reply, u.turn)
        if rev and last is not None and (_stems(reply) & _stems(last.about) or _words_of(rev.group("rest")) &
                                         _words_of(last.about)) and _revert_head(reply, rev, psents):
            # reverts that choice, not any; one that names no choice ("put it back and drop the wait") is read below
            rest = rev.group("rest").strip(" .,:")
            head = _revert_head(reply, rev, psents)
            old = last.proposal
            if old in out:
                out.remove(old)
            refs = refs_for(head)
            said_then = reply[rev.end():].split("\n")[0].strip(" .:;,—–-")  # "back to X: the reason"
            why = (said_then if head == rest and len(said_then.split()) >= 3 else "") or \
                _reason_in([x for x in psents if x != head and not _REVERT.search(x)], head)
            said_head = head
            head, said_why = _taken_back_to(head, old)  # "to truncating" → "Truncate", an option it had turned down
            why = said_why or why
            earlier = [a for a in old.alternatives if not _names_same(a.option, head)]  # the options it had, but
            # the one now chosen
            named = re.sub(r"^(?:the|that|this)\s+|\s+(?:thing|part|stuff|bit|idea|approach)$", "",
                           re.sub(r"\s+(?:after all|any ?more)$", "", rest, flags=re.I), flags=re.I)
            named = named if len(named.split()) >= 2 and named != said_head else last.head  # "the wait forever part"
            # what the person held against it before taking it back ("that's going to feel random. a slow drag …
            # revert the time window"), else what they said for the new choice
            before = [x for x in psents[:next((i for i, x in enumerate(psents) if _REVERT.search(x)), 0)]
                      if len(x.split()) >= 4 and not x.rstrip().endswith("?")]
            against = re.sub(r"^\W*(?:actual+y|on second thought|thinking about it (?:more|again)|on reflection)\W+",
                             "", " ".join(before), flags=re.I).strip(" ,.")
            out.append(Proposal("decision", _choice_title(head), 0.75, refs,
                                [*last.said, Evidence(session.id, USER, u.at, reply[:400], u.line)], why,
                                [Alternative(named, against[:300] or why), *earlier]))
            last = _Decided(out[-1], head)
            continue
        if agent.turn == u.turn - 1:  # a reply to the agent's last message, read whole
            planned = _planned(session, agent, u)  # "Plan: … I'd go with full jitter since …" → "yes"
            if planned is not None:
                answered.add(agent.index)
            one = planned or _reported_choice(session, agent, u, reply) or \
                (_yes_to(session, agent, u, reply) if with_options is None else None) or \
                _conceded(session, said[:k], agent, u, reply)  # "hm ok fair … collect errors and keep going"
            if one is not None:
                out.append(one)
                last = _Decided(one, one.title)
                continue
            numbered = _answered(session, agent, u)  # "1. yes\n2. yes keep it\n3. c for now …": each answer to
            if numbered is not None:  # its own question
                out += numbered
                answered.add(agent.index)
                continue
        changed = list(_CHANGED_MIND.finditer(reply))
        if with_options is not None and with_options[0].index in chosen and changed:
            a, opts = with_options  # "actualy no, thinking about it more 2 is weird — lets go with 1": picked again
            before = chosen[a.index]
            pick = _picked(reply[changed[-1].end():], opts, a.text, tersely=False)
            if pick is not None and _choice_title(pick.head) != before.title and before in out:
                out.remove(before)
                why = _reason_in(psents)
                refs = anchor_refs(session, u.index, {u.turn, u.turn + 1}, f"{pick.head} {pick.why}",
                                   f"{a.text}\n{reply}")
                out.append(replace(before, title=_choice_title(pick.head), rationale=why or pick.why,
                                   refs=before.refs if refs == [(GLOB_ALL, "")] else refs,
                                   evidence=[*before.evidence, Evidence(session.id, USER, u.at, reply[:400], u.line)],
                                   alternatives=[o.rejected() for o in opts if o is not pick]))
                chosen[a.index] = out[-1]
                last = _Decided(out[-1], pick.head)
                continue
        if with_options is not None and with_options[0].index not in answered:
            a, opts = with_options
            pick = _picked(reply, opts, a.text, tersely=a.turn == u.turn - 1) if not _NEITHER_LATER.search(reply) \
                else None
            named = None
            if pick is None and not _TURN_DOWN.match(reply) and not reply.rstrip().endswith("?"):
                named = next(((x, m) for x in said[k + 1:k + 2] if x.who == ASSISTANT and x.turn == u.turn
                              for m in (_THATS_OPTION.match(x.text),) if m), None)  # the person described what they
                pick = _resolve(named[1].group("label"), opts) if named else None  # want; the agent says which it is
            if pick is not None:
                why = pick.why or ""
                # the person's reason: in the sentence that names the pick ("For the format, plain JSON …, so we can
                # change it later"), else their first one
                naming = max(psents, key=lambda x: len(_stems(x) & _stems(pick.head)))
                mine = (reason_of(naming) if _stems(naming) & _stems(pick.head) else "") or _reason_in(psents)
                rejected = [o.rejected() for o in opts if o is not pick]
                asked = " ".join(x.text for x in said if x.who == USER and x.turn == a.turn)
                refs = anchor_refs(session, u.index, {u.turn}, f"{pick.head} {pick.why}", f"{a.text}\n{reply}", asked)
                for later in (1, 2):  # the work may come a turn or two later (a side question first)
                    if refs == [(GLOB_ALL, "")]:
                        refs = anchor_refs(session, u.index, set(range(u.turn, u.turn + later + 1)),
                                           f"{pick.head} {pick.why}", f"{a.text}\n{reply}", asked)
                evidence = [Evidence(session.id, ASSISTANT, a.at, pick.quote[:400], a.line),
                            Evidence(session.id, USER, u.at, reply[:400], u.line)]
                if named:  # "That's option 2, the underlay: …": how the description was read
                    evidence.append(Evidence(session.id, ASSISTANT, named[0].at, sentences(named[0].text)[0], named[0].line))
                kind, around = "decision", ""
                odd = next(((m, x) for m in said[k + 1:] if m.who == ASSISTANT and m.turn == u.turn
                            for x in sentences(m.text) if (_DELIBERATE.search(x) or _LOOKS.search(x))
                            and not _NOT_DELIBERATE.search(x)), None)
                if odd is not None:  # the option chosen looks wrong on purpose: a workaround, and why
                    kind, around = "workaround", mine or why
                    evidence.append(Evidence(session.id, ASSISTANT, odd[0].at, odd[1], odd[0].line))
                picked = Proposal(kind, _labelled(_choice_title(_named(pick.head, asked, a.text)), pick), 0.8, refs,
                                  evidence,
                                  mine or why, rejected, works_around=around)
                followed = any(session.edits({u.turn + d}) for d in (0, 1, 2))
                if refs != [(GLOB_ALL, "")] and followed:  # a pick no code followed ("I'll open tickets for the first
                    # three", "separate ticket I think"): talk
                    out.append(picked)
                    chosen[a.index] = picked
                answered.add(a.index)
                last = _Decided(picked, pick.head, tuple(evidence))  # a revert of it quotes the pick too
                continue
        # "monotonic then." / "k whatever. first match then.": what the agent described in the last turns
        then = next((m for x in psents[:2] for m in (_THEN.match(x),) if m), None) \
            if not _TURN_DOWN.match(reply) else None
        described = next((a for a in reversed(prior) if then and _stems(then.group("x")) & _stems(a.text)), None)
        if then and described is not None:
            x = then.group("x")
            refs = refs_for(x)
            if refs != [(GLOB_ALL, "")]:
                alternatives = [Alternative(_alt(m.group("alt")), m.group("why").rstrip(".")) for y in
                                sentences(described.text) for m in (_ALSO_WORKS.match(y),) if m]
                out.append(Proposal("decision", _choice_title(x if len(x.split()) > 3 else f"use {x}"), 0.75, refs,
                                    [Evidence(session.id, ASSISTANT, described.at, described.text[:400], described.line),
                                     Evidence(session.id, USER, u.at, reply[:400], u.line)],
                                    _reason_in(psents[1:]), alternatives))
                last = _Decided(out[-1], x)
                continue
        kept = _KEPT.match(reply)  # "why a hash though, random would've been one line" … "ok fair, keep the hash"
        asked = next((x for x in said[:k] if x.who == USER and x.turn == agent.turn), None)
        if kept and agent.turn == u.turn - 1 and asked is not None and _CHALLENGE.search(asked.text) and \
                _stems(kept.group("x")) & _stems(asked.text):  # keeps what was questioned
            x = kept.group("x").strip(" .!")
            # the code the choice went into: edited when it was made, before the question
            refs = anchor_refs(session, u.index, set(range(asked.turn - 1, u.turn + 1)), x, agent.text)
            if refs != [(GLOB_ALL, "")]:
                alt = _CHALLENGE.search(asked.text).group("alt")
                first = next(((m, y) for m in said[:k] if m.who == ASSISTANT and m.turn == asked.turn - 1
                              for y in sentences(m.text) if _stems(y) & _stems(x)), None)  # the choice as made
                out.append(Proposal("decision", _choice_title(f"keep {x}"), 0.75, refs,
                                    [*([Evidence(session.id, ASSISTANT, first[0].at, first[1], first[0].line)]
                                       if first else []),
                                     Evidence(session.id, USER, asked.at, asked.text[:400], asked.line),
                                     Evidence(session.id, ASSISTANT, agent.at, agent.text[:400], agent.line),
                                     Evidence(session.id, USER, u.at, reply[:400], u.line)],
                                    _reason_in(sentences(agent.text)),
                                    [Alternative(_alt(alt), "")] if alt else []))
                last = _Decided(out[-1], x)
                continue
        down = _TURN_DOWN.match(reply) or _NEITHER.match(reply) or _PUT_BACK.match(reply) or overruled or \
            _TAKE_OUT.match(reply) or \
            (with_options is not None and with_options[0].index not in answered and _NEITHER_LATER.search(reply))
        # what the agent proposed or did in its last turn ("I'll give debounce a leading option …" then "Done.")
        proposer, proposal = next(((a, x) for a in reversed(prior) if a.turn == agent.turn
                                   for x in sentences(a.text) if _PROPOSAL.search(x)), (agent, ""))
        dismissed = ""  # "78 is cute but nobody knows sysexits. exit 2": the proposal named and waved off
        if not down and proposal and len(psents) > 1 and \
                (_tokens(psents[0]) & _tokens(proposal) or _stems(psents[0]) & _stems(proposal)) and \
                re.search(r"\bbut\b", psents[0]) and not _ASSENT.match(reply):
            dismissed, psents = psents[0], psents[1:]
        if (down or dismissed) and agent.turn == u.turn - 1:
            neither = with_options[1] if with_options is not None and (_NEITHER.match(reply) or
                                                                       _NEITHER_LATER.search(reply)) else []
            if not proposal and not neither and not session.edits({agent.turn}):
                continue  # nothing proposed or done to turn down
            rejected = main_clause(re.sub(r"^.*?\b(?:i'll|i will|i'd|i would|i'm going to|i plan to|plan:|is to|shall i|"
                                          r"should i|want me to|"
                                          r"my plan is|i(?:'ve)? (?:made|changed|switched|added))\s+",
                                          "", proposal, count=1, flags=re.I)).strip(" .?")
            rejected = re.sub(r"^(?:lean|go|opt)\s+(?:to(?:wards?)?|for|with)\s+", "", rejected, flags=re.I)  # "I'd lean
            # to read-only": the option is "read-only"
            hits = [(x, classify(x, person=True)) for x in psents]
            hits = [(x, h) for x, h in hits if h is not None and h.kind in ("invariant", "decision", "boundary")]
            settles: list[tuple[str, str, str, float]] = []  # (sentence, kind, title, confidence): what the reply settles
            # the agent undid code it took for a bug; the person has it put back: odd on purpose, a workaround
            restored = _RESTORE.search(reply) and any(_LOOKS.search(x) or _BUGGY.search(x)
                                                      for a in prior if a.turn == agent.turn for x in sentences(a.text)) \
                or _GUARD.search(reply)  # "keep the scratch canvas … someone WILL "optimize" it back"
            if psents and _DO.match(psents[0]) and all(x != psents[0] for x, _ in hits) and not restored and \
                    not any(_UNIVERSAL.search(h.title) for _, h in hits):  # "Fail open: call next()
                # and log a warning. … a Redis blip must not turn into a full API outage": the choice, then why
                settles.append((psents[0], "decision", _choice_title(re.split(r",\s+|\s+[—–-]\s+", psents[0])[0]), 0.75))
                hits = [(x, h) for x, h in hits if h.kind == "boundary"]
            for x, h in hits:  # the first rule or choice (one point said in one breath), and any limit
                kind = "workaround" if restored and h.kind != "boundary" else h.kind
                if kind == "invariant" and classify(x) is None and not _WHOLE.search(x) and \
                        not _ANYWHERE.search(x) and not _NONE_IN.search(x):  # "no — every shift is a
                    kind = "decision"  # UTC instant, full stop": a plain statement against a proposal is the choice
                    # made instead (not one for the whole package: "no float pls. in this lib money is never float")
                if kind == "boundary" or not any(k != "boundary" for _, k, _, _ in settles):
                    settles.append((x, kind, h.title, max(h.confidence, 0.75)))
            if restored and not any(k != "boundary" for _, k, _, _ in settles):  # "Please put back the 't' and 'f'!
                # This is not leftover. The 2019 import wrote booleans as strings …": why the odd code is there
                x = next((y for y in psents if len(y.split()) >= 5 and not _PUT_BACK.match(y) and
                          not _RESTORE.search(y) and not _TURN_DOWN.match(y)), "")
                if x:
                    settles.insert(0, (x, "workaround", title_of(main_clause(x)), 0.7))
            if not any(k in ("decision", "invariant", "workaround") for _, k, _, _ in settles):  # "no deps for this, …"
                x = next((y for y in psents if _DO.match(y) and all(y != z for z, *_ in settles)), "") or \
                    next((y for y in psents if _DIRECTIVE.search(y) and all(y != z for z, *_ in settles)), "") or \
                    (psents[0] if dismissed and len(psents[0].split()) <= 10 and not settles else "")
                if x:
                    settles.insert(0, (x, "decision", _choice_title(re.split(r",\s+|\s+[—–-]\s+", x)[0]), 0.7))
            listed = _listed_after(proposer.text, proposal) if not neither else []  # "I'd:\n1. js-yaml …\n2. TOML …"
            offered = with_options[0] if neither else proposer
            for n, (x, kind, title, conf) in enumerate(settles):
                why = dismissed.split(" but ", 1)[-1].rstrip(".") if dismissed else \
                    _reason_in([y for y in psents if all(y != z for z, *_ in settles)], x) or reason_of(x) or \
                    (x.split(", ", 1)[1] if ", " in x and len(x.split(", ", 1)[1].split()) >= 3 else "")  # "stream
                # it instead, the client handles chunks": after a turn-down, what follows the choice is why
                if len(hits) == 0 and not why:
                    break  # "no, just the code": a terse steer with no reason is no decision to keep
                whole = _WHOLE.search(x) if kind != "decision" else None
                refs = (whole and _scope_of(session, whole)) or refs_for(x)
                if refs == [(GLOB_ALL, "")] and kind == "boundary":  # "no health checks …, not doing that here" and
                    # nothing more to do: the code the turned-down offer was about
                    refs = anchor_refs(session, agent.index, {agent.turn}, x, u.text)
                if refs == [(GLOB_ALL, "")] and not whole:
                    continue
                quoted = reply[:400] if reply.find(x) + len(x) <= 400 else _around_sentence(reply, x)  # far down a
                # long reply: what it said there
                evidence = [Evidence(session.id, ASSISTANT, offered.at,
                                     (proposal if proposal and not neither else offered.text)[:400], offered.line),
                            Evidence(session.id, USER, u.at, quoted, u.line)]
                alternatives = [] if kind == "boundary" and n and neither else \
                    [o.rejected() for o in neither or listed] or \
                    ([Alternative(rejected, _said_against(psents, rejected, x) or why)] if rejected else [])  # (what it
                # did, unsaid: no option to name)
                out.append(Proposal(kind, title, conf, refs, evidence, why, alternatives,
                                    recalls=bool(_REMINDER.search(x) or _REMINDER.search(reply[:200]))))  # "no — no
                # innerHTML, same rule as …", "no. same as in money.py. the running total must …"
                if kind == "decision":
                    last = _Decided(out[-1], title)
    return out


def _taken_back_to(head: str, old: Proposal) -> tuple[str, str]:
    """What a revert goes back to, as the earlier choice named it when it turned it down ("revert
    to truncating" → "Truncate"), and the reason said with it ("back to float, Decimal is too slow
    in the hot loop" → "float", "Decimal is too slow in the hot loop")."""
    head = re.sub(r"^(?:(?:go|switch|revert)\s+)?(?:back\s+)?to\s+", "", head, flags=re.I)
    choice, _, why = head.partition(", ")
    so = re.match(r"^(?:and\s+)?so\s+(?P<x>.+)$", why, re.I)
    if so:  # "the app knows when a drag starts and ends, so let it pass a transaction id": the premise is why
        choice, why = so.group("x"), choice
    elif len(why.split()) < 3:
        choice, why = head, ""
    named = next((a.option for a in old.alternatives if _stems(a.option) & _stems(choice)), choice) \
        if len(choice.split()) == 1 else choice
    return named, why


def _names_same(option: str, head: str) -> bool:
    """An option (with what was said of it) and a choice name one way: half the words of either
    are the other's."""
    shared = len(_stems(option) & _stems(head))
    return shared >= max(1, len(_stems(option)) // 2) or shared >= max(1, (len(_stems(head)) + 1) // 2)
