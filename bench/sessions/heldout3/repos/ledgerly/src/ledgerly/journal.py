"""Journal entries and the journal that holds them."""

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal


class UnbalancedEntry(ValueError):
    pass


@dataclass
class Posting:
    account: str
    amount: Decimal  # positive = debit, negative = credit
    currency: str = "EUR"
    memo: str = ""


@dataclass
class Entry:
    date: date
    description: str
    postings: list = field(default_factory=list)
    ref: str = ""

    def total(self):
        return sum((p.amount for p in self.postings), Decimal(0))

    def validate(self):
        if self.total() != 0:
            raise UnbalancedEntry(f"{self.description}: off by {self.total()}")


class Journal:
    def __init__(self, chart):
        self.chart = chart
        self.entries = []

    def post(self, entry):
        for p in entry.postings:
            self.chart.get(p.account)
        entry.validate()
        self.entries.append(entry)
        return entry

    def postings_for(self, code, until=None):
        for e in self.entries:
            if until is not None and e.date > until:
                continue
            for p in e.postings:
                if p.account == code:
                    yield e, p

    def balance(self, code, until=None):
        return sum((p.amount for _, p in self.postings_for(code, until)), Decimal(0))
