"""The rule-based extractor: deterministic, no model, every rule written down here.

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
| gotcha | a failed command (its error text), then an edit, then the same command succeeding — with the agent's explanation ("fails because…", "the problem is…") as the title when it gave one, else its first sentence on the code it then fixed as evidence; not a test the session's own change broke and it then updated, nor a failure that neither names the code then edited nor is talked about in its words |
| gotcha | the person reports a bug with what they saw pasted in (a traceback, an error, a query's output) — or tells it in words ("cli never exits now", "the axis is empty") and the agent names a cause ("That's the sweep timer: …") — the agent diagnoses it (after reproducing it, maybe) before editing, then fixes it in the same turn: its diagnosis is the title, all of it the evidence, every fix of the turn the code |
| workaround | a comment the agent wrote with its code that says why the code is odd ("// Workaround for …", "# deliberately …"): on what the edit touched, or more evidence for what the chat proposed on that code |

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

Who said it matters more than the words. What the agent says alone is a candidate only as a
plan it then carries out — a choice with the option it turns down and a reason, or a limit,
said before it edits code in the same turn — or as why code it touches is odd on purpose (a
workaround); or when the person's next message accepts it. Its explanations, summaries after
an edit and musings are not notes.

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

A person's rules under a heading ("## Rules for the crypto layer", "## Rule") are read an item
or a paragraph at a time, each tied to the code it names; an item led by "Out of scope." is a
limit. Someone else at the keyboard ("lead here: raise.") answers like the person.

The reason is the clause after "because", "since", "so that", "given that" or a dash, or
a next sentence that starts "That way…", "Otherwise…", "The reason…". A rejected option's
own reason comes from "I considered Y, but …" / "Y would …" in the same message.
Workarounds take "until … ships/is fixed" or "can go when …" as the time they can go.

Anchors: the symbols the edits of the same turn touched after the statement (the turn a
prompt starts; the next one when the person's next message accepts the agent's plan), the
likeliest first and at most three — or the touched symbols the sentence names, when it names
some (also in prose: "token bucket"; a method of a touched class: "`reserve()`"), with a
definition of an edited file the person named (by its name, a call or in backticks, in the last
few turns); code before tests, and a name found in a test stands for the same name in the code
(a test's own name is no anchor when code changed). Code edited in other turns counts only
when the statement's turn edited none. An edit touching more than three definitions anchors
its file. A person's statement with no edit in its turn is anchored on the next turn's edits
(or the first turn with edits after a few questions and answers); with none, it is dropped
unless it is a hard rule ("… must never …") in a session that changed no code, which is about
the repository (pattern ``**``) and loses confidence; said by the agent, it is dropped. A rule
for every function of a file ("every rule gives back only a key") is about the file. A rule "for the whole X package" is about that folder (``src/x/**/*.py``); "in this lib",
"for this codebase", "anywhere in ledgerline" about the package the session worked in; "everything
in format.ts" about that file. An error class the session declared is not what a statement is
about when the code raising it changed too; a doc comment above a definition is part of it. A gotcha
anchors on the edit that fixed it. A person recalling an earlier decision ("remember we …",
"reminder: …") marks the proposal ``recalls``: the queue joins it to that decision. A choice
the person states and then settles among the agent's options, on the same code, is one
decision.

Confidence: a base per rule (0.55–0.8), more when a reason is given or the person said it,
less without code; candidates under 0.5 are not proposed.

Leads (:func:`leads`): where the session may have settled something that no proposal quotes —
the person answering options, turning the agent down, accepting a plan in a word or saying
something with a rule's words before code changed; the agent calling code it changed
deliberate. They are not candidates: the request at Stop asks the session's own agent what was
settled there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..core.notes import Alternative
from .candidates import TEST_PATH as _TEST_PATH
from .candidates import Evidence
from .session import GLOB_ALL, MAX_SYMBOLS, Call, Lead, Proposal, Session, Utterance
from .transcript import ASSISTANT, TOOL, USER

# -- sentences -----------------------------------------------------------------------------------

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


# -- filters -------------------------------------------------------------------------------------------

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
                        r"unclear|later decide|decide later|let me think|i'll think|think about it|not sure yet)\b",
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


# -- cleaning a title ----------------------------------------------------------------------------------

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
    t = t.strip(" ,;:")
    if len(t) > 110:
        cut = t.rfind(" ", 0, 100)
        t = t[:cut if cut > 40 else 100] + "…"
    if re.match(r"^\w*(?:_|[a-z][A-Z])", t):
        return t  # starts with a name from the code (`to_cents`, `parseLocal`): as written
    return t[:1].upper() + t[1:] if t else t


# -- the rules ------------------------------------------------------------------------------------------

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
_EVEN_IF_ODD = re.compile(r"\b(?:leave|keep)\s+(?:it|this|that|them|both)(?:\s+(?:in|there|as is))?,?\s+even\s+(?:if|though)\s+"
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
_CAN_GO = re.compile(r"\b(?:can|could) (?:be removed|go|be dropped|be deleted|be reverted)\s+(?:when|once|after)\s+"
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
# the person recalls a decision made before ("remember we …", "what we agreed last week — …")
_REMINDER = re.compile(r"\b(?:remember|reminder|keep in mind|still (?:stands|holds|applies)|"
                       r"(?:as|like) (?:we|i) (?:said|agreed|decided|discussed|settled)|"
                       r"what we (?:agreed|decided|discussed)|from last (?:week|time)|like last (?:week|time)|as before|"
                       r"the \w+ (?:thing|fix|rule) (?:from )?last (?:week|time)|"
                       r"we already|same (?:rule|deal|thing|principle|as (?:before|last time|with|in|for))|as usual|again:|"
                       r"as i said|like i said|i said it|"
                       r"the other (?:week|day))", re.I)


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
_GENERIC = re.compile(r"^(?:this|that|it)(?: is|'s| was) (?:a |an |just a |our )?(?:\w+ )?(?:hack|workaround|kludge)\b",
                      re.I)


def _strong_workaround(s: str, main: str) -> Hit | None:
    if _NOT_DELIBERATE.search(s):
        return None
    looks = _LOOKS.search(s)
    if _PAST_HACK.search(s):
        return None
    if _HACK.search(s) or looks or _DONT_FIX.search(s) or _EVEN_IF_ODD.search(s):
        why = _around(s) or (s[looks.end():].strip(" ,.") if looks else "")
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


# -- anchors ----------------------------------------------------------------------------------------------

def _mentions(sentence: str, qualname: str) -> bool:
    """The text names the definition: quoted or called (`` `short` ``, ``short(``), its
    qualified name, a distinctive name as a word, or its parts as words ("token bucket"
    for ``TokenBucket``, "parse amount" for ``parse_amount``)."""
    short = qualname.rsplit(".", 1)[-1]
    if re.search(rf"`{re.escape(short)}(?!\w)|\b{re.escape(short)}\(", sentence) or \
            "." in qualname and re.search(rf"\b{re.escape(qualname)}\b", sentence):  # not "main" in "the main thread"
        return True
    distinctive = "_" in short or any(c.isupper() for c in short[1:]) or short[:1].isupper()
    if distinctive and re.search(rf"\b{re.escape(short)}\b", sentence) is not None:
        return True
    parts = [w.lower() for w in _IDENT.findall(short)]
    return len(parts) >= 2 and all(w.isalpha() for w in parts) and \
        re.search(r"\b" + r"[\s_-]+".join(map(re.escape, parts)) + r"s?\b", sentence.lower()) is not None


def _refs_of(call: Call) -> list[tuple[str, str]]:
    if call.symbols and len(call.symbols) <= MAX_SYMBOLS:
        return [(call.path, s) for s in call.symbols]
    return [(call.path, "")]


def anchor_refs(session: Session, at: int, turns: set[int], sentence: str, message: str = "",
                people: str = "", alone: bool = False) -> list[tuple[str, str]]:
    """The code a statement is about, among the code the session touched: the touched
    symbols it names (in the sentence, else in its message; first those of its turn, then
    any the session edited; a method's class when the statement itself names the class);
    else a definition of a file its turn edited that the person's words of the turn (and
    ``people``; only the message when ``alone``: one item of a list of rules) name as code
    (``load_config``, ``parseShiftInput``); else the edit of its
    turn whose new code shares the most words with it — code before tests, the nearest on
    a tie, and an edit that touched a definition before one that touched none (an import);
    the repository when its turn edited nothing."""
    edits = session.edits(turns)
    # code read in the turn counts when nothing was edited: "keep what `get()` does, add a sweep" is about the edit
    in_turn = edits if any(c.symbols for c in edits) else \
        edits + [c for c in session.calls(turns) if not c.edit and c.path and c.symbols]
    # the code of an edited file the person names as code ("load_config should …"): what they asked
    # about is among the anchors whatever else the statement names (a helper the edit wrote serves it)
    words = message if alone else \
        " ".join([people, *(u.text for u in session.said()  # the person's words of the last few turns
                            if u.who == USER and min(turns) - 3 <= u.turn <= max(turns))])
    asked = [(path, d) for path in dict.fromkeys(c.path for c in edits) for d in session.defined.get(path, ())
             if _as_code(words, d) or _DISTINCT.search(d.rsplit(".", 1)[-1]) and
             re.search(rf"\b{re.escape(d.rsplit('.', 1)[-1])}\b", words)  # its name, not "front matter" for FrontMatter
             or "." in d and re.search(rf"\b{re.escape(d)}\b", words)]  # `WriteThroughCache.set`
    asked = [(path, d) for path, d in asked if not any(n.startswith(f"{d}.") for _, n in asked)]  # a method, not its class
    asked = [r for r in asked if r[1] not in _error_types(session)]  # "RateMissing: no rate …": what raises it
    for pool in (in_turn, [] if edits else session.edits()):  # other turns' code: only when this one edited none
        for text in (sentence, message):
            named = []
            direct = {sym for c in pool for sym in c.symbols}
            for c in pool:
                # a class an edit touched stands for its methods too: "`reserve()` …" of a touched StockLedger —
                # unless the turn changed some of them (then "keep what `get()` does" is not about `get`)
                members = [d for d in session.defined.get(c.path, ()) if any(d.startswith(f"{x}.") for x in c.symbols)
                           and not any(y.startswith(f"{x}.") for x in c.symbols for y in direct)]
                for sym in [*c.symbols, *members]:
                    owner = sym.rsplit(".", 1)[0] if "." in sym else ""
                    hit = sym if text and _mentions(text, sym) else \
                        owner if owner and text is sentence and _mentions(text, owner) else ""
                    if hit and (c.path, hit) not in named:
                        named.append((c.path, hit))
            named = _code_not_tests(session, named)
            raised = _error_types(session)  # "raise a new `UnbalancedEntry`": about the code that raises it
            if any(n not in raised for c in in_turn if not _TEST_PATH.search(c.path) for n in c.symbols):
                named = [r for r in named if r[1] not in raised]
            if any(not _TEST_PATH.search(c.path) for c in edits):  # a test's name ("async validators") is not
                named = [r for r in named if not _TEST_PATH.search(r[0])]  # what a note is about when code changed
            if named:  # a class named, and the methods of it the turn changed ("a counter in `AsyncRunner`")
                changed = [(c.path, x) for c in pool for x in c.symbols for path, n in named
                           if c.path == path and x.startswith(f"{n}.")]
                return _with(named, changed + asked)
    # what the person named, unless the turn's code edits touched none of it (then those edits first)
    touched = {(c.path, n) for c in edits if not _TEST_PATH.search(c.path) for n in c.symbols}
    if asked and (set(asked) & touched or not touched):
        return asked[:MAX_SYMBOLS]
    if not edits:
        return [(GLOB_ALL, "")]
    pool = [c for c in edits if c.symbols] or edits
    pool = [c for c in pool if not _TEST_PATH.search(c.path)] or pool
    pool = [c for c in pool if set(c.symbols) - _error_types(session)] or pool  # what raises, not what is raised
    pool = [c for c in pool if set(c.symbols) - _type_decls(session)] or pool  # what does, not the shapes it takes
    pool = [c for c in pool if c.index > at] or pool  # the work it leads to, not the work that led to it
    words = _content(sentence)
    best = max(pool, key=lambda c: (len(words & _content(c.text + " " + " ".join(c.symbols))),
                                    -abs(c.index - at), c.index > at))
    ranked = [best, *sorted((c for c in pool if c is not best), key=lambda c: (abs(c.index - at), c.index < at))]
    # the work a statement leads to is every definition its turn's edits touched, the likeliest first
    return _with(_refs_of(ranked[0]), [r for c in ranked[1:] for r in _refs_of(c) if r[1]] + asked)


_ERROR_CLASS = re.compile(r"\bclass\s+(\w+)\s*(?:\(\s*[\w.]*(?:Error|Exception|Warning)\s*\)|"
                          r"extends\s+[\w.]*(?:Error|Exception))")


_TYPE_DECL = re.compile(r"^\s*(?:export\s+)?(?:interface|type)\s+(\w+)", re.M)


def _type_decls(session: Session) -> set[str]:
    """The types the session's edits declare (``interface JoinOn``, ``type Cell = …``)."""
    return _declared(session)[1]


def _error_types(session: Session) -> set[str]:
    """The error classes the session's edits declare (``class RateMissing(LookupError)``,
    ``class Timeout extends Error``): what code raises, not what a statement is about."""
    return _declared(session)[0]


def _declared(session: Session) -> tuple[set[str], set[str]]:
    """(error classes, types) the session's edits declare, read once a session."""
    if getattr(session, "_declared", None) is None:
        session._declared = ({m.group(1) for c in session.edits() for m in _ERROR_CLASS.finditer(c.text)},
                             {m.group(1) for c in session.edits() for m in _TYPE_DECL.finditer(c.text)})
    return session._declared


def _with(refs: list[tuple[str, str]], more: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``refs``, then ``more`` that are not in it yet, up to :data:`MAX_SYMBOLS`."""
    out = list(refs)
    for r in more:
        if r not in out and len(out) < MAX_SYMBOLS and r[0] != GLOB_ALL and all(n for _, n in out):
            out.append(r)
    return out[:MAX_SYMBOLS]


def _as_code(text: str, qualname: str) -> bool:
    """The text names the definition as code: in backticks or called (`` `convert` ``, ``convert(``)."""
    short = re.escape(qualname.rsplit(".", 1)[-1])
    return re.search(rf"`{short}(?![\w.])|\b{short}\(", text) is not None


def _code_not_tests(session: Session, refs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A name found in a test the session edited stands for the same name in edited code
    (``describe("deepMerge")`` is about ``src/merge.ts:deepMerge``); code first."""
    out = []
    for path, name in refs:
        if _TEST_PATH.search(path):
            path = next((p for p, names in session.defined.items() if not _TEST_PATH.search(p) and name in names), path)
        if (path, name) not in out:
            out.append((path, name))
    return sorted(out, key=lambda r: bool(_TEST_PATH.search(r[0])))


_DISTINCT = re.compile(r"_|[a-z][A-Z]")  # a name that reads as code, not as a word
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


# the sentence after a rule that says where it holds: "It's a GDPR thing and it applies everywhere in mailq"
_APPLIES = re.compile(r"^(?:(?:it's|this is|that's) [^.]{0,40}?\band\s+)?(?:it|this|that|the rule|which)\s+"
                      r"(?:applies|holds|goes)\b", re.I)


def _scope_of(session: Session, whole: re.Match) -> list[tuple[str, str]] | None:
    """Where a rule "for the whole X package" applies: the folder named X that holds files
    the session touched, as ``folder/**/*.ext`` (their common extension) — the repository
    (``**``) for "the whole codebase", or when no such folder was touched. "In this lib",
    "for this codebase", "anywhere in ledgerline": the top folder of the code the session
    touched (or the one named). "Everything in format.ts": that file. None: "anywhere in the
    logs" names no place in the code."""
    touched = [c.path for c in session.calls() if c.path]
    if whole.group("file"):
        named = whole.group("file").lower()
        path = next((p for p in touched if p.lower() == named or p.lower().endswith("/" + named)), None)
        return [(path, "")] if path else None
    if whole.group("this") or whole.group("where") or whole.group("core"):  # "in this lib", "anywhere in
        # ledgerline": the package the session worked in (the top folder of the code it touched), or the one named
        code = [p for p in touched if not _TEST_PATH.search(p) and "/" in p]
        tops = {p.split("/")[0] for p in code}
        where = (whole.group("where") or "").lower().strip(".-")
        if where in (p.split("/")[0].lower() for p in touched):
            tops = {next(p.split("/")[0] for p in touched if p.split("/")[0].lower() == where)}
        elif where and where not in ("codebase", "code", "repo", "repository", "project", "lib", "library", "app"):
            return None  # "never anywhere in the logs": no place in the code
        if len(tops) == 1:
            top = tops.pop()
            exts = {q.rsplit(".", 1)[-1] for q in code if q.startswith(top + "/") and "." in q}
            return [(f"{top}/**/*.{exts.pop()}" if len(exts) == 1 else f"{top}/**", "")]
        return [(GLOB_ALL, "")]
    name = (whole.group("name") or "").lower()
    if whole.group("what") and whole.group("what").lower() in ("package", "module", "folder", "directory") and name:
        for path in touched:
            parts = path.split("/")
            if name in (x.lower() for x in parts[:-1]):
                folder = "/".join(parts[:[x.lower() for x in parts].index(name) + 1])
                exts = {q.rsplit(".", 1)[-1] for q in touched if q.startswith(folder + "/") and "." in q}
                return [(f"{folder}/**/*.{exts.pop()}" if len(exts) == 1 else f"{folder}/**", "")]
    return [(GLOB_ALL, "")]


# -- gotchas ----------------------------------------------------------------------------------------------

_ERROR_LINE = re.compile(r"^\s*(?:E\s+)?((?:[\w.]+(?:Error|Exception|Failure)|error(?:\[\w+\])?|fatal|panic|"
                         r"FAILED|AssertionError|Traceback)\b.*)$", re.M)
_CAUSE = re.compile(r"\b(?:fails? because|failing because|failed because|breaks because|because|the (?:problem|issue|"
                    r"cause|culprit|bug) (?:is|was)(?: that)?|turns out(?: that)?|root cause(?: is)?|happens because|"
                    r"caused by|due to)\s+(?P<why>.{8,})$", re.I)
_REFUSED = re.compile(r"(doesn't want to proceed|was rejected|interrupted by user|permission)", re.I)


def error_line(text: str) -> str:
    lines = [m.group(1).strip() for m in _ERROR_LINE.finditer(text)]
    specific = [ln for ln in lines if re.match(r"[\w.]+(Error|Exception)\b", ln)]
    if specific:
        return specific[-1][:200]
    if lines:
        return lines[-1][:200]
    rest = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("Exit code")]
    return rest[-1][:200] if rest else ""


def _same_command(a: str, b: str) -> bool:
    ta, tb = a.split(), b.split()
    return bool(ta) and (ta == tb or ta[:2] == tb[:2])


def gotchas(session: Session) -> list[Proposal]:
    """An error, then the edit that fixed it: a failed command, an edit in the same or the
    next turn, and the same command passing afterwards."""
    out = []
    events = session.events
    for f in session.calls():
        if not (f.error and f.command) or _REFUSED.search(f.output):
            continue
        later = session.calls({f.turn, f.turn + 1, f.turn + 2})
        fix = next((c for c in later if c.index > f.index and c.edit and c.path and c.turn <= f.turn + 1), None)
        if fix is None:
            continue
        passed = next((c for c in later if c.index > fix.index and c.command and _same_command(c.command, f.command)),
                      None)
        if passed is None or passed.error:
            continue
        if any(isinstance(c, Call) and c.command and c.error and _same_command(c.command, f.command)
               for c in events[f.index + 1:fix.index]):
            continue  # it failed again before this edit: the later failure is the one this edit fixed
        if _TEST_PATH.search(fix.path) and any(c.index < f.index and not _TEST_PATH.search(c.path)
                                               for c in session.edits({f.turn})):
            continue  # the session changed the code, then its tests to match: the change, no trap
        between = " ".join(u.text for u in events[f.index + 1:fix.index] if isinstance(u, Utterance))
        if not any(_names_code(text, fix) for text in (f.command, f.output, between)):
            continue  # neither the failure nor what was said about it points at the code then edited
        explanation, cause = None, ""
        for u in events[f.index + 1:fix.index]:
            if isinstance(u, Utterance) and u.who == ASSISTANT:
                for s in sentences(u.text):
                    m = _CAUSE.search(s)
                    if m and not s.rstrip().endswith("?"):
                        explanation, cause = (u, s), m.group("why").strip().rstrip(".!")
                        break
            if explanation:
                break
        before = [e for e in events[:f.index] if isinstance(e, Utterance) and e.turn == f.turn and e.who == ASSISTANT]
        if explanation is None:  # said before the failing run it then wrote: "Confirmed: … Writing a failing test first."
            for u in before:
                hit = next((x for x in sentences(u.text) if _CAUSE.search(x) and not x.rstrip().endswith("?")), "")
                if hit:
                    explanation, cause = (u, hit), _CAUSE.search(hit).group("why").strip().rstrip(".!")
        if explanation is None:  # no "because": the agent's first word on the code it then fixed (after the failure,
            # else before it)
            explanation = next(((u, x) for u in [*events[f.index + 1:fix.index], *before]
                                if isinstance(u, Utterance) and u.who == ASSISTANT for x in sentences(u.text)
                                if not x.rstrip().endswith("?") and any(_mentions(x, sym) for sym in fix.symbols)),
                               None)
        err = error_line(f.output)
        if not err and not explanation:
            continue
        title = title_of(cause) if cause and len(cause.split()) >= 4 else \
            title_of(f"`{f.command.split()[0]}` fails with {err}") if err else title_of(explanation[1])
        evidence = [Evidence(session.id, TOOL, f.at, f"$ {f.command}\n{err}".strip(), f.line)]
        if explanation:  # what the agent found, said around that sentence too
            u, s = explanation
            evidence.append(Evidence(session.id, u.who, u.at, _around_sentence(u.text, ""), u.line))  # all of it
        names = ", ".join(f"`{s}`" for s in fix.symbols[:MAX_SYMBOLS]) or "the file"
        evidence.append(Evidence(session.id, ASSISTANT, fix.at, f"fixed by editing {names} in {fix.path}; "
                                                                f"`{passed.command}` then passed", fix.line))
        conf = 0.8 if explanation else 0.65
        fixes = [c for c in later if fix.index < c.index < passed.index and c.edit and c.path and
                 not _TEST_PATH.search(c.path)]  # every fix before it passed
        refs = _with(_refs_of(fix), [r for c in fixes for r in _refs_of(c) if r[1]])
        out.append(Proposal("gotcha", title, conf, refs, evidence, works_around=err))
    return out


def _names_code(text: str, call: Call) -> bool:
    """The text names the file an edit changed or a definition it touched."""
    name = call.path.rsplit("/", 1)[-1]
    return name in text or name.rsplit(".", 1)[0] in text and len(name) > 6 or \
        any(_mentions(text, sym) for sym in call.symbols)


def _around_sentence(message: str, sentence: str) -> str:
    """A sentence of a message with what follows it, up to 400 characters (a diagnosis
    goes on: "There it is: … PyYAML implements YAML 1.1, where …")."""
    text = " ".join(_EMPH.sub("", _FENCE.sub(" ", message)).split())
    at = text.find(" ".join(_EMPH.sub("", sentence).split())[:60]) if sentence else 0
    return (text[at:] if at >= 0 else sentence)[:400]


_PASTED = re.compile(r"```|^\s*(?:Traceback|\S+>\s|\$ )|^\s*(?:E\s+|Uncaught\s+)?[\w.]+(?:Error|Exception)\b|"
                     r"^\s+at \S+ \(\S+:\d+|"  # a JavaScript stack frame
                     r"`[\w.]*(?:Error|Exception)\b[^`\n]*`", re.M)  # "I get `SqliteError: no such column: createdAt`"


# a bug told in words ("cli never exits now. ?", "the chart has no tick at -30%, bottom of axis is empty")
_SYMPTOM = re.compile(r"\b(?:never (?:exits|ends|returns|finishes|stops|terminates)|hangs?|hanging|crash(?:es|ed|ing)?|"
                      r"broken|doesn'?t work|does not work|isn'?t working|stopped working|stuck|leaks?|leaking|"
                      r"has no|is empty|are empty|is missing|are missing|off by one|wrong (?:result|value|total|order)s?|"
                      r"shows? (?:nothing|nan|undefined|null)|nan\b|blank)\b", re.I)
# the agent naming the cause: "That's the sweep timer: …", "Reproduced, and it's floating point", "Found it."
_DIAGNOSED = re.compile(r"^(?:reproduced|found it|that's|that is|it's|this is|the (?:problem|issue|cause|culprit|"
                        r"bug|reason) (?:is|was))\b|\b(?:because|caused by|due to|comes from|turns out)\b", re.I)


def reported(session: Session) -> list[Proposal]:
    """A bug the person reports with what they saw pasted in (a traceback, an error, a
    query's output), the agent's diagnosis, then its fix in the same turn: a gotcha on the
    code it fixed, titled with the diagnosis."""
    out = []
    said = session.said()
    for k, u in enumerate(said):
        pasted = _PASTED.search(u.text)
        if u.who != USER or not (pasted or _SYMPTOM.search(u.text)):
            continue
        # the fix in the same turn, or the next when the agent asked how first ("Two fixes: … Which one?")
        fix = next((c for t in (u.turn, u.turn + 1) for c in session.edits({t}) if not _TEST_PATH.search(c.path)),
                   None)
        diag = next((a for a in said[k + 1:] if a.who == ASSISTANT and a.turn == u.turn and not
                     _NARRATION.match(_DISCOURSE.sub("", a.text.strip()))), None)  # not "Let me reproduce it first."
        told = [a for a in said[k + 1:] if fix is not None and a.who == ASSISTANT and a.turn == u.turn and
                a.index < fix.index and not _NARRATION.match(_DISCOURSE.sub("", a.text.strip()))]
        diag = max(told, key=lambda a: len(a.text)) if told else diag  # "Adding your test first." … "Found it. … rounds
        # down to −1, not to 0 …": what the agent said most about, before the fix
        if fix is None or diag is None or diag.index > fix.index:
            continue  # no fix, or no word of why before it (a failing command or a test that reproduces it is fine)
        first = next((x for x in sentences(diag.text) if not skipped(x) and len(x.split()) >= 5), "")
        if not first or _NARRATION.match(first) or not pasted and not _DIAGNOSED.search(first):
            continue  # told, not pasted: only with a diagnosis ("That's the sweep timer: …", "it's floating point")
        err = error_line(u.text) if _ERROR_LINE.search(u.text) else ""
        evidence = [Evidence(session.id, USER, u.at, (err or u.text.strip().split("\n")[0])[:300], u.line),
                    Evidence(session.id, ASSISTANT, diag.at, _around_sentence(diag.text, ""), diag.line),  # all of it
                    Evidence(session.id, ASSISTANT, fix.at, f"fixed by editing "
                             f"{', '.join(f'`{x}`' for x in fix.symbols[:MAX_SYMBOLS]) or 'the file'} in {fix.path}",
                             fix.line)]
        fixes = [c for c in session.edits({fix.turn}) if not _TEST_PATH.search(c.path)]
        fixes.sort(key=lambda c: not c.symbols)  # the code fixed before an import added for it
        refs = _with(_refs_of(fixes[0]), [r for c in fixes[1:] for r in _refs_of(c) if r[1]])  # every fix of the turn
        out.append(Proposal("gotcha", title_of(first), 0.7, refs, evidence, works_around=err))
    return out


# -- exchanges: options the agent lays out, the person's answer ------------------------------------------

@dataclass
class Option:
    label: str  # "a", "2", … ("" for options named in a sentence)
    head: str  # what the option is
    why: str  # what the agent said for or against it
    quote: str  # the option as written


# an option on its own line: "- **A: half-open** …", "1. **zod** — …", "(b) store …", "**B. Prorate …** — …"
_ITEM = re.compile(r"^\s*(?:#+\s*)?(?:[-*•+]\s+)?(?:\*\*)?(?:option\s+)?(?:\(?(?P<label>[A-Ea-e]|[1-9])(?:[.):]|\)|\*\*|"
                   r"\s+[—–-])\s*)?(?P<rest>\S.*)$", re.I)
_BULLETED = re.compile(r"^\s*(?:#+\s*)?(?:[-*•+]\s+|\(?(?:[A-Ea-e]|[1-9])[.)]\s+|\([A-Ea-e1-9]\)\s*|"
                       r"\*\*(?:option\s+)?\(?[A-Ea-e1-9](?:[.:)]|\*\*)|option\s+[A-Ea-e1-9]\b)", re.I)
_OPTIONS_CUE = re.compile(r"\b(options?|ways?|approaches|alternatives|choices|either(?=\s+\w)|shapes|possibilities|"
                          r"behaviou?rs|solutions|designs|paths|directions|trade-?offs|"
                          r"fix(?:es)?|"
                          r"ideas|strategies|routes|candidates|do you want|would you (?:like|rather|prefer)|"
                          r"you prefer|which (?:one|would|do|should)|"
                          r"to decide|or\b[^.?!]*\?|"
                          # "Should `has()`:" then "- drop an expired entry …, or" / "- stay side-effect free?"
                          r"^[^\n]*\b(?:should|shall|do (?:you|we) want|would you|which)\b[^\n]*:\s*$|,\s*or\s*$)",
                          re.I | re.M)
_INLINE = re.compile(r"(?:\boptions?\s*:|\beither|\b(?:two|three|a few|some|several) (?:[a-z]+ )?(?:ways|options|approaches|"
                     r"choices|alternatives)(?: here| to (?:do|go|fix)(?: it| this)?)?\s*:|"
                     r"\b(?:we|you|i) could(?: either)?)\s+"
                     r"(?:\(?a\)\s*)?(?P<a>(?:[^.?!;]|\.(?=\S)){3,240}?),?\s+(?:[—–-]\s+)?or\s+(?:\(?b\)\s*)?"
                     r"(?P<b>(?:[^.?!;]|\.(?=\S)){3,120})", re.I)
# "Should the cache be per-process or shared in Redis?": two options in a question
_ASKED = re.compile(r"\b(?:be|use|go with|keep|make it|store (?:it|them|this)?\s*(?:in|as)?|prefer|want|do)\s+"
                    r"(?P<a>[^?,;]{2,60}?),?\s+or\s+(?P<b>[^?,;]{2,60})\?|"
                    # "Should `get_user` return None or raise KeyError?": the subject, then two verb phrases
                    r"^(?:should|shall|do (?:you|we) want|would you like)\s+(?:(?:me|us|we|i|it|they|`[^`\s]+`|\w+\(\)|"
                    r"\w*[_.]\w+|(?-i:[a-z]+[A-Z]\w*))\s+"  # (a subject that is code: not "Should soft bounces …")
                    r"(?:to\s+)?)?(?P<c>[^?,;]{2,60}?),?\s+or\s+(?P<d>[^?,;]{2,60})\?|"
                    # "… should getRule return undefined like now and the loader skip it, or throw?", "should a point
                    # on the edge count as inside or outside?": a longer subject, then what it would do, two ways
                    r"\b(?:should|shall|would|will|do|does)\s+(?:[\w`.()'\"-]+\s+){1,6}?"
                    r"(?P<e>(?:count as|return|be|use|raise|throw|stay|keep|make|treat|store|go|fail|skip|block|"
                    r"wait|retry|ignore|reject|accept|round|show|send|run)\b[^?;]{0,70}?),?\s+or\s+(?P<f>[^?;]{1,60})\?",
                    re.I)
_HEAD_END = re.compile(r"\s+[—–]\s+|\s+-\s+|;\s+|:\s+(?=\S)|,\s+(?:but|so|which|and it|though)\b|\.\s+(?=[A-Z])")
_RECOMMEND = re.compile(r"\b(?:i'd|i would|i'll|i will|my (?:pick|vote|recommendation|preference)(?:\s+is|:)|i recommend|"
                        r"i suggest|i'd recommend|i'd suggest|i lean towards?|i prefer)\s+(?:go with\s+|go for\s+|"
                        r"take\s+|pick\s+|"
                        r"choose\s+|recommend\s+|suggest\s+|use\s+|do\s+)?(?P<x>[^.!?]{1,80})", re.I)
_ORDINAL = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "last": -1,
            "former": 0, "latter": -1}
_PICK_LABEL = re.compile(r"^\s*(?:(?:hmm+|well|ah|oh|so)\b[,.!:]?\s*)?(?:(?:yes|ok|okay|sure|yep|yeah|right|fine|agreed)\b"
                         r"[,.!]?\s*)?(?:i\s+|i'd\s+)?"
                         r"(?:(?:prefer|pick|choose|take|want|like|go with|go for|vote for|let'?s (?:do|go with)|do|"
                         r"option)\s+)?"
                         r"(?:option\s+)?\(?(?P<label>[A-Ea-e]|[1-9])\)?(?=[\s.,!:;)]|$)", re.I)
_PICK_ORDINAL = re.compile(r"(?:^\s*|\b(?:the|do the|go with the|take the|use the|your|like your)\s+)(?P<n>first|1st|second|"
                           r"2nd|third|3rd|"
                           r"fourth|last|former|latter)\b(?!\s+(?:two|three|four|few|couple|\d))"
                           r"(?:\s+(?:one|option|way))?",
                           re.I)
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
                     r"(?:go |switch |revert |change it )?back to|revert to)\b"
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


_TABLE_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


# a column that says something about each row ("| | How | Good | Bad |"): the rows are the options
_ATTRIBUTE = re.compile(r"^\s*(?:how|what|why|when|where|who|pros?|cons?|good|bad|cost|effort|risk|notes?|downsides?|"
                        r"upsides?|complexity|trade-?offs?|impact|speed|size|change|description|details?)\b", re.I)
_WEIGHED = re.compile(r"\b(?:pros?|cons?|good|bad|upside|downside|trade-?off|cost|risk)s?\b", re.I)


def _tables_as_lists(body: str) -> str:
    """A markdown table of options (agents lay choices out so) as a list: a row's first cell
    is the option, the others what was said about it, under their column names."""
    lines, out, i = body.split("\n"), [], 0
    while i < len(lines):
        if i + 1 < len(lines) and _TABLE_ROW.match(lines[i]) and _TABLE_RULE.match(lines[i + 1]):
            header = [c.strip() for c in _TABLE_ROW.match(lines[i]).group(1).split("|")]
            if not _EMPH.sub("", header[0]).strip() and len(header) >= 3 and \
                    not any(_ATTRIBUTE.match(_EMPH.sub("", h)) or _WEIGHED.search(h) for h in header[1:]):
                # "| | plain JSON | v8.serialize | msgpack |": the options are the columns, the rows what is said of each
                rows = []
                i += 2
                while i < len(lines) and _TABLE_ROW.match(lines[i]):
                    rows.append([c.strip() for c in _TABLE_ROW.match(lines[i]).group(1).split("|")])
                    i += 1
                out.append("Options:")
                for j, head in enumerate(header[1:], 1):
                    said = "; ".join(f"{r[0]}: {r[j]}" for r in rows if j < len(r) and r[j])
                    out.append(f"- {head}" + (f" — {said}" if said else ""))
                continue
            if any(_OPTIONS_CUE.search(h) or _WEIGHED.search(h) for h in header):
                out.append("Options:")  # "| option | how | good | bad |": the header says what the rows are
            i += 2
            while i < len(lines) and _TABLE_ROW.match(lines[i]):
                cells = [c.strip() for c in _TABLE_ROW.match(lines[i]).group(1).split("|")]
                said = "; ".join(f"{h}: {c}" if h else c for h, c in zip(header[1:], cells[1:]) if c)
                if cells and cells[0]:
                    out.append(f"- {cells[0]}" + (f" — {said}" if said else ""))
                i += 1
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


# "### A. Batch elimination", or a line in bold of its own: "**2. Generation counter in `AsyncRunner`**"
_OPTION_HEADING = re.compile(r"^(?:#{2,6}\s+(?:\*\*)?(?:option\s+)?(?P<label>[A-Ea-e1-9])(?:[.):]|\s+[—–-])\s*(?P<head>.+?)"
                             r"(?:\*\*)?|"
                             r"\*\*(?:option\s+)?(?P<blabel>[A-Ea-e1-9])[.):]\s*(?P<bhead>[^*]+?)\*\*:?)\s*$", re.I)


def _headings_as_lists(body: str) -> str:
    """Options laid out as headings ("### A. Batch elimination" and a paragraph under
    each) as a list: the heading is the option, the first line under it what was said."""
    lines, out, i = body.split("\n"), [], 0
    while i < len(lines):
        m = _OPTION_HEADING.match(lines[i])
        if m is None:
            out.append(lines[i])
            i += 1
            continue
        i += 1
        said = []
        while i < len(lines) and not lines[i].startswith("#") and not _OPTION_HEADING.match(lines[i]):
            if lines[i].strip():
                said.append(_BULLET.sub("", lines[i]).strip())
            i += 1
        label, head = m.group("label") or m.group("blabel"), m.group("head") or m.group("bhead")
        named = "Option " if re.search(r"\boption\b", m.group(0), re.I) else ""  # (a word that says options follow)
        out.append(f"{named}{label}. **{head.strip()}**" + (f" — {' '.join(said)}" if said else ""))
    return "\n".join(out)


def _split_option(rest: str) -> tuple[str, str]:
    """An option's text as (what it is, what was said about it)."""
    rest = re.sub(r",?\s+or\s*$|\?\s*$", "", rest.strip())  # "- drop an expired entry …, or" / "- stay pure?"
    m = re.match(r"^\*\*(?P<b>.+?)\*\*\s*(?P<after>.*)$", rest)
    if m:
        head, after = m.group("b"), m.group("after")
        head = re.sub(r"^\(?(?:[A-Ea-e]|[1-9])(?:[.):]|\))\s*", "", head)
        return head.strip(" :.—–-"), after.strip(" :.—–-")
    rest = rest.replace("**", "")
    m = _HEAD_END.search(rest)
    if m and m.start() > 3:
        return rest[:m.start()].strip(" ,;:"), rest[m.end():].strip(" ,;:")
    return rest.rstrip(". "), ""


_PLAN_CUE = re.compile(r"^\s*(?:#+\s*)?(?:\*\*)?(?:the\s+|my\s+)?(?:plan|steps|here'?s (?:the|my) plan|what i'?ll do|"
                       r"to ?do)(?:\*\*)?\s*:?(?:\*\*)?\s*$", re.I)


def options_in(text: str) -> list[Option]:
    """The options a message lays out for the person to choose from: two or more list
    items after a word that announces a choice ("options", "two ways", "either"), or
    "either X, or Y" / "Options: X, or Y" / "should it be X or Y?" in a sentence."""
    body = _headings_as_lists(_tables_as_lists(_FENCE.sub("\n", text)))
    lines = body.split("\n")
    out: list[Option] = []
    for i, line in enumerate(lines):
        if not _BULLETED.match(line):
            if out and line.strip() and not line.startswith((" ", "\t")):
                break  # the list ended
            continue
        if not out and (not _OPTIONS_CUE.search("\n".join(lines[max(0, i - 3):i + 1])) or
                        any(_PLAN_CUE.match(x) for x in lines[max(0, i - 2):i])):
            continue  # ("Plan:\n1. … 2. …": the steps of one way, not ways to choose from)
        m = _ITEM.match(line)
        label = (m.group("label") or str(len(out) + 1)).lower()
        if any(o.label == label for o in out):
            break  # "(b) is more readable …": a paragraph about the options, after them
        head, why = _split_option(m.group("rest"))
        if head:
            out.append(Option(label, head, why, line.strip()))
    listed = out if len(out) >= 2 else []
    for sent in sentences(text):
        m = _INLINE.search(sent) or _ASKED.search(sent)
        if m and (not listed or body.find(sent[:40]) > body.find(listed[-1].quote)):  # the options laid out last
            parts = next((m.group(x), m.group(y)) for x, y in ("ab", "cd", "ef") if m.group(x))
            heads = [re.sub(r"\s+(?:fine|ok|okay|enough|good enough)$", "",  # "or is a module constant fine?"
                            re.sub(r"^(?:to\s+|we\s+|i\s+(?:can\s+)?|you\s+|is\s+|it\s+be\s+)", "", part.strip(" ,"),
                                   flags=re.I).strip(), flags=re.I) for part in parts]
            return [Option(str(n + 1), h, _said_about(text, h, heads[1 - n]), sent) for n, h in enumerate(heads)]
    return listed


def _tokens(text: str) -> set[str]:
    """Words and numbers that can name a proposal ("78" for "exit 78 for config errors")."""
    return {w for w in re.findall(r"[a-z0-9_]+", text.lower()) if w.isdigit() or (len(w) > 3 and w not in _COMMON)}


def _stems(text: str) -> set[str]:
    return {w[:5] for w in _content(text)}


def _said_about(text: str, head: str, other: str = "") -> str:
    """The sentence of ``text`` (other than the one naming the options) that speaks of
    ``head`` (by a word the ``other`` option does not have)."""
    key = _stems(head) - _stems(other)
    for sent in sentences(text):
        if _INLINE.search(sent) or _ASKED.search(sent) or _RECOMMEND.search(sent):
            continue
        if key & _stems(sent.split(",")[0]):
            return sent.rstrip(".")
    return ""


def _listed_after(text: str, sentence: str) -> list[Option]:
    """The list a sentence that ends with a colon introduces ("… I'd:" then "1. …", "2. …")."""
    if not sentence.rstrip().endswith(":"):
        return []
    lines = _FENCE.sub("\n", text).split("\n")
    at = next((i for i, ln in enumerate(lines) if sentence[:40] in _EMPH.sub("", ln)), None)
    out: list[Option] = []
    for line in lines[at + 1:] if at is not None else []:
        if not _BULLETED.match(line):
            if out and line.strip():
                break
            continue
        head, why = _split_option(_ITEM.match(line).group("rest"))
        if head:
            out.append(Option(str(len(out) + 1), head, why, line.strip()))
    return out


# a comment line in code an edit wrote: "# …", "// …", "/* …", " * …", "-- …"
_COMMENT = re.compile(r"^\s*(?:#(?!!)|//|/\*+|\*(?!/)|--)\s?(?P<text>.*?)\s*(?:\*/)?$")


def _commented(session: Session, said: list[Proposal]) -> list[Proposal]:
    """Why odd code is there, said in a comment the agent wrote with it ("// Workaround for
    spreadsheet formula injection: …", "# deliberately synchronous: …"): a workaround on what
    the edit touched — or more evidence for what the chat already proposes on that code (a
    comment that records a choice made in words: "// hand-written on purpose: no dependencies")."""
    out: list[Proposal] = []
    for c in session.edits():
        for block in _comment_blocks(c.text):
            first = sentences(block)[0] if sentences(block) else ""
            if not first or not (_HACK.search(block) or _DELIBERATE.search(block)) or _NOT_DELIBERATE.search(block) \
                    or _PAST_HACK.search(block):
                continue
            refs = _refs_of(c)
            evidence = Evidence(session.id, ASSISTANT, c.at, f"(a comment in {c.path}) {block}"[:400], c.line)
            known = next((p for p in said + out if set(p.refs) & set(refs)), None)
            if known is not None:
                known.evidence.append(evidence)
                continue
            out.append(Proposal("workaround", title_of(first), 0.6, refs, [evidence], works_around=_around(block)))
    return out


def _comment_blocks(code: str) -> list[str]:
    """The comments of a piece of code, consecutive comment lines joined."""
    blocks, current = [], []
    for line in code.split("\n"):
        m = _COMMENT.match(line)
        if m and m.group("text"):
            current.append(m.group("text"))
            continue
        if current:
            blocks.append(" ".join(current))
            current = []
    if current:
        blocks.append(" ".join(current))
    return blocks


def _own_pick(sentence: str, options: list[Option]) -> Option | None:
    """The option of its own list the agent's sentence takes ("I'll do the second", "option B")."""
    if not options:
        return None
    m = re.search(r"\b(?:the\s+(?P<n>first|second|third|fourth|last|former|latter)\b(?!\s+(?:time|step|pass|run))|"
                  r"option\s+\(?(?P<label>[A-Ea-e1-9])\b)", sentence, re.I)
    if m is None:
        return None
    return _resolve(m.group("label"), options) if m.group("label") else \
        (options[_ORDINAL[m.group("n").lower()]] if _ORDINAL[m.group("n").lower()] < len(options) else None)


def _resolve(x: str, options: list[Option], before: int = -1) -> Option | None:
    """The option ``x`` names: its label, an ordinal, "that" (the last one named), or the
    one sharing the most words with it."""
    x = x.strip(" .,!`*")
    m = re.match(r"^(?:option\s+)?\(?([A-Ea-e]|[1-9])\)?(?:$|[\s.,:;!)])", x, re.I)
    if m:
        label = m.group(1).lower()
        hit = next((o for o in options if o.label == label), None)
        n = int(label) - 1 if label.isdigit() else ord(label) - ord("a")  # "B" of a numbered list, "2" of a lettered
        return hit or (options[n] if n < len(options) else None)
    m = _PICK_ORDINAL.search(" the " + x if not x.lower().startswith("the ") else x)
    if m and m.start() < 12:
        n = _ORDINAL[m.group("n").lower()]
        return options[n] if -len(options) <= n < len(options) else None
    if re.match(r"^(?:that|this|it|the latter)\b", x, re.I):
        return options[before]
    words = _stems(x)
    scored = sorted(((len(words & _stems(o.head)), -i, o) for i, o in enumerate(options)), reverse=True)
    if scored and scored[0][0] and (len(scored) == 1 or scored[0][0] > scored[1][0]):
        return scored[0][2]
    return None


def _recommended(text: str, options: list[Option]) -> Option | None:
    """The option the agent recommends ("I'd go with B", "My vote: 1")."""
    for sent in re.split(r"(?<=[.!?])\s+|\n+", _FENCE.sub("\n", text)):  # "My vote: 1." is short
        m = _RECOMMEND.search(sent)
        if m:
            hit = _resolve(m.group("x"), options)
            if hit is not None:
                return hit
    return None


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
    if m:
        n = _ORDINAL[m.group("n").lower()]
        if -len(options) <= n < len(options):
            return options[n]
    if tersely and (_ASSENT.match(head) or _PICK_THAT.search(head)):
        rec = _recommended(agent_text, options)
        if rec is not None:
            return rec
    first = re.split(r"(?<=[.!?])\s", head, maxsplit=1)[0]
    short = [first] if len(first.split()) <= 2 else [head] if len(head.split()) <= 6 else []  # "Reject." / "the
    # lock file one" name an option by its words
    for sent in short + [x for x in re.split(r"(?<=[.!?])\s+|\n+", head) if x.strip()]:
        if sent not in short and (_DISMISS.search(sent) or _TURN_DOWN.match(head)) and \
                not re.match(r"^(?:let'?s|lets)\s+(?:do|go with|take|use)\b", sent, re.I):  # "lets do both for now, …
            # but not in this pr": the choice, then a limit
            continue  # "fraction is overkill": the option turned down, not the one picked; "no, not now. only
            # comma csv …": words of an option said after turning them all down
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


# a sentence of a reply that turns an option down rather than picking it
_DISMISS = re.compile(r"\b(?:overkill|tempting|too (?:much|slow|complex|complicated|heavy|fancy)|no|not|don'?t|never|nah|nope|"
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
    instead = after and re.search(r"\b(?:instead|rather)\b", after[0], re.I)  # "scratch that — rounding hides the
    # bug. refuse sub-cent amounts instead": the next sentence is the choice, the dash the reason
    head = rest if re.search(r"\b(?:back|revert) to\b", rev.group(0), re.I) and rest else \
        dashed.group("y").strip() if dashed and not instead else \
        (after[0] if after else tail if _CHOOSE_VERB.match(tail) else "")
    return head if len(head.split()) >= 2 else ""


def _choice_title(text: str) -> str:
    text = text.rstrip(" ?")  # an option offered as a question: "… or reject it with a 400?"
    t = title_of(text, choice=True)
    return t if len(t.split()) >= 2 else title_of(text)


# the person questions what the agent chose, naming what they would have expected instead …
_CHALLENGE = re.compile(r"\bwhy\b[^.?!\n]{0,60}?\b(?:though|not|instead of|over|rather than)\b[,\s]*"
                        r"(?P<alt>[^.?!\n,]{2,60}?)?(?:\s+(?:would(?:'ve| have)? been|is|was)\b|[?.!,\n]|$)", re.I)
# … and, once the agent has said why, keeps it
_KEPT = re.compile(r"^\s*(?:(?:ok(?:ay)?|fine|fair|alright|right|got it|makes sense|true)\b[,.!]?\s*)*"
                   r"(?:(?:then\s+)?keep|stick with|leave)\s+(?P<x>(?:the\s+|it\s+)?[^.,;!\n]{2,40}?)"
                   r"(?:\s+(?:then|as is|as it is))?\s*[.!]*$", re.I)


# -- numbered questions, answered by number ----------------------------------------------------------------

# "3. Symlinks: (a) record them …, (b) keep following them …, or (c) skip them …?": one question of a numbered list
_NUMBERED = re.compile(r"^\s*(?:\*\*)?(?P<n>[1-9])[.)](?:\*\*)?\s+(?P<q>\S.*)$")
# "1. yes", "3) c for now", "To 2: UTC days.", "Q1 - yes": an answer to the question of that number
_ANSWER_TO = re.compile(r"^\s*(?:(?:to|re|q|ad)\s*(?P<m>[1-9])\s*[:.)\-–—,]|(?P<n>[1-9])\s*(?:[.):\-–—]|(?=\s+\w)))\s*"
                        r"(?P<a>.*)$", re.I)
_LETTERED = re.compile(r"(?:^|[\s:;,])\(?(?P<label>[a-e])\)\s+", re.I)  # "(a) record them …, (b) keep …"
_STATUS_QUO = re.compile(r"^\W*keep\b|\btoday'?s?\b(?: behaviou?r)?\)|\(today\b|\bas (?:it is|is|today|now)\b|"
                         r"\bcurrent behaviou?r\b", re.I)
_DEFERRED = re.compile(r"\b(?:for now|later|not now|not yet|until|when (?:someone|somebody|a customer|users?) asks?|"
                       r"next (?:release|version|sprint)|v2|separate (?:ticket|issue|pr))\b", re.I)
_PROPOSES = re.compile(r"^\W*(?:should (?:we|it|i|they)?\s*|shall (?:we|i)\s+|do (?:you|we) want (?:me |us )?(?:to\s+)?|"
                       r"would you like (?:me |us )?(?:to\s+)?|is it ok(?:ay)? (?:to|if)\s+|can (?:we|i)\s+)", re.I)


def numbered_questions(text: str) -> dict[str, str]:
    """The questions of a message's numbered list, by number (each with its continuation
    lines): what a reply "1. yes / 2. UTC days" answers."""
    out: dict[str, str] = {}
    at = ""
    for line in _FENCE.sub("\n", text).split("\n"):
        m = _NUMBERED.match(line)
        if m:
            at = m.group("n")
            out[at] = _EMPH.sub("", m.group("q")).strip()
        elif at and line.startswith((" ", "\t")) and line.strip():
            out[at] += " " + _EMPH.sub("", line.strip())
        elif line.strip():
            at = ""
    return {n: q for n, q in out.items() if "?" in q}


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


def _question_options(question: str) -> list[Option]:
    """The options one question offers: "(a) X, (b) Y, or (c) Z?" or "X, or Y?"."""
    parts = _LETTERED.split(question)
    if len(parts) >= 5:  # text, label, option, label, option, …
        opts = []
        for label, body in zip(parts[1::2], parts[2::2]):
            head, why = _split_option(re.sub(r"^(.*?)(?:,?\s+or)?[,;]?\s*$", r"\1", body.strip()))
            opts.append(Option(label.lower(), head, why, body.strip()))
        return opts
    return options_in(question) or _two_ways(question)


def _two_ways(question: str) -> list[Option]:
    """The two ways one question names: "Debounce only async rules? Or keep debouncing
    both?", "`reset()` while pending: cancel it, or let it run (…)?" (after its topic)."""
    body = question.strip().rstrip("?").split(": ", 1)[-1]
    parts = [x.strip(" ,") for x in re.split(r"\?\s*or\s+|,?\s+or\s+", body, flags=re.I)]
    if len(parts) != 2 or not all(1 <= len(x.split()) <= 14 for x in parts):
        return []
    return [Option(str(n + 1), *_split_option(x), x) for n, x in enumerate(parts)]


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
            title, alternatives = _choice_title(pick.head), [Alternative(o.head, o.why) for o in opts if o is not pick]
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
_GO_WITH = re.compile(r"\b(?:i'd|i would|i'll|i will|we'd|we'll)\s+(?:go with|go for|pick|choose|take|recommend|suggest|"
                      r"prefer)\s+(?P<x>[^.!?]{1,80})", re.I)


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
    alts = [Alternative(m.group("x").strip(), agent.text[m.end():].split("\n")[0].strip()[:200]) for m in turned]
    return Proposal("decision", _choice_title(took.group("x")), 0.75, refs,
                    [Evidence(session.id, ASSISTANT, agent.at, agent.text[took.start():took.end() + 300].strip(),
                              agent.line), Evidence(session.id, USER, u.at, reply[:400], u.line)],
                    took.group("why").strip()[:300], alts)


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
    head = main_clause(choice).rstrip(".")
    return Proposal("decision", _choice_title(head), 0.75, refs,
                    [Evidence(session.id, USER, asked.at, wanted.group(0), asked.line),
                     Evidence(session.id, ASSISTANT, agent.at, _around_sentence(agent.text, why)[:400], agent.line),
                     Evidence(session.id, USER, u.at, reply[:400], u.line)],
                    _reason_in([x for x in then if x != choice]),
                    [Alternative(wanted.group("x").strip(), reason_of(why) or why)])


# the person takes back the option they picked: "actualy no, thinking about it more 2 is weird — lets go with 1"
_CHANGED_MIND = re.compile(r"\b(?:actual+y|on second thought|thinking about it (?:more|again)|chang(?:ed|e) my mind|"
                           r"i reflect again|on reflection|"
                           r"having slept on it|after all)\b[^.!?:]*?(?:[.!?:—–]|\s-\s)", re.I)


# someone else at the keyboard says who they are: "lead here: raise. don't clamp."
_SPEAKER = re.compile(r"^\s*(?:[\w-]+\s+){0,2}here\s*[:,—–-]\s*(?=\S)", re.I)
# the agent names the option the person described: "That's Option B: allow the drop and flag the column."
_THATS_OPTION = re.compile(r"^\W*(?:ok(?:ay)?[,.]?\s+|got it[,.—–-]?\s+)?(?:that'?s|that is|so that'?s|sounds like|so,?)\s+"
                           r"(?:option\s+)?\(?(?P<label>[A-E1-9])\)?(?=[\s.:;,—–-]|$)", re.I)


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
            earlier = [a for a in old.alternatives if not _stems(a.option) & _stems(head)]  # the options it had
            named = re.sub(r"^(?:the|that|this)\s+|\s+(?:thing|part|stuff|bit|idea|approach)$", "", rest, flags=re.I)
            named = named if len(named.split()) >= 2 and named != head else last.head  # "the wait forever part"
            out.append(Proposal("decision", _choice_title(head), 0.75, refs,
                                [*last.said, Evidence(session.id, USER, u.at, reply[:400], u.line)], why,
                                [Alternative(named, why), *earlier]))
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
                                   alternatives=[Alternative(o.head, o.why) for o in opts if o is not pick]))
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
                rejected = [Alternative(o.head, o.why) for o in opts if o is not pick]
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
                picked = Proposal(kind, _choice_title(pick.head), 0.8, refs, evidence, mine or why, rejected,
                                  works_around=around)
                followed = any(session.edits({u.turn + d}) for d in (0, 1, 2))
                if refs != [(GLOB_ALL, "")] and followed:  # a pick no code followed ("I'll open tickets for the first
                    # three", "separate ticket I think"): talk
                    out.append(picked)
                    chosen[a.index] = picked
                answered.add(a.index)
                last = _Decided(picked, pick.head)
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
                    [Alternative(o.head, o.why) for o in neither or listed] or \
                    ([Alternative(rejected, why)] if rejected else [])  # (what it did, unsaid: no option to name)
                out.append(Proposal(kind, title, conf, refs, evidence, why, alternatives,
                                    recalls=bool(_REMINDER.search(x) or _REMINDER.search(reply[:200]))))  # "no — no
                # innerHTML, same rule as …", "no. same as in money.py. the running total must …"
                if kind == "decision":
                    last = _Decided(out[-1], title)
    return out


