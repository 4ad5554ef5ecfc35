"""The note-file reader, fuzzed: every input gives a note or a NoteError naming the file and a
line — never another exception — and a broken file beside good ones leaves them intact."""

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tether.core.notes import NoteError, parse_note
from tether.core.workspace import Workspace

GOOD = '''+++
id = "01m8aaaaaaaaaaaaaaaaaaaaaa"
kind = "decision"
title = "Amounts are integer cents"
tags = ["money"]

[[anchors]]
type = "symbol"
path = "src/billing.py"
name = "charge"
range = [3, 0, 9, 14]

[[checks]]
id = "no-float"
kind = "forbid-call"
pattern = "float"
+++

Sums must be exact.
'''

# pieces a damaged or hand-edited note file is made of
PIECES = st.sampled_from(["+++", "\n", "[", "]", "[[", "]]", "{", "}", "=", '"', "'", '"""', "\\", "#", ",",
                          "id", "kind", "type", "path", "range", "anchors", "checks", "<<<<<<< HEAD", "=======",
                          "..", "/", "\x00", "\ufeff", "\r\n", "é", "😀", "1e400", "-1", "[0,0,0,0]"])


def mutations():
    """The good note with pieces inserted, deleted or replaced, or random text."""
    edit = st.tuples(st.integers(0, len(GOOD)), st.integers(0, 40), st.lists(PIECES, max_size=8).map("".join))
    spliced = st.lists(edit, min_size=1, max_size=4).map(
        lambda edits: _apply(GOOD, edits))
    return st.one_of(spliced, st.text(max_size=400), st.lists(PIECES, max_size=60).map("".join))


def _apply(text: str, edits) -> str:
    for at, cut, insert in edits:
        at = min(at, len(text))
        text = text[:at] + insert + text[at + cut:]
    return text


@settings(max_examples=400, deadline=None)
@given(mutations())
def test_every_note_file_reads_or_names_its_error(text: str):
    try:
        note = parse_note(text, ".tether/notes/x.md")
    except NoteError as e:
        assert e.path == ".tether/notes/x.md" and e.line >= 1 and e.reason
    else:
        assert note.id and note.kind and note.title is not None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations())
def test_a_broken_note_file_leaves_the_others_intact(tmp_path: Path, text: str):
    root = tmp_path / "ws"
    notes = root / ".tether" / "notes"
    notes.mkdir(parents=True, exist_ok=True)
    for p in notes.iterdir():
        p.unlink()
    (notes / "01m8aaaaaaaaaaaaaaaaaaaaaa-good.md").write_text(GOOD, encoding="utf-8")
    (notes / "01m8bbbbbbbbbbbbbbbbbbbbbb-fuzzed.md").write_bytes(text.encode("utf-8", "surrogatepass"))
    ws = Workspace(root)
    try:
        read = {n.path for n in ws.notes()}
        broken = {e.path for e in ws.broken()}
        assert ".tether/notes/01m8aaaaaaaaaaaaaaaaaaaaaa-good.md" in read or "duplicate id" in " ".join(
            e.reason for e in ws.broken())
        assert ".tether/notes/01m8bbbbbbbbbbbbbbbbbbbbbb-fuzzed.md" in read | broken
    finally:
        ws.close()
