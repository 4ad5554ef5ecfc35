"""Reads what went wrong in a session: a command that failed, then the edit that fixed it; a
bug the person reports (pasted or told) that the agent diagnoses and fixes. Both are gotchas.

| kind | what is read |
|---|---|
| gotcha | a failed command (its error text), then an edit, then the same command succeeding — with the agent's explanation ("fails because…", "the problem is…") as the title when it gave one, else its first sentence on the code it then fixed as evidence; not a test the session's own change broke and it then updated, nor a failure that neither names the code then edited nor is talked about in its words |
| gotcha | the person reports a bug with what they saw pasted in (a traceback, an error, a query's output) — or tells it in words ("cli never exits now", "the axis is empty") and the agent names a cause ("That's the sweep timer: …") — the agent diagnoses it (after reproducing it, maybe) before editing, then fixes it in the same turn: its diagnosis is the title, all of it the evidence, every fix of the turn the code; not a change the person asks for with an example pasted ("want this: … today it's sorted"), nor the agent's account of what the code does today |
| (its failure) | a failing test the agent wrote to reproduce what the person reported: what they saw ("> Our 'Doing' column says 5/3 …"), not the test's output |
"""

from __future__ import annotations

import re

from ..candidates import TEST_PATH as _TEST_PATH
from ..candidates import Evidence
from ..session import MAX_SYMBOLS, Call, Proposal, Session, Utterance
from ..transcript import ASSISTANT, TOOL, USER
from .sentences import _around_sentence, _DISCOURSE, _LEAD_IN, _NARRATION, sentences, skipped, title_of
from .edits import _mentions, _refs_of, _with
from .wording import remark, without_lead


_ERROR_LINE = re.compile(r"^\s*(?:E\s+)?((?:[\w.]+(?:Error|Exception|Failure)|error(?:\[\w+\])?|fatal|panic|"
                         r"FAILED|AssertionError|Traceback)\b.*)$", re.M)
_CAUSE = re.compile(r"\b(?:fails? because|failing because|failed because|breaks because|because|the (?:problem|issue|"
                    r"cause|culprit|bug) (?:is|was)(?: that)?|turns out(?: that)?|root cause(?: is)?|happens because|"
                    r"caused by|due to)\s+(?P<why>.{8,})$", re.I)
_REFUSED = re.compile(r"(doesn't want to proceed|was rejected|interrupted by user|permission)", re.I)


# a linter or a formatter failing, then a fix: the tool's rule, kept; no trap of this code
_LINT = re.compile(r"^\s*(?:(?:npx|pnpm|yarn|uv run|poetry run|pipx run|python3? -m|bunx)\s+)?(?:\S*/)?(?:ruff|"
                   r"flake8|pylint|pycodestyle|pyflakes|eslint|prettier|black|isort|gofmt|golangci-lint|rustfmt|"
                   r"cargo (?:fmt|clippy)|stylelint|markdownlint|shellcheck|biome)\b", re.I)


# the session's own slip, fixed at once — a name misspelt, an import left out, a syntax error — or one the agent
# owns up to ("Forgot the import.", "typo"): a test failure fixed in the session, no trap of the code
_SLIP = re.compile(r"\b(?:NameError|IndentationError|TabError|SyntaxError: invalid syntax|ReferenceError: \S+ is not "
                   r"defined|Cannot find name|cannot import name)\b")
_OWNED = re.compile(r"\b(?:i|we) (?:forgot|missed|misspel\w*|mistyped)\b|^\W*(?:forgot|oops|whoops|typo)\b|"
                    r"\bmy (?:mistake|bad|typo)\b|\b(?:a|the) missing import\b", re.I)


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
        if not (f.error and f.command) or _REFUSED.search(f.output) or _LINT.match(f.command):
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
        if _SLIP.search(f.output) or any(_OWNED.search(x) for x in sentences(between)):
            continue  # the session's own slip
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
        if explanation is None:  # what the agent said between the failure and the fix, whatever it names: the
            # sentence that quotes code or explains after a colon ("That's the classic trap: adding a `timedelta` …")
            said = [(u, x) for u in events[f.index + 1:fix.index] if isinstance(u, Utterance) and u.who == ASSISTANT
                    for x in sentences(u.text) if not x.rstrip().endswith("?") and not _NARRATION.match(x)]
            explanation = max(said, key=lambda ux: ("`" in ux[1], ": " in ux[1]), default=None)
            if explanation is not None:
                lead = _LEAD_IN.match(explanation[1])  # "That's the classic trap: …": what follows the colon
                cause = explanation[1][lead.end():] if lead else explanation[1]
                cause = cause.strip().rstrip(".!")
        err = error_line(f.output)
        if explanation is None:
            continue  # nobody said why it failed: its output is no title (the agent is asked at Stop)
        told = next((u for u in reversed(events[:f.index]) if isinstance(u, Utterance) and u.who == USER and
                     u.turn == f.turn), None)
        if told is not None and any(_TEST_PATH.search(c.path) for c in session.edits({f.turn}) if c.index < f.index):
            err = _symptom(told.text) or err  # a test written to reproduce what the person reported: their symptom
        title = title_of(cause) if cause and len(cause.split()) >= 4 else title_of(explanation[1])
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
        out.append(Proposal("gotcha", title, conf, refs, evidence, cause, works_around=err))
    return out


def _symptom(text: str) -> str:
    """What the person saw, as they reported it: a line quoted from a ticket ("> Our 'Doing'
    column says 5/3 …"), else the sentence that tells a symptom, else the error pasted; "" when
    none."""
    quoted = [ln.lstrip("> ").strip() for ln in text.split("\n") if ln.startswith(">") and ln.strip("> ")]
    told = [x for x in sentences(text) if _SYMPTOM.search(x) and not x.rstrip().endswith("?")]
    seen = (sentences(quoted[0])[:1] if quoted else []) or told[:1] or \
        ([error_line(text)] if _ERROR_LINE.search(text) else [])
    return seen[0][:200].rstrip(".") if seen else ""


def _names_code(text: str, call: Call) -> bool:
    """The text names the file an edit changed or a definition it touched."""
    name = call.path.rsplit("/", 1)[-1]
    return name in text or name.rsplit(".", 1)[0] in text and len(name) > 6 or \
        any(_mentions(text, sym) for sym in call.symbols)


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


# the person asks for other behaviour, what they pasted shows what they want: no bug reported
_WANTED = re.compile(r"(?:^|\n|[.!]\s+)\s*(?:i\s+|we\s+)?(?:want|need|would like)\s+(?:this|it|that|the)\b|"
                     r"\btoday it'?s\b", re.I)
# what the code does today, as the agent tells it before changing it
_TODAY = re.compile(r"^\W*(?:today|currently|right now|at the moment|as it stands),?\s", re.I)


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
        first = next((x for x in sentences(diag.text) if not skipped(x) and len(x.split()) >= 5 and
                      not remark(without_lead(x))), "")  # not "I think I know this one.": what it found
        if not first or _NARRATION.match(first) or not pasted and not _DIAGNOSED.search(first):
            continue  # told, not pasted: only with a diagnosis ("That's the sweep timer: …", "it's floating point")
        if _WANTED.search(u.text) and not _SYMPTOM.search(u.text) or _TODAY.match(first):
            continue  # a change asked for ("want this: the order they typed. today it's sorted"), the agent's
            # account of what the code does today: the behaviour the session replaces, no trap
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
