import json
from pathlib import Path

import pytest

from etlpipe.checkpoint import Checkpoint, State
from etlpipe.dedupe import Deduplicator, dedupe
from etlpipe.readers import ReaderError, read_csv, read_jsonl
from etlpipe.runner import Runner
from etlpipe.schema import Field, Schema, load_schema
from etlpipe.transforms import compose, default, drop_fields, normalize_email, rename
from etlpipe.writers import BatchWriter, read_back

USERS = Schema("users", [Field("id", "int"), Field("email"), Field("signup", "date", required=False)])


def write_csv(path: Path, rows: list[str]) -> Path:
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_read_csv_empty_cells_are_none(tmp_path):
    src = write_csv(tmp_path / "u.csv", ["id,email,signup", "1,a@x.io,", "2,b@x.io,2024-03-01"])
    rows = [r for _, r in read_csv(src)]
    assert rows[0] == {"id": "1", "email": "a@x.io", "signup": None}
    assert rows[1]["signup"] == "2024-03-01"


def test_read_csv_too_many_cells(tmp_path):
    src = write_csv(tmp_path / "u.csv", ["id,email", "1,a@x.io,extra"])
    with pytest.raises(ReaderError):
        list(read_csv(src))


def test_read_jsonl_skips_blank_lines_but_keeps_offsets(tmp_path):
    src = tmp_path / "e.jsonl"
    src.write_text('{"id": 1}\n\n{"id": 2}\n', encoding="utf-8")
    assert [(o, r["id"]) for o, r in read_jsonl(src)] == [(0, 1), (2, 2)]


def test_schema_coerces_and_reports():
    clean, errors = USERS.validate({"id": "7", "email": "a@x.io", "signup": "2024-01-02"})
    assert errors == [] and clean["id"] == 7
    _, errors = USERS.validate({"id": "x7", "email": None})
    assert errors == ["id: invalid literal for int() with base 10: 'x7'", "email: missing"]


def test_load_schema_rejects_unknown_types():
    with pytest.raises(ValueError):
        load_schema({"name": "s", "fields": [{"name": "a", "type": "decimal"}]})


def test_transforms_compose():
    t = compose([rename({"mail": "email"}), normalize_email(), default("country", "NL"), drop_fields("tmp")])
    assert t({"mail": " A@X.io ", "tmp": 1}) == {"email": "a@x.io", "country": "NL"}


def test_dedupe_by_key():
    rows = [{"id": 1, "v": "a"}, {"id": 2, "v": "b"}, {"id": 1, "v": "c"}]
    assert len(dedupe(rows, ["id"])) == 2
    d = Deduplicator(["id"])
    for r in rows:
        d.add(r)
    assert d.duplicates == 1


def test_checkpoint_roundtrip(tmp_path):
    cp = Checkpoint(tmp_path / "cp.json")
    cp.save(State("src.csv", offset=40, batches=2))
    assert cp.load("src.csv").offset == 40
    assert cp.load("other.csv").offset == 0


def test_writer_roundtrip(tmp_path):
    w = BatchWriter(tmp_path, "users", ["id", "email"])
    path = w.write(0, [{"id": 1, "email": "a"}, {"id": 2, "email": "b"}])
    assert read_back(path) == [{"id": 1, "email": "a"}, {"id": 2, "email": "b"}]


def test_runner_end_to_end(tmp_path):
    rows = ["id,email,signup"] + [f"{i},u{i}@x.io," for i in range(25)] + ["bad,z@x.io,"]
    src = write_csv(tmp_path / "u.csv", rows)
    w = BatchWriter(tmp_path / "out", "users", ["id", "email"])
    stats = Runner(src, USERS, w, Checkpoint(tmp_path / "cp.json"), batch_size=10).run()
    assert (stats.read, stats.invalid, stats.written) == (26, 1, 25)
    assert len(w.files) == 3
    assert not (tmp_path / "cp.json").exists()
