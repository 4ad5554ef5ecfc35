"""Readers: turn a source file into an iterator of records (plain dicts).

Every reader yields ``(offset, record)`` pairs; the offset is the 0-based index of the record in
the source and is what the runner checkpoints.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

Record = dict[str, object]


class ReaderError(Exception):
    def __init__(self, path: Path, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line = path, line


def read_csv(path: Path, delimiter: str = ",", start: int = 0) -> Iterator[tuple[int, Record]]:
    """Rows of a CSV file with a header line, as dicts keyed by the header's column names.

    Empty cells become ``None``; everything else stays a string (the schema coerces)."""
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh, delimiter=delimiter)
        for offset, row in enumerate(reader):
            if offset < start:
                continue
            if None in row:
                raise ReaderError(path, reader.line_num, "more cells than header columns")
            yield offset, {k.strip(): (v if v != "" else None) for k, v in row.items()}


def read_jsonl(path: Path, start: int = 0) -> Iterator[tuple[int, Record]]:
    """One JSON object a line; blank lines are skipped but still count as an offset."""
    with open(path, encoding="utf-8") as fh:
        for offset, line in enumerate(fh):
            if offset < start:
                continue
            line = line.strip()
            if not line:
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as e:
                raise ReaderError(path, offset + 1, f"bad JSON: {e.msg}") from None
            if not isinstance(value, dict):
                raise ReaderError(path, offset + 1, "expected an object")
            yield offset, value


def open_source(path: Path, start: int = 0) -> Iterator[tuple[int, Record]]:
    """The reader for a file, picked by its extension."""
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv"):
        return read_csv(path, delimiter="\t" if suffix == ".tsv" else ",", start=start)
    if suffix in (".jsonl", ".ndjson"):
        return read_jsonl(path, start=start)
    raise ValueError(f"no reader for {path.name}")