# -- the extractor -----------------------------------------------------------------------------------------

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
                quote = item or s
                own = _own_pick(s, opts)
                if own is not None:  # "I'll do the second as a deliberate workaround": that option, the others rejected
                    hit = replace(hit, title=_choice_title(own.head), alternatives=tuple(
                        Alternative(o.head, o.why) for o in opts if o is not own))
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
                whole = _WHOLE.search(s) or next((_WHOLE.search(x) for x in sents[i + 1:i + 4]  # "… It's a GDPR
                                                  if _APPLIES.match(x) and _WHOLE.search(x)), None)  # thing and it
                # applies everywhere in mailq"
                scope = _scope_of(session, whole) if whole and hit.kind != "decision" else None
                def tie(turns: set[int]) -> list[tuple[str, str]]:  # (an item of a list of rules: what it says,
                    return anchor_refs(session, u.index, turns, item or s, item or u.text,  # not what the others name)
                                       alone=item is not None)
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
        out = [p for p in _one_per_choice(out) if not _PRONOUN_END.search(p.title.rstrip(".!"))
               and not _VAGUE.match(p.title)]  # "keep it, and
        # write a comment …", "do that": says of nothing what it is
        for p in out:
            p.refs = _with_class(p.refs)
            if p.kind == "invariant" and _EACH.search(p.title):
                p.refs = _with_file(p.refs)
        return out


