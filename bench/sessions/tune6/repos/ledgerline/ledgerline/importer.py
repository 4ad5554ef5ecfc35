"""Import bank statement CSVs as journal entries against a bank account.

Each row becomes one entry: the bank account on one side, the row's account (or the suspense
account when the row names none) on the other.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from ledgerline.accounts import Chart
from ledgerline.journal import Entry, Posting
from ledgerline.money import Money, parse_amount

REQUIRED = ("date", "description", "amount")
SUSPENSE = "1999"


@dataclass
class ImportResult:
    entries: list[Entry] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)


def read_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        rows = [{k.strip().lower(): (v or "").strip() for k, v in row.items()} for row in reader]
    return rows


def parse_date(text: str) -> date:
    for fmt in ("%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise ValueError(f"not a date: {text!r}")


def card_rows(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    out = []
    for row in rows:
        amount = row["amount"]
        amount = amount[1:] if amount.startswith("-") else "-" + amount
        out.append({**row, "amount": amount})
    return out


def row_to_entry(row: dict[str, str], chart: Chart, bank: str, currency: str) -> Entry:
    for key in REQUIRED:
        if not row.get(key):
            raise ValueError(f"missing {key}")
    amount = Money(parse_amount(row["amount"]), currency).round()
    other = row.get("account") or SUSPENSE
    chart.get(other)
    return Entry(parse_date(row["date"]), row["description"],
                 [Posting(bank, amount), Posting(other, -amount)], ref=row.get("ref") or None)


def import_csv(path: Path, chart: Chart, bank: str, currency: str = "EUR", card: bool = False) -> ImportResult:
    rows = read_rows(path)
    if card:
        rows = card_rows(rows)
    result = ImportResult()
    for n, row in enumerate(rows, start=2):
        try:
            result.entries.append(row_to_entry(row, chart, bank, currency))
        except (ValueError, KeyError) as exc:
            result.skipped.append((n, str(exc)))
    return result
