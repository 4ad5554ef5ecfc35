"""Writers: batches of records to "parquet-like" files — JSON documents with a schema header and
row groups, one file per batch, optionally partitioned into folders by a field's value."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

from .readers import Record

ROW_GROUP = 5000


def _encode_value(value: object) -> object:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        return str(value)
    return value


class BatchWriter:
    def __init__(self, out_dir: Path, schema_name: str, columns: list[str]):
        self.out_dir = Path(out_dir)
        self.schema_name = schema_name
        self.columns = columns
        self.files: list[Path] = []

    def _document(self, records: list[Record]) -> dict:
        groups = [records[i:i + ROW_GROUP] for i in range(0, len(records), ROW_GROUP)]
        return {
            "schema": {"name": self.schema_name, "columns": self.columns},
            "num_rows": len(records),
            "row_groups": [
                {"num_rows": len(g), "columns": {c: [_encode_value(r.get(c)) for r in g] for c in self.columns}}
                for g in groups
            ],
        }

    def target(self, batch_no: int, records: list[Record]) -> Path:
        return self.out_dir / f"part-{batch_no:05d}.pq.json"

    def write(self, batch_no: int, records: list[Record]) -> Path:
        path = self.target(batch_no, records)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self._document(records)), encoding="utf-8")
        self.files.append(path)
        return path


def read_back(path: Path) -> list[Record]:
    """The records of a written file (tests and the `etlpipe cat` command)."""
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    cols = doc["schema"]["columns"]
    out: list[Record] = []
    for g in doc["row_groups"]:
        for i in range(g["num_rows"]):
            out.append({c: g["columns"][c][i] for c in cols})
    return out
