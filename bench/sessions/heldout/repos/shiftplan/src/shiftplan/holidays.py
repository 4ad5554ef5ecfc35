"""Public holidays, read from a two-column CSV: date,name."""

from __future__ import annotations

import csv
from datetime import date, datetime
from pathlib import Path


def load_holidays(path: Path) -> dict[date, str]:
    out: dict[date, str] = {}
    with path.open(newline="", encoding="utf-8") as f:
        for n, row in enumerate(csv.reader(f), start=1):
            if not row or row[0].startswith("#"):
                continue
            try:
                out[date.fromisoformat(row[0].strip())] = row[1].strip() if len(row) > 1 else ""
            except ValueError:
                raise ValueError(f"{path}:{n}: not a date: {row[0]!r}") from None
    return out


def is_holiday(when: datetime, holidays: dict[date, str]) -> bool:
    return when.date() in holidays