# a statement against a proposal that rules beyond it: "no dom, no window in anything that renders"
_ANYWHERE = re.compile(r"\b(?:at all|anything|anywhere|everywhere|in any \w+|never|always|ever|only ever|nothing|"
                       r"for the (?:whole )?life(?:time)? of)\b", re.I)
# a rule that holds beyond the choice it came with ("amounts stay integers all the way through")
_UNIVERSAL = re.compile(r"\b(?:never|always|every|everywhere|anywhere|any|all|nothing|no \w+ ever|end to end|throughout|"
                        r"all the way|no matter)\b", re.I)


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


# -- a person's rules as a list ---------------------------------------------------------------------------

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


# -- leads: what the rules could not read ----------------------------------------------------------------

MAX_LEADS = 5
# words a rule or a choice is said with, whatever the phrasing around them
_RULE_WORD = re.compile(r"\b(?:must|never|always|only|has to|have to|needs? to|should(?:n't| not)?|don'?t ever|"
                        r"from now on|no longer|instead|rather|keep|stays?|remains?|out of scope|for now)\b", re.I)


def leads(session: Session, covered: set[int]) -> list[Lead]:
    """Where the person may have settled something no proposal quotes (``covered``: the
    transcript lines the proposals quote), before code changed: an answer to options the
    agent laid out, a turn-down of what it proposed or did, a sentence said like a rule. The
    structure, not the phrasing: the agent that asked is the one to say what was meant. The
    most recent first."""
    said = session.said()
    last_edit = max((c.index for c in session.edits()), default=-1)
    out: list[Lead] = []
    for k in range(len(said) - 1, -1, -1):
        u = said[k]
        if (u.line and u.line in covered) or not u.text.strip():
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
        if opts:  # the sentence of a long reply that speaks of the options, not its greeting
            named = max(sentences(u.text) or [words], key=lambda x: max(len(_stems(x) & _stems(o.head)) for o in opts))
            spoken = words if len(words) <= 160 or not any(_stems(named) & _stems(o.head) for o in opts) else \
                _around_sentence(u.text, named)
            why, quote = "answered options", f"{' / '.join(o.head for o in opts[:4])} → \"{spoken[:160]}\""
        elif agent is not None and (_TURN_DOWN.match(u.text) or _NEITHER.match(u.text)):
            why, quote = "turned down", f"\"{words[:200]}\""
        elif plan and _ASSENT.match(u.text) and len(u.text.split()) <= 6:  # "👍" to "I'll key it by (customer, id)"
            why, quote = "accepted the agent's plan", f"\"{plan[:160]}\" → \"{words[:40]}\""
        elif rules := [x for x in sentences(u.text) if _RULE_WORD.search(x) and not skipped(x)]:  # quoted from the
            # sentence that says it, not from the start of a long message
            why, quote = "sounds like a rule", f"\"{_around_sentence(u.text, rules[0])[:200]}\""
        else:
            continue
        out.append(Lead(u.line, u.at, why, quote))
        if len(out) == MAX_LEADS:
            break
    return out


__all__ = ["RuleExtractor", "classify", "sentences", "gotchas", "anchor_refs", "leads", "USER", "ASSISTANT"]
