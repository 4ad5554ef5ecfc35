"""Nightly reconciliation: compare cycle-count results with the ledger.

The counters' handhelds upload a CSV per zone (``sku,location,counted``); the job runs at 02:00,
compares each line with ``StockLedger.on_hand`` and writes a discrepancy report for the
inventory control team.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from .stock import StockLedger


@dataclass(frozen=True)
class Count:
    sku: str
    location: str
    counted: int


@dataclass(frozen=True)
class Discrepancy:
    sku: str
    location: str
    expected: int
    counted: int

    @property
    def delta(self) -> int:
        return self.counted - self.expected


def read_counts(text: str) -> list[Count]:
    rows = csv.DictReader(io.StringIO(text))
    out = []
    for row in rows:
        out.append(Count(row["sku"].strip().upper(), row["location"].strip(), int(row["counted"])))
    return out


def find_discrepancies(ledger: StockLedger, counts: list[Count]) -> list[Discrepancy]:
    out = []
    for c in counts:
        expected = ledger.on_hand(c.sku, c.location)
        if c.counted != expected:
            out.append(Discrepancy(c.sku, c.location, expected, c.counted))
    return out


def reconcile(ledger: StockLedger, csv_text: str) -> list[Discrepancy]:
    counts = read_counts(csv_text)
    return find_discrepancies(ledger, counts)


def report(discrepancies: list[Discrepancy]) -> str:
    lines = ["sku,location,expected,counted,delta"]
    for d in sorted(discrepancies, key=lambda d: (d.sku, d.location)):
        lines.append(f"{d.sku},{d.location},{d.expected},{d.counted},{d.delta}")
    return "\n".join(lines) + "\n"
