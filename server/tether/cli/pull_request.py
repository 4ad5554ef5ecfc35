"""A pull request's comment in Markdown, as GitHub renders it: the checks the change breaks,
then the notes on the code it touches.

Note text is anyone's Markdown, so each note is shown in a container it cannot leave: a
quoted block, whose fenced code is closed by tether (CommonMark ends a fence with its
container, and every fence is rewritten with backticks longer than any run inside it), with
no raw HTML (``<`` is written ``&lt;`` outside code: a ``<!--`` would hide what follows), no
unpaired backtick (a code span never reaches into the next line), mentions made inert (a
zero-width joiner after ``@``: no one is pinged on every pull request touching the code) and
no entity (``&#64;x`` is a mention once rendered), no e-mail address. Titles and messages are one bounded line. The whole comment stays under
GitHub's limit, and says at its end what it left out.
"""

from __future__ import annotations

import re

from ..context.ranking import note_markdown
from ..core.notes import Alternative
from ..core.records import replace
from ..core.text import closes, md_lines, open_fence, opens
from ..core.text import utf16_len as units  # as GitHub counts a comment's length

LIMIT = 65_000  # GitHub refuses a comment over 65,536 characters (UTF-16 units); a margin for the trailer
TITLE_CHARS = 200  # a title or a file name, at most (a longer one is cut, with "…")
MESSAGE_CHARS = 600  # a finding's message, at most
FINDINGS_SHARE = 0.5  # of the limit, when notes follow: a huge check does not crowd out every note
ZWJ = "\u200d"  # after "@": GitHub sees no mention, a reader sees the same text

