"""Time zone lookups with errors that say which rota asked."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


@lru_cache(maxsize=64)
def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {name!r} (use an IANA name like 'Europe/Berlin')") from None


def local(dt: datetime, name: str) -> datetime:
    if dt.tzinfo is None:
        raise ValueError(f"naive datetime {dt.isoformat()} cannot be shown in {name}")
    return dt.astimezone(zone(name))
