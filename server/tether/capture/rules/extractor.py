"""Reads every message of a session, sentence by sentence, and puts the readers together into
proposals: the phrase rules (:mod:`.sentences`) on each sentence, tied to code (:mod:`.edits`),
the person's answers (:mod:`.answers`), the failures (:mod:`.failures`) and the comments in the
code; one proposal per point.

Who said it matters more than the words. What the agent says alone is a candidate only as a
plan it then carries out — a choice with the option it turns down and a reason, or a limit,
said before it edits code in the same turn — or as why code it touches is odd on purpose (a
workaround); or when the person's next message accepts it. Its explanations, summaries after
an edit and musings are not notes.

A person's rules under a heading ("## Rules for the crypto layer", "## Rule") are read an item
or a paragraph at a time, each tied to the code it names; an item led by "Out of scope." is a
limit.

Confidence: a base per rule (0.55–0.8), more when a reason is given or the person said it,
less without code; candidates under 0.5 are not proposed.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ...core.notes import Alternative
from ..candidates import Evidence
from ..session import GLOB_ALL, MAX_SYMBOLS, Proposal, Session, Utterance
from ..transcript import ASSISTANT, USER
from .sentences import (
    _alt, _ASSENT, _ASSENT_NOT, _BULLET, _choice_title, classify, _EMPH, _FENCE, Hit, _LEAD_IN, _lead_in, main_clause,
    _PROCESS, _PRONOUN_END, reason_of, _rejected_reasons, _REMINDER, _RULE_NAMED, sentences, skipped, _stems, title_of,
    _UNIVERSAL, _VAGUE, _WHOLE,
)
from .edits import anchor_refs, _APPLIES, _commented, _scope_of
from .failures import gotchas, _PASTED, reported
from .options import options_in, _own_pick
from .answers import exchanges, _GUARD, _REVERT, _THATS_OPTION
from .wording import worded


class RuleExtractor:
    """Deterministic and rule-based (see the module's documentation)."""

    name = "rules"

    def propose(self, session: Session) -> list[Proposal]:
        out: list[Proposal] = []
        said = session.said()
        answers = exchanges(session)
        taken = {(e.line, e.quote) for p in answers for e in p.evidence} | \
            {(e.line, x) for p in answers for e in p.evidence if e.who == USER for x in sentences(e.quote)
             if _REVERT.search(x)}
        stated = {(e.line, p.title): p for p in answers for e in p.evidence if e.who == USER}  # what an answer states
        described = {e.line for p in answers for e in p.evidence if e.who == USER and
                     any(x.who == ASSISTANT and _THATS_OPTION.match(x.quote) for x in p.evidence)}  # a reply that
        # picked by describing what it wants
        picked = {e.line for p in answers if p.kind == "decision" for e in p.evidence if e.who == USER}  # a reply
        # that chose: another choice said in it is why ("I'd rather add a builder when … than carry that API now")
        last: dict[str, tuple] = {}  # per kind: the message the last proposal came from, it, and its sentence
        plain: set[int] = set()  # proposals from plain properties the person stated
        for k in range(len(said) - 1, -1, -1):  # the most recent first, so a time limit drops the oldest
            if session.out_of_time():
                break
            u = said[k]
            sents = sentences(u.text)
            opts = options_in(u.text) if u.who == ASSISTANT else []
            laid_out = [_EMPH.sub("", o.quote) for o in opts]
            ruled = _ruled_items(u.text) if u.who == USER else []  # "rules:\n- …\n- …": one point an item
            items_read: set[str | None] = set()
            for i, s in enumerate(sents):
                if any(s in q for q in laid_out):
                    continue  # an option laid out for the person to choose: :func:`exchanges` reads the answer
                plain_s = _EMPH.sub("", _BULLET.sub("", s)).strip()  # "- **Nonces.** The counter …" as its item has it
                item = next((x for x in ruled if plain_s in x), None)
                if item is not None and item in items_read:
                    continue  # read with its item's first sentence ("Nonces." is none: the next one is)
                items_read.add(item)
                hit = classify(s, sents[i + 1] if i + 1 < len(sents) else "", person=u.who == USER)
                label = _SCOPE_LABEL.match(item) if item is not None else None
                rest = sentences(item[label.end():]) if label else []
                if rest:  # "Out of scope. Key rotation and re-encrypting …": what the label says of the item's next
                    hit = Hit("boundary", title_of(rest[0]), 0.75,  # the sentences after it: why
                              rationale=reason_of(" ".join(rest[1:])) or " ".join(rest[1:2]).rstrip("."))
                elif item is not None:
                    hit = hit or next((h for x in sentences(item)[1:] for h in (classify(x, person=True),) if h), None) \
                        or _item_rule(item)
                if hit is None:
                    continue
                if hit.kind == "workaround" and _PRONOUN_HEAD.match(hit.title):  # "It's a workaround, remove when
                    # …", "That looks backwards, but is deliberate": the title says what "it" is
                    hit = _what_it_is(hit, sents, i, said, k)
                quote = item or s
                own = _own_pick(s, opts)
                if own is not None:  # "I'll do the second as a deliberate workaround": that option, the others rejected
                    hit = replace(hit, title=_choice_title(own.head), alternatives=tuple(
                        o.rejected() for o in opts if o is not own))
                    quote = f"{s} {_EMPH.sub('', own.quote)}"
                if hit.rationale and i + 1 < len(sents) and hit.rationale in sents[i + 1]:
                    quote = f"{s} {sents[i + 1]}"
                if i and u.who == USER and _REMINDER.search(sents[i - 1]) and not _REMINDER.search(s):
                    quote = f"{sents[i - 1]} {quote}"  # "… is a no — same as in permissions.ts. a role we've never …"
                elif i and re.match(r"^(?:(?:i know|i get|i reali[sz]e|yes|yeah|sure),?\s+)?(?:it|this|that)\b", s, re.I):
                    # "It looks odd …", "I know it looks like junk …": what "it" is
                    quote = f"{sents[i - 1]} {quote}"
                if (u.line, hit.title) in stated:  # what a later sentence adds joins the answer's candidate
                    last[hit.kind] = (k, stated[(u.line, hit.title)], i)
                if (u.line, s) in taken or (u.line, hit.title) in stated or hit.kind == "decision" and u.line in picked:
                    continue  # read with the answer it belongs to (:func:`exchanges`)
                if u.line in described and hit.kind != "boundary":
                    continue  # "the numbers always crisp and on top": the option the person described, not a rule
                if hit.plain and u.who == USER and _PASTED.search(u.text):
                    continue  # "memory store never forgets anything." under pasted metrics: what is wrong, no rule
                if hit.kind == "decision":
                    hit = _rejected_reasons(sents, hit)
                guarded = _guarded(session, said, k) if u.who == USER and hit.kind in ("invariant", "decision") else ""
                if guarded:  # "toJSON has to write the version as a string … leave a comment so nobody 'fixes' it"
                    hit = replace(hit, kind="workaround", works_around=hit.rationale or
                                  next((x for x in sents[i + 1:] if not _GUARD.search(x)), "").rstrip("."))
                evidence = [Evidence(session.id, u.who, u.at, quote, u.line)]
                if guarded and guarded != u.text:
                    evidence.append(Evidence(session.id, ASSISTANT, said[k + 1].at, guarded, said[k + 1].line))
                turns = {u.turn}
                conf = hit.confidence
                if hit.proposal:
                    reply = next((r for r in said[k + 1:] if r.who == USER), None)
                    if reply is None or not _ASSENT.match(reply.text) or _ASSENT_NOT.search(reply.text[:80]) or \
                            reply.turn != u.turn + 1:
                        continue
                    evidence.append(Evidence(session.id, USER, reply.at, reply.text.strip()[:300], reply.line))
                    turns = {u.turn, reply.turn}
                    conf = min(conf, 0.75)
                elif u.who == USER:
                    conf += 0.05
                elif _assented(session, k):
                    turns.add(u.turn + 1)
                elif not _agent_plan(session, u, hit, s):
                    continue  # the agent alone: an explanation, a summary or a musing, not something settled
                own_clause = _clause_of(s, hit.title)  # "…; so moveCard must never …; no rebalancing in this
                # library": the scope and the code a rule is on are what its own clause says
                whole = _WHOLE.search(own_clause) or next((_WHOLE.search(x) for x in sents[i + 1:i + 4]  # "… It's a
                                                           if _APPLIES.match(x) and _WHOLE.search(x)), None)  # GDPR
                # thing and it applies everywhere in mailq"
                scope = _scope_of(session, whole) if whole and hit.kind != "decision" else None
                def tie(turns: set[int]) -> list[tuple[str, str]]:  # (an item of a list of rules: what it says,
                    return anchor_refs(session, u.index, turns, item or own_clause, item or u.text,  # not what the
                                       alone=item is not None)  # others name)
                refs = scope or tie(turns)
                for later in (1, 2, 3):  # said before the work it leads to (a few questions and answers first)
                    if refs != [(GLOB_ALL, "")] or scope or u.who != USER:
                        break
                    refs = tie(turns | set(range(u.turn + 1, u.turn + later + 1)))
                if refs == [(GLOB_ALL, "")] and not scope and u.who == USER and hit.kind == "invariant" and \
                        _RULE_NAMED.search(s):  # "Yes. And make that the rule from now on: …", of the work just done
                    refs = tie({u.turn - 1})
                if refs == [(GLOB_ALL, "")] and not scope:
                    if session.edits() or u.who == ASSISTANT or not (hit.kind != "decision" and classify(s) is not None):
                        continue  # tied to none of the code the session changed, or no hard rule: talk (a lead at Stop)
                    conf -= 0.15  # a hard rule in a session that changed nothing: the repository's, until tied
                prev = last.get(hit.kind) if item is None else None  # each item of a list of rules is a point
                if prev is not None and prev[0] == k and (prev[1].refs == refs or hit.kind == "invariant" and
                                                          (prev[2] == i - 1 or set(prev[1].refs) & set(refs))) and \
                        not _LEAD_IN.match(s):  # "values only ever reach the database as bound parameters. Never
                    # interpolated into the SQL text": one rule said twice (not "Requirement: …" then "Out of scope: …")
                    _elaborate(prev[1], hit, evidence)  # the same point, said in more than one sentence
                    continue
                rule = last.get("invariant") if item is None else None
                if hit.kind == "decision" and hit.alternatives and rule is not None and rule[0] == k and \
                        set(rule[1].refs) & set(refs):
                    _elaborate(rule[1], hit, evidence)  # "… must X, not Y": what the rule rules out
                    if id(rule[1]) in plain:  # "every shift is a UTC instant, full stop … So: X, not Y": a choice
                        rule[1].kind, rule[1].title = "decision", hit.title
                    continue
                p = Proposal(hit.kind, hit.title, round(min(conf, 0.95), 2), refs, evidence, hit.rationale,
                             list(hit.alternatives), hit.works_around, hit.remove_when,
                             recalls=u.who == USER and bool(_REMINDER.search(_lead_in(u.text, s))))
                last[hit.kind] = (k, p, i)
                if hit.plain:
                    plain.add(id(p))
                out.append(p)
        for rule in [p for p in out if p.kind == "invariant" and p.evidence[0].who == USER]:
            for a in answers:  # "raise. … reserved must never go below zero": the rule rules the other options out
                if a.kind == "decision" and any(e.who == USER and e.line == rule.evidence[0].line for e in a.evidence) \
                        and set(a.refs) & set(rule.refs):
                    if not _UNIVERSAL.search(rule.title) and len(a.evidence[-1].quote) > len(rule.evidence[0].quote):
                        # "half even. totals must match the statement": why it was picked, not a rule of its own
                        a.rationale = rule.evidence[0].quote.rstrip(".!")
                        out.remove(rule)
                        break
                    known = {x.option.lower() for x in rule.alternatives}
                    rule.alternatives += [x for x in a.alternatives if x.option.lower() not in known]
        if not session.out_of_time():
            out += _commented(session, out + answers)
            said_lines = sorted({e.line for p in out + answers if p.kind != "decision" for e in p.evidence})  # (the
            # fix chosen among options is a note of its own: "scanline" after the stack overflow's diagnosis)
            # a trap whose explanation (said between the error and the fix) is a candidate already: that one
            told = reported(session)
            out += answers + [g for g in gotchas(session) + told
                              if not any(g.evidence[0].line < x < g.evidence[-1].line for x in said_lines)
                              # a failure while fixing a bug the person reported is part of that one
                              and not (g not in told and any(r.evidence[0].line < g.evidence[0].line and
                                                             set(r.refs) & set(g.refs) for r in told))]
        out = sorted(out, key=lambda p: (p.evidence[0].at, p.evidence[0].line) if p.evidence else ("", 0))
        for p in [p for p in out if p.recalls]:  # "3 no please, I said it — nothing gets deleted": the rule said
            # earlier in this session, said again
            earlier = next((q for q in out if q is not p and q.kind == p.kind and set(q.refs) & set(p.refs)
                            and q.evidence and p.evidence and q.evidence[0].line < p.evidence[0].line
                            and not _elsewhere_named(p)), None)
            if earlier is not None:
                earlier.evidence += [e for e in p.evidence if e not in earlier.evidence]
                out.remove(p)
        out = worded(out)  # a hint that would mislead is no hint
        out = [p for p in _one_per_choice(out) if not _PRONOUN_END.search(p.title.rstrip(".!"))
               and not _VAGUE.match(p.title)]  # "keep it, and
        # write a comment …", "do that": says of nothing what it is
        for p in out:
            p.refs = _with_class(p.refs)
            if p.kind == "invariant" and _EACH.search(p.title):
                p.refs = _with_file(p.refs)
            p.title = _said_of(p.title, p.refs, p.kind)
        return out


# what opens a finding and says nothing of it: "There it is: the variant names came back as `False`"
_FOUND = re.compile(r"^(?:there it is|here it is|found it|got it|reproduced(?:,?\s+and)?)\s*[:;,.—–-]*\s*", re.I)
# a title whose "it" (or opening "this"/"that") refers to nothing in it: "It must fail closed", "Keep it simple",
# "That's the sweep timer"; and one that is only the option picked: "Exit 2", "Throw", "Token bucket"
_IT_SUBJECT = re.compile(r"^it\s+(?=(?:must|should|has to|needs? to|never|always|can(?:not|'t)?|will|won't|was|"
                         r"doesn't|[a-z]+s)\b)", re.I)  # "it is", "it does", "it adds": a verb of the code
_BARE_IT = re.compile(r"^(?:\w+\s+)?it\b(?!')|^(?:this|that|it)(?:'s|\s+(?:one|is|was|does|doesn't|looks|seems)\b)",
                      re.I)
_FRAGMENT_WORDS = 2
_ENDS_BARE = re.compile(r"\b(?:for|like|with|about|of|to|on)\s+(?:this|that|it)$", re.I)  # "No deps for this"
_SHORT = 6  # words of a title whose last "this" can only point outside it


def _said_of(title: str, refs: list[tuple[str, str]], kind: str) -> str:
    """The title, said of the code it governs when what it says leans on words around it
    that the title lacks: "It must fail closed" → "`_load` must fail closed", "Keep it simple"
    → "`with_retries`: keep it simple", "Exit 2" (the option the person picked) → "`main`:
    exit 2". A title that names its code already (also in prose: "token bucket" for
    `TokenBucket`) is kept, and so is one that says after a colon what "that" is. A gotcha's
    "it" is the failure as often as the code: said of the code, not by it."""
    found = _FOUND.sub("", title)
    if found != title and found:
        title = found[:1].upper() + found[1:]
    code = next((name for path, name in refs if name), "") or \
        next((path.rsplit("/", 1)[-1] for path, _ in refs if path != GLOB_ALL and "*" not in path), "")
    named, words = _words(code.rsplit(".", 1)[-1]), _words(title)
    if not code or any(words[i:i + len(named)] == named for i in range(len(words))):
        return title
    if _IT_SUBJECT.match(title) and kind != "gotcha":
        return f"`{code}`{title[2:]}"
    bare = _BARE_IT.match(title)
    if bare and ": " in title[bare.end():] and not title.lower().startswith(("it ", "it's")):
        return title  # "That's the sweep timer: an active `setInterval` keeps …"
    if bare or len(title.split()) <= _FRAGMENT_WORDS or \
            len(title.split()) <= _SHORT and _ENDS_BARE.search(title.rstrip(".!")):
        return f"`{code}`: {title[:1].lower() + title[1:] if not title[1:2].isupper() else title}"
    return title


def _words(text: str) -> list[str]:
    """The words of a text with the names in it split ("parseRetryAfter", "parse_retry_after":
    parse, retry, after)."""
    return re.findall(r"[a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text).lower())


def _guarded(session: Session, said: list[Utterance], k: int) -> str:
    """What says the person's point is odd code to protect from the next "fix": their message
    ("leave a comment so nobody 'fixes' it"), or the agent's answer to it ("with a comment so
    nobody 'fixes' it back into an error"); "" when nothing does."""
    u = said[k]
    if _GUARD.search(u.text):
        return u.text
    nxt = said[k + 1] if k + 1 < len(said) else None
    if nxt is not None and nxt.who == ASSISTANT and nxt.turn == u.turn:
        return next((x for x in sentences(nxt.text) if _GUARD.search(x)), "")
    return ""


def _elsewhere_named(p: Proposal) -> bool:
    """The statement recalls a rule of another file than its own ("same as in
    permissions.ts"): another session's, not one said earlier in this one."""
    files = {f.lower() for e in p.evidence for f in re.findall(r"\b[\w-]+\.[a-z]{1,4}\b", e.quote)
             if re.search(r"\.(?:py|ts|tsx|js|jsx|go|rs|java|rb|cs|kt|swift|php)$", f)}
    return bool(files - {path.rsplit("/", 1)[-1].lower() for path, _ in p.refs})


def _with_class(refs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A statement about several methods of one class (``Throttle._key``, ``Throttle.allow``)
    is about the class: it comes first."""
    owners = [(path, name.rsplit(".", 1)[0]) for path, name in refs if "." in name]
    for owner in dict.fromkeys(owners):
        if owners.count(owner) >= 2 and owner not in refs:
            return [owner, *refs][:MAX_SYMBOLS]
    return refs


_EACH = re.compile(r"^(?:every|each|all|any)\b", re.I)  # "every rule gives …": the subject, not "on every request"


def _with_file(refs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A rule for every one of several functions of one file ("every rule gives back only a
    key", said of ``minLength`` and ``maxLength``) is about the file, the functions to come
    included."""
    named = [(path, name) for path, name in refs if name and "." not in name]
    paths = {path for path, _ in named}
    if len(named) >= 2 and len(paths) == 1 and len(named) == len([r for r in refs if r[1]]):
        return [(paths.pop(), "")]
    return refs


def _one_per_choice(proposals: list[Proposal]) -> list[Proposal]:
    """One decision per choice a session made: a choice the person states, then settles
    when the agent lays out the options, is one candidate (the later one, with every
    piece of evidence and every option turned down) — same code, the same words."""
    out: list[Proposal] = []
    for p in proposals:
        said = _stems(" ".join([p.title, *(a.option for a in p.alternatives)]))
        same = next((q for q in out if q.kind == p.kind == "decision" and set(q.refs) & set(p.refs) and
                     len(said & _stems(" ".join([q.title, *(a.option for a in q.alternatives)]))) >= 3), None)
        if same is None:
            out.append(p)
            continue
        known = {a.option.lower() for a in p.alternatives}
        p.alternatives += [a for a in same.alternatives if a.option.lower() not in known]
        p.evidence[:0] = [e for e in same.evidence if e not in p.evidence]
        p.rationale = p.rationale or same.rationale
        p.confidence = max(p.confidence, same.confidence)
        if len(same.title.split()) >= 2 and len(same.title) < len(p.title):
            p.title = same.title  # the option as it was named ("Refuse fractions of a cent"), not the sentence picking it
        out[out.index(same)] = p
    return out


def _elaborate(p: Proposal, hit: Hit, evidence: list[Evidence]) -> None:
    """A further sentence of one message making the same point: its quote joins the
    first one's, and it fills in what the first did not say."""
    e = p.evidence[0]
    p.evidence[0] = Evidence(e.session, e.who, e.at, f"{e.quote} {evidence[0].quote}", e.line)
    if p.kind == "invariant" and _UNIVERSAL.search(hit.title) and not _UNIVERSAL.search(p.title) and \
            not re.search(r"\b(?:only|ever)\b", p.title, re.I):
        p.title = hit.title  # "The sort has to go though. The index is always monotonic": the rule is the second
    p.rationale = p.rationale or hit.rationale
    p.works_around = p.works_around or hit.works_around
    p.remove_when = p.remove_when or hit.remove_when
    known = {a.option.lower() for a in p.alternatives}
    p.alternatives += [a for a in hit.alternatives if a.option.lower() not in known]
    p.confidence = round(min(0.95, max(p.confidence, hit.confidence) + 0.05), 2)


_BECAUSE = re.compile(r"\b(?:because|since|so|given|otherwise)\b", re.I)


def _agent_plan(session: Session, u: Utterance, hit: Hit, s: str) -> bool:
    """What the agent says alone holds only as a plan it then carries out: a choice with the
    option it turns down and why, or a limit it sets, said before it edits code in the same
    turn; or why code it touches looks wrong on purpose (a workaround). Its explanations,
    summaries after the edit and musings are no notes."""
    if hit.kind == "workaround":
        return True
    if not any(c.index > u.index for c in session.edits({u.turn})):
        return False
    if hit.kind == "decision":  # a reason said as one ("because", "so …", the next sentence), not any clause
        return bool(hit.alternatives) and (any(a.rejected_because for a in hit.alternatives if a.rejected_because !=
                                               hit.rationale) or bool(_BECAUSE.search(s)) or
                                           bool(hit.rationale) and hit.rationale not in s)
    return hit.kind == "boundary"


def _assented(session: Session, k: int) -> bool:
    """The person's next message (the next turn) accepts what the agent said last, and the
    work follows ("ok" to a plan; not "lgtm, thanks" to a summary of what was done)."""
    said = session.said()
    u = said[k]
    if any(r.who == ASSISTANT and r.turn == u.turn for r in said[k + 1:]):
        return False  # not the agent's last message of the turn
    reply = next((r for r in said[k + 1:] if r.who == USER), None)
    return reply is not None and reply.turn == u.turn + 1 and bool(_ASSENT.match(reply.text)) and \
        not _ASSENT_NOT.search(reply.text[:80]) and bool(session.edits({reply.turn})) and \
        len(sentences(reply.text)) <= 3  # not "Okay. Bunch of stuff, bear with me. …": a reply of its own


# a line that announces a list of how things must be: "rules:", "how i want messages to work:"
_RULES_CUE = re.compile(r"\b(?:rules?|how i want|how (?:it|this|they) should|requirements?|constraints?|guidelines?|"
                        r"conventions?|ground rules|the deal|policy|non-negotiable)\b[^\n]*:\s*$", re.I)


# a heading over the person's rules: "## Rules for the crypto layer", "## Rule", "## Constraints"
_RULES_HEADING = re.compile(r"^\s*#{1,6}\s+(?:the\s+|our\s+|some\s+)?(?:ground\s+)?(?:rules?|constraints?|requirements?|"
                            r"invariants?|non-goals?|out of scope)\b", re.I)


# an item of rules that says with its first words what kind of thing the rest is: a limit
_SCOPE_LABEL = re.compile(r"^\W*(?:out of scope|not in scope|non-goals?|not now|later|not for this (?:change|pr|release))"
                          r"\s*[.:—–-]+\s*", re.I)


def _ruled_items(text: str) -> list[str]:
    """The items of a list the person introduces as rules (each with its continuation
    lines); under a heading of rules, its paragraphs when it has no list."""
    lines = _FENCE.sub("\n", text).split("\n")
    out: list[str] = []
    for i, line in enumerate(lines):
        if out or not (_RULES_CUE.search(line) or _RULES_HEADING.match(line)) or _BULLET.match(line):
            continue
        heading = bool(_RULES_HEADING.match(line))
        for nxt in lines[i + 1:]:
            if nxt.lstrip().startswith("#"):
                break  # the next heading
            if _BULLET.match(nxt):
                out.append(_EMPH.sub("", _BULLET.sub("", nxt)).strip())
            elif nxt.startswith((" ", "\t")) and nxt.strip() and out:
                out[-1] += " " + _EMPH.sub("", nxt.strip())
            elif heading and nxt.strip():  # "## Rule\n\nFrom now on we treat everything read … as untrusted input"
                out.append(_EMPH.sub("", nxt.strip()))
            elif nxt.strip() and out:
                break
    return [x for x in out if not _PROCESS.search(x)]  # "run ruff before you say you're done": how to work


def _item_rule(item: str) -> Hit | None:
    """An item of the person's rules that no rule reads on its own: a limit ("no plural logic
    in v1 — leave plurals out"), a choice ("X, not Y"), else a rule ("a missing translation
    falls back to english")."""
    first = sentences(item)[0] if sentences(item) else item
    if skipped(first):
        return None
    if re.search(r"\bleave\s+.{2,40}?\s+out\b|\b(?:for now|later|in v1|not (?:yet|now))\b", item, re.I):
        return Hit("boundary", title_of(first), 0.65, rationale=reason_of(item))
    alt = re.search(r",\s+not\s+(?:from\s+|in\s+|with\s+)?(?P<alt>[^,.;—–]{2,60})", first)
    if alt:
        return Hit("decision", title_of(first[:alt.start()], choice=True), 0.7, rationale=reason_of(item),
                   alternatives=(Alternative(_alt(alt.group("alt")), reason_of(item)),))
    return Hit("invariant", title_of(first), 0.65, rationale=reason_of(item), plain=True)


_PRONOUN_HEAD = re.compile(r"^(?:it|this|that)(?:'s|\s+is|\s+was|\s+looks|\s+seems)\b", re.I)
_WHY_ASKED = re.compile(r"\bwhy (?P<aux>does|do|did|is|are|was) (?P<s>[^?]{4,80})\?", re.I)


def _what_it_is(hit: Hit, sents: list[str], i: int, said: list[Utterance], k: int) -> Hit:
    """A workaround said of "it": titled by what was done, said just before ("strip it before
    converting. it's a workaround, …", what it works around before that), or by what the
    person asked ("why does to_cents multiply before rounding?" … "That looks backwards, but
    is deliberate: …" → "to_cents multiplies before rounding on purpose")."""
    if i:
        return replace(hit, title=title_of(main_clause(sents[i - 1])),
                       works_around=hit.works_around or (main_clause(sents[i - 2]).rstrip(".") if i >= 2 else ""))
    asked = next((u for u in reversed(said[:k]) if u.who == USER), None)
    m = _WHY_ASKED.search(asked.text) if asked is not None and asked.turn >= said[k].turn - 1 else None
    if m is None:
        return hit
    words = m.group("s").split()
    n = 2 if words[0].lower() in ("the", "a", "an", "our", "this", "that") and len(words) > 2 else 1
    (subject, rest), aux = (" ".join(words[:n]), words[n:]), m.group("aux").lower()
    if not rest:
        return hit
    verb = f"{aux} {rest[0]}" if aux in ("is", "are", "was") else _third_person(rest[0])
    return replace(hit, title=title_of(" ".join([subject, verb, *rest[1:], "on purpose"])))


def _third_person(verb: str) -> str:
    """"multiply" → "multiplies", "round" → "rounds", "catch" → "catches"."""
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    return verb + ("es" if re.search(r"(?:s|sh|ch|x|z|o)$", verb) else "s")


def _clause_of(sentence: str, title: str) -> str:
    """The clause of a sentence that joins several with semicolons where its title is said
    ("…; so moveCard must never rewrite …; …"); the whole sentence when it is one clause or
    the title is not found in one."""
    clauses = re.split(r";\s+", sentence)
    if len(clauses) < 2:
        return sentence
    key = re.sub(r"^\W+|[…\W]+$", "", title).lower()[:40]
    return next((c for c in clauses if key and key in c.lower()), sentence)
