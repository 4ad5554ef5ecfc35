from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from .models import Practitioner

CLINIC_TZ = ZoneInfo("Europe/Brussels")


def generate_slots(practitioner: Practitioner, day: date, tz: ZoneInfo = CLINIC_TZ) -> list[tuple[datetime, datetime]]:
    """The practitioner's bookable slots on ``day``, as (start, end) in UTC."""
    out = []
    step = timedelta(minutes=practitioner.slot_minutes)
    for opens, closes in practitioner.hours.get(day.weekday(), []):
        start = datetime.combine(day, opens, tzinfo=tz).astimezone(ZoneInfo("UTC"))
        stop = datetime.combine(day, closes, tzinfo=tz).astimezone(ZoneInfo("UTC"))
        while start + step <= stop:
            out.append((start, start + step))
            start += step
    return out


def free_slots(practitioner: Practitioner, day: date, taken: list[tuple[datetime, datetime]]):
    from .booking import overlaps
    return [s for s in generate_slots(practitioner, day) if not any(overlaps(s, t) for t in taken)]
