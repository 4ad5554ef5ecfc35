"""Timezone handling. Meters report in local time without an offset; we store UTC."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo


def localize(naive: datetime, tz: str, fold: int = 0) -> datetime:
    """Attach ``tz`` to a naive local timestamp. ``fold=1`` picks the second of an ambiguous hour."""
    if naive.tzinfo is not None:
        raise ValueError(f"{naive!r} is already aware")
    return naive.replace(tzinfo=ZoneInfo(tz), fold=fold)


def to_utc(ts: datetime) -> datetime:
    if ts.tzinfo is None:
        raise ValueError(f"{ts!r} is naive; localize it first")
    return ts.astimezone(timezone.utc)


def day_bounds(day: date, tz: ZoneInfo) -> tuple[datetime, datetime]:
    """Local midnight to the next local midnight, as aware datetimes in ``tz``."""
    start = datetime.combine(day, time(0), tzinfo=tz)
    end = datetime.combine(day + timedelta(days=1), time(0), tzinfo=tz)
    return start, end


def hours_in_day(day: date, tz: str) -> float:
    """23, 24 or 25 depending on DST transitions."""
    start, end = day_bounds(day, ZoneInfo(tz))
    return (end - start) / timedelta(hours=1)


def parse_offset(text: str) -> timezone:
    """'+01:00' / '-0530' / 'Z' -> a fixed-offset timezone."""
    if text in ("Z", "z"):
        return timezone.utc
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    return timezone(sign * timedelta(hours=hours, minutes=minutes))
