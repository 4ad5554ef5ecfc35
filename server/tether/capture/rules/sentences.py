"""Reads one sentence of what the person or the agent wrote: whether it states a rule, a
choice, a limit or a workaround, with what reason and which options it turns down.

Text is read sentence by sentence from what the person and the agent wrote (never from
tool output, code blocks, quoted lines or the agent's hidden reasoning). A sentence is
left alone when it is a question, a hypothesis or an option being weighed ("could",
"might", "maybe", "if we…", "one option"), reported speech ("the docs say…"), or about the
conversation rather than the code ("ask me before…", "your answers…", commits and pushes).
Beliefs ("that should never happen"), the agent narrating its next step ("let me…") and hacks
that were ("that was a hack left over…", "removed the workaround") are no notes either.
What remains is matched, first rule first:

| kind | phrases (examples) |
|---|---|
| boundary | "out of scope", "non-goal"; "we won't / are not going to handle/support…"; "deliberately doesn't handle…"; "let's leave X out"; "should just refuse/reject…" |
| workaround | "hack / workaround because…"; "looks redundant/wrong, but…"; "don't fix/remove/simplify this — …"; then, after the rules below, "on purpose", "deliberately", "intentionally", "by design" (not negated) |
| invariant | "must …" (not "must have been", "must be the …"), "must/should/can never", "has to always", a sentence starting "Never …"/"Always …", "X is append-only/immutable/idempotent…", "Invariant: …" |
| decision | a choice with the option rejected: "use/keep/store/go with X instead of / rather than Y", "chose/prefer X over Y", "X, not Y"; a choice alone: "decided to…", "let's go with…", "settled on…", "… so X like we agreed" (a recall); an agent's proposal ("I'd use X rather than Y") that the person's next message accepts ("yes", "go ahead", "sounds good") |

A sentence that leads up to a colon ("reminder because it matters here: amounts are integer
minor units") is read for what follows the colon; a rule announced so ("make that a rule, not
just this function: nothing scraped goes to slack unescaped") is an invariant; "So: X" is a
decision, or an invariant when X says what a thing is ("so: an invite token is single use").
Reported views ("Tomasz thinks…", "Marco's rule is…", "heads up"), "dunno if…", chores for
somebody else ("someone should fix that") and questions without their mark ("is that on
purpose") are no statements. "Please make it so that X" asks for X.

Said by the person, plainer statements rule too (said by the agent they explain): a property
held ("amounts stay integers", "X, never Y", "money is never float", "we store everything as
UTC, full stop", "only X may Y", "nothing can be posted into a closed period", "cumulative for
the life of the process"), what the code is obliged to do ("parseConfig has to throw on …"), a
limit ("don't bother with X", "we only sell in EUR", "only X for now", "cap it at 30 seconds",
"not in this release"), what they want ("What I want is X"), code kept as it is for a reason ("leave that sleep
alone, the sandbox rate-limits us"; not "keep the rest as is", not "leave it for now"), a
choice "I'd rather X than Y". Not a report of how things are now ("CSV only right now",
"sometimes"), speculation ("it has to be something in …") or
someone else's decision ("last year someone decided …"). A plain property said in the message
that weighs it against an alternative is that decision; a rule said in the reply that picks an
option carries the options turned down too.

The reason is the clause after "because", "since", "so that", "given that" or a dash, or
a next sentence that starts "That way…", "Otherwise…", "The reason…". A rejected option's
own reason comes from "I considered Y, but …" / "Y would …" in the same message.
Workarounds take "until … ships/is fixed" or "can go when …" as the time they can go.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ...core.notes import Alternative
from ..candidates import _REMINDER
from ..candidates import TEST_PATH as _TEST_PATH


_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
# a sentence ends at . ! ? before the next word — lower-case too (terse people write so), but
# not after an abbreviation
_SPLIT = re.compile(r"(?<=[.!?])(?<!\.\.\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)(?<!\bcf\.)\s+"
                    r"(?=[A-Za-z`\"'(\[*_])")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
_EMPH = re.compile(r"\*\*|__|(?<![\w*])\*(?=\w[^*\n]*\w\*(?![\w*]))|(?<=\w)\*(?![\w*])")  # **bold**, __bold__, *em*


def sentences(text: str) -> list[str]:
    """Sentences of a message: fenced code, quoted lines ("> …"), tables and headings
    left out; a list item or a paragraph never runs into the next one."""
    text = _FENCE.sub("\n\n", text)
    units, cur = [], []
    for line in text.split("\n"):
        s = line.strip()
        if not s or s.startswith((">", "|", "#")) or line.startswith(("    ", "\t")):
            if cur:
                units.append(" ".join(cur))
                cur = []
            continue
        if _BULLET.match(line):
            if cur:
                units.append(" ".join(cur))
            cur = [_BULLET.sub("", line).strip()]
            continue
        cur.append(s)
    if cur:
        units.append(" ".join(cur))
    out = []
    for u in units:
        for s in _SPLIT.split(_EMPH.sub("", u)):
            s = s.strip()
            if len(s) >= 12:
                out.append(s)
    return out


_REASON = re.compile(r"\s*(?:,\s*|\s)(?:because|since|so that|given that|as it|as they|bc|b/c|cuz|coz)\b\s*|"
                     r",\s*so\s+(?!that\b)|"
                     r"\s+[—–]\s+|\s+-\s+|;\s*", re.I)
_HEDGE = re.compile(r"\b(could|might|maybe|perhaps|possibly|probably|not sure|i wonder|wondering|considering|"
                    r"alternatively|hypothetically|in theory|one option|another option|options are|would it|"
                    r"do you (want|think|prefer)|what if|we can discuss|up to you|your call|tbd|to be decided)\b",
                    re.I)
_CONDITIONAL = re.compile(r"^(?:if|whether|unless|suppose|supposing|assuming|in case)\b", re.I)
_REPORTED = re.compile(r"\b(says(?! why)|(?<!\bi )(?<!\bwe )(?<!\bi've )(?<!\bwe've )said|saying|suggests|suggested|"
                       r"claims|claimed|according to|reads:|"
                       r"states that|told (?:me|us|them)|thinks|believes|reckons|insists|heads up|"
                       r"(?:people|users|customers|they|folks|clients) (?:say|said|report|complain)|"
                       r"^(?-i:[A-Z]\w+) (?:wants?|asked|asks|would like) (?:to|us to|me to|you to)\b|"  # "Ops wants to put …"
                       r"\w+'s (?:rule|take|view|opinion|idea|advice|preference|policy|position) is|"
                       r"dunno|don't know if|not sure (?:if|whether)|"
                       r"the (error|message|warning|"
                       r"traceback|log|output) (is|was|shows|reports))\b", re.I)
_PROCESS = re.compile(r"\bno (?:code|changes|edits) yet\b|"
                      r"\b(ask me|tell me|ping me|let me know|check with me|show me|remind me|your (answers?|"
                      r"replies|reply|responses?|summary|summaries|messages?|output|explanations?)|emojis?|"
                      r"force[- ]push|push (it |this |them )?to|commit message|pull request|this (chat|conversation)|"
                      r"in (the|this) chat|before (you )?(commit|push)|(the|a) commit|"
                      r"(?:before|after|when|once|until) you|"
                      r"you(?:'re| are) (?:done|finished)|run (?:the |all the )?(?:tests?|suite|linter|build))\b", re.I)
_TOOLING = re.compile(r"\b(grep|rg|ripgrep|the (read|edit|bash|search|grep|write) tool|"
                      r"(search|read|look at|skim|scan|browse|open|inspect|explore|check|view)\w*\s+(the\s+|this\s+|"
                      r"that\s+|each\s+|every\s+)?(file|files|code|codebase|repo|repository|directory|folder|tests?|"
                      r"logs?|output|docs?|diff))\b", re.I)
_NARRATION = re.compile(r"^(?:let me|i'll (?:now |first |then )?(?:start|begin|look|check|read|run|search|try))\b", re.I)
_UNDECIDED = re.compile(r"\b(haven't|have not|not yet|undecided|not decided|no decision|don't know|do not know|"
                        r"unclear|later decide|decide later|let me think(?! (?:aloud|out loud))|i'll think|think about it|not sure yet)\b",
                        re.I)


def main_clause(s: str) -> str:
    m = _REASON.search(s)
    return s[:m.start()] if m else s


def reason_of(s: str) -> str:
    m = _REASON.search(s)
    if not m:
        return ""
    r = s[m.end():].strip().rstrip(".!")
    return r if len(r.split()) >= 2 else ""


# a question without its question mark: "is that on purpose", "should we keep it"
_ASKING = re.compile(r"^(?:is|are|was|were|does|did|can|could|would|will|shall|should|do)\s+(?:it|that|this|there|we|"
                     r"you|i|they|he|she|these|those)\b", re.I)


# a chore for somebody else: "someone should fix that, not you, I'll do it in the docs pass"
_ELSEWHERE = re.compile(r"\b(?:someone|somebody) (?:should|needs to|has to|must|could|will have to)\b", re.I)


def skipped(s: str) -> bool:
    """A sentence no rule reads: a question, a hypothesis, reported speech, or about the
    conversation rather than the code."""
    if s.rstrip().endswith("?") or "?" in main_clause(s) or _ASKING.match(s):
        return True
    if _CONDITIONAL.match(s) or _REPORTED.search(s) or _PROCESS.search(s) or _ELSEWHERE.search(s):
        return True
    return bool(_HEDGE.search(main_clause(s)))


_DISCOURSE = re.compile(r"^(?:(?:ok(?:ay)?|so|alright|right|great|good|sure|yes|yeah|now|then|also|and|but|first|"
                        r"finally|anyway|in short|to summarize|summary|note|remember|reminder|important|"
                        r"just so you know|"
                        r"keep in mind(?: that)?|fyi|please|one more thing|for the record)\b(?:[,:!]|\s+[—–-])?\s*)+",
                        re.I)
_DECIDER = re.compile(r"^(?:i think\s+|i'd say\s+)?(?:(?:(?:i'd|i would|we'd) like (?:us |you )?to|"
                      r"i want (?:us |you )?to|i'd rather|i would rather|i'd|i would|"
                      r"we should|i should|we will|i will|we are|i am|we have|i have|"
                      r"let's|let us|we'll|i'll|we're|i'm|we've|i've|we|i)\s+)?", re.I)
_CHOICE_NOUN = re.compile(r"^(?:(?:have\s+)?(?:decided|settled|agreed)\s+on|go(?:ing)?\s+with|went\s+with|gone\s+with|"
                          r"cho(?:o)?se|chosen|picked|pick|opt(?:ed|ing)?\s+for|stick(?:ing)?\s+with|prefer(?:red)?|"
                          r"the decision is|decision:)\s+", re.I)
_CHOICE_VERB = re.compile(r"^(?:(?:have\s+)?(?:decided|agreed|chose|choose)\s+to|the decision is to)\s+", re.I)
_ING = {"using": "use", "keeping": "keep", "storing": "store", "switching": "switch", "returning": "return",
        "making": "make", "raising": "raise", "caching": "cache", "representing": "represent", "moving": "move",
        "putting": "put", "writing": "write", "sticking": "stick", "rounding": "round", "parsing": "parse"}


# "No, it must …", "no no, must be flipped": the answer's "no"
_NO = re.compile(r"^(?:(?:no+|nope|nah|actually|wait)\s+)*(?:no+|nope|nah|actually|wait)\s*[,.!:;—–-]+\s*", re.I)


def title_of(clause: str, choice: bool = False) -> str:
    """A note title from a clause: discourse words dropped; for a choice (``choice``), the
    one choosing too ("I'll go with X" → "Use X")."""
    t = re.sub(r"^[^\w`\"'(\[$@#]+", "", clause.strip().rstrip(".!:;,"))  # "❌ we don't …": not the emoji
    t = _DISCOURSE.sub("", _NO.sub("", t)).strip()
    t = re.sub(r"^(?:the\s+)?(?:rule|invariant|constraint|decision)\s*:\s*", "", t, flags=re.I)
    d = _DECIDER.sub("", t) if choice else t
    if d != t:
        t = d
        m = _CHOICE_VERB.match(t)
        if m:
            t = t[m.end():]
        else:
            m = _CHOICE_NOUN.match(t)
            if m:
                t = "Use " + t[m.end():]
    first, _, rest = t.partition(" ")
    if first.lower() in _ING:
        t = f"{_ING[first.lower()]} {rest}"
    t = _short(t.strip(" ,;:"))
    if re.match(r"^\w*(?:_|[a-z][A-Z])", t):
        return t  # starts with a name from the code (`to_cents`, `parseLocal`): as written
    return t[:1].upper() + t[1:] if t else t


def _short(t: str, most: int = 110) -> str:
    """A long title without its asides in brackets, then up to the end of a clause ("…, one
    write per move, no 'tidy up the neighbours' (someone did …)" → "…, one write per move"); cut
    at a word, marked "…", only when no clause ends in time."""
    if len(t) <= most:
        return t
    bare = re.sub(r"\s*\((?:[^()]|\([^()]*\))*\)", "", t).strip(" ,;:")
    if len(bare) <= most:
        return bare
    ends = [m.start() for m in re.finditer(r",\s|\s[—–]\s|;\s|:\s", bare) if 30 <= m.start() <= most]
    if ends and len(bare[:ends[-1]].split()) >= 5:
        return bare[:ends[-1]].rstrip(" ,;:")
    cut = t.rfind(" ", 0, most - 10)
    return t[:cut if cut > 40 else most - 10] + "…"


@dataclass
class Hit:
    kind: str
    title: str
    confidence: float
    rationale: str = ""
    alternatives: tuple[Alternative, ...] = ()
    works_around: str = ""
    remove_when: str = ""
    proposal: bool = False  # the agent proposes; a person's assent makes it a decision
    plain: bool = False  # a property only the person's saying makes a rule ("X stays Y")


# boundary
_SCOPE = re.compile(r"\b(out of scope|not in scope|outside (?:the|our|this) scope|beyond (?:the|this) scope|"
                    r"non-goal|not a goal|not part of this (?:story|ticket|task|pr|change|issue|release))\b", re.I)
_SCOPE_NEG = re.compile(r"\b(not|isn't|aren't|no longer|wasn't)\s+(out of scope|outside|beyond)\b", re.I)
_WONT = re.compile(r"\b(won't|will not|are not going to|aren't going to|is not going to|isn't going to|not going to|"
                   r"we don't|we do not|we never|we not)\s+(?:try to\s+|even\s+|bother to\s+)?(handle|support|cover|deal with|"
                   r"accept|process|validate|retry|translate|localize|localise|implement|do|offer|provide|allow)\b",
                   re.I)
_DELIB_NOT = re.compile(r"\b(deliberately|intentionally|on purpose|by design)\s+(?:does\s+)?(not|doesn't|does not|"
                        r"don't|do not|won't|leaves? out|left out|ignores?|skips?|refuses?|rejects?|unsupported)\b|"
                        r"\b(not|doesn't|don't|won't|isn't|aren't)\s+(handled|supported|handle|support)\w*\b.*\b"
                        r"(deliberately|intentionally|on purpose|by design)\b", re.I)
_LEAVE_OUT = re.compile(r"(?:^|\b(?:let's|let us|we'll|we will|i'll|we)\s+)(?:leave\s+(.{2,50}?)\s+(out|for later|"
                        r"for (?:a|another) (?:pr|change|time))|leave\s+out\s+(.{2,50}))\b", re.I)
_REFUSE = re.compile(r"\b(should|must|will|we'll|we)\s+(?:just\s+|simply\s+|always\s+)?(refuse|reject)\b", re.I)

# workaround
_HACK = re.compile(r"\b(hack|workaround|work around|works around|working around|kludge|monkey[- ]?patch\w*)\b", re.I)
_LOOKS = re.compile(r"\b(looks|seems|might look|may look|will look)\s+(wrong|odd|weird|strange|redundant|unnecessary|"
                    r"broken|like a bug|like a mistake|pointless|backwards|inefficient|silly|useless)\b.*\b(but|though|"
                    r"however|so (?:i'll|we'll|i|we) (?:say|explain|comment|document|note))\b", re.I)
# "leave it in even if it looks redundant": odd on purpose, kept
_EVEN_IF_ODD = re.compile(r"\b(?:leave|keep)\s+(?:it|this|that|them|both|the\s+[\w`().]+(?:\s+in\s+[\w`().]+)?)"
                          r"(?:\s+(?:in|there|as is))?,?\s+even\s+(?:if|though)\s+"
                          r"(?:it|this|that|they)\s+(?:looks?|seems?)\b", re.I)
_DONT_FIX = re.compile(r"\b(don't|do not|never)\s+[\"'“]?(fix|remove|simplify|clean up|refactor|optimi[sz]e|dedupe|"
                       r"\"fix\")[\"'”]?\b", re.I)
_DELIBERATE = re.compile(r"\b(on purpose|deliberately|intentionally|by design)\b", re.I)
_NOT_DELIBERATE = re.compile(r"(?:\bnot|n't|\bnever)\s+(?:\w+\s+){0,3}(?:on purpose|deliberately|intentionally|"
                             r"by design)|\b(?:accidentally|by accident|by mistake|unintentionally|unintended)\b", re.I)
_AROUND = re.compile(r"\b(?:because|since|to avoid|to work around|works around|around|for)\s+(.{4,}?)"
                     r"(?=\s*(?:,|;|\s[—–-]\s|\buntil\b|\bonce\b|$))", re.I)
_UNTIL = re.compile(r"\b(?:until|till|once|when)\s+(.{3,90}?\b(?:fix(?:es|ed)?|ships?|lands?|releases?|released|"
                    r"merged?|supports?|upgrades?|upgraded|is (?:fixed|released|merged|upgraded|gone)|are fixed|"
                    r"goes away|stops?\b.*?))(?=[,;]|\.(?:\s|$)|$)", re.I)
_CAN_GO = re.compile(r"\b(?:can|could) (?:be removed|go|be dropped|be deleted|be reverted|"
                     r"(?:drop|remove|delete|revert|lose|rip out) (?:it|this|that|them|the \w+))\s+(?:again\s+)?"
                     r"(?:when|once|after|as soon as)\s+"
                     r"(.{3,90}?)(?=[,;]|\.(?:\s|$)|$)", re.I)

# invariant
_MUST = re.compile(r"\b(must|shall)\s+(?!have\s+(?:been|had|gotten|missed|forgotten|changed|broken|seen|done)\b)"
                   r"(?!be\s+(?:the|a|an|in|from|because|caused|due|related|why|what|that|it|something|somewhere|"
                   r"wrong|missing|broken|coming|failing|somebody|someone|my|your|our|their|a bug)\b)\w+", re.I)
_MODAL_NEVER = re.compile(r"(?<!\bthat )(?<!\bwhich )(?<!\bwho )"  # "a value that may never exist": a description
                          r"\b(should|has to|have to|needs? to|can|may|is to|are to|must)\s+(never|always|not ever)\b"
                          r"(?!\s+(?:happen|occur|be reached|reach|get here|get hit|come up|fail|work)\b)", re.I)
_IMPERATIVE = re.compile(r"^(never|always|don't ever|do not ever|under no circumstances|at no point)\s+"
                         r"(?!mind\b|been\b|seen\b|had\b|knew\b|know\b|again\b|thought\b|said\b|ever\b)\w+", re.I)
_PROPERTY = re.compile(r"\b(is|are|stays?|remains?|must stay|must remain|has to stay|should stay|kept)\s+"
                       r"(append-only|immutable|idempotent|read-only|side-effect[- ]free|pure|thread-safe|reentrant|"
                       r"sorted|unique|non-negative|never negative|always positive)\b", re.I)
_RULE_NAMED = re.compile(r"\b(?:make|made|making|that's|that is|this is|keep|treat)\b[^:]{0,30}\b(?:a |an |the |our )?"
                         r"(?:hard )?(?:rule|invariant|constraint)\b[^:]{0,50}:\s*(?=\S)", re.I)
_RULE = re.compile(r"^(?:the\s+|one\s+|a\s+|new\s+|our\s+)?(invariant|rule|constraint)\b[^:]{0,70}:\s*(?=\S)", re.I)
# where a rule applies: "for the whole billing package", "across the codebase"
_WHOLE = re.compile(r"\b(?:for|in|across|throughout|to)\s+(?:the\s+)?(?:whole|entire|all(?:\s+of)?(?:\s+the)?)\s+"
                    r"(?:(?P<name>[\w.-]+)\s+)?(?P<what>package|module|folder|directory|codebase|code|repo|repository|"
                    r"project|app|service)\b|"
                    # "rule for this codebase", "in this lib money is never float", "never float anywhere in ledgerline"
                    r"\b(?:for|in|across|throughout)\s+(?:this|our)\s+(?P<this>codebase|code base|lib|library|package|"
                    r"project|repo|repository|app|service|core)\b|\b(?:in|across) the (?P<core>core|codebase|library)\b|"
                    r"\b(?:anywhere|everywhere|nowhere)\s+in\s+(?:the\s+|this\s+|our\s+)?(?P<where>[\w.-]+)|"
                    # "a rule for everything in format.ts: …": that file
                    r"\b(?:everything|anything|all(?: the)? code|every \w+)\s+in\s+`?(?P<file>[\w/.-]+\.[a-z]{1,4})\b", re.I)
# "amounts stay integers all the way through", "… remain UTC everywhere": a property held throughout
_THROUGHOUT = re.compile(r"\b(?:stays?|remains?|are kept|is kept)\b.{2,60}?\b(?:all the way through|everywhere|"
                         r"end to end|throughout|at all times|across the board)\b", re.I)
_SELF = re.compile(r"^(?:i|i'll|i've|i'd|i'm|you|you'll|you've)\s+(?:must|should|shall|can|will|have to|need to|"
                   r"always|never)\b", re.I)

# decision
_CHOOSE = (r"(?:decided|decide|chose|choose|choosing|picked|pick|settled on|settle on|going with|go with|went with|"
           r"opting for|opted for|opt for|use|uses|using|used|switch(?:ed|ing)? to|keep|keeps|keeping|store|stores|"
           r"storing|stick with|sticking with|prefer|preferring|represent|represents|implement|model|return|returns|"
           r"returning|raise|raises|make|makes|do|doing|compute|computing|cache|caching|go for|went for|settled|"
           r"decided on|agreed on|move|moving|put|putting|write|writing|parse|parsing|round|rounding)")
# who chooses: a choice verb, a first-person plan ("I'll normalize …", "let's cache …") or an
# imperative (a sentence that starts with its verb)
_CHOOSER = (r"(?:\b" + _CHOOSE + r"\b|\b(?:i'll|we'll|let's|let us|i will|we will|i'm going to|we're going to|"
            r"we are going to|i am going to|we should|should|shall|must|(?:i|we)?\s*(?:decided|chose|opted|agreed) to)"
            r"\s+\w+\b|"
            r"^(?:add|remove|drop|put|move|switch|go|take|pick|treat|leave|let|try|stick|default|fall back|retry|fail|"
            r"skip|ignore|check|validate|reject|accept|send|wrap|split|merge|sort|stream|batch|normali[sz]e|convert|"
            r"throw|log|read|load|call|fetch|compare|hash|sign|lock|queue|clamp|cap|limit|store|keep|use|make|return|"
            r"raise|cache|compute|round|parse|write|model|represent|implement|do)\b)")
# where an option named in a sentence ends: punctuation, a dash, or the reason that follows it
_OPTION_END = r"[,;:]|\.(?:\s|$)|\s[—–-]\s|\bbecause\b|\bsince\b|\bso that\b"
_INSTEAD = re.compile(_CHOOSER + r"(?P<x>.{2,80}?)\s*,?\s+(?:instead of|rather than|in favou?r of)\s+"
                      r"(?P<alt>.{2,70}?)(?=\s*(?:" + _OPTION_END + r"|\bas it\b|\bgiven\b|\bwhich\b|$))", re.I)
# "I'd rather we use Decimal than floats"
_RATHER = re.compile(r"\brather\s+(?:we\s+|you\s+|i\s+)?(?P<x>(?!than\b).{2,80}?)\s+than\s+(?P<alt>.{2,70}?)"
                     r"(?=\s*(?:" + _OPTION_END + r"|$))", re.I)
_INSTEAD_LEAD = re.compile(r"^(?:instead of|rather than)\s+(?P<alt>.{2,60}?),\s*(?P<x>.{4,})$", re.I)
_OVER = re.compile(r"\b(?:chose|choose|picked|pick|prefer|prefers|preferred|went with|go with|going with|opted for|"
                   r"opt for|favou?r)\b(?P<x>.{2,80}?)\s+over\s+(?P<alt>.{2,70}?)"
                   r"(?=\s*(?:" + _OPTION_END + r"|\bas it\b|$))", re.I)
_NOT_ALT = re.compile(_CHOOSER + r"(?P<x>.{2,80}?)\s*(?:,|\s[—–-])\s*(?:and\s+)?not\s+(?P<alt>.{2,60}?)"
                      r"(?=\s*(?:" + _OPTION_END + r"|$))", re.I)
_DECIDED = re.compile(r"\b(decided to|decided on|decided that|the decision is|decision:|let's go with|we'll go with|"
                      r"i'll go with|going with|settled on|we settled|agreed on|we agreed|let's use|we'll use|"
                      r"we will use|let's keep|we'll keep|we keep|let's store|we'll store|we store)\b", re.I)
def _lead_in(message: str, sentence: str) -> str:
    """The sentence with the words just before it in its message (where "remember:" stands)."""
    i = message.find(sentence[:40])
    return message[max(0, i - 80):i] + sentence if i >= 0 else sentence


# a sentence that says what a thing is or must be, not what to do: "an invite token is single use"
_A_PROPERTY = re.compile(r"^(?:an?|the|every|each|all|no|our)?\s*(?:[\w`$.-]+\s+){1,4}(?:is|are|must|never|always|"
                         r"stays?|remains?|can't|cannot|may not|has to|have to)\b", re.I)
_CONCLUSION = re.compile(r"^(?:so|bottom line|in short|in sum|to sum up|the upshot)\s*:\s*(?P<x>.{8,})$", re.I)
_PROPOSE = re.compile(r"^(?:i'd|i would|i recommend|i suggest|i propose|my (?:suggestion|recommendation|proposal) "
                      r"(?:is|would be)|i'd recommend|i'd suggest|we could|we can)\b", re.I)
_CONSIDERED = re.compile(r"\b(?:considered|looked at|thought about|tried|ruled out|rejected|dropped|discuss(?:ed)?|"
                         r"talked about|weighed)\s+(?P<alt>.{2,100}?)"
                         r",?\s+(?:but|however|though)\s+(?P<why>.{4,})$", re.I)
_WOULD = re.compile(r"^(?P<alt>.{2,60}?)\s+(?:would|will|wouldn't|won't|would have|is|was)\s+(?P<why>(?:be\s+)?"
                    r"(?:too|not|slower|harder|more|less|overkill|unable|lose|break|add|require|need|mean|cost|drift|"
                    r"round|fail|leak|block|the middle ground|a compromise|the safer|the simpler)\b.{2,})$", re.I)
_NEXT_REASON = re.compile(r"^(?:because|since|that way|this way|otherwise|the reason|it keeps|this keeps|that keeps|"
                          r"that avoids|this avoids|it avoids|that's because|this is because)\b", re.I)
_ASSENT = re.compile(r"^\s*(?:yes|yep|yeah|ok|okay|k|sure|sounds good|go ahead|do it|agreed|let's do (?:that|it)|"
                     r"perfect|lgtm|makes sense|go for it|great|please do|fine|works for me|ship it|👍)(?!\w)", re.I)
_ASSENT_NOT = re.compile(r"\b(but|instead|rather|no,|not\b|don't|wait)", re.I)


# a rule that says of nothing what must be: "This must not happen, never", "This must work too"
_VAGUE = re.compile(r"^(?:this|that|it)\s+(?:must|should|has to|needs to|can'?t|cannot)\s+(?:not\s+|never\s+)?"
                    r"(?:happen|work|be (?:so|fixed|done|the case|possible))\b[^.]{0,20}$", re.I)
_PRONOUN_END = re.compile(r"^\w+\s+(?:it|this|that|them|things)$|^(?:it|this|that|them)$", re.I)
_LIKE_AGREED = re.compile(r"(?:^|,\s*(?:so\s+)?|\bso\s+)(?P<x>[^,;:]{3,60}?),?\s+(?:like|as)\s+(?:we|you and i|the team)"
                          r"\s+(?:agreed|decided|settled)\b", re.I)
_AGREED_REF = re.compile(r"\b(?:what|as)\s+(?:we|you and i|the team)\s+(?:agreed|decided|discussed|settled)", re.I)


def _alt(text: str) -> str:
    t = re.sub(r"^(?:the|a|an|using|to use|use)\s+", "", text.strip(" ,.`'\""), flags=re.I)
    return t.strip(" ,.")


# every rule needs one of these words: a sentence without any is not read further
_TRIGGER = re.compile(r"^so:|must|never|always|shall|scope|goal|stays?\b|remains?\b|kept\b|won't|will not|going to|"
                      r"don't|do not|doesn't|does not|"
                      r"deliberate|intentional|on purpose|by design|leave|refuse|reject|hack|work.?around|kludge|"
                      r"monkey|looks|seems|instead|rather|favou?r|\bover\b|\bnot\b|decid|decision|chose|choose|"
                      r"picked|settled|agreed|go with|going with|prefer|append-only|immutable|idempotent|read-only|"
                      r"pure|thread-safe|reentrant|sorted|unique|negative|positive|invariant|rule|constraint|"
                      r"let's|we'll|i'd|i would|i recommend|i suggest|i propose|we could|we can|considered|"
                      r"ruled out|should|has to|have to|needs? to|\bcap(?:ped|s)?\b|\bclamp|\bmax\b|maximum|at most|"
                      r"no more than|keep (?:only )?(?:the )?(?:last|latest|newest|first) \d", re.I)


# words that lead up to what is said after a colon (not a list: that has its own line)
_LEAD_IN = re.compile(r"^(?:[^:`\n]|`[^`\n]{1,40}`){3,120}?:\s+(?=\S.{10,})")


# "and before you ask — not adding a redis store here": said ahead of a question, not how to work
_AHEAD = re.compile(r"^(?:and\s+|also\s+)?(?:before you ask|to be clear|just so we're clear)\s*[—–,:-]+\s*", re.I)


def classify(s: str, nxt: str = "", person: bool = False) -> Hit | None:
    """The rule that reads this sentence, if one does (``nxt``: the sentence after it;
    ``person``: the person said it, so plainer statements count — "amounts stay integers",
    "leave that sleep alone": the agent saying so is explaining, the person is ruling)."""
    s = _AHEAD.sub("", s)
    if not _TRIGGER.search(s) and not (person and _PERSON_TRIGGER.search(s)):
        return None
    lead = _LEAD_IN.match(s)
    if lead and not _RULE.match(_DISCOURSE.sub("", s)) and not _RULE_NAMED.search(s):
        # "reminder because it matters here: amounts are integer minor units": what follows the colon
        rest = s[lead.end():]
        hit = _read(rest, nxt, person)
        if hit is not None:  # "For sitemaps: not in this release.": too short to say what it is about alone
            return hit if len(rest.split()) >= 6 else replace(hit, title=title_of(s))
        if person and (_REMINDER.search(lead.group(0)) and _A_PROPERTY.match(rest) or
                       re.search(r"\b(?:rule|invariant)\b", lead.group(0), re.I)) and not skipped(rest):
            # "reminder: amounts are integer minor units", "this doesn't change the rule: it still fails
            # closed": a rule said before, said again
            return Hit("invariant", title_of(main_clause(rest)), 0.65, rationale=reason_of(rest), plain=True)
    return _read(s, nxt, person)


# "please make it so that X", "make sure that X": X is what is asked for, not a reason
_ASK_THAT = re.compile(r"^(?:(?:so|and|also)\s+)?(?:please\s+|pls\s+)?(?:make (?:it so|sure|certain)|ensure|see to it)"
                       r"\s+(?:that\s+)?(?=\S.{10,})", re.I)


_EVERY = re.compile(r"\b(?:every|always|never|only|nothing|no \w+ ever|all (?:of )?(?:the )?\w+s)\b(?!\s+(?:tests?|specs?)\b)",
                    re.I)


def _read(s: str, nxt: str, person: bool) -> Hit | None:
    asked = _ASK_THAT.match(s) if person else None
    if asked:
        s = s[asked.end():]
    if _PROPOSE.match(_DISCOURSE.sub("", s)) and not s.rstrip().endswith("?") and not person:
        hit = _decision(s, nxt, proposal=True)
        if hit is not None:
            return hit
    if skipped(s):
        return None
    main = main_clause(s)
    for rule in (_boundary, _strong_workaround, _invariant):
        hit = rule(s, main)
        if hit is not None:
            if hit.kind == "workaround" and not hit.remove_when and _until(nxt):  # "… we can drop it once X ships"
                hit = replace(hit, remove_when=_until(nxt))
            return hit
    if person:
        hit = _person_rule(s, main, nxt)
        if hit is not None:
            return hit
        if asked and _EVERY.search(s) and not _TEST_PATH.search(s):  # "make it so that every rule gives back only a
            # key, and the text comes always from the catalog": what must hold from now on
            return Hit("invariant", title_of(main), 0.65, rationale=reason_of(s), plain=True)
    if not _TOOLING.search(main) and not _UNDECIDED.search(main) and not _NARRATION.match(_DISCOURSE.sub("", s)):
        hit = _decision(s, nxt)
        if hit is not None:
            return hit
    return _weak_workaround(s, main)


# said by the person, these rule: a property held ("amounts stay integers", "dates are UTC all the
# way through", "only admins may …"), a limit ("don't bother with X", "we only sell in EUR"), code
# kept as it is for a reason ("leave that sleep alone, …", "… it can go when …")
_HOLDS = re.compile(r"\b(?:stays?|remains?|is|are|is kept|are kept)\s+(?:always\s+|never\s+|only\s+)?(?!here\b|there\b|"
                    r"open\b|the same\b|done\b|fine\b|ok\b|okay\b|good\b|broken\b|slow\b|wrong\b|it\b|this\b|that\b)"
                    r"\S.{1,60}?\b(?:all the way(?: through| down)?|everywhere|end to end|throughout|at all times|"
                    r"across the board|in every \w+|no matter what|for the (?:whole )?life(?:time)? of the \w+)\b|"
                    r",?\s*(?:full stop|period|no exceptions|that's final)\b|"
                    r"\b(?:is|are)\s+(?:[\w`$.-]+\s+){1,3}only\b|,\s*never\s+(?:an?\s+)?\w+|\bwe never\s+\w+|"
                    r"(?<!\bit )(?<!\bthis )(?<!\bthat )(?<!\bthere )\b(?:is|are)\s+never\s+(?!been\b|going\b|reached\b|"
                    r"called\b|used\b|hit\b|run\b|set\b|read\b|seen\b)\w+|"  # "money is never float"
                    r"(?:^|\s[—–-]\s|,\s)(?:an?\s+|the\s+|every\s+|each\s+|no\s+|our\s+)?"
                    r"(?!(?:i|you|we|they|it|he|she|this|that|there)\b)(?:[\w`$.-]+\s+){1,3}(?:never|always)\s+"
                    r"(?!been\b|going\b|had\b|got\b)\w+|"
                    r"^(?:nothing|no \w+)\b.{3,60}\b(?:ever|never)\b|\band (?:nowhere|nothing|no ?one) else\b|"
                    r"^nothing (?:\w+ ){0,6}(?:gets?|goes|reaches|passes|is) (?:\w+ed|into|through|past|to)\b|"  # "nothing a
                    # caller hands us gets spliced into the SQL string"
                    r"\b(?:nothing|no ?one|nobody)\s+(?:can|may|must|should)\s+(?:be\s+|ever\s+)?\w+|"  # "nothing can be
                    # posted into a closed period any more"
                    r"^no [\w`.-]+(?:\s[\w`.-]+)?,\s+(?:same rule|ever|never|not even)\b|"
                    r"^no [\w`.-]+\b.{0,60}?\b(?:at all|in anything|anywhere|in the core)\b|"  # "no dom in the render code
                    # at all"; "NOTHING in the core passes colors around as hex strings"
                    r"^(?:nothing|no code|no module|none of the \w+) (?:in|of) (?:the|our|this) \w+ (?!is\b|was\b)\w+|"
                    r"\b(?:don't|do not|never) ever\s+\w+|\bwe (?:don'?t|do not) \w+\b.{0,60},\s*ever\b|"  # "we don't
                    # delete or overwrite rows in that store, ever"
                    r"\b(?:stays?|remains?)\s+(?:an?\s+)?(?:integers?|ints?|strings?|bytes|utc|lower-?case|upper-?case|"
                    r"private|internal|immutable|read-only|sorted|unique|positive|non-negative|decimals?|ascii|utf-?8|"
                    r"in (?:minor units|cents|utc|memory))\b|"
                    r"\b(?:only|nothing but|no one but|nobody but)\s+[\w`.()]+(?:\s+\w+)?\s+(?:may|is allowed to|gets? to|"
                    r"can)\s+\w+|\bonly ever\s+\w+", re.I)
_LIMIT = re.compile(r"\b(?:don't|do not|no need to)\s+bother\b|"
                    r"\b(?:no need to|(?:we |you )?(?:don'?t|do not) need to) (?:handle|support|deal with|worry about)\b|"
                    r"\bnot something (?:we|i)(?:'ll| will| want to)?\s+(?:handle|support|do)\b|"
                    r"\bwe (?:only|just) (?:support|sell|handle|accept|ship|run|target|deal with)\b|\bwe only \w+|"
                    r"\b(?:stays?|remains?) out\b|^no \w+(?:\s\w+){0,3} (?:here|for now|in v\d|yet)\b|"
                    r"^(?:just|only)\s+.{3,80}?\b(?:for now|in v\d|until)\b|"  # "only comma csv … for now"
                    r"\bnot in this (?:release|version|pr|change|iteration)\b|"  # "For sitemaps: not in this release"
                    r"^(?:and\s+)?[\w -]{2,40}? only (?:for now|in v\d|until)\b|"  # "And inner joins only for now"
                    r"\bnot doing (?:that|this|it) (?:here|now|yet|for now)\b|"  # "no health checks …, not doing that here"
                    r"\bnot (?:adding|building|supporting|handling|touching|doing) [^,.;]{2,40}? (?:here|now|yet|for now|"
                    r"in this (?:pr|change|release))\b|"  # "not adding a redis store here, that lives in infra"
                    r"\bwe \w+ it but (?:cap|clamp|limit)(?:ped|s|ed)?\s+(?:it\s+|them\s+)?(?:at|to)\s+\d|"
                    r"^(?:(?:but|and)\s+)?(?:cap|clamp|limit)\s+(?:it\s+|them\s+|the\s+[\w-]+\s+)?(?:at|to)\s+"
                    r"(?:\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty|fifty)\b)",
                    re.I)  # "… we honour
# it but cap it at 30 seconds": said by the person (the agent capping a value is part of its fix)
_KEEP_AS_IS = re.compile(r"\b(?:leave|keep)\s+(?!(?:the rest|everything|it|all|them|the others?|other)\b)"
                         r"(?:the\s+|that\s+|this\s+|those\s+|these\s+)?(?:[\w`.()-]+\s+){0,4}?"
                         r"(?:alone|as is|as it is|in place|where it is|in there)\b", re.I)
# "parseConfig has to throw on unknown keys", "a refund may not exceed the charge": what the code is
# obliged to do (not what someone has to do: "I have to go", "we need to fix this")
_OBLIGED = re.compile(r"\b(?:has to|have to|needs to|need to|may not|must not|mustn't|is not allowed to|"
                      r"isn't allowed to|are not allowed to|aren't allowed to)\s+(?!be (?:fixed|done|changed|updated|"
                      r"looked at|removed|refactored|sure|careful)\b|see|find|tell|reproduce|remember|figure|get|"
                      r"seem|think|wait|believe|say|do (?:it|this|that)\b)\w+", re.I)
_SELF_OBLIGED = re.compile(r"^(?:i|you|we|i'm|you're|we're|i've|we've|let's|it|this|that|there)\b", re.I)
_FOR_NOW = re.compile(r"\b(?:for (?:now|today|the moment)|tomorrow|later)\b", re.I)
# how things are now, not how they must be: "the exports are CSV only right now"
_STATE = re.compile(r"\b(?:right now|currently|at the moment|today|yesterday|again|lately|sometimes|usually|"
                    r"for some reason|somehow)\b", re.I)
_PERSON_TRIGGER = re.compile(r"^no\b|\bnothing\b|\bnot doing\b|\bnot in this\b|"
                             r"\b(?:nothing|no ?one|nobody)\s+(?:can|may|must|should)\b|"
                             r"\bwhat (?:i|we) (?:really )?(?:want|need|'d like|would like)\b|"
                             r"\b(?:stays?|remains?|always|only|bother|alone|as is|in place|can go|until|"
                             r"has to|have to|"
                             r"needs? to|may not|mustn't|allowed|full stop|period|no exceptions|final|ever|else|out|never|rule|"
                             r"reminder|remember)\b", re.I)


# "What I want is per-host queues: …": the person's choice, said as a want
# what the person wants, and what not: "I want it to raise, not clamp", "I would like that we X, and not Y"
_WISH_NOT = re.compile(r"^(?:i|we)\s+(?:would like|'d like|want)\s+(?:that\s+)?(?:we\s+|it\s+to\s+|you\s+to\s+|to\s+)?"
                       r"(?P<x>[^,;]{4,80}?),?\s+(?:and\s+)?not\s+(?:to\s+)?(?P<alt>[^,.;!?]{3,60})", re.I)
_WANT = re.compile(r"^(?:so\s+|instead\s*,?\s+)?what (?:i|we) (?:really )?(?:want|need|'d like|would like) (?:is|are)\s+"
                   r"(?P<x>.{4,})", re.I)


# what must not be anywhere in a part of the code: "no timers in the store", "nothing in this package sorts …"
_NONE_IN = re.compile(r"^(?:and\s+)?no\s+[\w-]+(?:\s+[\w-]+)?\s+(?:in|inside|within)\s+(?:the|this|our|any)\s+[\w`.-]+\s*[.!]?$|"
                      r"\bnothing\s+(?:in|inside)\s+(?:this|the|our)\s+(?:package|lib(?:rary)?|codebase|module|repo(?:sitory)?|"
                      r"code|core|app)\s+\w+", re.I)


def _person_rule(s: str, main: str, nxt: str) -> Hit | None:
    wish = _WISH_NOT.match(_DISCOURSE.sub("", s))
    if wish:  # "I would like that we normalise the range like Excel does it, and not raise an error"
        return Hit("decision", title_of(wish.group("x")), 0.7, rationale=reason_of(s),
                   alternatives=(Alternative(_alt(wish.group("alt")), ""),))
    want = _WANT.match(_DISCOURSE.sub("", s))
    if want:
        return Hit("decision", title_of(want.group("x")), 0.7, rationale=reason_of(s))
    if _LIMIT.search(s) and not re.match(r"^(?:when|whenever|once)\b", s, re.I):  # "When a fetch follows a
        # redirect, we only mark the original URL as seen, so …": how it behaves, told with the bug
        so = re.search(r",\s*so\s+(?!that\b)(?P<y>.{12,})$", s, re.I)
        if so and len(main.split()) >= 4:  # "the finance folks only send generated invoices, so whatever happens
            # with scanned PDFs is fine": the premise is why; what follows "so" is the limit
            return Hit("boundary", title_of(main_clause(so.group("y"))), 0.65,
                       rationale=re.sub(r"^(?:honestly|frankly|well|tbh)\W+", "", main.strip(" ,"), flags=re.I))
        return Hit("boundary", title_of(main if len(main.split()) >= 4 else s), 0.65, rationale=reason_of(s))
    keep = _KEEP_AS_IS.search(s)
    if keep and not _FOR_NOW.search(s):  # "leave that sleep alone, the sandbox rate-limits us. It can go when …"
        why = reason_of(s) or s[keep.end():].strip(" ,.")
        if len(why.split()) >= 3 or _until(s) or _until(nxt):
            return Hit("workaround", title_of(s[:keep.end()]), 0.7, rationale=why, works_around=why,
                       remove_when=_until(s) or _until(nxt))
    if _NONE_IN.search(s) and not _STATE.search(s):  # "no timers in the store.", "nothing in this package sorts"
        return Hit("invariant", title_of(main_clause(s[_NONE_IN.search(s).start():]) if _NONE_IN.search(s).start()
                                         else main), 0.65, rationale=reason_of(s), plain=True)
    if _STATE.search(s):
        return None
    if _HOLDS.search(main) or (_OBLIGED.search(main) and not _SELF_OBLIGED.match(_DISCOURSE.sub("", _NO.sub("", s)))):
        return Hit("invariant", title_of(main), 0.65, rationale=reason_of(s), plain=True)
    for clause in re.split(r"\s[—–]\s|\s-\s|;\s+", s)[1:]:  # "the guid thing still stands — guids never change"
        if (_HOLDS.search(clause) or _HOLDS.search(f" — {clause}")) and not _STATE.search(clause):
            return Hit("invariant", title_of(main_clause(clause)), 0.6, rationale=reason_of(clause), plain=True)
    return None


_MAX = re.compile(r"^(?:(?:but|and|so|ok)\s+)?(?:max(?:imum)?|at most|no more than|up to|never more than)\s+"
                  r"(?:[a-z]+\s+){0,2}?(?:\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty|"
                  r"fifty)\s+(?:seconds?|minutes?|hours?|days?|weeks?|points?|items?|entries|retries|attempts|times)\b)|"
                  r"\bkeep (?:only )?(?:the )?(?:last|latest|newest|first) \d+\b", re.I)  # "keep the last 50 steps"


def _boundary(s: str, main: str) -> Hit | None:
    if _MAX.search(_DISCOURSE.sub("", s)):  # "but max 5 days back, if older … it must fail loud": a limit
        return Hit("boundary", title_of(s), 0.7, rationale=reason_of(s))
    if _SCOPE.search(s) and not _SCOPE_NEG.search(s):
        return Hit("boundary", title_of(s), 0.75)
    if _DELIB_NOT.search(s):
        return Hit("boundary", title_of(s), 0.75)
    m = _WONT.search(main)
    if m:
        return Hit("boundary", title_of(s), 0.7)
    if _LEAVE_OUT.search(main):
        return Hit("boundary", title_of(s), 0.6)
    if _REFUSE.search(main):
        return Hit("boundary", title_of(s), 0.6)
    return None


def _until(s: str) -> str:
    m = _CAN_GO.search(s) or _UNTIL.search(s)
    return m.group(1).strip() if m else ""


def _around(s: str) -> str:
    m = _AROUND.search(s)
    return m.group(1).strip().rstrip(".") if m else ""


_PAST_HACK = re.compile(r"\b(?:was|were|used to be)\s+(?:a |an |just a |our )?(?:\w+\s)?(?:hack|workaround|kludge)|"
                        r"\bleft ?over\b|\b(?:remov\w*|drop\w*|delet\w*|get rid of|clean\w* up)\s+(?:the |this |that |"
                        r"an? |old )?(?:old )?(?:hack|workaround|kludge)|\bno longer need|"
                        r"\b(?:was|were) (?:done |made |written |added )?(?:on purpose|deliberately|intentionally)\b.*\bbut\b",
                        re.I)  # "It was done on purpose so a typo wouldn't crash a send, but it fails silently"
_SAID_DELIBERATE = re.compile(r"^(?:but\s+|though\s+)?(?:it\s+|this\s+|that\s+)?(?:is|'s)\s+(?:deliberate|"
                              r"intentional|on purpose)\s*[:,;—–-]?\s*", re.I)
_GENERIC = re.compile(r"^(?:this|that|it)(?: is|'s| was) (?:a |an |just a |our )?(?:\w+ )?(?:hack|workaround|kludge)\b",
                      re.I)


def _strong_workaround(s: str, main: str) -> Hit | None:
    if _NOT_DELIBERATE.search(s):
        return None
    looks = _LOOKS.search(s)
    if _PAST_HACK.search(s):
        return None
    if _HACK.search(s) or looks or _DONT_FIX.search(s) or _EVEN_IF_ODD.search(s):
        why = _around(s) or (s[looks.end():].strip(" ,.") if looks else "") or \
            (reason_of(s) if _EVEN_IF_ODD.search(s) else "")  # "keep X even if it looks redundant — textwire pads …"
        why = _SAID_DELIBERATE.sub("", why)  # "… but is deliberate: rounding first would lose …": the why
        conf = 0.75 if (reason_of(s) or why) else 0.6
        head = _DISCOURSE.sub("", main)
        if _GENERIC.match(head) and why:
            title = f"Workaround: {why}"
        elif looks:
            title = title_of(s[:looks.start(3)]) + ", but is deliberate"
        else:
            title = title_of(main if len(main.split()) >= 4 else s)
        return Hit("workaround", title, conf, works_around=why, remove_when=_until(s))
    return None


def _weak_workaround(s: str, main: str) -> Hit | None:
    if not _DELIBERATE.search(s) or _NOT_DELIBERATE.search(s) or _TOOLING.search(s):
        return None
    why = reason_of(s) or _around(s)
    return Hit("workaround", title_of(main if len(main.split()) >= 4 else s), 0.7 if why else 0.6,
               works_around=why, remove_when=_until(s))


def _invariant(s: str, main: str) -> Hit | None:
    body = _DISCOURSE.sub("", s)
    if _SELF.match(body):
        return None
    rule = _RULE.match(body)
    if rule:  # "Rule for this codebase, please keep it in mind: anything we use as …": what the rule says
        said = body[rule.end():] if len(body[rule.end():].split()) >= 3 else s
        return Hit("invariant", title_of(said), 0.8, rationale=reason_of(said))
    named = _RULE_NAMED.search(body)
    if named:  # "make that a rule, not just this function: nothing scraped goes to slack unescaped"
        return Hit("invariant", title_of(body[named.end():]), 0.8, rationale=reason_of(body[named.end():]))
    if _MODAL_NEVER.search(main) or _IMPERATIVE.match(body) or _MUST.search(main):
        return Hit("invariant", title_of(main if len(main.split()) >= 4 else s), 0.7, rationale=reason_of(s))
    if _PROPERTY.search(main) or _THROUGHOUT.search(main):
        return Hit("invariant", title_of(main), 0.6, rationale=reason_of(s))
    for clause in re.split(r";\s+", s)[1:]:  # "X stays Y; Z must fail loudly": a rule in a later clause
        if _MUST.search(main_clause(clause)) or _MODAL_NEVER.search(main_clause(clause)):
            return Hit("invariant", title_of(main_clause(clause)), 0.65, rationale=reason_of(clause))
    return None


_PURPOSE = re.compile(r"\bso(?: that)? (?:people|users?|you|we|they|callers?|customers?|it|one) (?:can|could|don't|won't|"
                      r"do not|will|may)\b", re.I)


def _decision(s: str, nxt: str, proposal: bool = False) -> Hit | None:
    body = _DISCOURSE.sub("", s)
    if proposal:
        body = _PROPOSE.sub("", body).strip()
    why = reason_of(s)
    if not why and nxt and _NEXT_REASON.match(nxt):
        why = re.sub(r"^(?:because|since|that's because|this is because)\s+", "", nxt.rstrip(".!"), flags=re.I)
    for clause in re.split(r";\s+", body):  # "X does this; Y is A rather than B": the clause with the choice
        for rx in (_INSTEAD, _OVER, _NOT_ALT, _RATHER):
            m = rx.search(clause)
            if m:
                alt = _alt(m.group("alt"))
                quoted = clause[:m.start("alt")].count("`") % 2
                if not alt or len(alt.split()) > 8 or _PRONOUN_END.search(alt) or quoted or \
                        _PURPOSE.search(clause[:m.start("alt")]):
                    continue  # "rather than patch it" names no option; "`… EUR only, not GBP`" is quoted text;
                    # "add X so people can write Y instead of Z": what the feature is for, not a choice
                lead = re.split(r",\s+(?:and|but|so)\s+", clause[:m.start("x")])[-1] if rx is not _RATHER else ""
                title = title_of(lead + m.group("x"), choice=True)  # the clause with the choice, not the story before
                if len(title.split()) < 2:
                    continue
                return Hit("decision", title, 0.8 if why else 0.7, rationale=why,
                           alternatives=(Alternative(alt, why),), proposal=proposal)
    m = _INSTEAD_LEAD.match(body)
    if m:
        alt = _alt(m.group("alt"))
        return Hit("decision", title_of(main_clause(m.group("x")), choice=True), 0.8 if why else 0.7, rationale=why,
                   alternatives=(Alternative(alt, why),), proposal=proposal)
    if proposal:
        return None
    m = _LIKE_AGREED.search(body)  # "… so exit 2 like we agreed": the choice made before, said again
    if m:
        title = title_of(m.group("x"), choice=True)
        named = len(title.split()) >= 2 and not _PRONOUN_END.search(m.group("x").strip())  # not "do it like we agreed"
        return Hit("decision", title, 0.6, rationale=why) if named else None
    m = _CONCLUSION.match(s.strip())  # "So: UTC instants inside, local time only at the edges."
    if m:
        kind = "invariant" if _A_PROPERTY.match(m.group("x")) else "decision"  # "so: an invite token is single use"
        title = title_of(m.group("x"), choice=kind == "decision")
        return Hit(kind, title, 0.65, rationale=why) if len(title.split()) >= 3 else None
    m = _DECIDED.search(main_clause(body))
    if m and _SOMEONE_ELSE.search(main_clause(body)[:m.start()]):
        return None  # "last year someone decided to …": a story, not the choice made here
    if m and _AGREED_REF.search(main_clause(body)):
        said = re.split(r"\s+[—–-]\s+|:\s+", body, maxsplit=1)
        if len(said) < 2:
            return None  # a reference to a decision made elsewhere, not the decision
        title = title_of(re.split(r"\s+[—–-]\s+", said[1])[0], choice=True)
        return Hit("decision", title, 0.65, rationale=why) if len(title.split()) >= 3 else None
    if m:
        title = title_of(main_clause(body), choice=True)
        if len(title.split()) >= 3:
            return Hit("decision", title, 0.65 if why else 0.55, rationale=why)
    return None


# who decided, when it was not "we"/"I": another person, or a time long gone
_SOMEONE_ELSE = re.compile(r"\b(?:someone|somebody|they|he|she|the (?:previous|old|original|last) \w+|"
                           r"last (?:year|month)|"
                           r"years? ago|back then|originally|at some point|once)\b", re.I)


def _rejected_reasons(sents: list[str], hit: Hit) -> Hit:
    """Give each rejected option its own reason when the message states one ("I considered
    Y, but …", "Y would …"); add options considered and turned down the same way."""
    alts = list(hit.alternatives)
    for s in sents:
        m = _CONSIDERED.search(s) or _WOULD.match(_DISCOURSE.sub("", s))
        if not m:
            continue
        opt, why = _alt(re.sub(r"\s*\([^)]*$", "", m.group("alt").split(",")[0])), m.group("why").strip().rstrip(".!")
        opt = re.sub(r"\s+instead$", "", opt)
        if not opt or len(opt.split()) > 10:
            continue
        key = _words(opt)
        for i, a in enumerate(alts):
            if key & _words(a.option):
                alts[i] = Alternative(a.option, why)
                break
        else:  # an option named as turned down: "I considered X, but …", "X is the middle ground …; I'd go with Y"
            if _CONSIDERED.search(s) or _GO_WITH.search(s) and _words(opt) - _words(hit.title):
                alts.append(Alternative(opt, why))
    hit.alternatives = tuple(alts)
    return hit


def _words(s: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", s.lower()) if len(w) > 2 and w not in ("the", "and", "use")}
_IDENT = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]{2,}(?![a-z])|[A-Za-z][a-z0-9]*|[0-9]+")  # ROUND_HALF_EVEN, HTTPServer
_COMMON = frozenset("""the and for with this that from into will was are not but you your our its has have had all
any can one two use used using self return def class new let var const none true false null import string
number value values""".split())


def _content(text: str) -> set[str]:
    """Words of prose or code (identifiers split at ``_`` and case changes), lower-cased,
    plural -s dropped, without the most common ones."""
    out = set()
    for w in _IDENT.findall(text):
        w = w.lower()
        if len(w) < 3 or w in _COMMON:
            continue
        out.add(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    return out


def _around_sentence(message: str, sentence: str) -> str:
    """A sentence of a message with what follows it, up to 400 characters (a diagnosis
    goes on: "There it is: … PyYAML implements YAML 1.1, where …")."""
    text = " ".join(_EMPH.sub("", _FENCE.sub(" ", message)).split())
    at = text.find(" ".join(_EMPH.sub("", sentence).split())[:60]) if sentence else 0
    return (text[at:] if at >= 0 else sentence)[:400]


def _tokens(text: str) -> set[str]:
    """Words and numbers that can name a proposal ("78" for "exit 78 for config errors")."""
    return {w for w in re.findall(r"[a-z0-9_]+", text.lower()) if w.isdigit() or (len(w) > 3 and w not in _COMMON)}


def _stems(text: str) -> set[str]:
    return {w[:5] for w in _content(text)}


def _choice_title(text: str) -> str:
    text = text.rstrip(" ?")  # an option offered as a question: "… or reject it with a 400?"
    t = title_of(text, choice=True)
    return t if len(t.split()) >= 2 else title_of(text)
_GO_WITH = re.compile(r"\b(?:i'd|i would|i'll|i will|we'd|we'll)\s+(?:go with|go for|pick|choose|take|recommend|suggest|"
                      r"prefer)\s+(?P<x>[^.!?]{1,80})", re.I)


# a statement against a proposal that rules beyond it: "no dom, no window in anything that renders"
_ANYWHERE = re.compile(r"\b(?:at all|anything|anywhere|everywhere|in any \w+|never|always|ever|only ever|nothing|"
                       r"for the (?:whole )?life(?:time)? of)\b", re.I)
# a rule that holds beyond the choice it came with ("amounts stay integers all the way through")
_UNIVERSAL = re.compile(r"\b(?:never|always|every|everywhere|anywhere|any|all|nothing|no \w+ ever|end to end|throughout|"
                        r"all the way|no matter)\b", re.I)
