"""Reads the agent's messages for what it offers the person to choose from: options laid out
(a list after "options" / "two ways" / "either" / "do you want:", lettered, numbered, bulleted,
"Option A:" lines, headings, the rows of a markdown table — or its columns, when the first
header cell is empty; "either X, or Y", "should it return X or raise Y?"), numbered questions,
the option it recommends, and which option a word names (a label, an ordinal, its words).
:mod:`.answers` reads the person's reply to them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...core.notes import Alternative

from .sentences import _BULLET, _EMPH, _FENCE, sentences, _stems


@dataclass
class Option:
    label: str  # "a", "2", … ("" for options named in a sentence)
    head: str  # what the option is
    why: str  # what the agent said for or against it
    quote: str  # the option as written

    def rejected(self) -> Alternative:
        """The option as turned down: what the agent said against it is the reason — from the
        clause that holds it, not the description before ("One-line change, but the word gets
        hard to see" → "the word gets hard to see"); what only describes it ("— round half to
        even") belongs to the option when short, and no reason is given."""
        against = _against(self.why)
        if against:
            return Alternative(self.head, against)
        said = re.split(r"(?<=[.;!])\s", self.why, maxsplit=1)[0].rstrip(".;!")
        while re.search(r"\s\([^()]*\)", said):  # (its asides in brackets left out)
            said = re.sub(r"\s\([^()]*\)", "", said)
        brief = said and len(said.split()) <= 16 and not said.startswith("(")  # a long description is no part of its name
        return Alternative(f"{self.head} — {said}" if brief else self.head, "")


def _against(why: str) -> str:
    """What of an option's description holds something against it: its sentences that do,
    each from its "but" on ("(0.35 → 0.12). One-line change, but the word gets hard to see"
    → "the word gets hard to see"); "" when none does — also "Keep refusing the drop, but
    return a reason": a "but" that goes on describing (a verb as the option's own, no word
    against it after) holds nothing."""
    out, buts = [], []
    cons = False  # after "**Cons:**", until what it has for it is said again
    for s in re.split(r"(?<=[.;!])\s+", why.strip()):
        if _FOR_IT.match(s) or s.rstrip().endswith("?"):
            cons = False
            continue  # a table's "how: …", "good: …": what it is, what it has for it
        label = _AGAINST_LABEL.match(s)  # "**Cons:** …", a table's "bad: …", "trade-off: …"
        s = s[label.end():] if label else s
        cons = labelled = label is not None or cons and not _LABEL.match(s)  # ("**What I'd do:** …" ends them)
        m = re.search(r"(?:^|,\s*|\s)(?:but|−)\s+(?P<rest>.+)$", s, re.I)  # ("+ in order − a request per key")
        if m is not None and (_AGAINST.search(m.group("rest")) or not _DESCRIBES.match(m.group("rest"))):
            buts.append(m.group("rest") if m.start() else s)
        elif m is None and (labelled or _AGAINST.search(s)):
            (buts if labelled else out).append(s)
    # a "but" says what holds against it; the other sentences, then, describe it ("draw only the outlines")
    return " ".join(buts or out).rstrip(".;!")


_AGAINST_LABEL = re.compile(r"^\W*(?:cons?|bad|downsides?|trade-?offs?|risks?)\W*:\W*", re.I)
_LABEL = re.compile(r"^\W*[\w' ]{2,24}:\W*(?:\s|$)")
_FOR_IT = re.compile(r"^\W*(?:how|what|good|pros?|upsides?)\W*:", re.I)
# "but return a reason", "but keep the old one": a "but" that goes on describing the option, as an order
_DESCRIBES = re.compile(r"^(?!(?:the|a|an|it|its|this|that|they|them|you|we|every|each|some|any|no|not|nothing|"
                        r"another|other|one|still|also|then|only|even)\b)[a-z]+(?<!s)(?<!ed)(?<!ing)\b")


# words that hold something against an option ("but another service to run", "lost on restart", "too slow")
_AGAINST = re.compile(r"\b(?:but|though|too|not|no|never|lose[sd]?|losing|lost|hides?|drift\w*|slow\w*|risk\w*|"
                      r"overkill|break\w*|fail\w*|cost\w*|expensive|complex\w*|complicated|harder|worse|downsides?|"
                      r"cons?|only|needs?|requires?|another|extra|heavy|brittle|fragile|leak\w*|races?|lock\w*|"
                      r"block\w*|wrong|surpris\w*|confus\w*|ugly|messy|unless|bug\w*|stale|dupes?|duplicat\w*)\b|"
                      r"n't\b", re.I)


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
                     r"(?:\(?a\)\s*)?(?P<a>(?:[^.?!;]|[.!](?=\S)){3,240}?),?\s+(?:[—–-]\s+)?or\s+(?:\(?b\)\s*)?"
                     r"(?P<b>(?:[^.?!;]|[.!](?=\S)){3,120})", re.I)  # (a "!" or "." inside a word: "`#CYCLE!`")
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
_PICK_ORDINAL = re.compile(r"(?:^\s*|\b(?:the|do the|go with the|take the|use the|your|like your)\s+)(?P<n>first|1st|second|"
                           r"2nd|third|3rd|"
                           r"fourth|last|former|latter)\b(?!\s+(?:two|three|four|few|couple|\d))"
                           r"(?:\s+(?:one|option|way))?",
                           re.I)


