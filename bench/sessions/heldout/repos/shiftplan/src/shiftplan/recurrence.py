"""Expanding recurring shift patterns into concrete slots."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


@dataclass(frozen=True)
class Pattern:
    """Every `weekday` from `start` at `at` for `hours` hours, up to `until` (a date, inclusive)."""

    weekday: str
    at: time
    hours: float
    start: date
    until: date | None = None
    tz: str = "UTC"


@dataclass(frozen=True)
class Slot:
    begins: datetime
    ends: datetime

    @property
    def hours(self) -> float:
        return (self.ends - self.begins).total_seconds() / 3600


def parse_weekday(text: str) -> int:
    key = text.strip().lower()[:3]
    if key not in WEEKDAYS:
        raise ValueError(f"not a weekday: {text!r}")
    return WEEKDAYS.index(key)


def first_on_or_after(day: date, weekday: int) -> date:
    return day + timedelta(days=(weekday - day.weekday()) % 7)


def expand_weekly(p: Pattern, horizon: date) -> list[Slot]:
    """The slots of `p` that begin on or before `horizon`."""
    last = min(horizon, p.until) if p.until else horizon
    day = first_on_or_after(p.start, parse_weekday(p.weekday))
    begins = datetime.combine(day, p.at, tzinfo=timezone.utc)
    out = []
    while begins.date() <= last:
        out.append(Slot(begins, begins + timedelta(hours=p.hours)))
        begins += timedelta(days=7)
    return out
