"""Weeks, public holidays and the sites' time zones."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

SITE_ZONES = {
    "riverside": ZoneInfo("Europe/Berlin"),
    "hillcrest": ZoneInfo("Europe/Berlin"),
    "harbour": ZoneInfo("Europe/Lisbon"),
}

# Public holidays the sites close their day clinic on (care wards stay staffed).
HOLIDAYS = {
    date(2025, 1, 1), date(2025, 4, 18), date(2025, 4, 21), date(2025, 5, 1),
    date(2025, 12, 25), date(2025, 12, 26),
}


def zone_of(site: str) -> ZoneInfo:
    try:
        return SITE_ZONES[site]
    except KeyError:
        raise ValueError(f"unknown site {site!r}; known: {', '.join(sorted(SITE_ZONES))}") from None


def week_start(d: date) -> date:
    """The Monday of the ISO week ``d`` is in."""
    return d - timedelta(days=d.weekday())


def week_of(moment: datetime) -> date:
    return week_start(moment.date())


def is_holiday(d: date) -> bool:
    return d in HOLIDAYS


def days(first: date, last: date):
    d = first
    while d <= last:
        yield d
        d += timedelta(days=1)