_EMAIL = re.compile(r"\s*<[^<>\s@]+@[^<>\s@]+\.[^<>\s@]+>|[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_BACKTICKS = re.compile(r"`+")


def pull_request_markdown(findings, notes, ref: str | None) -> str:
    """The comment: ``findings`` (``Finding``s), then ``notes`` ((note, its located anchors)),
    each note in full while the comment has room, then a line each, then what was left out."""
    since = f" since {code(ref)}" if ref else ""
    out = ["## tether", ""]
    if not findings and not notes:
        return "\n".join(out + [f"No finding{since}" + (", and no note on the code this change touches." if ref
                                                         else ".")]) + "\n"
    size = units("\n".join(out)) + 400  # room for the trailer
    cut_findings = cut_notes = 0
    if findings:
        room = LIMIT * (FINDINGS_SHARE if notes else 1)
        out += [f"### {len(findings)} finding{'s' if len(findings) != 1 else ''}{since}", ""]
        for k, f in enumerate(findings):
            line = f"- **{f.severity}** {code(f'{f.path}:{f.line}')} {inline(f.message, MESSAGE_CHARS)}" + \
                (f" (note {code(f.note_id)})" if f.note_id else "")
            if size + units(line) + 1 > room:
                cut_findings = len(findings) - k
                break
            out.append(line)
            size += units(line) + 1
        out.append("")
    if notes:
        out += [f"### {len(notes)} note{'s' if len(notes) != 1 else ''} on the code this change touches", ""]
        brief = []
        for k, (note, located) in enumerate(notes):
            full = [] if brief else note_block(note, located)
            cost = sum(units(line) + 1 for line in full)
            if full and size + cost <= LIMIT:
                out += full
                size += cost
                continue
            line = f"- {inline(note.kind)}: {inline(note.title)} ({code(f'tether show {note.id}')})"
            if not brief:
                brief = ["#### More notes, too many to show in full here", ""]
                size += units(brief[0]) + 2
            if size + units(line) + 1 > LIMIT:
                cut_notes = len(notes) - k
                break
            brief.append(line)
            size += units(line) + 1
        out += brief
    elif ref:
        out += ["No note on the code this change touches.", ""]
    if cut_findings or cut_notes:
        left = " and ".join(f"{n} {what}{'s' if n != 1 else ''}" for n, what in
                            ((cut_findings, "finding"), (cut_notes, "note")) if n)
        out += ["", f"_Not shown, to keep this comment within GitHub's limit: {left}. "
                    f"Run {code('tether check' + (f' --changed-since {ref}' if ref else ''))} to see them all._"]
    return "\n".join(out).rstrip() + "\n"


def note_block(note, located) -> list[str]:
    """A note under its heading, everything after the heading in a quoted block."""
    note = replace(note, body=_closed(note.body), rationale=_closed(note.rationale, False),
                   works_around=_closed(note.works_around, False), remove_when=_closed(note.remove_when, False),
                   alternatives=[Alternative(_closed(a.option, False), _closed(a.rejected_because, False))
                                 for a in note.alternatives])  # a fence a field leaves open ends with the field
    md = note_markdown(note, "", located)  # "## kind: title", then the note as ``tether show`` writes it
    return [f"#### {inline(note.kind)}: {inline(note.title)}", *contained("\n".join(md[1:]).strip()), ""]


def contained(markdown: str) -> list[str]:
    """``markdown`` as lines of a quoted block that nothing in it can end or reach out of."""
    out: list[str] = []
    lines = md_lines(_redact(markdown))
    k = 0
    while k < len(lines):
        m = opens(lines[k])
        if m is None:
            out.append(_text(lines[k]))
            k += 1
            continue
        indent, fence, info = len(m.group(1)), m.group(2), m.group(3).strip()
        body, k = [], k + 1
        while k < len(lines):
            line = lines[k]
            k += 1
            if closes(line, fence):
                break
            body.append(re.sub(rf"^ {{0,{indent}}}", "", line))  # as CommonMark takes the indentation off
        ours = "`" * max([3] + [len(r) + 1 for line in body for r in _BACKTICKS.findall(line)])
        out += [ours + re.sub(r"[^\w+#.-].*", "", info), *body, ours]  # the language only: no backtick, no HTML
    return ["> " + line if line else ">" for line in out]


def _closed(text: str, at_line_start: bool = True) -> str:
    """``text`` with the fence it leaves open closed (``at_line_start``: see ``open_fence``)."""
    fence = open_fence(text, at_line_start)
    return text if fence is None else f"{text}\n{fence}"


def inline(text: str, limit: int = TITLE_CHARS) -> str:
    """``text`` as one line of Markdown, at most ``limit`` characters, inert."""
    one = " ".join(_redact(str(text)).split())
    if len(one) > limit:
        one = one[:limit - 1].rstrip() + "…"
    return _text(one).replace("#", "\\#").replace("~", "\\~")


def code(text: str, limit: int = TITLE_CHARS) -> str:
    """``text`` as an inline code span, whatever backticks it holds."""
    one = " ".join(_redact(str(text)).split())
    if len(one) > limit:
        one = one[:limit - 1] + "…"
    ticks = "`" * (max([0] + [len(r) for r in _BACKTICKS.findall(one)]) + 1)
    pad = " " if one.startswith("`") or one.endswith("`") else ""
    return f"{ticks}{pad}{one}{pad}{ticks}"


def _redact(text: str) -> str:
    """No e-mail address: an author's ``Name <a@b.c>`` is their name."""
    return _EMAIL.sub(lambda m: "" if m.group(0).lstrip().startswith("<") else "(e-mail address)", text)


def _text(line: str) -> str:
    """One line outside fenced code, inert: code spans kept as they are (paired as CommonMark
    pairs them, within the line), every other backtick escaped (so no span reaches into the
    next line, where this pairing would no longer be CommonMark's), ``<`` written ``&lt;``,
    a mention broken, a footnote (which GitHub moves out of the quote) not made."""
    out, i, n = [], 0, len(line)
    while i < n:
        c = line[i]
        if c == "\\" and i + 1 < n and line[i + 1] in _PUNCTUATION:  # an escape: both characters as they are
            out.append(line[i:i + 2] if line[i + 1] != "@" else "\\@" + ZWJ)  # "\@x" renders "@x": a mention
            i += 2
        elif c == "`":
            run = _BACKTICKS.match(line, i).group(0)
            close = next((m for m in _BACKTICKS.finditer(line, i + len(run)) if len(m.group(0)) == len(run)), None)
            if close is None:
                out.append("\\`" * len(run))
                i += len(run)
            else:
                out.append(line[i:close.end()])
                i = close.end()
        elif c in "<&":  # no HTML, and no entity either ("&#64;" renders "@", "&#60;" is only text anyway)
            out.append("&lt;" if c == "<" else "&amp;")
            i += 1
        elif c == "@" and i + 1 < n and (line[i + 1].isalnum() or line[i + 1] in "-_"):
            out.append("@" + ZWJ)
            i += 1
        elif c == "[" and line.startswith("[^", i):
            out.append("\\[")
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
