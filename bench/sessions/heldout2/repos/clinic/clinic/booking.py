from __future__ import annotations

import uuid
from datetime import datetime, timezone

from .calendar import PractitionerCalendar
from .models import Appointment


class BookingError(Exception):
    pass


def overlaps(a: tuple[datetime, datetime], b: tuple[datetime, datetime]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


class BookingService:
    def __init__(self, calendar: PractitionerCalendar) -> None:
        self.calendar = calendar

    def book(self, practitioner_id: str, patient_id: str, start: datetime, end: datetime, reason: str = "") -> Appointment:
        if end <= start:
            raise BookingError("an appointment must end after it starts")
        for other in self.calendar.active(practitioner_id):
            if overlaps((start, end), (other.start, other.end)):
                raise BookingError(f"slot taken by appointment {other.id}")
        appt = Appointment(id=uuid.uuid4().hex[:12], practitioner_id=practitioner_id, patient_id=patient_id,
                           start=start, end=end, reason=reason)
        self.calendar.add(appt)
        return appt

    def cancel(self, appt_id: str, now: datetime | None = None) -> Appointment:
        now = now or datetime.now(timezone.utc)
        for appt in self.calendar.all():
            if appt.id == appt_id:
                if appt.status != "booked":
                    raise BookingError(f"appointment {appt_id} is {appt.status}")
                appt.status = "cancelled"
                return appt
        raise BookingError(f"no appointment {appt_id}")
