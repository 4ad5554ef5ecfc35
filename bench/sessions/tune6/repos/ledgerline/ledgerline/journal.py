"""Journal entries and the journal they are posted to."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from ledgerline.accounts import Chart
from ledgerline.money import Money


class PostingError(ValueError):
    pass


@dataclass(frozen=True)
class Posting:
    """One line of an entry: a positive amount debits the account, a negative one credits it."""

    account: str
    amount: Money


@dataclass
class Entry:
    date: date
    memo: str
    postings: list[Posting] = field(default_factory=list)
    ref: str | None = None

    def totals(self) -> dict[str, Decimal]:
        out: dict[str, Decimal] = defaultdict(Decimal)
        for p in self.postings:
            out[p.amount.currency] += p.amount.amount
        return dict(out)

    def is_balanced(self) -> bool:
        return all(v == 0 for v in self.totals().values())


class Journal:
    def __init__(self, chart: Chart) -> None:
        self.chart = chart
        self.entries: list[Entry] = []

    def post(self, entry: Entry) -> Entry:
        if len(entry.postings) < 2:
            raise PostingError("an entry needs at least two postings")
        for p in entry.postings:
            account = self.chart.get(p.account)
            if p.amount.currency != account.currency:
                raise PostingError(f"{p.account} is kept in {account.currency}, not {p.amount.currency}")
        self.entries.append(entry)
        return entry

    def between(self, start: date | None = None, end: date | None = None) -> list[Entry]:
        return [e for e in self.entries
                if (start is None or e.date >= start) and (end is None or e.date <= end)]

    def balance(self, code: str, until: date | None = None) -> Money:
        account = self.chart.get(code)
        total = Money.zero(account.currency)
        for e in self.between(end=until):
            for p in e.postings:
                if p.account == code:
                    total = total + p.amount
        return total

    def reverse(self, entry: Entry, on: date) -> Entry:
        back = Entry(on, f"Reversal: {entry.memo}", [Posting(p.account, -p.amount) for p in entry.postings],
                     ref=entry.ref)
        return self.post(back)
