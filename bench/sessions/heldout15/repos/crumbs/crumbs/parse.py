"""Reading one TillPoint export: a CSV, one row per receipt line."""

from __future__ import annotations

import csv
from pathlib import Path

REQUIRED = ("store_id", "receipt_no", "line_no", "sold_at", "sku", "qty", "amount", "type")


class ExportError(ValueError):
    """An export that cannot be read; the message names the file and line."""


def read_export(path: Path) -> list[dict[str, str]]:
    """The rows of the export at ``path``, each with its source line as ``_line``."""
    rows: list[dict[str, str]] = []
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f, delimiter=";")
        missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
        if missing:
            raise ExportError(f"{path}:1: missing columns: {', '.join(missing)}")
        for row in reader:
            if not any((v or "").strip() for v in row.values()):
                continue  # the tills end every file with an empty line
            row = {k: (v or "").strip() for k, v in row.items() if k}
            row["_line"] = str(reader.line_num)
            rows.append(row)
    return rows


def export_files(folder: Path) -> list[Path]:
    """The exports in ``folder``, oldest first (TillPoint names them STORE_YYYYMMDD.csv)."""
    files = [p for p in folder.glob("*.csv") if not p.name.startswith(".")]
    return sorted(files, key=lambda p: (p.stem.rsplit("_", 1)[-1], p.name))
