"""The LMDB working store: growth when full, schema rebuild, and the workspace on top."""

from pathlib import Path

from tether.core.store import SCHEMA, Store
from tether.core.workspace import Workspace


def test_a_full_map_grows_and_nothing_is_lost(tmp_path: Path):
    store = Store(tmp_path / "cache", map_size=64 * 1024)
    start = store.env.info()["map_size"]
    payload = "x" * 4000

    def put_many(txn, base):
        for i in range(50):
            store.put(txn, "notes", f"{base}-{i}", {"text": payload})

    for base in range(10):  # 500 records of 4 KB: far more than 64 KB
        store.write(put_many, base)
    assert store.env.info()["map_size"] > start
    with store.read() as txn:
        assert len(store.keys(txn, "notes")) == 500
        assert store.get(txn, "notes", "9-49") == {"text": payload}


def test_a_schema_mismatch_rebuilds_the_cache_from_the_note_files(tmp_path: Path):
    ws, _ = Workspace.init(tmp_path, exact=True)
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    note = ws.record("decision", "a.py", 0, 0, title="Keep f tiny")
    ws.close()
    old = Store(tmp_path / ".tether/cache")  # as an older tether left it
    old.write(lambda txn: txn.put(b"schema", str(SCHEMA - 1).encode(), db=old.db["meta"]))
    old.close()
    again = Workspace(tmp_path)
    assert [n.id for n in again.notes()] == [note.id]
    assert again.get(note.id).title == "Keep f tiny"


def test_notes_written_by_another_workspace_object_are_seen(tmp_path: Path):
    """Two processes (here: two Workspace objects) on one workspace share the index."""
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    one, _ = Workspace.init(tmp_path, exact=True)
    two = Workspace(tmp_path)
    assert two.notes() == []
    n = one.record("invariant", "a.py", 1, 4, title="f returns 1")
    assert [x.id for x in two.notes()] == [n.id]
    assert [loc.state for loc in two.locate("a.py")] == ["ok"]


def test_an_anchor_edited_by_hand_in_the_note_file_wins_over_the_cache(tmp_path: Path):
    (tmp_path / "a.py").write_text("def f():\n    return 1\n\n\ndef g():\n    return 2\n")
    ws, _ = Workspace.init(tmp_path, exact=True)
    note = ws.record("decision", "a.py", 0, 4, title="About f")
    assert [loc.resolution.name for loc in ws.locate("a.py")] == ["f"]
    path = tmp_path / note.path  # a person (or a pull) points the note at g instead
    path.write_text(path.read_text().replace('name = "f"', 'name = "g"'))
    (loc,) = Workspace(tmp_path).locate("a.py")
    assert loc.resolution.name == "g" and loc.range.sl == 4


def test_a_watched_tree_names_the_files_that_changed(tmp_path: Path):
    import os
    import time

    from tether.core.files import FolderChanges, SourceTree
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("a = 1\n")
    tree = SourceTree(tmp_path)
    tree.changes = FolderChanges.open(tmp_path, tree=True)
    if tree.changes is None:
        import pytest
        pytest.skip("no inotify here")
    t0 = time.monotonic()
    assert tree.changed_since(t0) == set()
    (tmp_path / "src" / "a.py").write_text("a = 2\n")
    (tmp_path / "b.py").write_text("b = 1\n")
    assert tree.changed_since(t0) == {"src/a.py", "b.py"}
    t1 = time.monotonic()
    os.rename(tmp_path / "b.py", tmp_path / "src" / "c.py")
    assert tree.changed_since(t1) == {"b.py", "src/c.py"}
    assert tree.stamp("b.py") is None and tree.stamp("src/c.py") is not None
    t2 = time.monotonic()
    (tmp_path / "src" / "__pycache__").mkdir()  # a folder whose files are never listed: nothing to look at
    assert tree.changed_since(t2) == set()
    (tmp_path / "new").mkdir()  # a folder: its files are not known one by one
    assert tree.changed_since(t2) is None
    assert tree.changed_since(time.monotonic()) == set()
    tree.changes.close()
