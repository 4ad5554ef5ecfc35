"""Retrying failed renewals before a subscription is cancelled."""

from datetime import datetime, timedelta

MAX_ATTEMPTS = 4


def next_retry(attempt: int, failed_at: datetime) -> datetime | None:
    """When to retry after the ``attempt``-th failed charge (1-based); None: give up."""
    if attempt >= MAX_ATTEMPTS:
        return None
    return failed_at + timedelta(days=1)


def should_cancel(attempts: int) -> bool:
    return attempts >= MAX_ATTEMPTS
