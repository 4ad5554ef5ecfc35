"""Accounting periods (months) and closing them."""

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Period:
    year: int
    month: int

    @classmethod
    def of(cls, d):
        return cls(d.year, d.month)

    def first_day(self):
        return date(self.year, self.month, 1)

    def __str__(self):
        return f"{self.year}-{self.month:02d}"


class PeriodBook:
    def __init__(self):
        self.closed = set()

    def is_closed(self, d):
        return Period.of(d) in self.closed

    def close(self, period):
        self.closed.add(period)
