import csv
import json
from collections.abc import Iterator
from pathlib import Path


def sniff_format(path: Path) -> str:
    if path.suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    if path.suffix in (".csv", ".txt"):
        return "csv"
    raise ValueError(f"{path}: unknown file type {path.suffix!r}")


def read_csv(path: Path, delimiter: str = ",") -> Iterator[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        yield from csv.DictReader(f, delimiter=delimiter)


def read_jsonl(path: Path) -> Iterator[dict]:
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path}:{n}: {e.msg}") from None


def read_any(path: Path, delimiter: str = ",") -> Iterator[dict]:
    if sniff_format(path) == "jsonl":
        return read_jsonl(path)
    return read_csv(path, delimiter)
