from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from .models import Appointment


class PractitionerCalendar:
    """Every practitioner's appointments, kept sorted by start."""

    def __init__(self) -> None:
        self._by_practitioner: dict[str, list[Appointment]] = defaultdict(list)

    def add(self, appt: Appointment) -> None:
        items = self._by_practitioner[appt.practitioner_id]
        items.append(appt)
        items.sort(key=lambda a: a.start)

    def remove(self, appt_id: str) -> Appointment | None:
        for items in self._by_practitioner.values():
            for a in items:
                if a.id == appt_id:
                    items.remove(a)
                    return a
        return None

    def active(self, practitioner_id: str) -> list[Appointment]:
        return [a for a in self._by_practitioner[practitioner_id] if a.status == "booked"]

    def between(self, practitioner_id: str, start: datetime, end: datetime) -> list[Appointment]:
        return [a for a in self.active(practitioner_id) if a.start < end and start < a.end]

    def all(self) -> list[Appointment]:
        return [a for items in self._by_practitioner.values() for a in items]
