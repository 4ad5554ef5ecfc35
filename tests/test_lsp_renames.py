"""The language server follows notes across files: a file renamed in the editor
(willRenameFiles / didRenameFiles: the new path is written into the note files), a file moved
outside it (the watched-file deletion and creation), a function cut from one file and pasted
into another. The real server over stdio, driven by pytest-lsp."""

from pathlib import Path

import pytest_lsp
from lsp_helpers import CONFIG, hover, line_of, make_ws, open_doc, request, start, wait_for
from lsprotocol import types as T
from pytest_lsp import LanguageClient

MODELS = '''def parse_amount(text):
    """Amounts are integer cents."""
    value = int(text)
    if value < 0:
        raise ValueError("negative amount")
    return value


class Ledger:
    def append(self, entry):
        self.entries.append(entry)
        return len(self.entries)
'''


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


def models_ws(root: Path):
    ws = make_ws(root, {"pkg/models.py": MODELS, "pkg/other.py": "def helper(x):\n    return x * 2\n"})
    note = ws.record("decision", "pkg/models.py", 0, 4, title="Amounts are integer cents")
    ws.close()
    return note


async def states(client: LanguageClient, uri: str) -> list[tuple]:
    res = await request(client, "tether/notes", {"uri": uri})
    return [(a["state"], a.get("now_path"), a["range"]["start"]["line"] if a["range"] else None)
            for n in res["notes"] for a in n["anchors"]]


async def test_a_file_renamed_in_the_editor_takes_its_notes_and_the_note_file_says_so(client, tmp_path: Path):
    root = tmp_path / "repo"
    note = models_ws(root)
    await start(client, root)
    old, new = root / "pkg" / "models.py", root / "pkg" / "money.py"
    rename = T.RenameFilesParams([T.FileRename(old.as_uri(), new.as_uri())])
    await client.workspace_will_rename_files_async(rename)
    old.rename(new)
    client.workspace_did_rename_files(rename)
    note_file = root / note.path
    await wait_for(lambda: 'path = "pkg/money.py"' in note_file.read_text(), "the new path in the note file")
    uri = open_doc(client, new)
    h = await hover(client, uri, 0, 6)
    assert h is not None and "Amounts are integer cents" in h.contents.value
    assert await states(client, uri) == [("ok", None, 0)]


async def test_a_file_moved_outside_the_editor_is_followed_with_its_new_path_named(client, tmp_path: Path):
    root = tmp_path / "repo"
    models_ws(root)
    await start(client, root)
    old, new = root / "pkg" / "models.py", root / "lib" / "money.py"
    new.parent.mkdir()
    old.rename(new)
    client.workspace_did_change_watched_files(T.DidChangeWatchedFilesParams([
        T.FileEvent(old.as_uri(), T.FileChangeType.Deleted), T.FileEvent(new.as_uri(), T.FileChangeType.Created)]))
    res = await request(client, "tether/notes", {})
    (anchor,) = [a for n in res["notes"] for a in n["anchors"]]
    assert (anchor["state"], anchor["now_path"], anchor["range"]["start"]["line"]) == ("moved", "lib/money.py", 0)
    assert anchor["path"] == "pkg/models.py"  # the note file is unchanged until it is synced


async def test_a_function_pasted_into_another_file_keeps_its_note(client, tmp_path: Path):
    root = tmp_path / "repo"
    models_ws(root)
    await start(client, root)
    cut = MODELS.index("class Ledger")
    (root / "pkg" / "models.py").write_text(MODELS[cut:])
    other = root / "pkg" / "other.py"
    other.write_text(other.read_text() + "\n\n" + MODELS[:cut].replace("negative amount", "amounts are never negative"))
    client.workspace_did_change_watched_files(T.DidChangeWatchedFilesParams([
        T.FileEvent((root / "pkg" / "models.py").as_uri(), T.FileChangeType.Changed),
        T.FileEvent(other.as_uri(), T.FileChangeType.Changed)]))
    res = await request(client, "tether/notes", {})
    (anchor,) = [a for n in res["notes"] for a in n["anchors"]]
    assert (anchor["state"], anchor["now_path"]) == ("moved", "pkg/other.py")
    assert anchor["range"]["start"]["line"] == line_of(other.read_text(), "def parse_amount")
    # before any sync, every face of the file it arrived in has it: hover, code lens, its notes
    uri = open_doc(client, other)
    line = line_of(other.read_text(), "def parse_amount")
    h = await hover(client, uri, line, 6)
    assert h is not None and "Amounts are integer cents" in h.contents.value
    lenses = await client.text_document_code_lens_async(T.CodeLensParams(T.TextDocumentIdentifier(uri)))
    assert [lens.range.start.line for lens in lenses] == [line]
    here = await request(client, "tether/notes", {"uri": uri})
    assert [n["title"] for n in here["notes"]] == ["Amounts are integer cents"]
    ctx = await request(client, "tether/context", {"uri": uri, "range": {"start": {"line": line + 2, "character": 4},
                                                                        "end": {"line": line + 2, "character": 4}}})
    assert "decision (`parse_amount`, moved here from pkg/models.py): Amounts are integer cents" in ctx["markdown"]


async def test_record_on_a_file_outside_the_workspace_roots_creates_nothing_there(client, tmp_path: Path):
    root = tmp_path / "repo"
    models_ws(root)
    outside = tmp_path / "elsewhere" / "x.py"
    outside.parent.mkdir()
    outside.write_text("def f():\n    return 1\n")
    await start(client, root)
    await client.workspace_execute_command_async(T.ExecuteCommandParams(
        "tether.record", [{"uri": outside.as_uri(), "position": {"line": 0, "character": 4}, "kind": "decision",
                           "title": "outside"}]))
    errors = lambda: [m.message for m in client.messages if m.type == T.MessageType.Error]  # noqa: E731
    await wait_for(errors, "the refusal")
    assert "not in a workspace tether serves" in errors()[0]
    assert not (tmp_path / "elsewhere" / ".tether").exists()
