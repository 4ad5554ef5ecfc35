from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, time


@dataclass
class Practitioner:
    id: str
    name: str
    email: str
    slot_minutes: int = 15
    # weekday (0 = Monday) -> list of (start, end) opening hours
    hours: dict[int, list[tuple[time, time]]] = field(default_factory=dict)


@dataclass
class Patient:
    id: str
    name: str
    email: str | None
    phone: str | None = None
    date_of_birth: str | None = None
    last_visit: datetime | None = None


@dataclass
class Appointment:
    id: str
    practitioner_id: str
    patient_id: str
    start: datetime
    end: datetime
    status: str = "booked"  # booked | cancelled | attended | no_show
    reason: str = ""
    reminder_sent: bool = False