_TABLE_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


# a column that says something about each row ("| | How | Good | Bad |"): the rows are the options
_ATTRIBUTE = re.compile(r"^\s*(?:how|what|why|when|where|who|pros?|cons?|good|bad|cost|effort|risk|notes?|downsides?|"
                        r"upsides?|complexity|trade-?offs?|impact|speed|size|change|description|details?)\b", re.I)
_WEIGHED = re.compile(r"\b(?:pros?|cons?|good|bad|upside|downside|trade-?off|cost|risk)s?\b", re.I)


def _cells(row: str) -> list[str]:
    """A table row's cells; a pipe escaped in a cell ("drifts \\| hides input") is text."""
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)]


def _tables_as_lists(body: str) -> str:
    """A markdown table of options (agents lay choices out so) as a list: a row's first cell
    is the option, the others what was said about it, under their column names."""
    lines, out, i = body.split("\n"), [], 0
    while i < len(lines):
        if i + 1 < len(lines) and _TABLE_ROW.match(lines[i]) and _TABLE_RULE.match(lines[i + 1]):
            header = _cells(_TABLE_ROW.match(lines[i]).group(1))
            if not _EMPH.sub("", header[0]).strip() and len(header) >= 3 and \
                    not any(_ATTRIBUTE.match(_EMPH.sub("", h)) or _WEIGHED.search(h) for h in header[1:]):
                # "| | plain JSON | v8.serialize | msgpack |": the options are the columns, the rows what is said of each
                rows = []
                i += 2
                while i < len(lines) and _TABLE_ROW.match(lines[i]):
                    rows.append(_cells(_TABLE_ROW.match(lines[i]).group(1)))
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
                cells = _cells(_TABLE_ROW.match(lines[i]).group(1))
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
            parts = [re.split(r",\s+(?:which|but|so|though)\b", x, maxsplit=1)[0] for x in parts]  # "…, which is
            # the one that stops replays": what is said of an option, not the option
            heads = [re.sub(r"\s+(?:fine|ok|okay|enough|good enough)$", "",  # "or is a module constant fine?"
                            re.sub(r"^(?:to\s+|we\s+|i\s+(?:can\s+)?|you\s+|is\s+|it\s+be\s+)", "", part.strip(" ,"),
                                   flags=re.I).strip(), flags=re.I) for part in parts]
            return [Option(str(n + 1), h, _said_about(text, h, heads[1 - n]), sent) for n, h in enumerate(heads)]
    return listed


def _said_about(text: str, head: str, other: str = "") -> str:
    """The sentence of ``text`` (other than the one naming the options) that speaks of
    ``head`` (by a word the ``other`` option does not have)."""
    key = _stems(head) - _stems(other)
    for sent in sentences(text):
        if _INLINE.search(sent) or _ASKED.search(sent) or _RECOMMEND.search(sent) or sent.rstrip().endswith("?"):
            continue  # ("Clamp or raise?" asks; it says nothing of either)
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


# "3. Symlinks: (a) record them …, (b) keep following them …, or (c) skip them …?": one question of a numbered list
_NUMBERED = re.compile(r"^\s*(?:\*\*)?(?P<n>[1-9])[.)](?:\*\*)?\s+(?P<q>\S.*)$")
_LETTERED = re.compile(r"(?:^|[\s:;,])\(?(?P<label>[a-e])\)\s+", re.I)  # "(a) record them …, (b) keep …"
_STATUS_QUO = re.compile(r"^\W*keep\b|\btoday'?s?\b(?: behaviou?r)?\)|\(today\b|\bas (?:it is|is|today|now)\b|"
                         r"\bcurrent behaviou?r\b", re.I)
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
