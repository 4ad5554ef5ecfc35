"""What a customer owes, or gets back, when they change plan in the middle of a period."""

from datetime import datetime

from .plans import Plan


def unused_fraction(period_start: datetime, period_end: datetime, changed_at: datetime) -> float:
    total = (period_end - period_start).days
    left = (period_end - changed_at).days
    return max(0, left) / total


def prorate(old: Plan, new: Plan, period_start: datetime, period_end: datetime, changed_at: datetime) -> int:
    """Minor units to charge now (negative: a credit) for switching from ``old`` to ``new``."""
    if old.currency != new.currency:
        raise ValueError("plans in different currencies")
    frac = unused_fraction(period_start, period_end, changed_at)
    return round((new.price_minor - old.price_minor) * frac)
