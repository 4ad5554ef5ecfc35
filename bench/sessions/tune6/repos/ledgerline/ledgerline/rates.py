"""Exchange rates by day, and conversion of Money with them."""

from __future__ import annotations

import csv
from collections import defaultdict
from datetime import date
from decimal import Decimal
from pathlib import Path

from ledgerline.money import Money


class RateMissing(LookupError):
    pass


class RateTable:
    """Rates as 'one unit of base costs `rate` units of quote', one per day (e.g. ECB reference rates)."""

    def __init__(self) -> None:
        self._rates: dict[tuple[str, str], dict[date, Decimal]] = defaultdict(dict)

    def add(self, base: str, quote: str, on: date, rate: Decimal | str) -> None:
        value = Decimal(str(rate))
        if value <= 0:
            raise ValueError(f"rate must be positive: {rate}")
        self._rates[(base, quote)][on] = value

    def rate(self, base: str, quote: str, on: date) -> Decimal:
        if base == quote:
            return Decimal(1)
        by_day = self._rates.get((base, quote), {})
        if on in by_day:
            return by_day[on]
        raise RateMissing(f"no {base}/{quote} rate on {on.isoformat()}")

    def convert(self, money: Money, to: str, on: date) -> Money:
        return Money(money.amount * self.rate(money.currency, to, on), to).round()

    @classmethod
    def load_csv(cls, path: Path) -> RateTable:
        """A CSV of date,base,quote,rate."""
        table = cls()
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                table.add(row["base"], row["quote"], date.fromisoformat(row["date"]), row["rate"])
        return table
