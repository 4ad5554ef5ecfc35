"""The note file format: TOML front matter between ``+++`` lines, then a Markdown body.

Files tether writes must read back and write out byte for byte the same; keys tether
does not know must survive; ids must be unique and sort by creation time.
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tether.core import anchors as A
from tether.core.notes import (
    KINDS,
    Alternative,
    Note,
    NoteError,
    format_note,
    new_id,
    parse_note,
)
from tether.core.text import Range
from tether.core.workspace import Workspace

from samples import APP_PY as PY, WEB_TS as TS, git_init  # noqa: E402


TRICKY = 'He said "no" \\ twice,\nthen left: é ü 漢字 😀 \'single\' """triple""" \\n literal\n\ttabbed line\nend\\'


def git_repo(root: Path) -> Path:
    git_init(root)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(PY, encoding="utf-8")
    (root / "src" / "web.ts").write_text(TS, encoding="utf-8")
    return root


@pytest.fixture
def ws(tmp_path, monkeypatch):
    root = git_repo(tmp_path / "repo")
    monkeypatch.chdir(root)  # paths given to the workspace are relative to the working directory
    w, created = Workspace.init(root)
    assert created
    yield w
    w.close()


def roundtrip(text: str, path: str = ".tether/notes/x.md") -> str:
    return format_note(parse_note(text, path))


# -- files tether writes ---------------------------------------------------------------------

def _record_every_kind(ws: Workspace) -> list[Note]:
    rejected = [("lazy loading", 'too slow: "measured" 3\\4 times'), ("no cache", "")]
    return [
        ws.record("decision", "src/app.py", 3, 0, title="Load config eagerly", rationale=TRICKY,
                  rejected=rejected, tags=["perf", "config", "ünïcode"], body="Some *markdown*.\n\n- a\n- b\n"),
        ws.record("invariant", "src/app.py", 12, 8, how=A.SPAN, title="port is set before start returns",
                  tags=["safety"]),
        ws.record("boundary", "src/web.ts", 1, 2, title="handle() only sees validated input",
                  rationale="single line with \"quotes\" and \\ backslash"),
        ws.record("intent", "src/web.ts", how=A.FILE, title="Router stays stateless", body="no body newline"),
        ws.record("workaround", "src/**", how=A.GLOB, title="pin the parser",
                  works_around="upstream bug #12:\nit \"crashes\" on \\r\\n", remove_when="parser >= 2.0 ships"),
        ws.record("gotcha", "src/app.py", 3, 0, title="A relative config path is read from the process's folder",
                  failure="FileNotFoundError: config.toml", cause="open() resolves against the current folder"),
    ]


def test_every_kind_written_by_tether_round_trips_exactly(ws):
    notes = _record_every_kind(ws)
    assert sorted(n.kind for n in notes) == sorted(KINDS)
    for n in notes:
        path = ws.root / n.path
        text = path.read_text(encoding="utf-8")
        assert text.startswith("+++\n")
        assert roundtrip(text, n.path) == text, n.kind


def test_written_fields_read_back_unchanged(ws):
    notes = {n.kind: n for n in _record_every_kind(ws)}
    for kind, n in notes.items():
        back = parse_note((ws.root / n.path).read_text(encoding="utf-8"), n.path)
        assert back.id == n.id and back.kind == kind and back.title == n.title
        assert back.status == "active"
        assert back.author == "Ada Lovelace <ada@example.com>"
        assert back.created and back.updated
    d = parse_note((ws.root / notes["decision"].path).read_text(encoding="utf-8"), "d.md")
    assert d.rationale == TRICKY.strip()
    assert d.tags == ["perf", "config", "ünïcode"]
    assert [(a.option, a.rejected_because) for a in d.alternatives] == [
        ("lazy loading", 'too slow: "measured" 3\\4 times'), ("no cache", "")]
    assert d.body == "Some *markdown*.\n\n- a\n- b\n"
    a = d.anchors[0]
    assert (a.type, a.path, a.name, a.lang) == ("symbol", "src/app.py", "load_config", "python")
    assert a.range == Range(3, 0, 7, 15)
    assert a.hash and a.sketch

    inv = parse_note((ws.root / notes["invariant"].path).read_text(encoding="utf-8"), "i.md")
    assert inv.anchors[0].type == "span" and inv.anchors[0].name == "Service.start"
    assert inv.confirmed and inv.confirmed["hash"] == inv.anchors[0].hash

    b = parse_note((ws.root / notes["boundary"].path).read_text(encoding="utf-8"), "b.md")
    assert b.anchors[0].name == "handle" and b.anchors[0].lang == "typescript"

    i = parse_note((ws.root / notes["intent"].path).read_text(encoding="utf-8"), "i.md")
    assert i.anchors[0].type == "file" and i.anchors[0].path == "src/web.ts"
    assert i.body == "no body newline\n"

    w = parse_note((ws.root / notes["workaround"].path).read_text(encoding="utf-8"), "w.md")
    assert w.anchors[0].type == "glob" and w.anchors[0].pattern == "src/**"
    assert w.works_around == 'upstream bug #12:\nit "crashes" on \\r\\n'
    assert w.remove_when == "parser >= 2.0 ships"


def test_file_name_is_id_and_slug(ws):
    n = ws.record("decision", "src/app.py", 3, 0, title="Load  Config: *eagerly*!")
    assert Path(n.path).name == f"{n.id}-load-config-eagerly.md"
    assert n.path == f".tether/notes/{n.id}-load-config-eagerly.md"


def test_retire_and_supersede_rewrites_round_trip(ws):
    a = ws.record("decision", "src/app.py", 3, 0, title="old", rationale="multi\nline")
    b = ws.record("decision", "src/app.py", 3, 0, title="new")
    ws.supersede(a.id, b.id)
    ws.retire(b.id)
    for n in (a, b):
        text = (ws.root / n.path).read_text(encoding="utf-8")
        assert roundtrip(text) == text
    ta = parse_note((ws.root / a.path).read_text(encoding="utf-8"), a.path)
    assert (ta.status, ta.superseded_by) == ("superseded", b.id)
    assert parse_note((ws.root / b.path).read_text(encoding="utf-8"), b.path).status == "retired"


# -- formatting Notes built in memory ------------------------------------------------------

def _full_note(kind: str) -> Note:
    return Note(
        id=new_id(), kind=kind, title='Title with "quotes" \\ and ünïcode ✓', author="A <a@b.c>",
        created="2024-01-02T03:04:05Z", updated="2024-01-02T03:04:06Z", tags=["x", "y z", 'q"uote'],
        rationale=TRICKY if kind == "decision" else "",
        works_around="line one\nline two" if kind == "workaround" else "",
        remove_when="when upstream fixes it" if kind == "workaround" else "",
        failure="KeyError: 'tz'\nin parse()" if kind == "gotcha" else "",
        cause="the feed omits \"tz\" on holidays" if kind == "gotcha" else "",
        task="JIRA-12" if kind == "intent" else "",
        alternatives=[Alternative("opt A", "why\nnot"), Alternative("opt B")] if kind == "decision" else [],
        checks=[{"id": "no-system", "kind": "forbid-call", "pattern": "os.system"}] if kind == "invariant" else [],
        confirmed={"by": "A", "at": "2024-01-02T03:04:05Z", "hash": "abc"} if kind == "invariant" else {},
        anchors=[A.Anchor("symbol", path="src/a.py", lang="python", node="function_definition", name="f",
                          params="(x)", hash="0123456789abcdef", sketch=[1, 0xDEADBEEF, 7], range=Range(1, 0, 4, 9)),
                 A.Anchor("glob", pattern="src/**/*.py")],
        body="# Heading\n\nParagraph with `code` and a +++ in the middle.\n",
    )


@pytest.mark.parametrize("kind", KINDS)
def test_in_memory_note_of_every_kind_round_trips(kind):
    note = _full_note(kind)
    text = format_note(note)
    back = parse_note(text, "n.md")
    assert format_note(back) == text
    for f in ("id", "kind", "title", "status", "author", "created", "updated", "tags", "rationale",
              "works_around", "remove_when", "failure", "cause", "task", "alternatives", "checks", "confirmed", "anchors", "body"):
        assert getattr(back, f) == getattr(note, f), f


def test_keys_written_in_fixed_order_and_empty_ones_left_out():
    text = format_note(_full_note("workaround"))
    keys = re.findall(r"^(\w+) = ", text.split("\n[[")[0], re.M)
    assert keys == ["id", "kind", "title", "status", "author", "created", "updated", "tags",
                    "works_around", "remove_when"]
    assert "rationale" not in text and "superseded_by" not in text and "[[alternatives]]" not in text


def test_unknown_keys_and_tables_are_kept():
    text = (
        "+++\n"
        'id = "01hzzzzzzzzzzzzzzzzzzzzzzz"\n'
        'kind = "decision"\n'
        'title = "hand written"\n'
        'status = "active"\n'
        'reviewer = "bob"\n'
        "priority = 3\n"
        "urgent = true\n"
        "ratio = 0.5\n"
        "due = 2025-06-01\n"
        'labels = ["a", "b"]\n'
        "\n"
        "[[anchors]]\n"
        'type = "file"\n'
        'path = "src/a.py"\n'
        "\n"
        "[meta]\n"
        'source = "adr-7"\n'
        "weight = 2\n"
        "\n"
        "[[links]]\n"
        'url = "https://example.com/a"\n'
        "\n"
        "[[links]]\n"
        'url = "https://example.com/b"\n'
        "+++\n"
        "\n"
        "Body.\n"
    )
    n = parse_note(text, "h.md")
    assert n.extra == {"reviewer": "bob", "priority": 3, "urgent": True, "ratio": 0.5,
                       "due": dt.date(2025, 6, 1), "labels": ["a", "b"],
                       "meta": {"source": "adr-7", "weight": 2},
                       "links": [{"url": "https://example.com/a"}, {"url": "https://example.com/b"}]}
    assert format_note(n) == text


def test_unknown_keys_survive_a_rewrite_by_tether(ws):
    n = ws.record("decision", "src/app.py", 3, 0, title="keep my keys")
    path = ws.root / n.path
    text = path.read_text(encoding="utf-8")
    text = text.replace('status = "active"\n', 'status = "active"\nreviewer = "bob"\n', 1)
    text = text.replace("\n+++\n", '\n\n[meta]\nsource = "adr-7"\n+++\n', 1)
    path.write_text(text, encoding="utf-8")
    ws.retire(n.id)
    back = parse_note(path.read_text(encoding="utf-8"), n.path)
    assert back.status == "retired"
    assert back.extra == {"reviewer": "bob", "meta": {"source": "adr-7"}}


def test_unknown_keys_that_need_quoting_are_kept():
    """TOML allows quoted keys such as "see also" or "a.b"; writing them back bare breaks
    the file ("see also = ...") or silently turns them into a table ("a.b = 1")."""
    text = (
        "+++\n"
        'id = "01hzzzzzzzzzzzzzzzzzzzzzzz"\n'
        'kind = "decision"\n'
        'title = "quoted keys"\n'
        'status = "active"\n'
        '"a.b" = 1\n'
        '"see also" = "x"\n'
        "+++\n"
    )
    n = parse_note(text, "q.md")
    assert n.extra == {"a.b": 1, "see also": "x"}
    assert parse_note(format_note(n), "q.md").extra == n.extra


@pytest.mark.parametrize("value", [
    TRICKY,
    "ends with a quote\"",
    "ends with a backslash\\",
    "\nstarts with a newline",
    "trailing newlines\n\n",
    "control \x01 \x1f \x7f and \r\n windows",
    "\"\"\" triple quotes on their own\n\"\"\"",
    "tab\tand\ttabs\nand line 2",
    "a line\n[[anchors]]\ntype = \"file\"\nlooking like TOML",
])
def test_multiline_text_values_round_trip(value):
    note = Note(id=new_id(), kind="decision", title="t", rationale=value, works_around=value,
                remove_when=value, body="b\n", alternatives=[Alternative("o", value)])
    text = format_note(note)
    back = parse_note(text, "m.md")
    assert back.rationale == value
    assert back.works_around == value and back.remove_when == value
    assert back.alternatives[0].rejected_because == value
    assert format_note(back) == text


def test_multiline_rationale_with_a_fence_line_round_trips():
    """A rationale holding a line that is exactly '+++' (e.g. quoting another note) is
    written inside a TOML multi-line string, but the reader takes that line for the end
    of the front matter: tether writes a file it cannot read back."""
    note = Note(id=new_id(), kind="decision", title="t", rationale="see the other note:\n+++\nend")
    text = format_note(note)
    back = parse_note(text, "f.md")
    assert back.rationale == "see the other note:\n+++\nend"
    assert format_note(back) == text


def test_body_with_setext_heading_is_not_a_merge_conflict():
    """A Markdown heading underlined with exactly seven '=' is ordinary Markdown, not a
    merge conflict marker."""
    note = Note(id=new_id(), kind="decision", title="t", body="Summary\n=======\n\nText.\n")
    text = format_note(note)
    back = parse_note(text, "s.md")
    assert back.body == note.body
    assert format_note(back) == text


def test_body_variants_round_trip():
    for body in ("", "x\n", "\n\nstarts blank\n", "+++\nlooks like a fence\n+++\n", "no newline at end\n",
                 "ünïcode ✓ 😀\n", "trailing blank lines\n\n\n"):
        note = Note(id=new_id(), kind="intent", title="t", body=body)
        text = format_note(note)
        back = parse_note(text, "b.md")
        assert back.body == body, repr(body)
        assert format_note(back) == text


_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)


def _no_known_bug(s: str) -> bool:
    # lines exactly '+++' or conflict-marker-like lines are covered by the tests above
    return not any(line.strip() == "+++" or re.match(r"(<{7}|={7}|>{7})( |$)", line)
                   for line in s.split("\n"))


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(title=_text.filter(lambda s: s.strip() and "\n" not in s and "\r" not in s),
       rationale=_text.filter(_no_known_bug), tags=st.lists(_text, max_size=3),
       option=_text, why=_text.filter(_no_known_bug), body=_text.filter(_no_known_bug))
def test_any_text_round_trips(title, rationale, tags, option, why, body):
    note = Note(id=new_id(), kind="decision", title=title, rationale=rationale, tags=tags,
                alternatives=[Alternative(option, why)], body=body)
    text = format_note(note)
    back = parse_note(text, "p.md")
    assert (back.title, back.rationale, back.tags) == (title, rationale, tags)
    assert (back.alternatives[0].option, back.alternatives[0].rejected_because) == (option, why)
    assert format_note(back) == text


# -- hand-written files --------------------------------------------------------------------

def test_minimal_hand_written_note_parses():
    text = '+++\nid = "01hzzzzzzzzzzzzzzzzzzzzzzz"\nkind = "invariant"\ntitle = "never block the loop"\n+++\nBecause.\n'
    n = parse_note(text, ".tether/notes/hand.md")
    assert (n.id, n.kind, n.title, n.status) == ("01hzzzzzzzzzzzzzzzzzzzzzzz", "invariant", "never block the loop", "active")
    assert n.anchors == [] and n.tags == [] and n.extra == {}
    assert n.body == "Because.\n"
    assert n.path == ".tether/notes/hand.md"
    # written back in tether's own form, which is then stable
    once = format_note(n)
    assert format_note(parse_note(once, "x.md")) == once


def test_hand_written_note_with_bom_parses():
    text = ('\ufeff+++\nid = "01hzzzzzzzzzzzzzzzzzzzzzzz"\nkind = "boundary"\ntitle = "t"\n'
            '\n[[anchors]]\ntype = "glob"\npattern = "src/**"\n+++\nbody\n')
    n = parse_note(text, "h.md")
    assert n.kind == "boundary" and n.anchors[0].pattern == "src/**"
    assert n.body == "body\n"


def test_hand_written_note_with_crlf_line_ends_parses():
    """Windows editors, and git with core.autocrlf=true, check note files out with CRLF
    line ends; such a file must still read."""
    text = ('+++\r\nid = "01hzzzzzzzzzzzzzzzzzzzzzzz"\r\nkind = "boundary"\r\ntitle = "t"\r\n'
            '\r\n[[anchors]]\r\ntype = "glob"\r\npattern = "src/**"\r\n+++\r\nbody\r\n')
    n = parse_note(text, "h.md")
    assert (n.kind, n.title) == ("boundary", "t")
    assert n.anchors[0].pattern == "src/**"


@pytest.mark.parametrize("text,line,words", [
    ("", 1, "starts with a '+++' line"),
    ("id = 1\n", 1, "starts with a '+++' line"),
    ('+++\nid = "x"\nkind = "decision"\ntitle = "t"\n', 5, "not closed"),
    ('+++\nid = "x"\nkind = "decision"\ntitle = "t\nstatus = "active"\n+++\n', 4, "invalid TOML"),
    ('+++\nid = "x"\nkind = "opinion"\ntitle = "t"\n+++\n', 3, "unknown kind 'opinion'"),
    ('+++\nid = "x"\nkind = "decision"\n+++\n', 1, "missing required key 'title'"),
    ('+++\nid = "x"\nkind = "decision"\ntitle = ""\n+++\n', 4, "'title' must be a non-empty string"),
    ('+++\nid = "x"\nkind = "decision"\ntitle = "t"\nstatus = "dead"\n+++\n', 5, "unknown status 'dead'"),
    ('+++\nid = "x"\nkind = "decision"\ntitle = "t"\ntags = "a"\n+++\n', 5, "'tags' must be a list"),
    ('+++\nid = "x"\nkind = "decision"\ntitle = "t"\n\n[[anchors]]\ntype = "nope"\npath = "a"\n+++\n', 6,
     "anchor type 'nope'"),
    ('+++\nid = "x"\nkind = "decision"\ntitle = "t"\n[[anchors]]\ntype = "symbol"\n+++\n', 5, "needs a 'path'"),
    ('+++\nid = "x"\nkind = "decision"\ntitle = "t"\n[[anchors]]\ntype = "file"\npath = "a"\nrange = [1, 2]\n+++\n',
     5, "'range'"),
    ('+++\nid = "x"\nkind = "decision"\n<<<<<<< HEAD\ntitle = "a"\n=======\ntitle = "b"\n>>>>>>> br\n+++\n', 4,
     "merge conflict"),
])
def test_bad_files_raise_note_error_with_line_and_reason(text, line, words):
    with pytest.raises(NoteError) as ei:
        parse_note(text, ".tether/notes/bad.md")
    e = ei.value
    assert e.path == ".tether/notes/bad.md"
    assert e.line == line, (e.line, e.reason)
    assert words in e.reason
    assert str(e).startswith(f".tether/notes/bad.md:{line}: ")


# -- ids -----------------------------------------------------------------------------------

def test_ids_are_unique():
    ids = [new_id() for _ in range(20000)]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[0-9a-hjkmnp-tv-z]{26}", i) for i in ids)


def test_ids_sort_by_time():
    ids = []
    for _ in range(20):
        ids.append(new_id())
        time.sleep(0.002)
    assert ids == sorted(ids)
    # the first 10 characters are the millisecond timestamp
    ms = int(time.time() * 1000)
    B32 = "0123456789abcdefghjkmnpqrstvwxyz"
    stamp = 0
    for c in new_id()[:10]:
        stamp = stamp * 32 + B32.index(c)
    assert abs(stamp - ms) < 5000


def test_ids_unique_across_processes():
    code = "from tether.core.notes import new_id\nprint('\\n'.join(new_id() for _ in range(2000)))"
    import sys
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True) for _ in range(3)]
    ids = []
    for p in procs:
        out, _ = p.communicate(timeout=60)
        ids += out.split()
    assert len(ids) == 6000 and len(set(ids)) == 6000
