"""End-to-end tests of the language server: `python -m tether lsp` over stdio, driven by a
real pytest-lsp client, each test in its own git repository with its own `.tether/`.
What is asserted is what an editor shows its user: hovers, diagnostics, code actions and
what running them does to the note files, code lenses, and the custom requests."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import LanguageClient

from lsp_helpers import (AUTHOR, CONFIG, EMAIL, change, code_actions, codes, execute, hover, line_of, make_ws,
                         next_publish, open_doc, pos_of, request, shop_ws, start, wait_diags, wait_for)
from tether.core.notes import parse_note

APP_PY = '''\
import os


def load_config(path):
    """Load the configuration."""
    with open(path) as f:
        data = f.read()
    return data


def save_config(path, data):
    with open(path, "w") as f:
        f.write(data)


class Service:
    def start(self, port):
        self.port = port
        return True

    def stop(self):
        self.port = None
'''

TODAY = time.strftime("%Y-%m-%d", time.gmtime())


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


def app_ws(root: Path, text: str = APP_PY):
    """app.py with a decision on load_config and an invariant on Service.start."""
    ws = make_ws(root, {"app.py": text})
    dec = ws.record("decision", "app.py", line_of(text, "def load_config"), 4, title="Config is read whole",
                    rationale="Config files are small; one read keeps errors in one place.",
                    rejected=[("streaming parser", "needs a dependency for a 2 kB file"),
                              ("mmap", "no gain below a page")])
    inv = ws.record("invariant", "app.py", line_of(text, "def start"), 8, title="start is idempotent",
                    body="Calling start twice must not open a second port.\n")
    ws.close()
    return dec, inv


def errors_shown(client: LanguageClient) -> list[str]:
    """Error pop-ups (window/showMessage) the user has seen."""
    return [m.message for m in client.messages if m.type == T.MessageType.Error]


def note_file(root: Path, note) -> Path:
    return root / note.path


# -- hover --------------------------------------------------------------------------------

async def test_hover_shows_the_note_on_an_anchored_function(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    uri = open_doc(client, root / "app.py")

    h = await hover(client, uri, line_of(APP_PY, "def load_config"), 6)
    assert h is not None
    md = h.contents.value
    assert h.contents.kind == T.MarkupKind.Markdown
    assert "decision: Config is read whole" in md
    assert "Rationale: Config files are small; one read keeps errors in one place." in md
    assert "Rejected options:" in md
    assert "- streaming parser: needs a dependency for a 2 kB file" in md
    assert "- mmap: no gain below a page" in md
    assert f"(note {dec.id}, {AUTHOR} <{EMAIL}>, {TODAY})" in md
    start_line = line_of(APP_PY, "def load_config")
    assert h.range.start == T.Position(start_line, 0)
    assert h.range.end.line == line_of(APP_PY, "return data")

    # inside the body of the anchored function: still the note
    h = await hover(client, uri, line_of(APP_PY, "data = f.read()"), 10)
    assert h is not None and "Config is read whole" in h.contents.value

    # the invariant, on a method
    h = await hover(client, uri, line_of(APP_PY, "def start"), 9)
    assert h is not None
    assert "invariant: start is idempotent" in h.contents.value
    assert "Calling start twice must not open a second port." in h.contents.value

    # unanchored code and blank lines: nothing
    assert await hover(client, uri, line_of(APP_PY, "def save_config"), 6) is None
    assert await hover(client, uri, line_of(APP_PY, "def stop"), 9) is None
    assert await hover(client, uri, 1, 0) is None


async def test_hover_past_the_end_of_the_file_does_not_crash(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    app_ws(root)
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    for line, col in ((500, 0), (line_of(APP_PY, "def load_config"), 5000), (len(APP_PY.split("\n")), 0)):
        try:
            h = await hover(client, uri, line, col)
        except Exception as e:  # an error response is acceptable, a dead server is not
            assert "JsonRpc" in type(e).__name__ or "Error" in type(e).__name__, e
        else:
            assert h is None or "Config is read whole" in h.contents.value
    h = await hover(client, uri, line_of(APP_PY, "def load_config"), 6)
    assert h is not None and "Config is read whole" in h.contents.value


async def test_shop_example_hover_and_drift(client: LanguageClient, tmp_path: Path):
    root = shop_ws(tmp_path / "shop")
    await start(client, root)
    p = root / "billing" / "ledger.py"
    text = p.read_text()
    uri = open_doc(client, p)
    # on the `if not isinstance(cents, int)` statement: the decision (innermost) and the invariant
    h = await hover(client, uri, line_of(text, "if not isinstance(cents, int)"), 12)
    md = h.contents.value
    assert md.index("decision: Amounts are integer cents") < md.index("invariant: The ledger is append-only")
    assert "- float dollars: 0.1 + 0.2 != 0.3; totals drifted by a cent in tests" in md
    assert "- decimal.Decimal: exact, but awkward in JSON and three times slower in balance()" in md
    assert "(note 01m8vhmgvma52bz6epfrfewsx0, Seed 90b276ee maintainers" in md and "2026-12-02)" in md
    # an unanchored method
    assert await hover(client, uri, line_of(text, "def balance"), 9) is None

    line = line_of(text, "self.db.insert")
    change(client, uri, 2, (line + 1, 0, line + 1, 0, "        self.db.delete('ledger')\n"))
    diags = await wait_diags(client, uri, lambda d: "invariant-drift" in codes(d), "invariant drift")
    d = next(d for d in diags if d.code == "invariant-drift")
    assert d.data["note"] == "01m8vhmgfegz98tfxwnzccy4qy"
    assert d.range.start.line == line_of(text, "def append")


# -- live anchors -----------------------------------------------------------------------------

async def test_anchor_follows_lines_inserted_above_in_several_changes(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    l0 = line_of(APP_PY, "def load_config")
    s0 = line_of(APP_PY, "def start")

    change(client, uri, 2, (0, 0, 0, 0, "# header\n"))
    change(client, uri, 3, (1, 0, 1, 0, "import sys\n"), (2, 0, 2, 0, "import json\n"))
    h = await hover(client, uri, l0 + 3, 6)
    assert h is not None and "Config is read whole" in h.contents.value
    assert h.range.start.line == l0 + 3
    h = await hover(client, uri, s0 + 3, 9)
    assert h is not None and "start is idempotent" in h.contents.value

    # more later, between the two functions, typed a character at a time
    at = l0 + 3 + 6  # the blank line after load_config
    typed = "\n\ndef helper():\n    return 1\n"
    for i, ch in enumerate(typed):
        lines = typed[:i].split("\n")
        change(client, uri, 4 + i, (at + len(lines) - 1, len(lines[-1]), at + len(lines) - 1, len(lines[-1]), ch))
    shift = 3 + typed.count("\n")
    h = await hover(client, uri, s0 + shift, 9)
    assert h is not None and "start is idempotent" in h.contents.value
    assert h.range.start.line == s0 + shift
    h = await hover(client, uri, l0 + 3, 6)
    assert h is not None and "Config is read whole" in h.contents.value
    # where the method was before the last edits is now save_config, which has no note
    assert await hover(client, uri, s0 + 3, 9) is None

    res = await request(client, "tether/notes", {"uri": uri})
    by_title = {n["title"]: n for n in res["notes"]}
    rng = by_title["start is idempotent"]["anchors"][0]["range"]
    assert rng["start"]["line"] == s0 + shift
    assert by_title["start is idempotent"]["anchors"][0]["state"] in ("moved", "ok")
    # nothing was saved: the file on disk is unchanged
    assert (root / "app.py").read_text() == APP_PY


async def test_rename_typed_as_an_edit_keeps_the_note(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    line = line_of(APP_PY, "def load_config")
    # select "load" and type "read" over it, one key at a time
    change(client, uri, 2, (line, 4, line, 8, "r"))
    change(client, uri, 3, (line, 5, line, 5, "e"))
    change(client, uri, 4, (line, 6, line, 6, "a"))
    change(client, uri, 5, (line, 7, line, 7, "d"))
    h = await hover(client, uri, line, 6)
    assert h is not None, "the renamed function lost its note"
    assert "Config is read whole" in h.contents.value

    res = await request(client, "tether/notes", {"uri": uri})
    note = next(n for n in res["notes"] if n["id"] == dec.id)
    assert note["anchors"][0]["state"] == "renamed"
    assert note["anchors"][0].get("now_named") == "read_config"
    # no orphaned diagnostic for the renamed function
    diags = await wait_diags(client, uri, lambda d: True)
    assert "orphaned" not in codes(diags)


async def test_saving_a_rename_writes_the_new_name_into_the_note_file(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    line = line_of(APP_PY, "def load_config")
    change(client, uri, 2, (line, 4, line, 8, "read"))
    (root / "app.py").write_text(APP_PY.replace("load_config", "read_config"))
    client.text_document_did_save(T.DidSaveTextDocumentParams(T.TextDocumentIdentifier(uri)))
    note_path = root / dec.path
    await wait_for(lambda: 'name = "read_config"' in note_path.read_text(), "the note file to follow the rename")
    res = await request(client, "tether/notes", {"uri": uri})
    note = next(n for n in res["notes"] if n["id"] == dec.id)
    assert note["anchors"][0]["state"] == "ok" and note["anchors"][0]["name"] == "read_config"


# -- diagnostics and their quick fixes --------------------------------------------------------

async def _drift(client: LanguageClient, root: Path, inv):
    uri = open_doc(client, root / "app.py")
    await wait_diags(client, uri, lambda d: d == [], "no diagnostics on open")
    line = line_of(APP_PY, "self.port = port")
    change(client, uri, 2, (line + 1, 0, line + 1, 0, "        self.log = []\n"))
    diags = await wait_diags(client, uri, lambda d: "invariant-drift" in codes(d), "invariant drift")
    return uri, next(d for d in diags if d.code == "invariant-drift")


async def test_invariant_drift_diagnostic(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    uri, d = await _drift(client, root, inv)
    assert d.severity == T.DiagnosticSeverity.Warning
    assert d.source == "tether"
    assert d.data["note"] == inv.id
    assert d.range.start.line == line_of(APP_PY, "def start")
    assert "start is idempotent" in d.message
    assert d.related_information and d.related_information[0].location.uri == note_file(root, inv).as_uri()

    # undoing the edit makes the code what was confirmed again
    line = line_of(APP_PY, "self.port = port")
    change(client, uri, 3, (line + 1, 0, line + 2, 0, ""))
    await wait_diags(client, uri, lambda d: "invariant-drift" not in codes(d), "the drift to go away after undo")


async def test_confirm_quick_fix_clears_the_drift(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    uri, d = await _drift(client, root, inv)
    actions = await code_actions(client, uri, d.range.start.line, 4, [d])
    fix = next(a for a in actions if a.title == "Still holds (confirm invariant)")
    assert fix.kind == T.CodeActionKind.QuickFix
    assert fix.command.command == "tether.confirm" and fix.command.arguments[0]["id"] == inv.id
    before = note_file(root, inv).read_text()
    since = len(client.publishes)
    result = await execute(client, fix.command)
    assert errors_shown(client) == []
    assert result and result["id"] == inv.id
    assert note_file(root, inv).read_text() != before
    diags = await next_publish(client, uri, since)
    assert "invariant-drift" not in codes(diags), "the confirmed invariant still shows drift"


async def test_confirm_quick_fix_after_saving_clears_the_drift(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    uri, d = await _drift(client, root, inv)
    line = line_of(APP_PY, "self.port = port")
    lines = APP_PY.split("\n")
    (root / "app.py").write_text("\n".join(lines[:line + 1] + ["        self.log = []"] + lines[line + 1:]))
    client.text_document_did_save(T.DidSaveTextDocumentParams(T.TextDocumentIdentifier(uri)))
    actions = await code_actions(client, uri, d.range.start.line, 4, [d])
    fix = next(a for a in actions if a.title == "Still holds (confirm invariant)")
    await execute(client, fix.command)
    # a publish from the save may still arrive first: wait for the one without the drift
    await wait_diags(client, uri, lambda d: "invariant-drift" not in codes(d), "the drift to clear")
    note = parse_note(note_file(root, inv).read_text(), inv.path)
    assert note.confirmed["hash"] != inv.confirmed["hash"]


async def test_retire_quick_fix_retires_the_note(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    uri, d = await _drift(client, root, inv)
    actions = await code_actions(client, uri, d.range.start.line, 4, [d])
    titles = [a.title for a in actions]
    assert "Show note" in titles and "Retire note" in titles
    fix = next(a for a in actions if a.title == "Retire note")
    await execute(client, fix.command)
    note = parse_note(note_file(root, inv).read_text(), inv.path)
    assert note.status == "retired"
    await wait_diags(client, uri, lambda d: "invariant-drift" not in codes(d), "the retired note's drift to go")


async def test_deleted_function_is_orphaned_and_reanchor_fix(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    a, b = line_of(APP_PY, "def load_config"), line_of(APP_PY, "def save_config")
    change(client, uri, 2, (a, 0, b, 0, ""))
    text = APP_PY.split("\n")
    text = "\n".join(text[:a] + text[b:])
    diags = await wait_diags(client, uri, lambda d: "orphaned" in codes(d), "an orphaned diagnostic")
    d = next(d for d in diags if d.code == "orphaned")
    assert d.data["note"] == dec.id
    assert d.severity == T.DiagnosticSeverity.Warning and d.source == "tether"
    assert "Config is read whole" in d.message

    # re-anchor on save_config (where the reading moved, say)
    line = line_of(text, "def save_config")
    actions = await code_actions(client, uri, line, 6, [d])
    fix = next(x for x in actions if x.title == "Re-anchor note here")
    assert fix.command.command == "tether.reanchor"
    since = len(client.publishes)
    result = await execute(client, fix.command)
    assert result and result["anchors"][0]["name"] == "save_config"
    diags = await next_publish(client, uri, since)
    assert "orphaned" not in codes(diags)
    h = await hover(client, uri, line, 6)
    assert h is not None and "Config is read whole" in h.contents.value
    note = parse_note(note_file(root, dec).read_text(), dec.path)
    assert note.anchors[0].name == "save_config"


async def test_superseded_decision_is_a_hint(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    ws = make_ws(root, {"app.py": APP_PY})
    old = ws.record("decision", "app.py", line_of(APP_PY, "def save_config"), 4, title="Write in place")
    new = ws.record("decision", "app.py", line_of(APP_PY, "def load_config"), 4, title="Read whole")
    ws.supersede(old.id, new.id)
    ws.close()
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    diags = await wait_diags(client, uri, lambda d: "superseded" in codes(d), "a superseded hint")
    d = next(d for d in diags if d.code == "superseded")
    assert d.severity == T.DiagnosticSeverity.Hint
    assert d.data["note"] == old.id and new.id in d.message
    assert d.range.start.line == line_of(APP_PY, "def save_config")
    assert codes(diags) == ["superseded"]


async def test_broken_note_file_written_before_start(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    bad = root / ".tether" / "notes" / "01zzzzzzzzzzzzzzzzzzzzzzzz-broken.md"
    bad.write_text('+++\nid = "01zzzzzzzzzzzzzzzzzzzzzzzz"\nkind = "decision"\ntitle = "unterminated\n'
                   'status = "active"\n+++\n\nbody\n')
    await start(client, root)
    diags = await wait_diags(client, bad.as_uri(), lambda d: bool(d), "an error on the broken note")
    assert len(diags) == 1
    d = diags[0]
    assert d.severity == T.DiagnosticSeverity.Error and d.code == "broken-note" and d.source == "tether"
    assert d.range.start.line == 3  # the title line
    assert "TOML" in d.message
    # the other notes still work
    uri = open_doc(client, root / "app.py")
    h = await hover(client, uri, line_of(APP_PY, "def load_config"), 6)
    assert h is not None and "Config is read whole" in h.contents.value


async def test_a_fresh_clone_of_many_notes_answers_the_open_file_whole(client: LanguageClient, tmp_path: Path):
    """No index yet (a fresh clone) and more notes than are indexed before the first answer:
    the opened file's notes — on its code, and by a path pattern — are all in the first
    answer; the rest (other files' notes, a broken note file) follow without a restart."""
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    notes = root / ".tether" / "notes"
    for i in range(1500):
        nid = f"01kz{i:022d}"
        (root / "lib").mkdir(exist_ok=True)
        (root / "lib" / f"m{i}.py").write_text(f"X = {i}\n")
        (notes / f"{nid}-m{i}.md").write_text(
            f'+++\nid = "{nid}"\nkind = "intent"\ntitle = "lib module {i}"\nstatus = "active"\n\n'
            f'[[anchors]]\ntype = "file"\npath = "lib/m{i}.py"\n+++\n\nWhy lib/m{i}.py exists.\n')
    (notes / "01kzpattern000000000000000-py.md").write_text(
        '+++\nid = "01kzpattern000000000000000"\nkind = "boundary"\ntitle = "No I/O at import time"\n'
        'status = "active"\n\n[[anchors]]\ntype = "glob"\npattern = "**/*.py"\n+++\n\nImports stay pure.\n')
    bad = notes / "01kzbroken0000000000000000-x.md"
    bad.write_text('+++\nid = "01kzbroken0000000000000000"\ntitle = "unterminated\n+++\n')
    shutil.rmtree(root / ".tether" / "cache")
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    h = await hover(client, uri, line_of(APP_PY, "def load_config"), 6)
    assert h is not None and "Config is read whole" in h.contents.value
    ctx = await request(client, "tether/context", {"uri": uri})
    assert {n["title"] for n in ctx["notes"]} == {"Config is read whole", "start is idempotent", "No I/O at import time"}
    diags = await wait_diags(client, bad.as_uri(), lambda d: bool(d), "an error on the broken note")
    assert diags[0].code == "broken-note"
    other = await request(client, "tether/context", {"uri": (root / "lib" / "m1234.py").as_uri()})
    assert [n["title"] for n in other["notes"]] == ["lib module 1234", "No I/O at import time"]
    res = await request(client, "tether/notes", {})
    assert len(res["notes"]) == 1503


async def test_conflict_markers_written_while_running(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    await wait_diags(client, uri, lambda d: True)
    p = note_file(root, inv)
    lines = p.read_text().split("\n")
    k = next(i for i, s in enumerate(lines) if s.startswith("title = "))
    lines[k:k + 1] = ["<<<<<<< HEAD", 'title = "start is idempotent"', "=======",
                      'title = "start may be called twice"', ">>>>>>> other"]
    p.write_text("\n".join(lines))
    client.workspace_did_change_watched_files(T.DidChangeWatchedFilesParams(
        [T.FileEvent(p.as_uri(), T.FileChangeType.Changed)]))
    diags = await wait_diags(client, p.as_uri(), lambda d: bool(d), "an error on the conflicted note")
    assert diags[0].severity == T.DiagnosticSeverity.Error
    assert diags[0].range.start.line == k
    assert "conflict" in diags[0].message
    h = await hover(client, uri, line_of(APP_PY, "def load_config"), 6)
    assert h is not None and "Config is read whole" in h.contents.value
    # the conflicted note is not shown as if it were fine
    h = await hover(client, uri, line_of(APP_PY, "def start"), 9)
    assert h is None or "start is idempotent" not in h.contents.value

    # resolving the conflict clears the error
    p.write_text(p.read_text().replace("<<<<<<< HEAD\n", "").replace(
        '=======\ntitle = "start may be called twice"\n>>>>>>> other\n', ""))
    client.workspace_did_change_watched_files(T.DidChangeWatchedFilesParams(
        [T.FileEvent(p.as_uri(), T.FileChangeType.Changed)]))
    await wait_diags(client, p.as_uri(), lambda d: d == [], "the note error to clear")
    h = await hover(client, uri, line_of(APP_PY, "def start"), 9)
    assert h is not None and "start is idempotent" in h.contents.value


# -- code actions and commands ----------------------------------------------------------------

RECORD_TITLES = {"decision": "Record decision here", "invariant": "Record invariant here",
                 "boundary": "Record boundary here", "intent": "Record intent here",
                 "workaround": "Mark as deliberate workaround"}


async def test_record_actions_are_offered_everywhere(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    app_ws(root)
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    for line, col in ((0, 0), (1, 0), (line_of(APP_PY, "def save_config"), 6),
                      (line_of(APP_PY, "def load_config"), 6)):
        actions = await code_actions(client, uri, line, col)
        assert all(isinstance(a, T.CodeAction) for a in actions), actions
        rec = {a.command.arguments[0]["kind"]: a for a in actions if a.command.command == "tether.record"}
        assert {k: a.title for k, a in rec.items()} == RECORD_TITLES
        for a in rec.values():
            assert a.command.arguments[0]["uri"] == uri
            assert a.command.arguments[0]["range"]["start"] == {"line": line, "character": col}
        assert len(actions) == 5  # no diagnostics in the context: no quick fixes


async def test_record_command_with_a_title_writes_the_note(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    make_ws(root, {"app.py": APP_PY})
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    line = line_of(APP_PY, "def save_config")
    actions = await code_actions(client, uri, line, 6)
    cmd = next(a for a in actions if a.title == "Record decision here").command
    arg = {**cmd.arguments[0], "title": "Config is written in place",
           "rationale": "Readers never see a half-written file on our filesystems.",
           "alternatives": [{"option": "write a temp file and rename", "rejected_because": "loses the owner"}]}
    result = await execute(client, T.Command(title=cmd.title, command=cmd.command, arguments=[arg]))
    assert result["title"] == "Config is written in place"
    files = list((root / ".tether" / "notes").glob("*.md"))
    assert len(files) == 1
    text = files[0].read_text()
    note = parse_note(text, f".tether/notes/{files[0].name}")
    assert note.kind == "decision"
    assert note.title == "Config is written in place"
    assert note.rationale == "Readers never see a half-written file on our filesystems."
    assert [(a.option, a.rejected_because) for a in note.alternatives] == [
        ("write a temp file and rename", "loses the owner")]
    assert note.anchors[0].name == "save_config"
    assert note.author == f"{AUTHOR} <{EMAIL}>"
    h = await hover(client, uri, line, 6)
    assert h is not None and "Config is written in place" in h.contents.value
    assert "- write a temp file and rename: loses the owner" in h.contents.value


async def test_record_command_without_a_title_opens_a_template(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    make_ws(root, {"app.py": APP_PY})
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    line = line_of(APP_PY, "def start")
    actions = await code_actions(client, uri, line, 8)
    cmd = next(a for a in actions if a.title == "Record invariant here").command
    result = await execute(client, cmd)
    assert result is not None
    await wait_for(lambda: client.shown_documents, "window/showDocument")
    shown = client.shown_documents[-1]
    files = list((root / ".tether" / "notes").glob("*.md"))
    assert len(files) == 1
    assert shown.uri == files[0].as_uri()
    lines = files[0].read_text().split("\n")
    sel = shown.selection
    assert sel is not None and sel.start.line == sel.end.line
    assert lines[sel.start.line].startswith("title = ")
    assert lines[sel.start.line][sel.start.character:sel.end.character] == result["title"]
    assert "What must stay true here" in files[0].read_text()


# -- code lens -------------------------------------------------------------------------------

async def test_code_lens_counts_notes_and_shows_orphans(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    ws = make_ws(root, {"app.py": APP_PY})
    line = line_of(APP_PY, "def load_config")
    ws.record("decision", "app.py", line, 4, title="Config is read whole")
    ws.record("invariant", "app.py", line, 4, title="Config is never written here")
    gone = ws.record("intent", "app.py", line_of(APP_PY, "def stop"), 8, title="stop releases the port")
    ws.close()
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    lenses = await client.text_document_code_lens_async(T.CodeLensParams(T.TextDocumentIdentifier(uri)))
    at = [lens for lens in lenses if lens.range.start.line == line]
    assert len(at) == 1
    lens = at[0] if at[0].command else await client.code_lens_resolve_async(at[0])
    assert lens.command.title == "1 decision · 1 invariant"

    # delete Service.stop: its note is orphaned, and a lens says so
    a = line_of(APP_PY, "def stop")
    change(client, uri, 2, (a - 1, len(APP_PY.split("\n")[a - 1]), a + 1, len(APP_PY.split("\n")[a + 1]), ""))
    await wait_diags(client, uri, lambda d: "orphaned" in codes(d), "an orphaned diagnostic")
    lenses = await client.text_document_code_lens_async(T.CodeLensParams(T.TextDocumentIdentifier(uri)))
    titles = [(lens.command or (await client.code_lens_resolve_async(lens)).command).title for lens in lenses]
    assert "orphaned: stop releases the port" in titles, titles
    assert "1 decision · 1 invariant" in titles
    lost = next(lens for lens in lenses if lens.command and lens.command.title.startswith("orphaned"))
    assert lost.command.arguments[0]["id"] == gone.id


# -- custom requests -------------------------------------------------------------------------

async def test_custom_requests_notes_and_context(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    res = await request(client, "tether/notes", {"uri": uri})
    notes = {n["id"]: n for n in res["notes"]}
    assert set(notes) == {dec.id, inv.id}
    assert notes[dec.id]["kind"] == "decision" and notes[dec.id]["title"] == "Config is read whole"
    assert notes[inv.id]["kind"] == "invariant" and notes[inv.id]["title"] == "start is idempotent"
    a = notes[dec.id]["anchors"][0]
    assert a["state"] == "ok"
    l0 = line_of(APP_PY, "def load_config")
    assert a["range"] == {"start": {"line": l0, "character": 0},
                          "end": {"line": line_of(APP_PY, "return data"), "character": len("    return data")}}

    line = line_of(APP_PY, "data = f.read()")
    ctx = await request(client, "tether/context", {"uri": uri, "range": {
        "start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}})
    assert set(ctx) >= {"markdown", "notes"}
    assert ctx["notes"][0]["id"] == dec.id
    assert ctx["notes"][0]["tier"] == 2  # load_config encloses the line
    assert "decision (`load_config`): Config is read whole" in ctx["markdown"]  # it encloses the line
    assert "Rejected: streaming parser (needs a dependency for a 2 kB file); " in ctx["markdown"]

    # the whole workspace, without a uri
    res = await request(client, "tether/notes", {})
    assert {n["id"] for n in res["notes"]} == {dec.id, inv.id}


@pytest.mark.parametrize("watch", [True, False], ids=["client-watches-files", "no-file-watching"])
async def test_note_edited_on_disk_shows_in_the_next_hover(client: LanguageClient, tmp_path: Path, watch: bool):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root, watch=watch)
    uri = open_doc(client, root / "app.py")
    line = line_of(APP_PY, "def load_config")
    h = await hover(client, uri, line, 6)
    assert "Config is read whole" in h.contents.value
    p = note_file(root, dec)
    p.write_text(p.read_text().replace('title = "Config is read whole"',
                                       'title = "Configuration is read in one go"'))
    client.workspace_did_change_watched_files(T.DidChangeWatchedFilesParams(
        [T.FileEvent(p.as_uri(), T.FileChangeType.Changed)]))
    h = await hover(client, uri, line, 6)
    assert "Configuration is read in one go" in h.contents.value
    assert "Config is read whole" not in h.contents.value


# -- settings --------------------------------------------------------------------------------

async def test_setting_severity_from_initialization_options(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root, options={"severity": {"invariant-drift": "error"}})
    uri, d = await _drift(client, root, inv)
    assert d.severity == T.DiagnosticSeverity.Error


async def test_setting_code_lens_off(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    app_ws(root)
    await start(client, root, options={"codeLens": False})
    uri = open_doc(client, root / "app.py")
    lenses = await client.text_document_code_lens_async(T.CodeLensParams(T.TextDocumentIdentifier(uri)))
    assert not lenses
    # hovers are not affected
    h = await hover(client, uri, line_of(APP_PY, "def load_config"), 6)
    assert h is not None


async def test_did_change_configuration_turns_orphaned_off(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    a, b = line_of(APP_PY, "def load_config"), line_of(APP_PY, "def save_config")
    change(client, uri, 2, (a, 0, b, 0, ""))
    await wait_diags(client, uri, lambda d: "orphaned" in codes(d), "an orphaned diagnostic")
    since = len(client.publishes)
    client.workspace_did_change_configuration(T.DidChangeConfigurationParams(
        settings={"tether": {"severity": {"orphaned": "off"}}}))
    diags = await next_publish(client, uri, since)
    assert "orphaned" not in codes(diags)
    # and back on
    since = len(client.publishes)
    client.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings={"tether": {}}))
    diags = await next_publish(client, uri, since)
    assert "orphaned" in codes(diags)


# -- robustness ------------------------------------------------------------------------------

async def test_a_20mb_file_does_not_stop_the_server(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    big = root / "big.py"
    line = "x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]  # filler\n"
    text = line * (20 * 1024 * 1024 // len(line) + 1)
    big.write_text(text)
    await start(client, root)
    big_uri = open_doc(client, big, text)
    uri = open_doc(client, root / "app.py")
    h = await hover(client, uri, line_of(APP_PY, "def load_config"), 6)
    assert h is not None and "Config is read whole" in h.contents.value
    assert await hover(client, big_uri, 10, 3) is None
    change(client, big_uri, 2, (5, 0, 5, 0, "y = 1\n"))
    h = await hover(client, uri, line_of(APP_PY, "def start"), 9)
    assert h is not None and "start is idempotent" in h.contents.value
    assert errors_shown(client) == []


async def test_binary_and_invalid_text(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    # binary-ish content in a source file that has notes
    uri = open_doc(client, root / "app.py", "\x00\x01\x02PNG\r\n\x1a\n" + APP_PY + "\x00" * 100)
    await wait_diags(client, uri, lambda d: True)
    await hover(client, uri, 2, 3)
    # a lone surrogate and other invalid text, then edits into it
    other = root / "other.py"
    other.write_text("")
    ouri = open_doc(client, other, "s = '\ud800'\n\ufffe\uffff\n" + APP_PY)
    await hover(client, ouri, 0, 5)
    change(client, ouri, 2, (0, 5, 0, 6, "\udc00x"))
    change(client, ouri, 3, (0, 3, 99, 99, ""))
    # a file that is not text at all, in a language without a grammar
    buri = open_doc(client, root / "blob.bin", "\x00\xff\xfe" * 1000, "plaintext")
    await hover(client, buri, 0, 0)
    # the server still serves
    uri2 = open_doc(client, root / "app.py")
    h = await hover(client, uri2, line_of(APP_PY, "def load_config"), 6)
    assert h is not None and "Config is read whole" in h.contents.value
    assert errors_shown(client) == []


async def test_did_change_for_a_document_never_opened(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    dec, inv = app_ws(root)
    await start(client, root)
    uri = (root / "app.py").as_uri()
    change(client, uri, 2, (0, 0, 0, 0, "# hi\n"))
    change(client, (root / "nowhere.py").as_uri(), 2, (3, 0, 3, 0, "x"))
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        T.VersionedTextDocumentIdentifier(version=3, uri="file:///definitely/not/here.py"),
        [T.TextDocumentContentChangeWholeDocument(text="x = 1\n")]))
    assert await hover(client, uri, 0, 0) is None  # not open: nothing to show, no crash
    uri = open_doc(client, root / "app.py")
    h = await hover(client, uri, line_of(APP_PY, "def load_config"), 6)
    assert h is not None and "Config is read whole" in h.contents.value
    # the server means to ignore such a change quietly (it logs a warning): the user must
    # not get an "Error in server" pop-up for it
    assert errors_shown(client) == []


async def test_two_workspace_folders(client: LanguageClient, tmp_path: Path):
    one, two = tmp_path / "one", tmp_path / "two"
    dec, _ = app_ws(one)
    text = "def area(w, h):\n    return w * h\n"
    ws = make_ws(two, {"geo.py": text})
    other = ws.record("boundary", "geo.py", 0, 4, title="Negative sizes are the caller's problem")
    ws.close()
    await start(client, one, two)
    u1 = open_doc(client, one / "app.py")
    u2 = open_doc(client, two / "geo.py")
    h1 = await hover(client, u1, line_of(APP_PY, "def load_config"), 6)
    h2 = await hover(client, u2, 0, 5)
    assert h1 is not None and "Config is read whole" in h1.contents.value
    assert h2 is not None and "Negative sizes are the caller's problem" in h2.contents.value
    assert "Config is read whole" not in h2.contents.value
    r1 = await request(client, "tether/notes", {"uri": u1})
    r2 = await request(client, "tether/notes", {"uri": u2})
    assert [n["id"] for n in r2["notes"]] == [other.id]
    assert other.id not in [n["id"] for n in r1["notes"]]
    # a quick fix in the second folder changes the second folder's note
    change(client, u2, 2, (0, len("def area(w, h):"), 0, len("def area(w, h):"), "  # cm"))
    change(client, u2, 3, (0, 0, 2, 0, ""))
    d = (await wait_diags(client, u2, lambda d: "orphaned" in codes(d), "an orphaned diagnostic"))[0]
    fix = next(a for a in await code_actions(client, u2, 0, 0, [d]) if a.title == "Retire note")
    await execute(client, fix.command)
    assert parse_note((two / other.path).read_text(), other.path).status == "retired"
    assert not (one / other.path).exists()


async def test_utf16_columns(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    js = 'const s = "😀é"; function area(w, h) { return w * h; }\nconst t = 1;\n'
    py = 'GREETING = "😀é"\n\n\ndef greet(name):\n    return "😀é " + name\n'
    ws = make_ws(root, {"shapes.js": js, "greet.py": py})
    fn = pos_of(js, "function area")
    ws.record("decision", "shapes.js", fn.line, fn.character, title="Areas are in pixels")
    ws.record("intent", "greet.py", 3, 4, title="Greets with an emoji")
    ws.close()
    await start(client, root)
    uri = open_doc(client, root / "shapes.js", lang="javascript")
    first = js.split("\n")[0]
    utf16 = lambda s: len(s.encode("utf-16-le")) // 2  # noqa: E731
    start_col = utf16(first[:first.index("function")])
    end_col = utf16(first)
    assert (start_col, end_col) == (17, 54)  # UTF-16 code units (bytes: 20 and 57)
    h = await hover(client, uri, 0, start_col)
    assert h is not None and "Areas are in pixels" in h.contents.value
    assert h.range == T.Range(T.Position(0, start_col), T.Position(0, end_col))
    h = await hover(client, uri, 0, pos_of(js, "area(").character + 2)
    assert h is not None and "Areas are in pixels" in h.contents.value
    assert await hover(client, uri, 0, start_col - 2) is None  # on `;`, before the function

    puri = open_doc(client, root / "greet.py")
    h = await hover(client, puri, 4, utf16('    return "😀é " + name') - 1)
    assert h is not None and "Greets with an emoji" in h.contents.value
    assert h.range.end == T.Position(4, utf16('    return "😀é " + name'))
    # typing before the function on its own line keeps the columns right
    change(client, uri, 2, (0, 0, 0, 0, "😀"))
    h = await hover(client, uri, 0, start_col + 2)
    assert h is not None and h.range.start.character == start_col + 2


async def test_an_edit_that_breaks_a_checked_invariant_shows_a_diagnostic(client: LanguageClient, tmp_path: Path):
    root = tmp_path / "repo"
    src = "import asyncio\n\n\nasync def handler(request):\n    data = await request.json()\n    return data\n"
    ws = make_ws(root, {"loop.py": src})
    inv = ws.record("invariant", "loop.py", 3, 4, title="Never block the event loop here",
                    checks=[{"id": "no-sleep", "kind": "forbid-call", "pattern": "time.sleep",
                             "message": "time.sleep blocks the event loop"}])
    await start(client, root)
    uri = open_doc(client, root / "loop.py", src)
    await wait_diags(client, uri, lambda d: d == [], "no diagnostics on open")
    change(client, uri, 2, (5, 0, 5, 0, "    time.sleep(1)\n"))
    diags = await wait_diags(client, uri, lambda d: "invariant-violation" in codes(d), "the violation")
    d = next(x for x in diags if x.code == "invariant-violation")
    assert d.range.start.line == 5 and d.severity == T.DiagnosticSeverity.Error
    assert "time.sleep blocks the event loop" in d.message and d.data["note"] == inv.id
    assert d.data["check"] == "no-sleep"

    # a reviewed exception: it stays on that statement when lines are inserted above
    actions = await code_actions(client, uri, 5, 6, [d])
    fix = next(a for a in actions if a.title.startswith("Ignore this once"))
    await execute(client, fix.command)
    await wait_diags(client, uri, lambda ds: "invariant-violation" not in codes(ds), "the exception to apply")
    assert "[[exceptions]]" in (root / inv.path).read_text()
    change(client, uri, 3, (0, 0, 0, 0, "# a comment\n# and another\n"))
    change(client, uri, 4, (8, 0, 8, 0, "    time.sleep(2)\n"))  # a second sleep is not excused
    diags = await wait_diags(client, uri, lambda ds: "invariant-violation" in codes(ds), "the new violation")
    assert [x.range.start.line for x in diags if x.code == "invariant-violation"] == [8]


LIVE = {  # a function per language, and the line to type inside it
    "python": ("app.py", "python", "def handler(db):\n    rows = db.load()\n    return rows\n", 2, "    time.sleep(1)\n"),
    "javascript": ("app.js", "javascript", "function handler(db) {\n  const rows = db.load();\n  return rows;\n}\n", 2,
                   "  time.sleep(1);\n"),
    "typescript": ("app.ts", "typescript", "function handler(db: Db): Rows {\n  const rows = db.load();\n  return rows;\n}\n",
                   2, "  time.sleep(1);\n"),
    "go": ("app.go", "go", "package app\n\nfunc handler(db Db) Rows {\n\trows := db.load()\n\treturn rows\n}\n", 4,
           "\ttime.sleep(1)\n"),
    "rust": ("app.rs", "rust", "fn handler(db: Db) -> Rows {\n    let rows = db.load();\n    rows\n}\n", 2,
             "    time::sleep(1);\n"),
    "java": ("App.java", "java", "class App {\n  Rows handler(Db db) {\n    Rows rows = db.load();\n    return rows;\n  }\n}\n",
             3, "    time.sleep(1);\n"),
}


@pytest.mark.parametrize("lang", sorted(LIVE))
async def test_typing_a_forbidden_call_shows_a_violation_in_every_language(client: LanguageClient, tmp_path: Path,
                                                                           lang: str):
    name, lang_id, text, line, typed = LIVE[lang]
    root = tmp_path / "repo"
    ws = make_ws(root, {name: text})
    fn_line = next(i for i, s in enumerate(text.split("\n")) if "handler" in s)
    ws.record("invariant", name, fn_line, text.split("\n")[fn_line].index("handler"), title="No sleeping here",
              checks=[{"id": "no-sleep", "kind": "forbid-call", "pattern": "time.sleep"}])
    await start(client, root)
    uri = open_doc(client, root / name, text, lang_id)
    await wait_diags(client, uri, lambda d: d == [], "no diagnostics on open")
    change(client, uri, 2, (line, 0, line, 0, typed))
    diags = await wait_diags(client, uri, lambda d: "invariant-violation" in codes(d), f"the violation in {lang}")
    assert [d.range.start.line for d in diags if d.code == "invariant-violation"] == [line]


async def test_record_with_checks_asked_only_kinds_and_workspace_states(client: LanguageClient, tmp_path: Path):
    """An invariant recorded with checks (as the VS Code extension sends it) is validated
    and enforced; code actions honour the kinds asked for; tether/notes without a uri
    carries each anchor's state."""
    root = tmp_path / "repo"
    make_ws(root, {"app.py": APP_PY})
    await start(client, root)
    uri = open_doc(client, root / "app.py")
    line = line_of(APP_PY, "def save_config")
    arg = {"uri": uri, "range": {"start": {"line": line, "character": 6}, "end": {"line": line, "character": 6}},
           "kind": "invariant", "title": "save_config never prints",
           "checks": [{"id": "no-print", "kind": "forbid-call", "pattern": "print"}]}
    result = await execute(client, T.Command(title="record", command="tether.record", arguments=[arg]))
    assert result["kind"] == "invariant"
    body_line = line_of(APP_PY, "def save_config") + 1
    change(client, uri, 2, (body_line, 0, body_line, 0, "    print('saving')\n"))
    await wait_diags(client, uri, lambda d: "invariant-violation" in codes(d), "the check to fire")
    bad = {**arg, "title": "bad", "checks": [{"id": "x", "kind": "forbid", "query": "(nonsense_node) @x",
                                             "lang": "python"}]}
    assert await execute(client, T.Command(title="record", command="tether.record", arguments=[bad])) is None
    assert any("check 'x': the query does not compile" in e for e in errors_shown(client))  # refused, and why

    asked = await client.text_document_code_action_async(T.CodeActionParams(
        T.TextDocumentIdentifier(uri), T.Range(T.Position(line, 0), T.Position(line, 0)),
        T.CodeActionContext(diagnostics=[], only=[T.CodeActionKind.QuickFix])))
    assert not asked  # the record actions are refactors, not quick fixes

    listed = await request(client, "tether/notes", {})
    (note,) = listed["notes"]
    assert note["anchors"][0]["state"] in ("ok", "changed") and note["anchors"][0]["range"] is not None
